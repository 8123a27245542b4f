// Numerics of the CPU pipeline's kernels and threads, JIT-run by mlir-runner
// against the runtime library, and the same functions in the interpreter.
// The matrix products (runtime GEMM kernels, transposed operands as strided
// views, products large enough to be split over threads) are compared with
// the same products written as broadcast + multiply + sum (one fused
// reduction loop): inputs are -1, 0 or 1, so both are exact and must agree
// to the last bit. The convolution's weighted checksum is the interpreter's.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s
// RUN: ir-run %s -f matmul_check | FileCheck %s --check-prefix=INTERP-MM
// RUN: ir-run %s -f conv_check | FileCheck %s --check-prefix=INTERP-CONV
// RUN: ir-opt %s -adj-lower-to-cpu | FileCheck %s --check-prefix=CALLS

// The products and the convolution are kernel calls; the big elementwise
// loops run on the pool.
// CALLS-DAG: llvm.call @_mlir_ciface_adj_kernel_matmul_f32
// CALLS-DAG: llvm.call @_mlir_ciface_adj_kernel_batch_matmul_f32
// CALLS-DAG: llvm.call @_mlir_ciface_adj_kernel_conv2d_nchw_fchw_f32
// CALLS-DAG: llvm.call @adjrt_parallel_for

// Largest difference over the three products, then the sum of |product|
// (so that an all-zero result cannot pass).
// CHECK: {{^}}0{{$}}
// CHECK-NEXT: {{^}}4.19937e+06{{$}}
// INTERP-MM: tensor<f32> 0
// INTERP-MM-NEXT: tensor<f32> 4199368
// Batched product (B transposed): largest difference.
// CHECK-NEXT: {{^}}0{{$}}
// Convolution with stride (2, 1), dilation (1, 2) and uneven padding.
// CHECK-NEXT: {{^}}1392{{$}}
// INTERP-CONV: tensor<f32> 1392

/// sign(sin(0.37 * i + 1.1 * j)) on an [m, n] grid, or on its transpose.
adj.func private @pattern_a() -> tensor<256x256xf32> {
  %i = adj.iota axis = 0 : tensor<256x256xf32>
  %j = adj.iota axis = 1 : tensor<256x256xf32>
  %s1 = adj.constant dense<0.37> : tensor<f32>
  %s2 = adj.constant dense<1.1> : tensor<f32>
  %x = adj.mul %i, %s1 : tensor<256x256xf32>, tensor<f32>
  %y = adj.mul %j, %s2 : tensor<256x256xf32>, tensor<f32>
  %z = adj.add %x, %y : tensor<256x256xf32>, tensor<256x256xf32>
  %w = adj.sin %z : tensor<256x256xf32>
  %a = adj.sign %w : tensor<256x256xf32>
  adj.return %a : tensor<256x256xf32>
}

/// sign(cos(1.1 * k - 0.37 * j)) on [256, 128].
adj.func private @pattern_b() -> tensor<256x128xf32> {
  %k = adj.iota axis = 0 : tensor<256x128xf32>
  %j = adj.iota axis = 1 : tensor<256x128xf32>
  %s1 = adj.constant dense<0.37> : tensor<f32>
  %s2 = adj.constant dense<1.1> : tensor<f32>
  %x = adj.mul %k, %s2 : tensor<256x128xf32>, tensor<f32>
  %y = adj.mul %j, %s1 : tensor<256x128xf32>, tensor<f32>
  %z = adj.sub %x, %y : tensor<256x128xf32>, tensor<256x128xf32>
  %w = adj.cos %z : tensor<256x128xf32>
  %b = adj.sign %w : tensor<256x128xf32>
  adj.return %b : tensor<256x128xf32>
}

