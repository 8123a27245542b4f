// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main | FileCheck %s --check-prefix=VALUE

// The rules of adj.scatter. set: the overwritten slots of the target get
// no sensitivity (a set of zeros into dy), the updates theirs where they
// win (the last of a repeated index: a scatter max of the positions).
// max: the winners at a slot (target and updates equal to the result)
// share its sensitivity.

// CHECK-LABEL: adj.func private @set_fprop(
// CHECK:         %[[Y:.*]] = adj.scatter set %[[X:.*]][%[[I:.*]]], %[[U:.*]] axis = 0
// CHECK:         adj.lambda (%[[D:.*]]: tensor<4xf64>)
// CHECK-DAG:       %[[Z:.*]] = adj.zeros_like %[[U]]
// CHECK-DAG:       %[[DX:.*]] = adj.scatter set %[[D]][%[[I]]], %[[Z]] axis = 0
// CHECK-DAG:       %[[POS:.*]] = adj.constant dense<[0, 1, 2]> : tensor<3xi64>
// CHECK-DAG:       %[[LAST:.*]] = adj.scatter max %{{.*}}[%[[I]]], %[[POS]] axis = 0 : tensor<4xi64>, tensor<3xi64>, tensor<3xi64>
// CHECK-DAG:       %[[AT:.*]] = adj.gather %[[LAST]][%[[I]]] axis = 0
// CHECK-DAG:       %[[WIN:.*]] = adj.cmp eq, %[[AT]], %[[POS]]
// CHECK-DAG:       %[[G:.*]] = adj.gather %[[D]][%[[I]]] axis = 0
// CHECK-DAG:       adj.select %{{.*}}, %[[G]], %{{.*}}
adj.func @set(%x: tensor<4xf64>, %u: tensor<3xf64>) -> tensor<4xf64> {
  %i = adj.constant dense<[1, 2, 1]> : tensor<3xi64>
  %y = adj.scatter set %x[%i], %u axis = 0 : tensor<4xf64>, tensor<3xi64>, tensor<3xf64>
  adj.return %y : tensor<4xf64>
}

// CHECK-LABEL: adj.func private @max_fprop(
// CHECK:         %[[Y:.*]] = adj.scatter max
// CHECK:         adj.lambda
// CHECK:           adj.cmp eq, %{{.*}}, %[[Y]]
// CHECK:           adj.scatter_add
// CHECK:           adj.div
adj.func @max(%x: tensor<4xf64>, %u: tensor<3xf64>) -> tensor<4xf64> {
  %i = adj.constant dense<[1, 2, 1]> : tensor<3xi64>
  %y = adj.scatter max %x[%i], %u axis = 0 : tensor<4xf64>, tensor<3xi64>, tensor<3xf64>
  adj.return %y : tensor<4xf64>
}

// loss = sum(set(x, [1, 2, 1], u) * w) + sum(max(x, [1, 2, 1], u) * w)
// at x = [1, 2, 3, 4], u = [3, 5, 3], w = [1, 2, 3, 4]:
// set: dx = w at untouched slots [1, 0, 0, 4], du = [0, 3, 2] (u[0] loses);
// max: slot 1 is max(2, 3, 3) = 3 tied between u[0] and u[2] (w = 2 each
// half), slot 2 is u[1] = 5; dx = [1, 0, 0, 4], du = [1, 3, 1].
// VALUE: tensor<4xf64> [2, 0, 0, 8]
// VALUE-NEXT: tensor<3xf64> [1, 6, 3]
adj.func @loss(%x: tensor<4xf64>, %u: tensor<3xf64>) -> tensor<f64> {
  %w = adj.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %fs = adj.func_ref @set : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> tensor<4xf64>>
  %fm = adj.func_ref @max : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> tensor<4xf64>>
  %s = adj.call %fs(%x, %u) : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> tensor<4xf64>>
  %m = adj.call %fm(%x, %u) : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> tensor<4xf64>>
  %sum = adj.add %s, %m : tensor<4xf64>, tensor<4xf64>
  %p = adj.mul %sum, %w : tensor<4xf64>, tensor<4xf64>
  %r = adj.reduce_sum %p axes = [0] : tensor<4xf64>
  adj.return %r : tensor<f64>
}
adj.func @main() -> (tensor<4xf64>, tensor<3xf64>) {
  %x = adj.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
  %u = adj.constant dense<[3.0, 5.0, 3.0]> : tensor<3xf64>
  %f = adj.func_ref @loss : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> tensor<f64>>
  %g = adj.grad %f : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> tensor<f64>>
  %d:2 = adj.call %g(%x, %u) : !adj.fn<(tensor<4xf64>, tensor<3xf64>) -> (tensor<4xf64>, tensor<3xf64>)>
  adj.return %d#0, %d#1 : tensor<4xf64>, tensor<3xf64>
}
