// Unbounded recursion in compiled code fails the call with the depth limit,
// as the interpreter does, instead of overflowing the stack (SIGSEGV, and
// then a hang in the crash handler). Deep but finite recursion still runs.
// RUN: not ir-run %s -f forever --arg 1 --compile --no-cache 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not ir-run %s -f forever --arg 1 --compile --no-cache --max-depth 50 2>&1 | FileCheck %s --check-prefix=FIFTY
// RUN: not ir-run %s -f forever --arg 1 --compile --no-cache --max-depth 2000000000 2>&1 | FileCheck %s --check-prefix=STACK
// RUN: not ir-run %s -f ping --arg 1 --compile --no-cache --max-depth 7 2>&1 | FileCheck %s --check-prefix=MUTUAL
// RUN: ir-run %s -f count --arg 9000 --compile --no-cache | FileCheck %s --check-prefix=COUNT
// RUN: ir-run %s -f tree --arg 14 --compile --no-cache --no-optimize --max-depth 20 | FileCheck %s --check-prefix=TREE
// RUN: ir-run %s -f tree --arg 14 --max-depth 20 | FileCheck %s --check-prefix=TREE

// DEFAULT: ir-run: error: @forever: resource exhausted: call depth limit of 10000 exceeded in @forever (compiled code)
// FIFTY: ir-run: error: @forever: resource exhausted: call depth limit of 50 exceeded in @forever (compiled code)
// STACK: ir-run: error: @forever: resource exhausted: the stack is exhausted at call depth {{[0-9]+}} in @forever (compiled code; call depth limit 2000000000)
adj.func @forever(%x: tensor<f64>) -> tensor<f64> {
  %g = adj.func_ref @forever : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %z = adj.add %y, %x : tensor<f64>, tensor<f64>
  adj.return %z : tensor<f64>
}

// Mutual recursion through function values.
// MUTUAL: ir-run: error: @ping: resource exhausted: call depth limit of 7 exceeded in @{{ping|pong}} (compiled code)
adj.func @ping(%x: tensor<f64>) -> tensor<f64> {
  %g = adj.func_ref @pong : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @pong(%x: tensor<f64>) -> tensor<f64> {
  %g = adj.func_ref @ping : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}

// 9000 levels fit under the default limit of 10000.
// COUNT: tensor<i64> 9000
adj.func @count(%n: tensor<i64>) -> tensor<i64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %done = adj.cmp le, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %done : tensor<i1> -> (tensor<i64>) {
    adj.yield %zero : tensor<i64>
  } else {
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @count : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %c = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %s = adj.add %c, %one : tensor<i64>, tensor<i64>
    adj.yield %s : tensor<i64>
  }
  adj.return %r : tensor<i64>
}

// 2^16 - 1 calls, never deeper than 16: every return leaves the guard.
// (Without the adj optimizer, which would merge the two equal calls.)
// TREE: tensor<i64> 32767
adj.func @tree(%n: tensor<i64>) -> tensor<i64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %done = adj.cmp lt, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %done : tensor<i1> -> (tensor<i64>) {
    adj.yield %zero : tensor<i64>
  } else {
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @tree : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %a = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %b = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %ab = adj.add %a, %b : tensor<i64>, tensor<i64>
    %s = adj.add %ab, %one : tensor<i64>, tensor<i64>
    adj.yield %s : tensor<i64>
  }
  adj.return %r : tensor<i64>
}
