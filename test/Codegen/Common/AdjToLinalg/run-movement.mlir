// slice, concat, pad, gather and scatter_add end to end: lowered by
// -adj-lower-to-cpu, JIT-run by mlir-runner. The expected values are ir-run's
// results of the same functions, except for the out-of-range indices, where
// the interpreter reports an error and compiled code clamps (see the last
// two cases).
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s

// Every dimension strided, starting inside.
// CHECK: sizes = [12]
// CHECK-NEXT: [102, 104, 106, 122, 124, 126, 302, 304, 306, 322, 324, 326]
adj.func @slice_strided() -> tensor<12xf32> {
  %xzero = adj.fill 0.0 : tensor<f32>
  %x0 = adj.iota axis = 0 : tensor<5x4x7xf32>
  %xw0 = adj.fill 100.0 : tensor<f32>
  %xs0 = adj.mul %x0, %xw0 : tensor<5x4x7xf32>, tensor<f32>
  %x1 = adj.iota axis = 1 : tensor<5x4x7xf32>
  %xw1 = adj.fill 10.0 : tensor<f32>
  %xs1 = adj.mul %x1, %xw1 : tensor<5x4x7xf32>, tensor<f32>
  %x2 = adj.iota axis = 2 : tensor<5x4x7xf32>
  %xp0 = adj.add %xs0, %xs1 : tensor<5x4x7xf32>, tensor<5x4x7xf32>
  %xp1 = adj.add %xp0, %x2 : tensor<5x4x7xf32>, tensor<5x4x7xf32>
  %x = adj.add %xp1, %xzero : tensor<5x4x7xf32>, tensor<f32>
  %y = adj.slice %x start = [1, 0, 2] limit = [5, 3, 7] stride = [2, 2, 2] : tensor<5x4x7xf32>
  %flat_ = adj.reshape %y : tensor<2x2x3xf32> to tensor<12xf32>
  adj.return %flat_ : tensor<12xf32>
}

// i1 elements, unit strides.
// CHECK: sizes = [3]
// CHECK-NEXT: [0, 1, 1]
adj.func @slice_i1() -> tensor<3xf32> {
  %a = adj.iota axis = 0 : tensor<6xi1>
  %y = adj.slice %a start = [0] limit = [3] stride = [1] : tensor<6xi1>
  %cast_ = adj.cast %y : tensor<3xi1> to tensor<3xf32>
  adj.return %cast_ : tensor<3xf32>
}

// Along a middle axis, with an empty input.
// CHECK: sizes = [16]
// CHECK-NEXT: [0, 1, 10, 11, 20, 21, -1, -1, 100, 101, 110, 111, 120, 121, -1, -1]
adj.func @concat_axis1() -> tensor<16xf32> {
  %azero = adj.fill 0.0 : tensor<i32>
  %a0 = adj.iota axis = 0 : tensor<2x3x2xi32>
  %aw0 = adj.fill 100.0 : tensor<i32>
  %as0 = adj.mul %a0, %aw0 : tensor<2x3x2xi32>, tensor<i32>
  %a1 = adj.iota axis = 1 : tensor<2x3x2xi32>
  %aw1 = adj.fill 10.0 : tensor<i32>
  %as1 = adj.mul %a1, %aw1 : tensor<2x3x2xi32>, tensor<i32>
  %a2 = adj.iota axis = 2 : tensor<2x3x2xi32>
  %ap0 = adj.add %as0, %as1 : tensor<2x3x2xi32>, tensor<2x3x2xi32>
  %ap1 = adj.add %ap0, %a2 : tensor<2x3x2xi32>, tensor<2x3x2xi32>
  %a = adj.add %ap1, %azero : tensor<2x3x2xi32>, tensor<i32>
  %b = adj.fill 7.0 : tensor<2x0x2xi32>
  %c = adj.fill -1.0 : tensor<2x1x2xi32>
  %y = adj.concat %a, %b, %c axis = 1 : tensor<2x3x2xi32>, tensor<2x0x2xi32>, tensor<2x1x2xi32>
  %cast_ = adj.cast %y : tensor<2x4x2xi32> to tensor<2x4x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x4x2xf32> to tensor<16xf32>
  adj.return %flat_ : tensor<16xf32>
}

