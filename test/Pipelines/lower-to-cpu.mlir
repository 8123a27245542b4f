// The named CPU pipeline end to end: adj -> LLVM dialect, JIT-run by
// mlir-runner; and each stage leaves the dialects it promises.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC
// Every kind's pipeline takes the target's chip and features; for the CPU
// they matter only to LLVM afterwards, so the IR is the same.
// RUN: ir-opt %s -adj-lower-to-cpu > %t.default
// RUN: ir-opt %s '-adj-lower-to-cpu=chip=znver4 features=+avx2,+fma,-avx512f' > %t.chip
// RUN: diff %t.default %t.chip
// RUN: not ir-opt %s '-adj-lower-to-cpu=cpu=znver4' 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: no such option cpu
// RUN: ir-opt %s -adj-tensor | FileCheck %s --check-prefix=TENSOR
// RUN: ir-opt %s -adj-tensor -adj-bufferize | FileCheck %s --check-prefix=BUFFER

// x @ w + b = [[2.5, 1.25, -2.5], [5.5, 1.25, -5.5]]; relu then sum: 10.5.
// EXEC: 10.5
// TENSOR-LABEL: func.func @compute() -> tensor<f32>
// TENSOR: linalg.matmul
// TENSOR-NOT: adj.
// BUFFER-LABEL: func.func @compute() -> memref<f32>
// BUFFER-NOT: tensor<
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

func.func @main() {
  %f = adj.func_ref @compute : !adj.fn<() -> tensor<f32>>
  %t = adj.call %f() : !adj.fn<() -> tensor<f32>>
  %v = tensor.extract %t[] : tensor<f32>
  call @printF32(%v) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

func.func private @printF32(f32)
func.func private @printNewline()
