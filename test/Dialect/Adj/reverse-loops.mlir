// RUN: ir-opt %s -split-input-file -adj-reverse-loops -verify-diagnostics | FileCheck %s

// The gradient of `x = sin(x) * w` run 10 times by a counted adj.while, as
// -adj-grad and closure conversion leave it: the loop carries the chain of
// backpropagator closures (@grad_step captures this trip's sin(x) and x
// and the chain so far; @grad_identity starts it), called once after the
// loop. The pass stacks sin(x) and x in tensor<10xf64>s at the row counter
// and runs @grad_step's code over the rows 9 down to 0, with the sensitivity
// of w accumulated (`acc + d * sin(x)`) and w used directly.

!chain = !adj.fn<(tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>)>

// CHECK-LABEL: adj.func @grad(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[W:[^:]*]]: tensor<f64>)
// CHECK:         %[[STACK0:.*]] = adj.fill 0.000000e+00 : tensor<10xf64>
// CHECK:         %[[STACK1:.*]] = adj.fill 0.000000e+00 : tensor<10xf64>
// CHECK:         %[[FWD:.*]]:5 = adj.while(%{{.*}}, %[[X]], %{{.*}}, %[[STACK0]], %[[STACK1]] : tensor<i64>, tensor<f64>, tensor<i64>, tensor<10xf64>, tensor<10xf64>)
// CHECK:         } do {
// CHECK:         ^bb0(%[[I:.*]]: tensor<i64>, %[[V:.*]]: tensor<f64>, %[[ROW:.*]]: tensor<i64>, %[[S0:.*]]: tensor<10xf64>, %[[S1:.*]]: tensor<10xf64>):
// CHECK:           %[[SIN:.*]] = adj.sin %[[V]]
// CHECK:           %[[NEXT:.*]] = adj.mul %[[SIN]], %[[W]]
// CHECK:           %[[I1:.*]] = adj.add %[[I]],
// CHECK:           %[[ROW1:.*]] = adj.add %[[ROW]],
// CHECK:           %[[W0:.*]] = adj.scatter set %[[S0]][%[[ROW]]], %[[SIN]] axis = 0 : tensor<10xf64>, tensor<i64>, tensor<f64>
// CHECK:           %[[W1:.*]] = adj.scatter set %[[S1]][%[[ROW]]], %[[V]] axis = 0 : tensor<10xf64>, tensor<i64>, tensor<f64>
// CHECK:           adj.yield %[[I1]], %[[NEXT]], %[[ROW1]], %[[W0]], %[[W1]]
// CHECK-NOT:     adj.closure
// CHECK:         %[[START:.*]] = adj.fill 0.000000e+00 : tensor<f64>
// CHECK:         %[[LAST:.*]] = adj.constant dense<9> : tensor<i64>
// CHECK:         %[[BWD:.*]]:3 = adj.for %{{.*}} to %{{.*}} step %{{.*}} : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%{{.*}}, %{{.*}}, %[[START]] : tensor<i64>, tensor<f64>, tensor<f64>)
// CHECK:         ^bb0(%[[K:.*]]: tensor<i64>, %{{.*}}: tensor<i64>, %[[D:.*]]: tensor<f64>, %[[ACC:.*]]: tensor<f64>):
// CHECK:           %[[R:.*]] = adj.sub %[[LAST]], %[[K]]
// CHECK:           %[[SINR:.*]] = adj.gather %[[FWD]]#3[%[[R]]] axis = 0 : tensor<10xf64>, tensor<i64>
// CHECK:           %[[XR:.*]] = adj.gather %[[FWD]]#4[%[[R]]] axis = 0 : tensor<10xf64>, tensor<i64>
// CHECK:           %[[DW:.*]] = adj.mul %[[D]], %[[W]]
// CHECK:           %[[DSIN:.*]] = adj.mul %[[D]], %[[SINR]]
// CHECK:           %[[COS:.*]] = adj.cos %[[XR]]
// CHECK:           %[[DX:.*]] = adj.mul %[[DW]], %[[COS]]
// CHECK:           %[[DI:.*]] = adj.fill 0.000000e+00 : tensor<i64>
// CHECK:           %[[ACC1:.*]] = adj.add %[[ACC]], %[[DSIN]]
// CHECK:           adj.yield %[[DI]], %[[DX]], %[[ACC1]]
// CHECK-NOT:     adj.call
// CHECK:         adj.return %[[BWD]]#1, %[[BWD]]#2
adj.func @grad(%arg0: tensor<f64>, %arg1: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %0 = adj.constant dense<1> : tensor<i64>
  %1 = adj.constant dense<10> : tensor<i64>
  %2 = adj.constant dense<0> : tensor<i64>
  %3 = adj.closure @grad_identity() : () -> !chain
  %4:3 = adj.while(%2, %arg0, %3 : tensor<i64>, tensor<f64>, !chain) -> tensor<i64>, tensor<f64>, !chain cond {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.cmp lt, %arg2, %1 : tensor<i64>, tensor<i64>
    adj.yield %8 : tensor<i1>
  } do {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.sin %arg3 : tensor<f64>
    %9 = adj.mul %8, %arg1 : tensor<f64>, tensor<f64>
    %10 = adj.add %arg2, %0 : tensor<i64>, tensor<i64>
    %11 = adj.closure @grad_step(%arg1, %8, %arg3, %arg4) : (tensor<f64>, tensor<f64>, tensor<f64>, !chain) -> !chain
    adj.yield %10, %9, %11 : tensor<i64>, tensor<f64>, !chain
  }
  %5 = adj.fill 1.000000e+00 : tensor<f64>
  %6 = adj.fill 0.000000e+00 : tensor<i64>
  %7:3 = adj.call %4#2(%6, %5) : !chain
  adj.return %7#1, %7#2 : tensor<f64>, tensor<f64>
}
adj.func private @grad_identity(%arg0: tensor<i64>, %arg1: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.fill 0.000000e+00 : tensor<f64>
  adj.return %arg0, %arg1, %0 : tensor<i64>, tensor<f64>, tensor<f64>
}
adj.func private @grad_step(%arg0: tensor<f64>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: !chain, %arg4: tensor<i64>, %arg5: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.mul %arg5, %arg0 : tensor<f64>, tensor<f64>
  %1 = adj.mul %arg5, %arg1 : tensor<f64>, tensor<f64>
  %2 = adj.cos %arg2 : tensor<f64>
  %3 = adj.mul %0, %2 : tensor<f64>, tensor<f64>
  %4 = adj.fill 0.000000e+00 : tensor<i64>
  %5:3 = adj.call %arg3(%4, %3) : !chain
  %6 = adj.add %5#2, %1 : tensor<f64>, tensor<f64>
  adj.return %5#0, %5#1, %6 : tensor<i64>, tensor<f64>, tensor<f64>
}

