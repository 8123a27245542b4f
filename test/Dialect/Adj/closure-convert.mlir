// RUN: ir-opt %s -adj-closure-convert | FileCheck %s
// RUN: ir-opt %s -adj-closure-convert | FileCheck %s --check-prefix=NOLAMBDA
// RUN: ir-opt %s -adj-grad -adj-closure-convert | FileCheck %s --check-prefix=NOLAMBDA
//
// Values are unchanged: the primal program before and after conversion, and
// the gradients (which -adj-grad builds out of many closures) after it.
// RUN: ir-run %s -f main --arg 2 --arg 3 | FileCheck %s --check-prefix=VALUE
// RUN: ir-opt %s -adj-closure-convert | ir-run - -f main --arg 2 --arg 3 | FileCheck %s --check-prefix=VALUE
// RUN: ir-opt %s -adj-grad | ir-run - -f grads --arg 2 --arg 3 | FileCheck %s --check-prefix=GRAD
// RUN: ir-opt %s -adj-grad -adj-closure-convert | ir-run - -f grads --arg 2 --arg 3 | FileCheck %s --check-prefix=GRAD

// NOLAMBDA-NOT: adj.lambda

// Nested three deep: x * y^3 + x. The innermost lambda is lifted first and
// gets index 0; each lifted function takes its free variables in first-use
// order, then its own parameters.
// CHECK-LABEL: adj.func @nested(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[Y:[^:]*]]: tensor<f64>)
// CHECK:         %[[L1:.*]] = adj.closure @nested_lambda_2(%[[X]], %[[Y]]) : (tensor<f64>, tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>
// CHECK:         %[[V:.*]] = adj.call %[[L1]](%[[Y]])
// CHECK:         adj.return %[[V]]
// CHECK-LABEL: adj.func private @nested_lambda_0(
// CHECK-SAME:      %[[P:[^:]*]]: tensor<f64>, %[[X0:[^:]*]]: tensor<f64>, %[[C:[^:]*]]: tensor<f64>) -> tensor<f64>
// CHECK:         %[[R:.*]] = adj.mul %[[C]], %[[P]]
// CHECK:         %[[S:.*]] = adj.add %[[R]], %[[X0]]
// CHECK:         adj.return %[[S]]
// CHECK-LABEL: adj.func private @nested_lambda_1(
// CHECK-SAME:      %[[Y1:[^:]*]]: tensor<f64>, %[[P1:[^:]*]]: tensor<f64>, %[[X1:[^:]*]]: tensor<f64>, %[[B:[^:]*]]: tensor<f64>) -> tensor<f64>
// CHECK:         %[[Q:.*]] = adj.mul %[[B]], %[[Y1]]
// CHECK:         %[[L3:.*]] = adj.closure @nested_lambda_0(%[[P1]], %[[X1]])
// CHECK:         adj.call %[[L3]](%[[Q]])
// CHECK-LABEL: adj.func private @nested_lambda_2(
// CHECK-SAME:      %[[X2:[^:]*]]: tensor<f64>, %[[Y2:[^:]*]]: tensor<f64>, %[[A:[^:]*]]: tensor<f64>) -> tensor<f64>
// CHECK:         %[[P2:.*]] = adj.mul %[[A]], %[[X2]]
// CHECK:         %[[L2:.*]] = adj.closure @nested_lambda_1(%[[Y2]], %[[P2]], %[[X2]])
// CHECK:         adj.call %[[L2]](%[[A]])
adj.func @nested(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %l1 = adj.lambda (%a: tensor<f64>) -> tensor<f64> {
    %p = adj.mul %a, %x : tensor<f64>, tensor<f64>
    %l2 = adj.lambda (%b: tensor<f64>) -> tensor<f64> {
      %q = adj.mul %b, %y : tensor<f64>, tensor<f64>
      %l3 = adj.lambda (%c: tensor<f64>) -> tensor<f64> {
        %r = adj.mul %c, %p : tensor<f64>, tensor<f64>
        %s = adj.add %r, %x : tensor<f64>, tensor<f64>
        adj.return %s : tensor<f64>
      }
      %t = adj.call %l3(%q) : !adj.fn<(tensor<f64>) -> tensor<f64>>
      adj.return %t : tensor<f64>
    }
    %u = adj.call %l2(%a) : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.return %u : tensor<f64>
  }
  %v = adj.call %l1(%y) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %v : tensor<f64>
}