// Along the first axis.
// CHECK: sizes = [9]
// CHECK-NEXT: [0, 1, 2, 0, 1, 2, 10, 11, 12]
adj.func @concat_axis0_f64() -> tensor<9xf32> {
  %azero = adj.fill 0.0 : tensor<f64>
  %a0 = adj.iota axis = 0 : tensor<1x3xf64>
  %aw0 = adj.fill 10.0 : tensor<f64>
  %as0 = adj.mul %a0, %aw0 : tensor<1x3xf64>, tensor<f64>
  %a1 = adj.iota axis = 1 : tensor<1x3xf64>
  %ap0 = adj.add %as0, %a1 : tensor<1x3xf64>, tensor<1x3xf64>
  %a = adj.add %ap0, %azero : tensor<1x3xf64>, tensor<f64>
  %bzero = adj.fill 0.0 : tensor<f64>
  %b0 = adj.iota axis = 0 : tensor<2x3xf64>
  %bw0 = adj.fill 10.0 : tensor<f64>
  %bs0 = adj.mul %b0, %bw0 : tensor<2x3xf64>, tensor<f64>
  %b1 = adj.iota axis = 1 : tensor<2x3xf64>
  %bp0 = adj.add %bs0, %b1 : tensor<2x3xf64>, tensor<2x3xf64>
  %b = adj.add %bp0, %bzero : tensor<2x3xf64>, tensor<f64>
  %y = adj.concat %a, %b axis = 0 : tensor<1x3xf64>, tensor<2x3xf64>
  %cast_ = adj.cast %y : tensor<3x3xf64> to tensor<3x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<3x3xf32> to tensor<9xf32>
  adj.return %flat_ : tensor<9xf32>
}

// The pad value converts like adj.cast: -3.7 truncates to -3.
// CHECK: sizes = [16]
// CHECK-NEXT: [-3, -3, -3, -3, 0, 1, -3, -3, 10, 11, -3, -3, -3, -3, -3, -3]
adj.func @pad_i64() -> tensor<16xf32> {
  %azero = adj.fill 0.0 : tensor<i64>
  %a0 = adj.iota axis = 0 : tensor<2x2xi64>
  %aw0 = adj.fill 10.0 : tensor<i64>
  %as0 = adj.mul %a0, %aw0 : tensor<2x2xi64>, tensor<i64>
  %a1 = adj.iota axis = 1 : tensor<2x2xi64>
  %ap0 = adj.add %as0, %a1 : tensor<2x2xi64>, tensor<2x2xi64>
  %a = adj.add %ap0, %azero : tensor<2x2xi64>, tensor<i64>
  %y = adj.pad %a low = [1, 0] high = [1, 2] value = -3.7 : tensor<2x2xi64>
  %cast_ = adj.cast %y : tensor<4x4xi64> to tensor<4x4xf32>
  %flat_ = adj.reshape %cast_ : tensor<4x4xf32> to tensor<16xf32>
  adj.return %flat_ : tensor<16xf32>
}

// A pad value beyond the range of i32 saturates.
// CHECK: sizes = [3]
// CHECK-NEXT: [-2.14748e+09, 5, -2.14748e+09]
adj.func @pad_i32_saturates() -> tensor<3xf32> {
  %a = adj.fill 5.0 : tensor<1xi32>
  %y = adj.pad %a low = [1] high = [1] value = -1.0e20 : tensor<1xi32>
  %cast_ = adj.cast %y : tensor<3xi32> to tensor<3xf32>
  adj.return %cast_ : tensor<3xf32>
}

// f16 pad value rounded to nearest.
// CHECK: sizes = [9]
// CHECK-NEXT: [0.0999756, 0, 1, 0.0999756, 10, 11, 0.0999756, 0.0999756, 0.0999756]
adj.func @pad_f16() -> tensor<9xf32> {
  %azero = adj.fill 0.0 : tensor<f16>
  %a0 = adj.iota axis = 0 : tensor<2x2xf16>
  %aw0 = adj.fill 10.0 : tensor<f16>
  %as0 = adj.mul %a0, %aw0 : tensor<2x2xf16>, tensor<f16>
  %a1 = adj.iota axis = 1 : tensor<2x2xf16>
  %ap0 = adj.add %as0, %a1 : tensor<2x2xf16>, tensor<2x2xf16>
  %a = adj.add %ap0, %azero : tensor<2x2xf16>, tensor<f16>
  %y = adj.pad %a low = [0, 1] high = [1, 0] value = 0.1 : tensor<2x2xf16>
  %cast_ = adj.cast %y : tensor<3x3xf16> to tensor<3x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<3x3xf32> to tensor<9xf32>
  adj.return %flat_ : tensor<9xf32>
}