adj.func @matmul_check() -> (tensor<f32>, tensor<f32>) {
  %fa = adj.func_ref @pattern_a : !adj.fn<() -> tensor<256x256xf32>>
  %fb = adj.func_ref @pattern_b : !adj.fn<() -> tensor<256x128xf32>>
  %a = adj.call %fa() : !adj.fn<() -> tensor<256x256xf32>>
  %b = adj.call %fb() : !adj.fn<() -> tensor<256x128xf32>>
  // The reference: sum over k of a[i, k] * b[k, j], a fused reduction.
  %a3 = adj.reshape %a : tensor<256x256xf32> to tensor<256x256x1xf32>
  %b3 = adj.reshape %b : tensor<256x128xf32> to tensor<1x256x128xf32>
  %p = adj.mul %a3, %b3 : tensor<256x256x1xf32>, tensor<1x256x128xf32>
  %ref = adj.reduce_sum %p axes = [1] : tensor<256x256x128xf32>
  // a @ b; (a^T)^T @ b with a^T materialized (A read through a transposed
  // view); a @ (b^T)^T likewise for B.
  %c1 = adj.matmul %a, %b : tensor<256x256xf32>, tensor<256x128xf32>
  %at = adj.transpose %a perm = [1, 0] : tensor<256x256xf32>
  %at2 = adj.add %at, %at : tensor<256x256xf32>, tensor<256x256xf32>
  %ta = adj.transpose %at2 perm = [1, 0] : tensor<256x256xf32>
  %c2h = adj.matmul %ta, %b : tensor<256x256xf32>, tensor<256x128xf32>
  %half = adj.constant dense<0.5> : tensor<f32>
  %c2 = adj.mul %c2h, %half : tensor<256x128xf32>, tensor<f32>
  %bt = adj.transpose %b perm = [1, 0] : tensor<256x128xf32>
  %bt2 = adj.neg %bt : tensor<128x256xf32>
  %tb = adj.transpose %bt2 perm = [1, 0] : tensor<128x256xf32>
  %c3n = adj.matmul %a, %tb : tensor<256x256xf32>, tensor<256x128xf32>
  %c3 = adj.neg %c3n : tensor<256x128xf32>
  %d1 = adj.sub %c1, %ref : tensor<256x128xf32>, tensor<256x128xf32>
  %d2 = adj.sub %c2, %ref : tensor<256x128xf32>, tensor<256x128xf32>
  %d3 = adj.sub %c3, %ref : tensor<256x128xf32>, tensor<256x128xf32>
  %e1 = adj.abs %d1 : tensor<256x128xf32>
  %e2 = adj.abs %d2 : tensor<256x128xf32>
  %e3 = adj.abs %d3 : tensor<256x128xf32>
  %e12 = adj.maximum %e1, %e2 : tensor<256x128xf32>, tensor<256x128xf32>
  %e = adj.maximum %e12, %e3 : tensor<256x128xf32>, tensor<256x128xf32>
  %m = adj.reduce_max %e axes = [0, 1] : tensor<256x128xf32>
  %r = adj.abs %ref : tensor<256x128xf32>
  %n = adj.reduce_sum %r axes = [0, 1] : tensor<256x128xf32>
  adj.return %m, %n : tensor<f32>, tensor<f32>
}

/// [4, 32, 16] @ ([4, 8, 16] transposed): kernel vs broadcast-multiply-sum.
adj.func @batch_check() -> tensor<f32> {
  %i = adj.iota axis = 1 : tensor<4x32x16xf32>
  %k = adj.iota axis = 2 : tensor<4x32x16xf32>
  %g = adj.iota axis = 0 : tensor<4x32x16xf32>
  %ik = adj.sub %i, %k : tensor<4x32x16xf32>, tensor<4x32x16xf32>
  %ikg = adj.add %ik, %g : tensor<4x32x16xf32>, tensor<4x32x16xf32>
  %a = adj.sin %ikg : tensor<4x32x16xf32>
  %as = adj.sign %a : tensor<4x32x16xf32>
  %j = adj.iota axis = 1 : tensor<4x8x16xf32>
  %l = adj.iota axis = 2 : tensor<4x8x16xf32>
  %jl = adj.add %j, %l : tensor<4x8x16xf32>, tensor<4x8x16xf32>
  %b = adj.cos %jl : tensor<4x8x16xf32>
  %bs = adj.sign %b : tensor<4x8x16xf32>
  %bt = adj.transpose %bs perm = [0, 2, 1] : tensor<4x8x16xf32>
  %c = adj.matmul %as, %bt : tensor<4x32x16xf32>, tensor<4x16x8xf32>
  %a4 = adj.reshape %as : tensor<4x32x16xf32> to tensor<4x32x16x1xf32>
  %b4 = adj.reshape %bt : tensor<4x16x8xf32> to tensor<4x1x16x8xf32>
  %p = adj.mul %a4, %b4 : tensor<4x32x16x1xf32>, tensor<4x1x16x8xf32>
  %ref = adj.reduce_sum %p axes = [2] : tensor<4x32x16x8xf32>
  %d = adj.sub %c, %ref : tensor<4x32x8xf32>, tensor<4x32x8xf32>
  %e = adj.abs %d : tensor<4x32x8xf32>
  %m = adj.reduce_max %e axes = [0, 1, 2] : tensor<4x32x8xf32>
  adj.return %m : tensor<f32>
}