// -----

!chain = !adj.fn<(tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>)>

// A trip count known only at run time: the chain stays.
// CHECK-LABEL: adj.func @dynamic(
// CHECK:         adj.while(%{{.*}}, %{{.*}}, %{{.*}} : tensor<i64>, tensor<f64>, !adj.fn
// CHECK:         adj.closure @dynamic_step
// CHECK:         adj.call %{{.*}}#2(
adj.func @dynamic(%arg0: tensor<f64>, %arg1: tensor<f64>, %n: tensor<i64>) -> (tensor<f64>, tensor<f64>) {
  %0 = adj.constant dense<1> : tensor<i64>
  %2 = adj.constant dense<0> : tensor<i64>
  %3 = adj.closure @dynamic_identity() : () -> !chain
  %4:3 = adj.while(%2, %arg0, %3 : tensor<i64>, tensor<f64>, !chain) -> tensor<i64>, tensor<f64>, !chain cond {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.cmp lt, %arg2, %n : tensor<i64>, tensor<i64>
    adj.yield %8 : tensor<i1>
  } do {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.sin %arg3 : tensor<f64>
    %9 = adj.mul %8, %arg1 : tensor<f64>, tensor<f64>
    %10 = adj.add %arg2, %0 : tensor<i64>, tensor<i64>
    %11 = adj.closure @dynamic_step(%arg1, %8, %arg3, %arg4) : (tensor<f64>, tensor<f64>, tensor<f64>, !chain) -> !chain
    adj.yield %10, %9, %11 : tensor<i64>, tensor<f64>, !chain
  }
  %5 = adj.fill 1.000000e+00 : tensor<f64>
  %6 = adj.fill 0.000000e+00 : tensor<i64>
  %7:3 = adj.call %4#2(%6, %5) : !chain
  adj.return %7#1, %7#2 : tensor<f64>, tensor<f64>
}
adj.func private @dynamic_identity(%arg0: tensor<i64>, %arg1: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.fill 0.000000e+00 : tensor<f64>
  adj.return %arg0, %arg1, %0 : tensor<i64>, tensor<f64>, tensor<f64>
}
adj.func private @dynamic_step(%arg0: tensor<f64>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: !chain, %arg4: tensor<i64>, %arg5: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.mul %arg5, %arg0 : tensor<f64>, tensor<f64>
  %1 = adj.mul %arg5, %arg1 : tensor<f64>, tensor<f64>
  %2 = adj.cos %arg2 : tensor<f64>
  %3 = adj.mul %0, %2 : tensor<f64>, tensor<f64>
  %4 = adj.fill 0.000000e+00 : tensor<i64>
  %5:3 = adj.call %arg3(%4, %3) : !chain
  %6 = adj.add %5#2, %1 : tensor<f64>, tensor<f64>
  adj.return %5#0, %5#1, %6 : tensor<i64>, tensor<f64>, tensor<f64>
}

