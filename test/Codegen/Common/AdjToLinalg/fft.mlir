// adj.fft on the CPU becomes a call of a private wrapper on tensors, one
// per configuration, which calls the runtime's FFTW kernel with the
// buffers' addresses, the batch, the transform type (adj::FftType's
// value), the number of lengths and three lengths padded with 1
// (include/adjoint/Runtime/KernelsFourier.h).
// RUN: ir-opt %s -adj-to-linalg -cse | FileCheck %s

// CHECK-LABEL: func.func private @__adj_fft_irfft_n6x8_2x6x5xcomplexf64(
// CHECK-SAME: %[[A:.*]]: tensor<2x6x5xcomplex<f64>>) -> tensor<2x6x8xf64>
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[A]] read_only
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x6x8xf64>
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[EIGHT:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: call @adj_kernel_fft_f64(%{{.*}}, %{{.*}}, %[[TWO]], %[[THREE]], %[[TWO]], %[[SIX]], %[[EIGHT]], %[[ONE]]) : (index, index, i64, i64, i64, i64, i64, i64) -> ()

// CHECK-LABEL: func.func private @__adj_fft_fft_n4_3x4xcomplexf32(
// CHECK: call @adj_kernel_fft_f32(

// CHECK-LABEL: func.func @main
// CHECK: call @__adj_fft_fft_n4_3x4xcomplexf32(
// CHECK: call @__adj_fft_irfft_n6x8_2x6x5xcomplexf64(
adj.func @main(%z: tensor<3x4xcomplex<f32>>, %h: tensor<2x6x5xcomplex<f64>>)
    -> (tensor<3x4xcomplex<f32>>, tensor<2x6x8xf64>) {
  %a = adj.fft fft %z lengths = [4] : tensor<3x4xcomplex<f32>>
  %b = adj.fft irfft %h lengths = [6, 8] : tensor<2x6x5xcomplex<f64>>
  adj.return %a, %b : tensor<3x4xcomplex<f32>>, tensor<2x6x8xf64>
}