/// sum(conv(x, w) * weights) with small integer data: exact in f32.
adj.func @conv_check() -> tensor<f32> {
  %n = adj.iota axis = 0 : tensor<2x2x6x6xf32>
  %c = adj.iota axis = 1 : tensor<2x2x6x6xf32>
  %h = adj.iota axis = 2 : tensor<2x2x6x6xf32>
  %w = adj.iota axis = 3 : tensor<2x2x6x6xf32>
  %nc = adj.add %n, %c : tensor<2x2x6x6xf32>, tensor<2x2x6x6xf32>
  %hw = adj.sub %h, %w : tensor<2x2x6x6xf32>, tensor<2x2x6x6xf32>
  %two = adj.constant dense<2.0> : tensor<f32>
  %hw2 = adj.mul %hw, %two : tensor<2x2x6x6xf32>, tensor<f32>
  %xs = adj.add %nc, %hw2 : tensor<2x2x6x6xf32>, tensor<2x2x6x6xf32>
  %xsin = adj.sin %xs : tensor<2x2x6x6xf32>
  %x = adj.sign %xsin : tensor<2x2x6x6xf32>
  %f = adj.iota axis = 0 : tensor<3x2x3x3xf32>
  %fc = adj.iota axis = 1 : tensor<3x2x3x3xf32>
  %fi = adj.iota axis = 2 : tensor<3x2x3x3xf32>
  %fj = adj.iota axis = 3 : tensor<3x2x3x3xf32>
  %f1 = adj.sub %f, %fc : tensor<3x2x3x3xf32>, tensor<3x2x3x3xf32>
  %f2 = adj.mul %fi, %two : tensor<3x2x3x3xf32>, tensor<f32>
  %f3 = adj.add %f1, %f2 : tensor<3x2x3x3xf32>, tensor<3x2x3x3xf32>
  %f4 = adj.sub %f3, %fj : tensor<3x2x3x3xf32>, tensor<3x2x3x3xf32>
  %y = adj.conv2d %x, %f4 stride = [2, 1] padding = [1, 1, 0, 1]
       dilation = [1, 2] groups = 1 : tensor<2x2x6x6xf32>, tensor<3x2x3x3xf32>
  // Weights 1 + i + 3 j + 9 f + 27 n: distinct, so that any wrong element
  // changes the sum.
  %yn = adj.iota axis = 0 : tensor<2x3x3x3xf32>
  %yf = adj.iota axis = 1 : tensor<2x3x3x3xf32>
  %yi = adj.iota axis = 2 : tensor<2x3x3x3xf32>
  %yj = adj.iota axis = 3 : tensor<2x3x3x3xf32>
  %three = adj.constant dense<3.0> : tensor<f32>
  %one = adj.constant dense<1.0> : tensor<f32>
  %w1 = adj.mul %yn, %three : tensor<2x3x3x3xf32>, tensor<f32>
  %w2 = adj.add %w1, %yf : tensor<2x3x3x3xf32>, tensor<2x3x3x3xf32>
  %w3 = adj.mul %w2, %three : tensor<2x3x3x3xf32>, tensor<f32>
  %w4 = adj.add %w3, %yj : tensor<2x3x3x3xf32>, tensor<2x3x3x3xf32>
  %w5 = adj.mul %w4, %three : tensor<2x3x3x3xf32>, tensor<f32>
  %w6 = adj.add %w5, %yi : tensor<2x3x3x3xf32>, tensor<2x3x3x3xf32>
  %w7 = adj.add %w6, %one : tensor<2x3x3x3xf32>, tensor<f32>
  %yw = adj.mul %y, %w7 : tensor<2x3x3x3xf32>, tensor<2x3x3x3xf32>
  %s = adj.reduce_sum %yw axes = [0, 1, 2, 3] : tensor<2x3x3x3xf32>
  adj.return %s : tensor<f32>
}

func.func @main() {
  %fm = adj.func_ref @matmul_check : !adj.fn<() -> (tensor<f32>, tensor<f32>)>
  %m:2 = adj.call %fm() : !adj.fn<() -> (tensor<f32>, tensor<f32>)>
  %fb = adj.func_ref @batch_check : !adj.fn<() -> tensor<f32>>
  %b = adj.call %fb() : !adj.fn<() -> tensor<f32>>
  %fc = adj.func_ref @conv_check : !adj.fn<() -> tensor<f32>>
  %c = adj.call %fc() : !adj.fn<() -> tensor<f32>>
  %v0 = tensor.extract %m#0[] : tensor<f32>
  call @printF32(%v0) : (f32) -> ()
  call @printNewline() : () -> ()
  %v1 = tensor.extract %m#1[] : tensor<f32>
  call @printF32(%v1) : (f32) -> ()
  call @printNewline() : () -> ()
  %v2 = tensor.extract %b[] : tensor<f32>
  call @printF32(%v2) : (f32) -> ()
  call @printNewline() : () -> ()
  %v3 = tensor.extract %c[] : tensor<f32>
  call @printF32(%v3) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

func.func private @printF32(f32)
func.func private @printNewline()
