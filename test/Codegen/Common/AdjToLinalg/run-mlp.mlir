// End to end on the CPU: a small MLP layer in adj, lowered by -adj-to-linalg
// and upstream passes, JIT-executed by mlir-runner.
// RUN: ir-opt %s -adj-to-linalg -one-shot-bufferize="bufferize-function-boundaries" \
// RUN:   -buffer-deallocation-pipeline -convert-linalg-to-loops -convert-scf-to-cf \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// x @ w + b = [[2.5, 1.25, -2.5], [5.5, 1.25, -5.5]]; relu then sum: 10.5.
// CHECK: 10.5
adj.func @compute() -> tensor<f32> {
  %x = adj.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %w = adj.constant dense<[[1.0, -1.0, 0.5], [0.5, 1.0, -2.0]]> : tensor<2x3xf32>
  %b = adj.constant dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
  %h = adj.matmul %x, %w : tensor<2x2xf32>, tensor<2x3xf32>
  %z = adj.add %h, %b : tensor<2x3xf32>, tensor<3xf32>
  %r = adj.relu %z : tensor<2x3xf32>
  %s = adj.reduce_sum %r axes = [0, 1] : tensor<2x3xf32>
  adj.return %s : tensor<f32>
}

// The driver is upstream code; it reaches @compute through adj.func_ref and
// adj.call, which the conversion turns into func.call (a func.call to an
// adj.func would not verify before the conversion).
func.func @main() {
  %f = adj.func_ref @compute : !adj.fn<() -> tensor<f32>>
  %t = adj.call %f() : !adj.fn<() -> tensor<f32>>
  %v = tensor.extract %t[] : tensor<f32>
  call @printF32(%v) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

// From libmlir_c_runner_utils.
func.func private @printF32(f32)
func.func private @printNewline()
