// RUN: ir-opt %s -split-input-file -adj-inline | FileCheck %s

// A call of a top-level function and a call of a closure are replaced by
// copies of their bodies; the closure's free variable is used directly.
// CHECK-LABEL: adj.func @known
// CHECK-NOT:     adj.call
// CHECK:         %[[SQ:.*]] = adj.mul %arg0, %arg0
// CHECK:         %[[P:.*]] = adj.mul %[[SQ]], %arg1
// CHECK:         adj.return %[[P]]
adj.func private @sq(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func @known(%x: tensor<f32>, %w: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @sq : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %s = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %g = adj.lambda (%z: tensor<f32>) -> tensor<f32> {
    %p = adj.mul %z, %w : tensor<f32>, tensor<f32>
    adj.return %p : tensor<f32>
  }
  %r = adj.call %g(%s) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %r : tensor<f32>
}

// -----

// A closure chosen by a conditional: the call moves into a conditional at
// the call site, and the value the then-closure captured from its branch
// leaves the first conditional as an extra result (zeros from the other).
// CHECK-LABEL: adj.func @chosen
// CHECK:         %[[IF:.*]]:3 = adj.if %arg0 : tensor<i1> -> (tensor<f32>, !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) {
// CHECK:           %[[E:.*]] = adj.exp %arg1
// CHECK:           adj.yield %[[E]], %{{.*}}, %[[E]]
// CHECK:         } else {
// CHECK:           %[[Z:.*]] = adj.fill 0.000000e+00 : tensor<f32>
// CHECK:           adj.yield %arg1, %{{.*}}, %[[Z]]
// CHECK:         %[[SUNK:.*]] = adj.if %arg0 : tensor<i1> -> (tensor<f32>) {
// CHECK:           %[[T:.*]] = adj.mul %arg1, %[[IF]]#2
// CHECK:           adj.yield %[[T]]
// CHECK:         } else {
// CHECK:           %[[F:.*]] = adj.neg %arg1
// CHECK:           adj.yield %[[F]]
// CHECK:         adj.return %[[SUNK]]
adj.func @chosen(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %r:2 = adj.if %c : tensor<i1> -> (tensor<f32>, !adj.fn<(tensor<f32>) -> tensor<f32>>) {
    %e = adj.exp %x : tensor<f32>
    %l = adj.lambda (%d: tensor<f32>) -> tensor<f32> {
      %m = adj.mul %d, %e : tensor<f32>, tensor<f32>
      adj.return %m : tensor<f32>
    }
    adj.yield %e, %l : tensor<f32>, !adj.fn<(tensor<f32>) -> tensor<f32>>
  } else {
    %l = adj.lambda (%d: tensor<f32>) -> tensor<f32> {
      %n = adj.neg %d : tensor<f32>
      adj.return %n : tensor<f32>
    }
    adj.yield %x, %l : tensor<f32>, !adj.fn<(tensor<f32>) -> tensor<f32>>
  }
  %y = adj.call %r#1(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}

// -----

// A recursive function is not inlined into itself (nor anywhere: it would
// only unfold one level).
// CHECK-LABEL: adj.func @fact
// CHECK:         adj.call
// CHECK-LABEL: adj.func @use_fact
// CHECK:         adj.call
adj.func @fact(%n: tensor<f32>) -> tensor<f32> {
  %one = adj.constant dense<1.0> : tensor<f32>
  %c = adj.cmp le, %n, %one : tensor<f32>, tensor<f32>
  %r = adj.if %c : tensor<i1> -> (tensor<f32>) {
    adj.yield %one : tensor<f32>
  } else {
    %m = adj.sub %n, %one : tensor<f32>, tensor<f32>
    %f = adj.func_ref @fact : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %s = adj.call %f(%m) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %p = adj.mul %s, %n : tensor<f32>, tensor<f32>
    adj.yield %p : tensor<f32>
  }
  adj.return %r : tensor<f32>
}
adj.func @use_fact(%n: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @fact : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %s = adj.call %f(%n) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %s : tensor<f32>
}