// -----

!chain = !adj.fn<(tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>)>

// A residual that is not a tensor (a function value made in the body)
// cannot be stacked: the chain stays.
// CHECK-LABEL: adj.func @function_residual(
// CHECK:         adj.closure @function_residual_step
// CHECK:         adj.call %{{.*}}#2(
adj.func @function_residual(%arg0: tensor<f64>, %arg1: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %0 = adj.constant dense<1> : tensor<i64>
  %1 = adj.constant dense<10> : tensor<i64>
  %2 = adj.constant dense<0> : tensor<i64>
  %3 = adj.closure @function_residual_identity() : () -> !chain
  %4:3 = adj.while(%2, %arg0, %3 : tensor<i64>, tensor<f64>, !chain) -> tensor<i64>, tensor<f64>, !chain cond {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.cmp lt, %arg2, %1 : tensor<i64>, tensor<i64>
    adj.yield %8 : tensor<i1>
  } do {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.sin %arg3 : tensor<f64>
    %9 = adj.mul %8, %arg1 : tensor<f64>, tensor<f64>
    %10 = adj.add %arg2, %0 : tensor<i64>, tensor<i64>
    %k = adj.closure @function_residual_identity() : () -> !chain
    %11 = adj.closure @function_residual_step(%arg1, %8, %arg3, %arg4, %k) : (tensor<f64>, tensor<f64>, tensor<f64>, !chain, !chain) -> !chain
    adj.yield %10, %9, %11 : tensor<i64>, tensor<f64>, !chain
  }
  %5 = adj.fill 1.000000e+00 : tensor<f64>
  %6 = adj.fill 0.000000e+00 : tensor<i64>
  %7:3 = adj.call %4#2(%6, %5) : !chain
  adj.return %7#1, %7#2 : tensor<f64>, tensor<f64>
}
adj.func private @function_residual_identity(%arg0: tensor<i64>, %arg1: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.fill 0.000000e+00 : tensor<f64>
  adj.return %arg0, %arg1, %0 : tensor<i64>, tensor<f64>, tensor<f64>
}
adj.func private @function_residual_step(%arg0: tensor<f64>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: !chain, %unused: !chain, %arg4: tensor<i64>, %arg5: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.mul %arg5, %arg0 : tensor<f64>, tensor<f64>
  %1 = adj.mul %arg5, %arg1 : tensor<f64>, tensor<f64>
  %2 = adj.cos %arg2 : tensor<f64>
  %3 = adj.mul %0, %2 : tensor<f64>, tensor<f64>
  %4 = adj.fill 0.000000e+00 : tensor<i64>
  %5:3 = adj.call %arg3(%4, %3) : !chain
  %6 = adj.add %5#2, %1 : tensor<f64>, tensor<f64>
  adj.return %5#0, %5#1, %6 : tensor<i64>, tensor<f64>, tensor<f64>
}

// -----

!chain = !adj.fn<(tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>)>

