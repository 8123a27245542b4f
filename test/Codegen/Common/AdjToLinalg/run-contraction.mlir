// adj.matmul with broadcast batch dimensions end to end: lowered by
// -adj-lower-to-cpu, JIT-run by mlir-runner. The expected values are ir-run's
// results of the same functions. Inputs are small integer constants, so every
// sum is exact in any summation order.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// A batch of matrices times one matrix: the batch folds into the rows of
// one linalg.matmul.
// CHECK: sizes = [36]
// CHECK-NEXT: [-3, 2, 0, -2, 10, -1, -1, 6, 0, -1, -4, -1, 4, 2, 1, 0, 4, 0, -1, -6, 2, -5, 4, 0, -2, -2, 3, 2, -6, -3, 0, 0, -2, 3, 4, -3]
adj.func @batched_lhs_one_rhs() -> tensor<36xf32> {
  %a = adj.constant dense<[[[[0.0, 1.0, 1.0, 1.0], [2.0, 1.0, 0.0, -2.0]], [[0.0, 1.0, 1.0, -1.0], [2.0, -1.0, -2.0, 1.0]], [[-2.0, 0.0, 1.0, -2.0], [-2.0, 2.0, 2.0, 0.0]]], [[[0.0, -2.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]], [[0.0, -2.0, 1.0, 0.0], [0.0, 1.0, -2.0, 2.0]], [[2.0, 0.0, -2.0, 0.0], [0.0, 2.0, -1.0, -1.0]]]]> : tensor<2x3x2x4xf32>
  %b = adj.constant dense<[[-2.0, 2.0, 0.0], [0.0, 2.0, -1.0], [-2.0, 2.0, 1.0], [-1.0, -2.0, 0.0]]> : tensor<4x3xf32>
  %y = adj.matmul %a, %b : tensor<2x3x2x4xf32>, tensor<4x3xf32>
  %flat_ = adj.reshape %y : tensor<2x3x2x3xf32> to tensor<36xf32>
  adj.return %flat_ : tensor<36xf32>
}

// One matrix times a batch: the lhs is broadcast to the batch.
// CHECK: sizes = [12]
// CHECK-NEXT: [-4, -1, 2, 4, -6, 1, -8, 2, -4, -8, 8, 2]
adj.func @one_lhs_batched_rhs() -> tensor<12xf32> {
  %a = adj.constant dense<[[2.0, 0.0, 1.0, -2.0], [0.0, -2.0, -2.0, 0.0]]> : tensor<2x4xf64>
  %b = adj.constant dense<[[[-2.0, 0.0], [-1.0, -1.0], [0.0, -1.0], [0.0, 0.0]], [[-2.0, -1.0], [2.0, -2.0], [2.0, 1.0], [2.0, -1.0]], [[0.0, -2.0], [-2.0, 1.0], [-2.0, -2.0], [1.0, 1.0]]]> : tensor<3x4x2xf64>
  %y = adj.matmul %a, %b : tensor<2x4xf64>, tensor<3x4x2xf64>
  %cast_ = adj.cast %y : tensor<3x2x2xf64> to tensor<3x2x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<3x2x2xf32> to tensor<12xf32>
  adj.return %flat_ : tensor<12xf32>
}

// Both batches broadcast: [1, 3] and [2, 1] give [2, 3].
// CHECK: sizes = [24]
// CHECK-NEXT: [2, -4, 0, 0, -2, 4, 4, -8, -1, -4, -7, 2, 3, 0, 0, 0, -3, 0, 6, 0, 0, 2, -6, 4]
adj.func @both_broadcast_i32() -> tensor<24xf32> {
  %a = adj.constant dense<[[[[-1, 1, 0], [0, 0, 0]], [[1, -1, 0], [-2, 2, 0]], [[-1, 0, -1], [2, -1, -2]]]]> : tensor<1x3x2x3xi32>
  %b = adj.constant dense<[[[[-1, 2], [1, -2], [2, 2]]], [[[-1, 0], [2, 0], [1, -2]]]]> : tensor<2x1x3x2xi32>
  %y = adj.matmul %a, %b : tensor<1x3x2x3xi32>, tensor<2x1x3x2xi32>
  %cast_ = adj.cast %y : tensor<2x3x2x2xi32> to tensor<2x3x2x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x3x2x2xf32> to tensor<24xf32>
  adj.return %flat_ : tensor<24xf32>
}

