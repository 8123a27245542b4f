// conv2d and pooling end to end: lowered by -adj-lower-to-cpu, JIT-run by
// mlir-runner, compared with the reference interpreter. The expected values
// are ir-run's results of the same functions. Inputs are small integer
// constants, so every sum is exact in any summation order and the printed
// digits must agree exactly.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// groups = 1 (the named linalg.conv_2d_nchw_fchw): uneven padding, stride
// and dilation differ between height and width.
// CHECK: sizes = [90]
// CHECK-NEXT: [1, -4, 2, -3, -1, -2, 0, 5, 1, -1, -8, 4, 7, -6, -2, 3, -14, -3, -1, -7, 2, 0, 0, 5, 10, 0, 8, 1, -4, -4, -5, 0, -2, -2, -2, 1, 5, 8, -4, 5, -6, 10, 5, -8, -6, -4, 0, 4, 2, 1, 4, -9, -10, -5, 7, -4, -11, 7, 14, -5, -6, 10, 1, 8, 7, -2, -1, 9, -6, -4, -4, -4, -6, -2, 4, 2, 2, 0, -2, 2, 12, -3, 0, 6, -2, -1, -9, -2, 6, 2]
adj.func @conv_stride_padding_dilation() -> tensor<90xf32> {
  %x = adj.constant dense<[[[[0.0, 1.0, 1.0, 1.0, 2.0, 1.0], [0.0, -2.0, 0.0, 1.0, 1.0, -1.0], [2.0, -1.0, -2.0, 1.0, -2.0, 0.0], [1.0, -2.0, -2.0, 2.0, 2.0, 0.0], [0.0, -2.0, 0.0, 1.0, 1.0, 1.0]], [[1.0, 1.0, 0.0, -2.0, 1.0, 0.0], [0.0, 1.0, -2.0, 2.0, 2.0, 0.0], [-2.0, 0.0, 0.0, 2.0, -1.0, -1.0], [0.0, 0.0, 0.0, -1.0, -1.0, -2.0], [-1.0, -2.0, 1.0, 0.0, 0.0, 0.0]]], [[[-2.0, -2.0, 1.0, -1.0, -2.0, 0.0], [0.0, 1.0, 2.0, -1.0, -1.0, 0.0], [1.0, 0.0, -2.0, -1.0, 2.0, 0.0], [0.0, 1.0, 2.0, -2.0, 1.0, 2.0], [2.0, 2.0, 1.0, 2.0, -2.0, 1.0]], [[2.0, -1.0, 2.0, 0.0, -1.0, 0.0], [1.0, 1.0, 2.0, -2.0, -2.0, -2.0], [0.0, 0.0, -2.0, -1.0, 1.0, 0.0], [1.0, 2.0, -2.0, 0.0, 1.0, 2.0], [0.0, -1.0, 2.0, 0.0, -1.0, -2.0]]]]> : tensor<2x2x5x6xf32>
  %w = adj.constant dense<[[[[-2.0, 2.0], [0.0, 0.0], [2.0, -1.0]], [[-2.0, 2.0], [1.0, -1.0], [-2.0, 0.0]]], [[[-1.0, 0.0], [-2.0, 0.0], [2.0, -1.0]], [[0.0, 0.0], [-1.0, 0.0], [-2.0, -2.0]]], [[[-2.0, 2.0], [-1.0, -2.0], [1.0, 2.0]], [[1.0, 0.0], [-1.0, -1.0], [0.0, 1.0]]]]> : tensor<3x2x3x2xf32>
  %y = adj.conv2d %x, %w stride = [2, 1] padding = [1, 2, 0, 1] dilation = [1, 2] groups = 1 : tensor<2x2x5x6xf32>, tensor<3x2x3x2xf32>
  %flat_ = adj.reshape %y : tensor<2x3x3x5xf32> to tensor<90xf32>
  adj.return %flat_ : tensor<90xf32>
}

