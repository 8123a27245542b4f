// adj.scatter end to end: lowered by -adj-lower-to-cpu, JIT-run by
// mlir-runner. The expected values are ir-run's (second RUN line) except
// for the clamped out-of-range indices of the last case.
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s
// RUN: ir-run %s -f modes | FileCheck %s --check-prefix=INTERP

// Repeated index 1: set's last update wins (7), mul multiplies both
// (2 * 3 * 4), min and max keep the extreme of the slot and both updates.
// Rows: set, mul, min, max of the target [1, 2, 3, 4].
// CHECK: sizes = [16]
// CHECK-NEXT: [1, 7, 5, 4, 1, 24, 15, 4, 1, 2, -1, 4, 1, 4, 5, 4]
// INTERP: tensor<16xf32> [1, 7, 5, 4, 1, 24, 15, 4, 1, 2, -1, 4, 1, 4, 5, 4]
adj.func @modes() -> tensor<16xf32> {
  %t = adj.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = adj.constant dense<[1, 2, 1]> : tensor<3xi64>
  %u = adj.constant dense<[3.0, 5.0, 7.0]> : tensor<3xf32>
  %um = adj.constant dense<[3.0, 5.0, 4.0]> : tensor<3xf32>
  %un = adj.constant dense<[3.0, -1.0, 4.0]> : tensor<3xf32>
  %s = adj.scatter set %t[%i], %u axis = 0 : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  %m = adj.scatter mul %t[%i], %um axis = 0 : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  %n = adj.scatter min %t[%i], %un axis = 0 : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  %x = adj.scatter max %t[%i], %um axis = 0 : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  %c = adj.concat %s, %m, %n, %x axis = 0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  adj.return %c : tensor<16xf32>
}

// Rows of i32 along axis 1, max with a repeated index.
// CHECK: sizes = [6]
// CHECK-NEXT: [0, 9, 2, 10, 11, 12]
adj.func @max_i32_axis1() -> tensor<6xf32> {
  %t0 = adj.iota axis = 1 : tensor<2x3xi32>
  %t1 = adj.iota axis = 0 : tensor<2x3xi32>
  %ten = adj.fill 10.0 : tensor<i32>
  %t2 = adj.mul %t1, %ten : tensor<2x3xi32>, tensor<i32>
  %t = adj.add %t0, %t2 : tensor<2x3xi32>, tensor<2x3xi32>
  %i = adj.constant dense<[1, 1]> : tensor<2xi64>
  %u = adj.constant dense<[[9, 4], [3, 5]]> : tensor<2x2xi32>
  %y = adj.scatter max %t[%i], %u axis = 1 : tensor<2x3xi32>, tensor<2xi64>, tensor<2x2xi32>
  %f = adj.cast %y : tensor<2x3xi32> to tensor<2x3xf32>
  %flat = adj.reshape %f : tensor<2x3xf32> to tensor<6xf32>
  adj.return %flat : tensor<6xf32>
}

// Out of range (the interpreter reports an error): -3 sets element 0 and
// 8 the last.
// CHECK: sizes = [4]
// CHECK-NEXT: [5, 0, 0, 6]
adj.func @set_clamps() -> tensor<4xf32> {
  %t = adj.fill 0.0 : tensor<4xf32>
  %u = adj.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %i = adj.constant dense<[-3, 8]> : tensor<2xi32>
  %y = adj.scatter set %t[%i], %u axis = 0 : tensor<4xf32>, tensor<2xi32>, tensor<2xf32>
  adj.return %y : tensor<4xf32>
}

func.func @main() {
  %f0 = adj.func_ref @modes : !adj.fn<() -> tensor<16xf32>>
  %t0 = adj.call %f0() : !adj.fn<() -> tensor<16xf32>>
  %m0 = bufferization.to_buffer %t0 : tensor<16xf32> to memref<16xf32>
  %u0 = memref.cast %m0 : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %f1 = adj.func_ref @max_i32_axis1 : !adj.fn<() -> tensor<6xf32>>
  %t1 = adj.call %f1() : !adj.fn<() -> tensor<6xf32>>
  %m1 = bufferization.to_buffer %t1 : tensor<6xf32> to memref<6xf32>
  %u1 = memref.cast %m1 : memref<6xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %f2 = adj.func_ref @set_clamps : !adj.fn<() -> tensor<4xf32>>
  %t2 = adj.call %f2() : !adj.fn<() -> tensor<4xf32>>
  %m2 = bufferization.to_buffer %t2 : tensor<4xf32> to memref<4xf32>
  %u2 = memref.cast %m2 : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