// A chain called twice (the backward pass run for two seeds): the chain
// stays.
// CHECK-LABEL: adj.func @called_twice(
// CHECK:         adj.closure @called_twice_step
// CHECK:         adj.call %{{.*}}#2(
// CHECK:         adj.call %{{.*}}#2(
adj.func @called_twice(%arg0: tensor<f64>, %arg1: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %0 = adj.constant dense<1> : tensor<i64>
  %1 = adj.constant dense<10> : tensor<i64>
  %2 = adj.constant dense<0> : tensor<i64>
  %3 = adj.closure @called_twice_identity() : () -> !chain
  %4:3 = adj.while(%2, %arg0, %3 : tensor<i64>, tensor<f64>, !chain) -> tensor<i64>, tensor<f64>, !chain cond {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.cmp lt, %arg2, %1 : tensor<i64>, tensor<i64>
    adj.yield %8 : tensor<i1>
  } do {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.sin %arg3 : tensor<f64>
    %9 = adj.mul %8, %arg1 : tensor<f64>, tensor<f64>
    %10 = adj.add %arg2, %0 : tensor<i64>, tensor<i64>
    %11 = adj.closure @called_twice_step(%arg1, %8, %arg3, %arg4) : (tensor<f64>, tensor<f64>, tensor<f64>, !chain) -> !chain
    adj.yield %10, %9, %11 : tensor<i64>, tensor<f64>, !chain
  }
  %5 = adj.fill 1.000000e+00 : tensor<f64>
  %6 = adj.fill 0.000000e+00 : tensor<i64>
  %7:3 = adj.call %4#2(%6, %5) : !chain
  %8:3 = adj.call %4#2(%6, %arg0) : !chain
  adj.return %7#1, %8#2 : tensor<f64>, tensor<f64>
}
adj.func private @called_twice_identity(%arg0: tensor<i64>, %arg1: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.fill 0.000000e+00 : tensor<f64>
  adj.return %arg0, %arg1, %0 : tensor<i64>, tensor<f64>, tensor<f64>
}
adj.func private @called_twice_step(%arg0: tensor<f64>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: !chain, %arg4: tensor<i64>, %arg5: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.mul %arg5, %arg0 : tensor<f64>, tensor<f64>
  %1 = adj.mul %arg5, %arg1 : tensor<f64>, tensor<f64>
  %2 = adj.cos %arg2 : tensor<f64>
  %3 = adj.mul %0, %2 : tensor<f64>, tensor<f64>
  %4 = adj.fill 0.000000e+00 : tensor<i64>
  %5:3 = adj.call %arg3(%4, %3) : !chain
  %6 = adj.add %5#2, %1 : tensor<f64>, tensor<f64>
  adj.return %5#0, %5#1, %6 : tensor<i64>, tensor<f64>, tensor<f64>
}

// -----

!chain = !adj.fn<(tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>)>

// A chain that escapes (returned): the chain stays.
// CHECK-LABEL: adj.func @escapes(
// CHECK:         adj.closure @escapes_step
// CHECK:         adj.return %{{.*}}#2 : !adj.fn
adj.func @escapes(%arg0: tensor<f64>, %arg1: tensor<f64>) -> !chain {
  %0 = adj.constant dense<1> : tensor<i64>
  %1 = adj.constant dense<10> : tensor<i64>
  %2 = adj.constant dense<0> : tensor<i64>
  %3 = adj.closure @escapes_identity() : () -> !chain
  %4:3 = adj.while(%2, %arg0, %3 : tensor<i64>, tensor<f64>, !chain) -> tensor<i64>, tensor<f64>, !chain cond {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.cmp lt, %arg2, %1 : tensor<i64>, tensor<i64>
    adj.yield %8 : tensor<i1>
  } do {
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<f64>, %arg4: !chain):
    %8 = adj.sin %arg3 : tensor<f64>
    %9 = adj.mul %8, %arg1 : tensor<f64>, tensor<f64>
    %10 = adj.add %arg2, %0 : tensor<i64>, tensor<i64>
    %11 = adj.closure @escapes_step(%arg1, %8, %arg3, %arg4) : (tensor<f64>, tensor<f64>, tensor<f64>, !chain) -> !chain
    adj.yield %10, %9, %11 : tensor<i64>, tensor<f64>, !chain
  }
  %5 = adj.fill 1.000000e+00 : tensor<f64>
  %6 = adj.fill 0.000000e+00 : tensor<i64>
  adj.return %4#2 : !chain
}
adj.func private @escapes_identity(%arg0: tensor<i64>, %arg1: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.fill 0.000000e+00 : tensor<f64>
  adj.return %arg0, %arg1, %0 : tensor<i64>, tensor<f64>, tensor<f64>
}
adj.func private @escapes_step(%arg0: tensor<f64>, %arg1: tensor<f64>, %arg2: tensor<f64>, %arg3: !chain, %arg4: tensor<i64>, %arg5: tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>) {
  %0 = adj.mul %arg5, %arg0 : tensor<f64>, tensor<f64>
  %1 = adj.mul %arg5, %arg1 : tensor<f64>, tensor<f64>
  %2 = adj.cos %arg2 : tensor<f64>
  %3 = adj.mul %0, %2 : tensor<f64>, tensor<f64>
  %4 = adj.fill 0.000000e+00 : tensor<i64>
  %5:3 = adj.call %arg3(%4, %3) : !chain
  %6 = adj.add %5#2, %1 : tensor<f64>, tensor<f64>
  adj.return %5#0, %5#1, %6 : tensor<i64>, tensor<f64>, tensor<f64>
}