// Axis 1 with 2-D i32 indices: result [3, 2, 2, 2].
// CHECK: sizes = [24]
// CHECK-NEXT: [30, 31, 0, 1, 20, 21, 20, 21, 130, 131, 100, 101, 120, 121, 120, 121, 230, 231, 200, 201, 220, 221, 220, 221]
adj.func @gather_axis1() -> tensor<24xf32> {
  %tzero = adj.fill 0.0 : tensor<f32>
  %t0 = adj.iota axis = 0 : tensor<3x4x2xf32>
  %tw0 = adj.fill 100.0 : tensor<f32>
  %ts0 = adj.mul %t0, %tw0 : tensor<3x4x2xf32>, tensor<f32>
  %t1 = adj.iota axis = 1 : tensor<3x4x2xf32>
  %tw1 = adj.fill 10.0 : tensor<f32>
  %ts1 = adj.mul %t1, %tw1 : tensor<3x4x2xf32>, tensor<f32>
  %t2 = adj.iota axis = 2 : tensor<3x4x2xf32>
  %tp0 = adj.add %ts0, %ts1 : tensor<3x4x2xf32>, tensor<3x4x2xf32>
  %tp1 = adj.add %tp0, %t2 : tensor<3x4x2xf32>, tensor<3x4x2xf32>
  %t = adj.add %tp1, %tzero : tensor<3x4x2xf32>, tensor<f32>
  %i = adj.constant dense<[[3, 0], [2, 2]]> : tensor<2x2xi32>
  %y = adj.gather %t[%i] axis = 1 : tensor<3x4x2xf32>, tensor<2x2xi32>
  %flat_ = adj.reshape %y : tensor<3x2x2x2xf32> to tensor<24xf32>
  adj.return %flat_ : tensor<24xf32>
}

// An i1 table, i64 indices (an embedding lookup).
// CHECK: sizes = [8]
// CHECK-NEXT: [1, 1, 1, 0, 0, 0, 1, 1]
adj.func @gather_i1_axis0() -> tensor<8xf32> {
  %t = adj.constant dense<[[true, false], [false, false], [true, true]]> : tensor<3x2xi1>
  %i = adj.constant dense<[2, 0, 1, 2]> : tensor<4xi64>
  %y = adj.gather %t[%i] axis = 0 : tensor<3x2xi1>, tensor<4xi64>
  %cast_ = adj.cast %y : tensor<4x2xi1> to tensor<4x2xf32>
  %flat_ = adj.reshape %cast_ : tensor<4x2xf32> to tensor<8xf32>
  adj.return %flat_ : tensor<8xf32>
}

// Repeated indices accumulate.
// CHECK: sizes = [12]
// CHECK-NEXT: [0.5, 1.5, 10, 11, 21.5, 22.5, 100.5, 101.5, 110, 111, 121.5, 122.5]
adj.func @scatter_add_axis1() -> tensor<12xf32> {
  %tzero = adj.fill 0.0 : tensor<f32>
  %t0 = adj.iota axis = 0 : tensor<2x3x2xf32>
  %tw0 = adj.fill 100.0 : tensor<f32>
  %ts0 = adj.mul %t0, %tw0 : tensor<2x3x2xf32>, tensor<f32>
  %t1 = adj.iota axis = 1 : tensor<2x3x2xf32>
  %tw1 = adj.fill 10.0 : tensor<f32>
  %ts1 = adj.mul %t1, %tw1 : tensor<2x3x2xf32>, tensor<f32>
  %t2 = adj.iota axis = 2 : tensor<2x3x2xf32>
  %tp0 = adj.add %ts0, %ts1 : tensor<2x3x2xf32>, tensor<2x3x2xf32>
  %tp1 = adj.add %tp0, %t2 : tensor<2x3x2xf32>, tensor<2x3x2xf32>
  %t = adj.add %tp1, %tzero : tensor<2x3x2xf32>, tensor<f32>
  %u = adj.fill 0.5 : tensor<2x4x2xf32>
  %i = adj.constant dense<[2, 0, 2, 2]> : tensor<4xi64>
  %y = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x3x2xf32>, tensor<4xi64>, tensor<2x4x2xf32>
  %flat_ = adj.reshape %y : tensor<2x3x2xf32> to tensor<12xf32>
  adj.return %flat_ : tensor<12xf32>
}

