// RUN: ir-opt %s -adj-grad | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f main --arg "[[[1,0.5],[0.2,2]],[[0.3,-0.4],[0.1,-1]],[[0,0],[0,0]]]" --arg "[[1],[2]]" | FileCheck %s --check-prefix=VALUE

// The decompositions batch over one more leading dimension; a shared
// operand of triangular_solve (b) is broadcast to the batch. The batched
// results equal those of the examples one by one.

// CHECK-LABEL: adj.func private @f_vmap3_
// CHECK-SAME:      (%[[X:[^:]*]]: tensor<3x2x2xf64>, %[[B:[^:]*]]: tensor<2x1xf64>)
// CHECK:         adj.cholesky %{{.*}} : tensor<3x2x2xf64>
// CHECK:         %[[BB:.*]] = adj.broadcast_to %[[B]] : tensor<2x1xf64> to tensor<3x2x1xf64>
// CHECK:         adj.triangular_solve %{{.*}}, %[[BB]] left_side lower : tensor<3x2x2xf64>, tensor<3x2x1xf64>
// CHECK:         adj.eigh %{{.*}} : tensor<3x2x2xf64>

// VALUE: tensor<f64> 0
adj.func @f(%x: tensor<2x2xf64>, %b: tensor<2x1xf64>) -> tensor<2x1xf64> {
  %s = adj.constant dense<[[4.0, 0.0], [0.0, 4.0]]> : tensor<2x2xf64>
  %a = adj.add %x, %s : tensor<2x2xf64>, tensor<2x2xf64>
  %l = adj.cholesky %a : tensor<2x2xf64>
  %y = adj.triangular_solve %l, %b left_side lower : tensor<2x2xf64>, tensor<2x1xf64>
  %w, %v = adj.eigh %a : tensor<2x2xf64>
  %p = adj.matmul %v, %y : tensor<2x2xf64>, tensor<2x1xf64>
  adj.return %p : tensor<2x1xf64>
}
adj.func @main(%xs: tensor<3x2x2xf64>, %b: tensor<2x1xf64>) -> tensor<f64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>>
  %v = adj.vmap %f in_axes = [0, -1] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>>
  %r = adj.call %v(%xs, %b) : !adj.fn<(tensor<3x2x2xf64>, tensor<2x1xf64>) -> tensor<3x2x1xf64>>
  %x0 = adj.slice %xs start = [0, 0, 0] limit = [1, 2, 2] stride = [1, 1, 1] : tensor<3x2x2xf64>
  %x1 = adj.slice %xs start = [1, 0, 0] limit = [2, 2, 2] stride = [1, 1, 1] : tensor<3x2x2xf64>
  %x2 = adj.slice %xs start = [2, 0, 0] limit = [3, 2, 2] stride = [1, 1, 1] : tensor<3x2x2xf64>
  %m0 = adj.reshape %x0 : tensor<1x2x2xf64> to tensor<2x2xf64>
  %m1 = adj.reshape %x1 : tensor<1x2x2xf64> to tensor<2x2xf64>
  %m2 = adj.reshape %x2 : tensor<1x2x2xf64> to tensor<2x2xf64>
  %r0 = adj.call %f(%m0, %b) : !adj.fn<(tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>>
  %r1 = adj.call %f(%m1, %b) : !adj.fn<(tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>>
  %r2 = adj.call %f(%m2, %b) : !adj.fn<(tensor<2x2xf64>, tensor<2x1xf64>) -> tensor<2x1xf64>>
  %c = adj.concat %r0, %r1, %r2 axis = 0 : tensor<2x1xf64>, tensor<2x1xf64>, tensor<2x1xf64>
  %loop = adj.reshape %c : tensor<6x1xf64> to tensor<3x2x1xf64>
  %d = adj.sub %r, %loop : tensor<3x2x1xf64>, tensor<3x2x1xf64>
  %a = adj.abs %d : tensor<3x2x1xf64>
  %m = adj.reduce_max %a axes = [0, 1, 2] : tensor<3x2x1xf64>
  adj.return %m : tensor<f64>
}
