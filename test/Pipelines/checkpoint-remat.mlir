// RUN: ir-opt %s -adj-grad -adj-optimize | FileCheck %s --check-prefix=ADJ
// RUN: ir-opt %s -adj-grad -adj-optimize -adj-tensor | FileCheck %s --check-prefix=TENSOR
// RUN: ir-opt %s -adj-grad -adj-optimize -adj-lower-to-cpu | FileCheck %s --check-prefix=LLVM

// checkpoint through the whole CPU pipeline: the block's forward pass is
// computed once for the value and once more, from a copy of its argument,
// in the backward pass. Inlining, CSE and elementwise fusion must not merge
// the two (the backward pass would then keep the forward intermediates).

// ADJ-LABEL: adj.func @step(
// ADJ-SAME:      %[[X:.*]]: tensor<64xf32>)
// ADJ:         %[[S:.*]] = adj.sin %[[X]]
// ADJ:         adj.tanh %[[S]]
// ADJ:         %[[B:.*]] = adj.optimization_barrier %[[X]]
// ADJ:         %[[S2:.*]] = adj.sin %[[B]]
// ADJ:         adj.tanh %[[S2]]
// ADJ:         adj.cos %[[B]]

// TENSOR-LABEL: func.func @step(
// TENSOR-SAME:      %[[X:[^:]*]]: tensor<64xf32>
// TENSOR:         linalg.generic {{.*}} ins(%[[X]] : tensor<64xf32>)
// TENSOR:           math.sin
// TENSOR:           math.tanh
// TENSOR:         %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[X]])
// TENSOR:         linalg.generic {{.*}} ins({{.*}}%[[COPY]] : tensor<64xf32>, tensor<64xf32>)
// TENSOR:           math.cos
// TENSOR:           math.sin
// TENSOR:           math.tanh

// The copy is a memcpy in the lowered code.
// LLVM-LABEL: llvm.func @step(
// LLVM:         "llvm.intr.memcpy"

adj.func private @block(%x: tensor<64xf32>) -> tensor<64xf32> {
  %s = adj.sin %x : tensor<64xf32>
  %t = adj.tanh %s : tensor<64xf32>
  adj.return %t : tensor<64xf32>
}
adj.func private @loss(%x: tensor<64xf32>) -> tensor<f32> {
  %f = adj.func_ref @block : !adj.fn<(tensor<64xf32>) -> tensor<64xf32>>
  %c = adj.checkpoint %f : !adj.fn<(tensor<64xf32>) -> tensor<64xf32>>
  %y = adj.call %c(%x) : !adj.fn<(tensor<64xf32>) -> tensor<64xf32>>
  %p = adj.mul %y, %y : tensor<64xf32>, tensor<64xf32>
  %l = adj.reduce_sum %p axes = [0] : tensor<64xf32>
  adj.return %l : tensor<f32>
}
adj.func @step(%x: tensor<64xf32>) -> (tensor<f32>, tensor<64xf32>) {
  %m = adj.func_ref @loss : !adj.fn<(tensor<64xf32>) -> tensor<f32>>
  %g = adj.value_and_grad %m : !adj.fn<(tensor<64xf32>) -> tensor<f32>>
  %r:2 = adj.call %g(%x) : !adj.fn<(tensor<64xf32>) -> (tensor<f32>, tensor<64xf32>)>
  adj.return %r#0, %r#1 : tensor<f32>, tensor<64xf32>
}
