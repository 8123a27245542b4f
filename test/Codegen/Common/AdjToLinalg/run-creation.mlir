// iota end to end: lowered by -adj-lower-to-cpu, JIT-run by mlir-runner. The
// expected values are ir-run's results of the same functions.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// Index along axis 1.
// CHECK: sizes = [12]
// CHECK-NEXT: [0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2]
adj.func @iota_f32() -> tensor<12xf32> {
  %y = adj.iota axis = 1 : tensor<2x3x2xf32>
  %flat_ = adj.reshape %y : tensor<2x3x2xf32> to tensor<12xf32>
  adj.return %flat_ : tensor<12xf32>
}

// Index along the last axis.
// CHECK: sizes = [6]
// CHECK-NEXT: [0, 1, 2, 0, 1, 2]
adj.func @iota_i64() -> tensor<6xf32> {
  %y = adj.iota axis = 1 : tensor<2x3xi64>
  %cast_ = adj.cast %y : tensor<2x3xi64> to tensor<2x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x3xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// Index along the first axis.
// CHECK: sizes = [6]
// CHECK-NEXT: [0, 0, 1, 1, 2, 2]
adj.func @iota_i32() -> tensor<6xf32> {
  %y = adj.iota axis = 0 : tensor<3x2xi32>
  %cast_ = adj.cast %y : tensor<3x2xi32> to tensor<3x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<3x2xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// i1 is "index != 0".
// CHECK: sizes = [3]
// CHECK-NEXT: [0, 1, 1]
adj.func @iota_i1() -> tensor<3xf32> {
  %y = adj.iota axis = 0 : tensor<3xi1>
  %cast_ = adj.cast %y : tensor<3xi1> to tensor<3xf32>
  adj.return %cast_ : tensor<3xf32>
}

// bf16 rounds large indices: 257 and 259 are not representable.
// CHECK: sizes = [5]
// CHECK-NEXT: [255, 256, 256, 258, 260]
adj.func @iota_bf16() -> tensor<5xf32> {
  %a = adj.iota axis = 0 : tensor<260xbf16>
  %y = adj.slice %a start = [255] limit = [260] stride = [1] : tensor<260xbf16>
  %cast_ = adj.cast %y : tensor<5xbf16> to tensor<5xf32>
  adj.return %cast_ : tensor<5xf32>
}

// f16.
// CHECK: sizes = [4]
// CHECK-NEXT: [0, 1, 2, 3]
adj.func @iota_f16() -> tensor<4xf32> {
  %y = adj.iota axis = 1 : tensor<1x4xf16>
  %cast_ = adj.cast %y : tensor<1x4xf16> to tensor<1x4xf32>
  %flat_ = adj.reshape %cast_ : tensor<1x4xf32> to tensor<4xf32>
  adj.return %flat_ : tensor<4xf32>
}

func.func @main() {
  %f0 = adj.func_ref @iota_f32 : !adj.fn<() -> tensor<12xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<12xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<12xf32> to memref<12xf32>
  %u0 = memref.cast %m0 : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @iota_i64 : !adj.fn<() -> tensor<6xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<6xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<6xf32> to memref<6xf32>
  %u1 = memref.cast %m1 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @iota_i32 : !adj.fn<() -> tensor<6xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<6xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<6xf32> to memref<6xf32>
  %u2 = memref.cast %m2 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %f3 = adj.func_ref @iota_i1 : !adj.fn<() -> tensor<3xf32>>
  %t3 = adj.call %f3() : !adj.fn<() -> tensor<3xf32>>
  %m3 = bufferization.to_buffer %t3 : tensor<3xf32> to memref<3xf32>
  %u3 = memref.cast %m3 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %f4 = adj.func_ref @iota_bf16 : !adj.fn<() -> tensor<5xf32>>
  %t4 = adj.call %f4() : !adj.fn<() -> tensor<5xf32>>
  %m4 = bufferization.to_buffer %t4 : tensor<5xf32> to memref<5xf32>
  %u4 = memref.cast %m4 : memref<5xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %f5 = adj.func_ref @iota_f16 : !adj.fn<() -> tensor<4xf32>>
  %t5 = adj.call %f5() : !adj.fn<() -> tensor<4xf32>>
  %m5 = bufferization.to_buffer %t5 : tensor<4xf32> to memref<4xf32>
  %u5 = memref.cast %m5 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