// An rhs batch of ones adds leading result dimensions only.
// CHECK: sizes = [4]
// CHECK-NEXT: [-2, -1, -2, -2]
adj.func @rhs_batch_of_ones() -> tensor<4xf32> {
  %a = adj.constant dense<[[1.0, 0.0, 1.0], [2.0, 0.0, 0.0]]> : tensor<2x3xf32>
  %b = adj.constant dense<[[[[-1.0, -1.0], [-1.0, 0.0], [-1.0, 0.0]]]]> : tensor<1x1x3x2xf32>
  %y = adj.matmul %a, %b : tensor<2x3xf32>, tensor<1x1x3x2xf32>
  %flat_ = adj.reshape %y : tensor<1x1x2x2xf32> to tensor<4xf32>
  adj.return %flat_ : tensor<4xf32>
}

// f16 accumulates in f32 like the interpreter: 2048 + 1 + 1 is 2050 (in f16
// it would stay 2048, whose ulp is 2).
// CHECK: sizes = [2]
// CHECK-NEXT: [2050, 2050]
adj.func @f16_accumulates_in_f32() -> tensor<2xf32> {
  %a = adj.constant dense<[[2048.0, 1.0, 1.0]]> : tensor<1x3xf16>
  %b = adj.fill 1.0 : tensor<2x3x1xf16>
  %y = adj.matmul %a, %b : tensor<1x3xf16>, tensor<2x3x1xf16>
  %cast_ = adj.cast %y : tensor<2x1x1xf16> to tensor<2x1x1xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x1x1xf32> to tensor<2xf32>
  adj.return %flat_ : tensor<2xf32>
}

// bf16 with equal batches.
// CHECK: sizes = [8]
// CHECK-NEXT: [1, 1, 0, 0, -4, -4, -4, -6]
adj.func @bf16_batched() -> tensor<8xf32> {
  %a = adj.constant dense<[[[2.0, 1.0, 1.0], [2.0, 0.0, 0.0]], [[2.0, 0.0, 0.0], [1.0, -1.0, 2.0]]]> : tensor<2x2x3xbf16>
  %b = adj.constant dense<[[[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]], [[-2.0, -2.0], [0.0, 0.0], [-1.0, -2.0]]]> : tensor<2x3x2xbf16>
  %y = adj.matmul %a, %b : tensor<2x2x3xbf16>, tensor<2x3x2xbf16>
  %cast_ = adj.cast %y : tensor<2x2x2xbf16> to tensor<2x2x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x2x2xf32> to tensor<8xf32>
  adj.return %flat_ : tensor<8xf32>
}

func.func @main() {
  %f0 = adj.func_ref @batched_lhs_one_rhs : !adj.fn<() -> tensor<36xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<36xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<36xf32> to memref<36xf32>
  %u0 = memref.cast %m0 : memref<36xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @one_lhs_batched_rhs : !adj.fn<() -> tensor<12xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<12xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<12xf32> to memref<12xf32>
  %u1 = memref.cast %m1 : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @both_broadcast_i32 : !adj.fn<() -> tensor<24xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<24xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<24xf32> to memref<24xf32>
  %u2 = memref.cast %m2 : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %f3 = adj.func_ref @rhs_batch_of_ones : !adj.fn<() -> tensor<4xf32>>
  %t3 = adj.call %f3() : !adj.fn<() -> tensor<4xf32>>
  %m3 = bufferization.to_buffer %t3 : tensor<4xf32> to memref<4xf32>
  %u3 = memref.cast %m3 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %f4 = adj.func_ref @f16_accumulates_in_f32 : !adj.fn<() -> tensor<2xf32>>
  %t4 = adj.call %f4() : !adj.fn<() -> tensor<2xf32>>
  %m4 = bufferization.to_buffer %t4 : tensor<2xf32> to memref<2xf32>
  %u4 = memref.cast %m4 : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %f5 = adj.func_ref @bf16_batched : !adj.fn<() -> tensor<8xf32>>
  %t5 = adj.call %f5() : !adj.fn<() -> tensor<8xf32>>
  %m5 = bufferization.to_buffer %t5 : tensor<8xf32> to memref<8xf32>
  %u5 = memref.cast %m5 : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