// i32 elements, 2-D indices on the last axis.
// CHECK: sizes = [6]
// CHECK-NEXT: [10, 2, 13, 120, 212, 123]
adj.func @scatter_add_i32_2d_indices() -> tensor<6xf32> {
  %tzero = adj.fill 0.0 : tensor<i32>
  %t0 = adj.iota axis = 0 : tensor<2x3xi32>
  %tw0 = adj.fill 10.0 : tensor<i32>
  %ts0 = adj.mul %t0, %tw0 : tensor<2x3xi32>, tensor<i32>
  %t1 = adj.iota axis = 1 : tensor<2x3xi32>
  %tp0 = adj.add %ts0, %t1 : tensor<2x3xi32>, tensor<2x3xi32>
  %t = adj.add %tp0, %tzero : tensor<2x3xi32>, tensor<i32>
  %uzero = adj.fill 0.0 : tensor<i32>
  %u0 = adj.iota axis = 0 : tensor<2x2x2xi32>
  %uw0 = adj.fill 100.0 : tensor<i32>
  %us0 = adj.mul %u0, %uw0 : tensor<2x2x2xi32>, tensor<i32>
  %u1 = adj.iota axis = 1 : tensor<2x2x2xi32>
  %uw1 = adj.fill 10.0 : tensor<i32>
  %us1 = adj.mul %u1, %uw1 : tensor<2x2x2xi32>, tensor<i32>
  %u2 = adj.iota axis = 2 : tensor<2x2x2xi32>
  %up0 = adj.add %us0, %us1 : tensor<2x2x2xi32>, tensor<2x2x2xi32>
  %up1 = adj.add %up0, %u2 : tensor<2x2x2xi32>, tensor<2x2x2xi32>
  %u = adj.add %up1, %uzero : tensor<2x2x2xi32>, tensor<i32>
  %i = adj.constant dense<[[1, 1], [0, 2]]> : tensor<2x2xi32>
  %y = adj.scatter_add %t[%i], %u axis = 1 : tensor<2x3xi32>, tensor<2x2xi32>, tensor<2x2x2xi32>
  %cast_ = adj.cast %y : tensor<2x3xi32> to tensor<2x3xf32>
  %flat_ = adj.reshape %cast_ : tensor<2x3xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// bf16 elements.
// CHECK: sizes = [3]
// CHECK-NEXT: [1, 1.75, -3]
adj.func @scatter_add_bf16() -> tensor<3xf32> {
  %t = adj.fill 1.0 : tensor<3xbf16>
  %u = adj.constant dense<[0.5, 0.25, -4.0]> : tensor<3xbf16>
  %i = adj.constant dense<[1, 1, 2]> : tensor<3xi32>
  %y = adj.scatter_add %t[%i], %u axis = 0 : tensor<3xbf16>, tensor<3xi32>, tensor<3xbf16>
  %cast_ = adj.cast %y : tensor<3xbf16> to tensor<3xf32>
  adj.return %cast_ : tensor<3xf32>
}

// Out of range (the interpreter reports an error): -1 reads row 0 and 7
// reads the last row, 2.
// CHECK: sizes = [6]
// CHECK-NEXT: [0, 1, 20, 21, 10, 11]
adj.func @gather_clamps() -> tensor<6xf32> {
  %tzero = adj.fill 0.0 : tensor<f32>
  %t0 = adj.iota axis = 0 : tensor<3x2xf32>
  %tw0 = adj.fill 10.0 : tensor<f32>
  %ts0 = adj.mul %t0, %tw0 : tensor<3x2xf32>, tensor<f32>
  %t1 = adj.iota axis = 1 : tensor<3x2xf32>
  %tp0 = adj.add %ts0, %t1 : tensor<3x2xf32>, tensor<3x2xf32>
  %t = adj.add %tp0, %tzero : tensor<3x2xf32>, tensor<f32>
  %i = adj.constant dense<[-1, 7, 1]> : tensor<3xi64>
  %y = adj.gather %t[%i] axis = 0 : tensor<3x2xf32>, tensor<3xi64>
  %flat_ = adj.reshape %y : tensor<3x2xf32> to tensor<6xf32>
  adj.return %flat_ : tensor<6xf32>
}

// Out of range (the interpreter reports an error): -5 adds into element 0
// and 9 into the last element.
// CHECK: sizes = [4]
// CHECK-NEXT: [1, 0, 0, 6]
adj.func @scatter_add_clamps() -> tensor<4xf32> {
  %t = adj.fill 0.0 : tensor<4xf32>
  %u = adj.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %i = adj.constant dense<[-5, 9, 9]> : tensor<3xi32>
  %y = adj.scatter_add %t[%i], %u axis = 0 : tensor<4xf32>, tensor<3xi32>, tensor<3xf32>
  adj.return %y : tensor<4xf32>
}

func.func @main() {
  %f0 = adj.func_ref @slice_strided : !adj.fn<() -> tensor<12xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<12xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<12xf32> to memref<12xf32>
  %u0 = memref.cast %m0 : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @slice_i1 : !adj.fn<() -> tensor<3xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<3xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<3xf32> to memref<3xf32>
  %u1 = memref.cast %m1 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @concat_axis1 : !adj.fn<() -> tensor<16xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<16xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<16xf32> to memref<16xf32>
  %u2 = memref.cast %m2 : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %f3 = adj.func_ref @concat_axis0_f64 : !adj.fn<() -> tensor<9xf32>>
  %t3 = adj.call %f3() : !adj.fn<() -> tensor<9xf32>>
  %m3 = bufferization.to_buffer %t3 : tensor<9xf32> to memref<9xf32>
  %u3 = memref.cast %m3 : memref<9xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %f4 = adj.func_ref @pad_i64 : !adj.fn<() -> tensor<16xf32>>
  %t4 = adj.call %f4() : !adj.fn<() -> tensor<16xf32>>
  %m4 = bufferization.to_buffer %t4 : tensor<16xf32> to memref<16xf32>
  %u4 = memref.cast %m4 : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u4) : (memref<*xf32>) -> ()
  %f5 = adj.func_ref @pad_i32_saturates : !adj.fn<() -> tensor<3xf32>>
  %t5 = adj.call %f5() : !adj.fn<() -> tensor<3xf32>>
  %m5 = bufferization.to_buffer %t5 : tensor<3xf32> to memref<3xf32>
  %u5 = memref.cast %m5 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  %f6 = adj.func_ref @pad_f16 : !adj.fn<() -> tensor<9xf32>>
  %t6 = adj.call %f6() : !adj.fn<() -> tensor<9xf32>>
  %m6 = bufferization.to_buffer %t6 : tensor<9xf32> to memref<9xf32>
  %u6 = memref.cast %m6 : memref<9xf32> to memref<*xf32>
  call @printMemrefF32(%u6) : (memref<*xf32>) -> ()
  %f7 = adj.func_ref @gather_axis1 : !adj.fn<() -> tensor<24xf32>>
  %t7 = adj.call %f7() : !adj.fn<() -> tensor<24xf32>>
  %m7 = bufferization.to_buffer %t7 : tensor<24xf32> to memref<24xf32>
  %u7 = memref.cast %m7 : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%u7) : (memref<*xf32>) -> ()
  %f8 = adj.func_ref @gather_i1_axis0 : !adj.fn<() -> tensor<8xf32>>
  %t8 = adj.call %f8() : !adj.fn<() -> tensor<8xf32>>
  %m8 = bufferization.to_buffer %t8 : tensor<8xf32> to memref<8xf32>
  %u8 = memref.cast %m8 : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u8) : (memref<*xf32>) -> ()
  %f9 = adj.func_ref @scatter_add_axis1 : !adj.fn<() -> tensor<12xf32>>
  %t9 = adj.call %f9() : !adj.fn<() -> tensor<12xf32>>
  %m9 = bufferization.to_buffer %t9 : tensor<12xf32> to memref<12xf32>
  %u9 = memref.cast %m9 : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%u9) : (memref<*xf32>) -> ()
  %f10 = adj.func_ref @scatter_add_i32_2d_indices : !adj.fn<() -> tensor<6xf32>>
  %t10 = adj.call %f10() : !adj.fn<() -> tensor<6xf32>>
  %m10 = bufferization.to_buffer %t10 : tensor<6xf32> to memref<6xf32>
  %u10 = memref.cast %m10 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u10) : (memref<*xf32>) -> ()
  %f11 = adj.func_ref @scatter_add_bf16 : !adj.fn<() -> tensor<3xf32>>
  %t11 = adj.call %f11() : !adj.fn<() -> tensor<3xf32>>
  %m11 = bufferization.to_buffer %t11 : tensor<3xf32> to memref<3xf32>
  %u11 = memref.cast %m11 : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u11) : (memref<*xf32>) -> ()
  %f12 = adj.func_ref @gather_clamps : !adj.fn<() -> tensor<6xf32>>
  %t12 = adj.call %f12() : !adj.fn<() -> tensor<6xf32>>
  %m12 = bufferization.to_buffer %t12 : tensor<6xf32> to memref<6xf32>
  %u12 = memref.cast %m12 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u12) : (memref<*xf32>) -> ()
  %f13 = adj.func_ref @scatter_add_clamps : !adj.fn<() -> tensor<4xf32>>
  %t13 = adj.call %f13() : !adj.fn<() -> tensor<4xf32>>
  %m13 = bufferization.to_buffer %t13 : tensor<4xf32> to memref<4xf32>
  %u13 = memref.cast %m13 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u13) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
