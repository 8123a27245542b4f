// adj.fft for a GPU target (kept by -adj-expand-fft{outline}) becomes a
// call of a private wrapper whose kernel declaration gives the runtime's
// ticket (GpuABI.h, adj_rt_gpu_linalg_begin after -adj-gpu-linear-algebra):
// 0 where a library computed the result into the wrapper's buffer, else
// the wrapper runs the generated function the op names; the route ends
// with adj_rt_gpu_linalg_end either way.
// RUN: ir-opt %s -adj-to-linalg=target=opencl -cse | FileCheck %s

// CHECK: func.func private @adj_rt_gpu_linalg_end(i64)
// CHECK: func.func private @__adj_fft_fft_n4_3x4xcomplexf32_kernel(memref<3x4xcomplex<f32>>, memref<3x4xcomplex<f32>>, i64, i64, i64, i64, i64, i64) -> i64 attributes {adj.linear_algebra = "fft"}
// CHECK-LABEL: func.func private @__adj_fft_fft_n4_3x4xcomplexf32(
// CHECK-SAME: %[[Z:.*]]: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[Z]] read_only
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xcomplex<f32>>
// CHECK: %[[TICKET:.*]] = call @__adj_fft_fft_n4_3x4xcomplexf32_kernel(%[[IN]], %[[OUT]], %{{.*}}) : (memref<3x4xcomplex<f32>>, memref<3x4xcomplex<f32>>, i64, i64, i64, i64, i64, i64) -> i64
// CHECK: %[[LIB:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: %[[DONE:.*]] = arith.cmpi eq, %[[TICKET]], %{{.*}} : i64
// CHECK: %[[R:.*]] = scf.if %[[DONE]] -> (tensor<3x4xcomplex<f32>>) {
// CHECK-NEXT: scf.yield %[[LIB]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[G:.*]] = func.call @__adj_fft_generated(%[[Z]]) : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
// CHECK-NEXT: scf.yield %[[G]]
// CHECK: call @adj_rt_gpu_linalg_end(%[[TICKET]]) : (i64) -> ()
// CHECK: return %[[R]]

// CHECK-LABEL: func.func @main
// CHECK: call @__adj_fft_fft_n4_3x4xcomplexf32(
adj.func @main(%z: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
  %a = adj.fft fft %z lengths = [4] {adj.generated_fft = @__adj_fft_generated} : tensor<3x4xcomplex<f32>>
  adj.return %a : tensor<3x4xcomplex<f32>>
}

// The generated function is lowered like any other.
// CHECK-LABEL: func.func private @__adj_fft_generated(
// CHECK: linalg
adj.func private @__adj_fft_generated(%z: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
  %w = adj.constant dense<(1.0, 0.0)> : tensor<4x4xcomplex<f32>>
  %y = adj.matmul %z, %w : tensor<3x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>
  adj.return %y : tensor<3x4xcomplex<f32>>
}