// Two groups of two channels, three filters per group.
// CHECK: sizes = [96]
// CHECK-NEXT: [-2, -1, 1, 2, -1, 3, 2, 4, -1, 0, 0, 0, -1, 0, -3, 1, 5, -5, 10, -8, -1, -3, -4, 4, 0, 6, 10, 4, 6, -8, -6, -2, -5, 1, -5, 2, 0, 1, 13, 6, 5, 1, -11, -4, -8, -2, 0, 2, 2, 0, 2, 0, -2, -10, 2, 4, -2, -7, -6, 2, -2, 0, -7, 0, -1, 1, -1, 0, -5, 2, 1, -2, 0, -3, -1, -1, -1, -3, 3, 1, 0, -1, -2, 0, -2, 2, -4, -4, 0, -6, -6, -2, -4, 4, 10, 2]
adj.func @conv_groups() -> tensor<96xf32> {
  %x = adj.constant dense<[[[[2.0, 0.0, 1.0, -2.0], [0.0, -2.0, -2.0, 0.0], [0.0, 1.0, 2.0, 0.0], [2.0, -1.0, 0.0, -1.0]], [[0.0, -1.0, 1.0, -2.0], [0.0, 0.0, 1.0, 2.0], [0.0, 0.0, -1.0, 0.0], [0.0, -1.0, -1.0, 0.0]], [[1.0, -2.0, 0.0, 0.0], [0.0, -2.0, -1.0, 0.0], [-2.0, 0.0, 0.0, 1.0], [1.0, 2.0, -1.0, -1.0]], [[0.0, 2.0, 1.0, 0.0], [-1.0, 0.0, 2.0, 2.0], [0.0, 0.0, 0.0, 0.0], [0.0, -2.0, -2.0, 0.0]]]]> : tensor<1x4x4x4xf32>
  %w = adj.constant dense<[[[[-2.0, 0.0], [-1.0, -1.0]], [[0.0, -1.0], [0.0, 0.0]]], [[[-2.0, -1.0], [2.0, -2.0]], [[2.0, 1.0], [2.0, -1.0]]], [[[0.0, -2.0], [-2.0, 1.0]], [[-2.0, -2.0], [1.0, 1.0]]], [[[2.0, -1.0], [2.0, 0.0]], [[0.0, -2.0], [2.0, 0.0]]], [[[0.0, 1.0], [-1.0, 1.0]], [[0.0, -1.0], [-1.0, 1.0]]], [[[0.0, 2.0], [-2.0, -2.0]], [[0.0, -2.0], [-2.0, -1.0]]]]> : tensor<6x2x2x2xf32>
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [1, 0, 0, 1] dilation = [1, 1] groups = 2 : tensor<1x4x4x4xf32>, tensor<6x2x2x2xf32>
  %flat_ = adj.reshape %y : tensor<1x6x4x4xf32> to tensor<96xf32>
  adj.return %flat_ : tensor<96xf32>
}

