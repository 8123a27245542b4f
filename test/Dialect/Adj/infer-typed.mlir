// -adj-infer leaves typed programs as they are, including what -adj-grad
// produces (closures, recursion, loops carrying backpropagators).
// RUN: ir-opt %S/../../AD/grad-recursion.mlir -adj-grad > %t.recursion
// RUN: ir-opt %t.recursion -adj-infer | diff %t.recursion -
// RUN: ir-opt %S/../../AD/grad-loop.mlir -adj-grad > %t.loop
// RUN: ir-opt %t.loop -adj-infer | diff %t.loop -
// RUN: ir-opt %S/../../AD/grad-closure.mlir -adj-grad > %t.closure
// RUN: ir-opt %t.closure -adj-infer | diff %t.closure -
// RUN: ir-opt %S/../../AD/grad-if.mlir -adj-grad > %t.if
// RUN: ir-opt %t.if -adj-infer | diff %t.if -
// RUN: ir-opt %S/../../AD/jvp.mlir -adj-grad > %t.jvp
// RUN: ir-opt %t.jvp -adj-infer | diff %t.jvp -
// RUN: ir-opt %s > %t.main
// RUN: ir-opt %t.main -adj-infer | diff %t.main -

// The typed requests themselves are kept too.
adj.func @loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
  %p = adj.mul %w, %x : tensor<3xf32>, tensor<3xf32>
  %s = adj.reduce_sum %p axes = [0] : tensor<3xf32>
  adj.return %s : tensor<f32>
}
adj.func @main(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %f = adj.func_ref @loss : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> tensor<f32>>
  %g = adj.grad %f wrt = [0] : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> tensor<f32>>
  %d = adj.call %g(%w, %x) : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>>
  adj.return %d : tensor<3xf32>
}
