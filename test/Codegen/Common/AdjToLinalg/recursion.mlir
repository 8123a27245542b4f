// Direct and mutual recursion become func.call by symbol; one-shot
// bufferization with function boundaries gives the recursive functions
// memref signatures, and the compiled code gives the interpreter's numbers.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s
// RUN: ir-opt %s -adj-tensor -adj-bufferize | FileCheck %s --check-prefix=BUFFER
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC
// RUN: ir-run %s -f fact --arg 20 | FileCheck %s --check-prefix=FACT
// RUN: ir-run %s -f ping --arg 1 --arg 7 | FileCheck %s --check-prefix=PING
// RUN: ir-run %s -f fib --arg 50 | FileCheck %s --check-prefix=FIB
// RUN: ir-run %s -f sum_to --arg 1000 | FileCheck %s --check-prefix=SUM
// RUN: ir-run %s -f scale --arg "[1, -2, 0.25]" --arg 5 | FileCheck %s --check-prefix=SCALE

// CHECK-LABEL: func.func @fact(
// CHECK:         scf.if
// CHECK:         } else {
// CHECK:           func.call @fact(%{{.*}}) : (tensor<i64>) -> tensor<i64>
// BUFFER-LABEL: func.func @fact(
// BUFFER-SAME:      memref<i64>) -> memref<i64>
// BUFFER:         call @fact(%{{.*}}) : (memref<i64>) -> memref<i64>
// FACT: tensor<i64> 2432902008176640000
adj.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp le, %n, %one : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<i64>) {
    adj.yield %one : tensor<i64>
  } else {
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %r1 = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %p = adj.mul %n, %r1 : tensor<i64>, tensor<i64>
    adj.yield %p : tensor<i64>
  }
  adj.return %r : tensor<i64>
}

// Mutual recursion: ping doubles, pong adds one, alternately.
// CHECK-LABEL: func.func @ping(
// CHECK:           func.call @pong(
// CHECK-LABEL: func.func private @pong(
// CHECK:           func.call @ping(
// 1 -> 2 -> 3 -> 6 -> 7 -> 14 -> 15 -> 30.
// PING: tensor<f64> 30
adj.func @ping(%x: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    adj.yield %x : tensor<f64>
  } else {
    %y = adj.add %x, %x : tensor<f64>, tensor<f64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @pong : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %r1 = adj.call %f(%y, %m) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    adj.yield %r1 : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

adj.func private @pong(%x: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %onef = adj.constant dense<1.0> : tensor<f64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    adj.yield %x : tensor<f64>
  } else {
    %y = adj.add %x, %onef : tensor<f64>, tensor<f64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @ping : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %r1 = adj.call %f(%y, %m) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    adj.yield %r1 : tensor<f64>
  }
  adj.return %r : tensor<f64>
}

// Recursion through a tuple result: (fib(n), fib(n + 1)).
// CHECK-LABEL: func.func private @fib_pair(
// CHECK-SAME:      tensor<i64>) -> (tensor<i64>, tensor<i64>)
// CHECK:           func.call @fib_pair(%{{.*}}) : (tensor<i64>) -> (tensor<i64>, tensor<i64>)
// FIB: tensor<i64> 12586269025
adj.func private @fib_pair(%n: tensor<i64>) -> !adj.tuple<tensor<i64>, tensor<i64>> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (!adj.tuple<tensor<i64>, tensor<i64>>) {
    %t = adj.tuple %zero, %one : tensor<i64>, tensor<i64>
    adj.yield %t : !adj.tuple<tensor<i64>, tensor<i64>>
  } else {
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @fib_pair : !adj.fn<(tensor<i64>) -> !adj.tuple<tensor<i64>, tensor<i64>>>
    %p = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> !adj.tuple<tensor<i64>, tensor<i64>>>
    %a = adj.get %p[0] : !adj.tuple<tensor<i64>, tensor<i64>>
    %b = adj.get %p[1] : !adj.tuple<tensor<i64>, tensor<i64>>
    %s = adj.add %a, %b : tensor<i64>, tensor<i64>
    %t = adj.tuple %b, %s : tensor<i64>, tensor<i64>
    adj.yield %t : !adj.tuple<tensor<i64>, tensor<i64>>
  }
  adj.return %r : !adj.tuple<tensor<i64>, tensor<i64>>
}