// Depthwise (groups = channels, two filters each) in f64 with stride and
// dilation 2.
// CHECK: sizes = [54]
// CHECK-NEXT: [4, -3, -6, 8, -3, -10, 6, 1, -8, -4, 9, -5, -7, 6, -1, -3, 6, -6, 6, -7, -2, 1, 0, -5, -5, 2, -7, 4, 6, 0, -1, 1, -1, -2, 1, 0, -4, 4, 2, 2, -13, -2, 3, -1, -4, -7, 2, 6, -4, -15, -3, 10, 3, -3]
adj.func @conv_depthwise_f64() -> tensor<54xf32> {
  %x = adj.constant dense<[[[[-1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0], [-1.0, 0.0, -2.0, 2.0, 0.0, -1.0, 0.0], [-1.0, 2.0, -1.0, -2.0, 2.0, 2.0, -1.0], [0.0, 1.0, 0.0, 0.0, -2.0, -2.0, -2.0], [0.0, 0.0, 0.0, -1.0, 2.0, -2.0, 0.0], [-1.0, 0.0, -1.0, 2.0, 0.0, 0.0, 1.0], [2.0, -2.0, 0.0, 0.0, 0.0, -2.0, -2.0]], [[2.0, 1.0, 2.0, -2.0, 0.0, -1.0, -1.0], [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 2.0, -2.0, 1.0, 2.0], [-1.0, -2.0, 1.0, -2.0, 0.0, 1.0, 2.0], [0.0, 2.0, 2.0, 0.0, -1.0, -2.0, -2.0], [1.0, 1.0, 1.0, -1.0, 0.0, 1.0, 1.0], [0.0, -1.0, 2.0, -2.0, 1.0, -2.0, 0.0]], [[0.0, -1.0, -2.0, -1.0, 0.0, 2.0, 0.0], [-2.0, -2.0, 2.0, -1.0, 0.0, 2.0, -1.0], [0.0, 0.0, -2.0, 2.0, -2.0, 2.0, -2.0], [0.0, 1.0, 0.0, -1.0, 1.0, 0.0, 0.0], [-1.0, -2.0, 0.0, 1.0, 1.0, 0.0, -2.0], [2.0, 2.0, -2.0, 2.0, -2.0, -1.0, 0.0], [-2.0, -1.0, 0.0, 0.0, 0.0, 2.0, 0.0]]]]> : tensor<1x3x7x7xf64>
  %w = adj.constant dense<[[[[-1.0, 2.0, 1.0], [-2.0, 2.0, 2.0], [-1.0, 0.0, 2.0]]], [[[0.0, 1.0, -2.0], [-2.0, 1.0, -2.0], [1.0, 0.0, -2.0]]], [[[2.0, 0.0, 1.0], [2.0, -1.0, 2.0], [2.0, 0.0, -2.0]]], [[[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [-1.0, -2.0, 0.0]]], [[[2.0, 0.0, -1.0], [-1.0, 0.0, 1.0], [-1.0, -1.0, 2.0]]], [[[1.0, 0.0, -2.0], [0.0, 2.0, 2.0], [-2.0, -2.0, -1.0]]]]> : tensor<6x1x3x3xf64>
  %y = adj.conv2d %x, %w stride = [2, 2] padding = [1, 1, 1, 1] dilation = [2, 2] groups = 3 : tensor<1x3x7x7xf64>, tensor<6x1x3x3xf64>
  %cast_ = adj.cast %y : tensor<1x6x3x3xf64> to tensor<1x6x3x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x6x3x3xf32> to tensor<54xf32>
  adj.return %flat_ : tensor<54xf32>
}

// f16 accumulates in f32 like the interpreter: 2048 + 1 + 1 is 2050 (in f16
// it would stay 2048, whose ulp is 2).
// CHECK: sizes = [1]
// CHECK-NEXT: [2050]
adj.func @conv_f16_accumulates_in_f32() -> tensor<1xf32> {
  %x = adj.constant dense<[[[[2048.0]], [[1.0]], [[1.0]]]]> : tensor<1x3x1x1xf16>
  %w = adj.fill 1.0 : tensor<1x3x1x1xf16>
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>
  %cast_ = adj.cast %y : tensor<1x1x1x1xf16> to tensor<1x1x1x1xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x1x1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

// bf16 with groups = 2.
// CHECK: sizes = [18]
// CHECK-NEXT: [-1, -3, -1, -2, -1, 1, 1, 2, 1, -2, -4, -3, -2, 1, 4, 0, -1, 2]
adj.func @conv_bf16_groups() -> tensor<18xf32> {
  %x = adj.constant dense<[[[[1.0, 0.0, 1.0], [2.0, 0.0, 0.0], [-1.0, -1.0, 0.0]], [[2.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, -2.0, 0.0]]]]> : tensor<1x2x3x3xbf16>
  %w = adj.constant dense<[[[[-1.0, -1.0], [-1.0, 0.0]]], [[[-1.0, 0.0], [-2.0, -2.0]]]]> : tensor<2x1x2x2xbf16>
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 1, 1, 0] dilation = [1, 1] groups = 2 : tensor<1x2x3x3xbf16>, tensor<2x1x2x2xbf16>
  %cast_ = adj.cast %y : tensor<1x2x3x3xbf16> to tensor<1x2x3x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x2x3x3xf32> to tensor<18xf32>
  adj.return %flat_ : tensor<18xf32>
}

// Negative inputs: the -inf padding never wins where a window has data.
// CHECK: sizes = [24]
// CHECK-NEXT: [-1, -1, -1, -1, -1, -1, -1, -1, -1, -2, -2, -2, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1]
adj.func @max_pool_padding() -> tensor<24xf32> {
  %x = adj.constant dense<[[[[-1.0, -1.0, -2.0, -1.0], [-2.0, -2.0, -1.0, -3.0], [-3.0, -1.0, -3.0, -1.0], [-4.0, -2.0, -2.0, -2.0], [-1.0, -2.0, -2.0, -2.0]], [[-3.0, -2.0, -1.0, -3.0], [-1.0, -2.0, -3.0, -2.0], [-3.0, -4.0, -2.0, -1.0], [-2.0, -1.0, -2.0, -2.0], [-3.0, -3.0, -4.0, -1.0]]]]> : tensor<1x2x5x4xf32>
  %y = adj.max_pool2d %x kernel = [3, 2] stride = [2, 1] padding = [1, 1, 0, 1] : tensor<1x2x5x4xf32>
  %flat_ = adj.reshape %y : tensor<1x2x3x4xf32> to tensor<24xf32>
  adj.return %flat_ : tensor<24xf32>
}

// A 1x1 window on the padding itself sees only -inf.
// CHECK: sizes = [9]
// CHECK-NEXT: [-inf, -inf, -inf, 1, -2, -inf, 3, -4, -inf]
adj.func @max_pool_window_in_padding() -> tensor<9xf32> {
  %x = adj.constant dense<[[[[1.0, -2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf16>
  %y = adj.max_pool2d %x kernel = [1, 1] stride = [1, 1] padding = [1, 0, 0, 1] : tensor<1x1x2x2xf16>
  %cast_ = adj.cast %y : tensor<1x1x3x3xf16> to tensor<1x1x3x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x1x3x3xf32> to tensor<9xf32>
  adj.return %flat_ : tensor<9xf32>
}

// The padding counts in the divisor (count_include_pad).
// CHECK: sizes = [12]
// CHECK-NEXT: [0, 0, 0.333333, -0.166667, -0.833333, -0.166667, -0.333333, -0.166667, 0.333333, -0.166667, -0.166667, 0.166667]
adj.func @avg_pool_count_include_pad() -> tensor<12xf32> {
  %x = adj.constant dense<[[[[0.0, 0.0, 0.0, 1.0, 1.0], [0.0, -2.0, -2.0, 0.0, 0.0], [-1.0, -2.0, 2.0, 0.0, -1.0], [-1.0, 1.0, -1.0, 0.0, 2.0]], [[-2.0, 1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 1.0, 0.0, 2.0], [-1.0, 1.0, -2.0, -2.0, 2.0], [0.0, 1.0, 0.0, 0.0, 1.0]]]]> : tensor<1x2x4x5xf32>
  %y = adj.avg_pool2d %x kernel = [2, 3] stride = [2, 2] padding = [1, 0, 2, 1] : tensor<1x2x4x5xf32>
  %flat_ = adj.reshape %y : tensor<1x2x2x3xf32> to tensor<12xf32>
  adj.return %flat_ : tensor<12xf32>
}

// bf16 sums in f32 and rounds once: (256 + 1 + 1 + 2) / 4 = 65.
// CHECK: sizes = [1]
// CHECK-NEXT: [65]
adj.func @avg_pool_bf16() -> tensor<1xf32> {
  %x = adj.constant dense<[[[[256.0, 1.0], [1.0, 2.0]]]]> : tensor<1x1x2x2xbf16>
  %y = adj.avg_pool2d %x kernel = [2, 2] stride = [1, 1] padding = [0, 0, 0, 0] : tensor<1x1x2x2xbf16>
  %cast_ = adj.cast %y : tensor<1x1x1x1xbf16> to tensor<1x1x1x1xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x1x1x1xf32> to tensor<1xf32>
  adj.return %flat_ : tensor<1xf32>
}

func.func @main() {
  %f0 = adj.func_ref @conv_stride_padding_dilation : !adj.fn<() -> tensor<90xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<90xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<90xf32> to memref<90xf32>
  %u0 = memref.cast %m0 : memref<90xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @conv_groups : !adj.fn<() -> tensor<96xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<96xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<96xf32> to memref<96xf32>
  %u1 = memref.cast %m1 : memref<96xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @conv_depthwise_f64 : !adj.fn<() -> tensor<54xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<54xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<54xf32> to memref<54xf32>
  %u2 = memref.cast %m2 : memref<54xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %f3 = adj.func_ref @conv_f16_accumulates_in_f32 : !adj.fn<() -> tensor<1xf32>>
  %t3 = adj.call %f3() : !adj.fn<() -> tensor<1xf32>>
  %m3 = bufferization.to_buffer %t3 : tensor<1xf32> to memref<1xf32>
  %u3 = memref.cast %m3 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %f4 = adj.func_ref @conv_bf16_groups : !adj.fn<() -> tensor<18xf32>>
  %t4 = adj.call %f4() : !adj.fn<() -> tensor<18xf32>>
  %m4 = bufferization.to_buffer %t4 : tensor<18xf32> to memref<18xf32>
  %u4 = memref.cast %m4 : memref<18xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %f5 = adj.func_ref @max_pool_padding : !adj.fn<() -> tensor<24xf32>>
  %t5 = adj.call %f5() : !adj.fn<() -> tensor<24xf32>>
  %m5 = bufferization.to_buffer %t5 : tensor<24xf32> to memref<24xf32>
  %u5 = memref.cast %m5 : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  %f6 = adj.func_ref @max_pool_window_in_padding : !adj.fn<() -> tensor<9xf32>>
  %t6 = adj.call %f6() : !adj.fn<() -> tensor<9xf32>>
  %m6 = bufferization.to_buffer %t6 : tensor<9xf32> to memref<9xf32>
  %u6 = memref.cast %m6 : memref<9xf32> to memref<*xf32>
  call @printMemrefF32(%u6) : (memref<*xf32>) -> ()
  %f7 = adj.func_ref @avg_pool_count_include_pad : !adj.fn<() -> tensor<12xf32>>
  %t7 = adj.call %f7() : !adj.fn<() -> tensor<12xf32>>
  %m7 = bufferization.to_buffer %t7 : tensor<12xf32> to memref<12xf32>
  %u7 = memref.cast %m7 : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u7) : (memref<*xf32>) -> ()
  %f8 = adj.func_ref @avg_pool_bf16 : !adj.fn<() -> tensor<1xf32>>
  %t8 = adj.call %f8() : !adj.fn<() -> tensor<1xf32>>
  %m8 = bufferization.to_buffer %t8 : tensor<1xf32> to memref<1xf32>
  %u8 = memref.cast %m8 : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%u8) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
