// Only static layouts reach kernels: captured views of dynamic layout are
// made again inside the launch, other buffers of dynamic layout become flat
// buffers indexed with their offset and strides.
// RUN: ir-opt %s -adj-gpu-kernel-layouts -split-input-file -verify-diagnostics | FileCheck %s

// A view at a dynamic offset (a row chosen by an index read from the
// device) is made again inside the kernel, which takes the base buffer.
// CHECK-LABEL: func.func @dynamic_row(
// CHECK-SAME:      %[[T:.*]]: memref<3x4xf32>, %[[ROW:.*]]: index)
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[V:.*]] = memref.subview %[[T]][%[[ROW]], 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
// CHECK:           memref.store %{{.*}}, %[[V]][%{{.*}}]
func.func @dynamic_row(%t: memref<3x4xf32>, %row: index) {
  %v = memref.subview %t[%row, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %v[%tx] : memref<4xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  return
}

// -----

// The same view still used on the host (the row of a scatter that is also
// copied there, as in the LSTM's gradient): the kernel gets its own copy
// of the view and the host keeps its own.
// CHECK-LABEL: func.func @row_also_on_host(
// CHECK-SAME:      %[[T:.*]]: memref<3x4xf32>, %[[ROW:.*]]: index, %[[D:.*]]: memref<4xf32, strided<[1], offset: ?>>)
// CHECK:         %[[H:.*]] = memref.subview %[[T]][%[[ROW]], 0]
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[V:.*]] = memref.subview %[[T]][%[[ROW]], 0] [1, 4] [1, 1]
// CHECK:           memref.store %{{.*}}, %[[V]][%{{.*}}]
// CHECK:         memref.copy %[[H]], %[[D]]
func.func @row_also_on_host(%t: memref<3x4xf32>, %row: index, %d: memref<4xf32, strided<[1], offset: ?>>) {
  %v = memref.subview %t[%row, 0] [1, 4] [1, 1] : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    memref.store %f, %v[%tx] : memref<4xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  memref.copy %v, %d : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
  return
}

// -----

// A buffer of dynamic layout that is no view made here (an argument, an
// scf.if result whose branches differ in layout) reaches the kernel as a
// flat buffer from its base pointer, with its offset and strides as
// scalars.
// CHECK-LABEL: func.func @dynamic_argument(
// CHECK-SAME:      %[[V:.*]]: memref<4xf32, strided<[?], offset: ?>>)
// CHECK:         %[[BASE:.*]], %[[OFF:.*]], %{{.*}}, %[[STRIDE:.*]] = memref.extract_strided_metadata %[[V]]
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<f32> to memref<?xf32>
// CHECK:         gpu.launch
// CHECK:           %[[M:.*]] = arith.muli %{{.*}}, %[[STRIDE]] : index
// CHECK:           %[[I:.*]] = arith.addi %[[OFF]], %[[M]] : index
// CHECK:           memref.store %{{.*}}, %[[FLAT]][%[[I]]] : memref<?xf32>
func.func @dynamic_argument(%v: memref<4xf32, strided<[?], offset: ?>>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %v[%tx] : memref<4xf32, strided<[?], offset: ?>>
    gpu.terminator
  }
  return
}

// -----

func.func @dynamic_view_in_kernel(%v: memref<4xf32, strided<[?], offset: ?>>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{a kernel can only load and store a buffer of dynamic layout 'memref<4xf32, strided<[?], offset: ?>>'}}
    %w = memref.subview %v[0] [2] [1] : memref<4xf32, strided<[?], offset: ?>> to memref<2xf32, strided<[?], offset: ?>>
    memref.store %f, %w[%tx] : memref<2xf32, strided<[?], offset: ?>>
    gpu.terminator
  }
  return
}