adj.func @fib(%n: tensor<i64>) -> tensor<i64> {
  %f = adj.func_ref @fib_pair : !adj.fn<(tensor<i64>) -> !adj.tuple<tensor<i64>, tensor<i64>>>
  %p = adj.call %f(%n) : !adj.fn<(tensor<i64>) -> !adj.tuple<tensor<i64>, tensor<i64>>>
  %a = adj.get %p[0] : !adj.tuple<tensor<i64>, tensor<i64>>
  adj.return %a : tensor<i64>
}

// A thousand levels deep.
// SUM: tensor<i64> 500500
adj.func @sum_to(%n: tensor<i64>) -> tensor<i64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<i64>) {
    adj.yield %zero : tensor<i64>
  } else {
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @sum_to : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %r1 = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %s = adj.add %n, %r1 : tensor<i64>, tensor<i64>
    adj.yield %s : tensor<i64>
  }
  adj.return %r : tensor<i64>
}

// Tensors with several elements through the recursion: v * 2^n, summed.
// (1 - 2 + 0.25) * 32 = -24.
// SCALE: tensor<f64> -24
adj.func @scale(%v: tensor<3xf64>, %n: tensor<i64>) -> tensor<f64> {
  %f = adj.func_ref @scale_rec : !adj.fn<(tensor<3xf64>, tensor<i64>) -> tensor<3xf64>>
  %w = adj.call %f(%v, %n) : !adj.fn<(tensor<3xf64>, tensor<i64>) -> tensor<3xf64>>
  %s = adj.reduce_sum %w axes = [0] : tensor<3xf64>
  adj.return %s : tensor<f64>
}

adj.func private @scale_rec(%v: tensor<3xf64>, %n: tensor<i64>) -> tensor<3xf64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<3xf64>) {
    adj.yield %v : tensor<3xf64>
  } else {
    %d = adj.add %v, %v : tensor<3xf64>, tensor<3xf64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @scale_rec : !adj.fn<(tensor<3xf64>, tensor<i64>) -> tensor<3xf64>>
    %r1 = adj.call %f(%d, %m) : !adj.fn<(tensor<3xf64>, tensor<i64>) -> tensor<3xf64>>
    adj.yield %r1 : tensor<3xf64>
  }
  adj.return %r : tensor<3xf64>
}

// EXEC: 2432902008176640000
// EXEC-NEXT: 30
// EXEC-NEXT: 12586269025
// EXEC-NEXT: 500500
// EXEC-NEXT: -24
func.func @main() {
  %n20 = arith.constant dense<20> : tensor<i64>
  %fact = adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
  %a = adj.call %fact(%n20) : !adj.fn<(tensor<i64>) -> tensor<i64>>
  call @printScalarI64(%a) : (tensor<i64>) -> ()

  %one = arith.constant dense<1.0> : tensor<f64>
  %n7 = arith.constant dense<7> : tensor<i64>
  %ping = adj.func_ref @ping : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %b = adj.call %ping(%one, %n7) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  call @printScalarF64(%b) : (tensor<f64>) -> ()

  %n50 = arith.constant dense<50> : tensor<i64>
  %fib = adj.func_ref @fib : !adj.fn<(tensor<i64>) -> tensor<i64>>
  %c = adj.call %fib(%n50) : !adj.fn<(tensor<i64>) -> tensor<i64>>
  call @printScalarI64(%c) : (tensor<i64>) -> ()

  %n1000 = arith.constant dense<1000> : tensor<i64>
  %sum = adj.func_ref @sum_to : !adj.fn<(tensor<i64>) -> tensor<i64>>
  %d = adj.call %sum(%n1000) : !adj.fn<(tensor<i64>) -> tensor<i64>>
  call @printScalarI64(%d) : (tensor<i64>) -> ()

  %v = arith.constant dense<[1.0, -2.0, 0.25]> : tensor<3xf64>
  %n5 = arith.constant dense<5> : tensor<i64>
  %scale = adj.func_ref @scale : !adj.fn<(tensor<3xf64>, tensor<i64>) -> tensor<f64>>
  %e = adj.call %scale(%v, %n5) : !adj.fn<(tensor<3xf64>, tensor<i64>) -> tensor<f64>>
  call @printScalarF64(%e) : (tensor<f64>) -> ()
  return
}

func.func @printScalarF64(%t: tensor<f64>) {
  %v = tensor.extract %t[] : tensor<f64>
  call @printF64(%v) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @printScalarI64(%t: tensor<i64>) {
  %v = tensor.extract %t[] : tensor<i64>
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// From libmlir_c_runner_utils.
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printNewline()