// Lambdas in both branches of a conditional: x < y ? x * y : y + x. The
// branches still read %x and %y from the function (control flow, not
// closures); the lifted functions take them as parameters.
// CHECK-LABEL: adj.func @cond(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[Y:[^:]*]]: tensor<f64>)
// CHECK:         adj.if
// CHECK:           %[[T:.*]] = adj.closure @cond_lambda_0(%[[Y]])
// CHECK:           adj.call %[[T]](%[[X]])
// CHECK:         } else {
// CHECK:           %[[E:.*]] = adj.closure @cond_lambda_1(%[[X]])
// CHECK:           adj.call %[[E]](%[[Y]])
// CHECK-LABEL: adj.func private @cond_lambda_0(
// CHECK:         adj.mul
// CHECK-LABEL: adj.func private @cond_lambda_1(
// CHECK:         adj.add
adj.func @cond(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %c = adj.cmp lt, %x, %y : tensor<f64>, tensor<f64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %l = adj.lambda (%a: tensor<f64>) -> tensor<f64> {
      %m = adj.mul %a, %y : tensor<f64>, tensor<f64>
      adj.return %m : tensor<f64>
    }
    %v = adj.call %l(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.yield %v : tensor<f64>
  } else {
    %l = adj.lambda (%a: tensor<f64>) -> tensor<f64> {
      %m = adj.add %a, %x : tensor<f64>, tensor<f64>
      adj.return %m : tensor<f64>
    }
    %v = adj.call %l(%y) : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.yield %v : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

// A lambda in a loop body captures the induction variable, a carried value
// and a value of the function: acc <- acc * x + i, three times from x.
// CHECK-LABEL: adj.func @loop(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>)
// CHECK:         adj.for
// CHECK:         ^bb0(%[[I:.*]]: tensor<i64>, %[[ACC:.*]]: tensor<f64>):
// CHECK:           %[[L:.*]] = adj.closure @loop_lambda_0(%[[X]], %[[I]])
// CHECK:           adj.call %[[L]](%[[ACC]])
// CHECK-LABEL: adj.func private @loop_lambda_0(
// CHECK-SAME:      %{{[^:]*}}: tensor<f64>, %{{[^:]*}}: tensor<i64>, %{{[^:]*}}: tensor<f64>) -> tensor<f64>
adj.func @loop(%x: tensor<f64>) -> tensor<f64> {
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<3> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<f64>) -> tensor<f64> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f64>):
    %l = adj.lambda (%a: tensor<f64>) -> tensor<f64> {
      %m = adj.mul %a, %x : tensor<f64>, tensor<f64>
      %fi = adj.cast %i : tensor<i64> to tensor<f64>
      %s = adj.add %m, %fi : tensor<f64>, tensor<f64>
      adj.return %s : tensor<f64>
    }
    %v = adj.call %l(%acc) : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.yield %v : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

// Recursion through a closure: b^n. The function reference is rebuilt in
// the lifted function instead of being captured.
// CHECK-LABEL: adj.func @rpow(
// CHECK-SAME:      %[[B:[^:]*]]: tensor<f64>, %{{[^:]*}}: tensor<i64>)
// CHECK:         %[[L:.*]] = adj.closure @rpow_lambda_0(%[[B]]) : (tensor<f64>) -> !adj.fn<(tensor<i64>) -> tensor<f64>>
// CHECK-LABEL: adj.func private @rpow_lambda_0(
// CHECK-SAME:      %[[B0:[^:]*]]: tensor<f64>, %[[M:[^:]*]]: tensor<i64>) -> tensor<f64>
// CHECK:         %[[PW:.*]] = adj.func_ref @rpow
// CHECK:         %[[S:.*]] = adj.call %[[PW]](%[[B0]], %[[M]])
// CHECK:         adj.mul %[[S]], %[[B0]]
adj.func @rpow(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %pw = adj.func_ref @rpow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %o = adj.constant dense<1.0> : tensor<f64>
    adj.yield %o : tensor<f64>
  } else {
    %l = adj.lambda (%m: tensor<i64>) -> tensor<f64> {
      %s = adj.call %pw(%b, %m) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
      %t = adj.mul %s, %b : tensor<f64>, tensor<f64>
      adj.return %t : tensor<f64>
    }
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %v = adj.call %l(%m) : !adj.fn<(tensor<i64>) -> tensor<f64>>
    adj.yield %v : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

// A closure that is returned and called by the caller.
// CHECK-LABEL: adj.func @adder(
// CHECK:         adj.closure @adder_lambda_0(
// CHECK-NOT:     adj.lambda
adj.func @adder(%x: tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>> {
  %f = adj.lambda (%y: tensor<f64>) -> tensor<f64> {
    %s = adj.add %x, %y : tensor<f64>, tensor<f64>
    adj.return %s : tensor<f64>
  }
  adj.return %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
}

// VALUE: tensor<f64> 56
// VALUE-NEXT: tensor<f64> 6
// VALUE-NEXT: tensor<f64> 20
// VALUE-NEXT: tensor<f64> 16
// VALUE-NEXT: tensor<f64> 5
adj.func @main(%x: tensor<f64>, %y: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %fn = adj.func_ref @nested : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %a = adj.call %fn(%x, %y) : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %fc = adj.func_ref @cond : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %b = adj.call %fc(%x, %y) : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %fl = adj.func_ref @loop : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %c = adj.call %fl(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %four = adj.constant dense<4> : tensor<i64>
  %fp = adj.func_ref @rpow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %d = adj.call %fp(%x, %four) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %fa = adj.func_ref @adder : !adj.fn<(tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>>
  %add = adj.call %fa(%x) : !adj.fn<(tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>>
  %e = adj.call %add(%y) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %a, %b, %c, %d, %e : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

// At x = 2, y = 3: d(x y^3 + x) = (y^3 + 1, 3 x y^2) = (28, 54);
// d(x y) = (y, x) = (3, 2); the loop's derivative is 33 (acc' <- acc' x +
// acc); d(b^4)/db = 4 b^3 = 32.
// GRAD: tensor<f64> 28
// GRAD-NEXT: tensor<f64> 54
// GRAD-NEXT: tensor<f64> 3
// GRAD-NEXT: tensor<f64> 2
// GRAD-NEXT: tensor<f64> 33
// GRAD-NEXT: tensor<f64> 32
adj.func @grads(%x: tensor<f64>, %y: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %fn = adj.func_ref @nested : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %gn = adj.grad %fn : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %a:2 = adj.call %gn(%x, %y) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %fc = adj.func_ref @cond : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %gc = adj.grad %fc : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %b:2 = adj.call %gc(%x, %y) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %fl = adj.func_ref @loop : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %gl = adj.grad %fl : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %c = adj.call %gl(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %four = adj.constant dense<4> : tensor<i64>
  %fp = adj.func_ref @rpow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %gp = adj.grad %fp wrt = [0] : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %d = adj.call %gp(%x, %four) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  adj.return %a#0, %a#1, %b#0, %b#1, %c, %d : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

// A lambda in a func.func (where the inliner may put adj code of a driver)
// is lifted too, named after that function.
// CHECK-LABEL: func.func @driver(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>)
// CHECK:         %[[L:.*]] = adj.closure @driver_lambda_0(%[[X]])
// CHECK:         adj.call %[[L]](%[[X]])
// CHECK-LABEL: adj.func private @driver_lambda_0(
func.func @driver(%x: tensor<f64>) -> tensor<f64> {
  %l = adj.lambda (%a: tensor<f64>) -> tensor<f64> {
    %p = adj.mul %a, %x : tensor<f64>, tensor<f64>
    adj.return %p : tensor<f64>
  }
  %v = adj.call %l(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  return %v : tensor<f64>
}
