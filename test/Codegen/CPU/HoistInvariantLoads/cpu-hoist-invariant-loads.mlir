// RUN: ir-opt %s -adj-cpu-hoist-invariant-loads -split-input-file | FileCheck %s

// An embedding bag: the index load climbs out of the loop over the row's
// elements (its indices are the outer loops'), not out of the loop over the
// bag (it depends on %k). The row's loads stay: they depend on %e. The
// index buffer and the accumulator are two allocations.
// CHECK-LABEL: func.func @bag(
// CHECK: scf.parallel (%[[S:.*]]) =
// CHECK-NEXT: scf.for %[[K:.*]] =
// CHECK-NEXT: %[[R:.*]] = memref.load %[[IDX:.*]][%[[S]], %[[K]]] : memref<8x4xi64>
// CHECK-NEXT: scf.parallel (%[[E:.*]]) =
// CHECK-NEXT: memref.load %{{.*}}[%[[S]], %[[E]]] : memref<8x16xf32>
// CHECK-NEXT: arith.index_cast %[[R]]
func.func @bag(%table: memref<100x16xf32>, %ids: memref<8x4xi64>) -> memref<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %idx = memref.alloc() : memref<8x4xi64>
  memref.copy %ids, %idx : memref<8x4xi64> to memref<8x4xi64>
  %acc = memref.alloc() : memref<8x16xf32>
  scf.parallel (%s) = (%c0) to (%c8) step (%c1) {
    scf.for %k = %c0 to %c4 step %c1 {
      scf.parallel (%e) = (%c0) to (%c16) step (%c1) {
        %a = memref.load %acc[%s, %e] : memref<8x16xf32>
        %r = memref.load %idx[%s, %k] : memref<8x4xi64>
        %i = arith.index_cast %r : i64 to index
        %v = memref.load %table[%i, %e] : memref<100x16xf32>
        %sum = arith.addf %a, %v : f32
        memref.store %sum, %acc[%s, %e] : memref<8x16xf32>
        scf.reduce
      }
    }
    scf.reduce
  }
  memref.dealloc %idx : memref<8x4xi64>
  return %acc : memref<8x16xf32>
}

// -----

// The arguments of a public function are the caller's memory, which
// compiled code never writes: a load from one (here through a view) leaves
// a loop that writes another argument.
// CHECK-LABEL: func.func @caller_memory(
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<4xf32, strided<[1], offset: 2>>
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.store %[[V]]
func.func @caller_memory(%x: memref<6xf32>, %i: index, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %view = memref.subview %x[2] [4] [1] : memref<6xf32> to memref<4xf32, strided<[1], offset: 2>>
  scf.for %j = %c0 to %c8 step %c1 {
    %v = memref.load %view[%i] : memref<4xf32, strided<[1], offset: 2>>
    memref.store %v, %out[%j] : memref<8xf32>
  }
  return
}

// -----

// Negative cases. The loop writes the buffer it loads from: the load stays.
// CHECK-LABEL: func.func @written(
// CHECK: scf.for
// CHECK-NEXT: memref.load
func.func @written(%i: index) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<8xf32>
  scf.for %j = %c0 to %c8 step %c1 {
    %v = memref.load %buf[%i] : memref<8xf32>
    memref.store %v, %buf[%j] : memref<8xf32>
  }
  return %buf : memref<8xf32>
}

// -----

// A private function's arguments may alias each other: the load stays.
// CHECK-LABEL: func.func private @maybe_aliased(
// CHECK: scf.for
// CHECK-NEXT: memref.load
func.func private @maybe_aliased(%a: memref<8xf32>, %b: memref<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %j = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %b[%j] : memref<8xf32>
  }
  return
}

// -----

// A loop that may not run (bounds unknown) would not have loaded at all:
// the load stays; so does one whose index the loop computes, and one in a
// loop that calls a function (it may write anything).
// CHECK-LABEL: func.func @stays(
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N:.*]] step
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}] : memref<8xi64>
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: %[[K:.*]] = arith.addi %[[J]]
// CHECK-NEXT: memref.load %{{.*}}[%[[K]]] : memref<8xi64>
// CHECK: scf.for
// CHECK-NEXT: func.call @opaque
// CHECK-NEXT: memref.load %{{.*}}[%{{.*}}] : memref<8xi64>
func.func private @opaque()
func.func @stays(%n: index, %i: index) -> memref<8xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %src = memref.alloc() : memref<8xi64>
  %dst = memref.alloc() : memref<8xi64>
  scf.for %j = %c0 to %n step %c1 {
    %v = memref.load %src[%i] : memref<8xi64>
    memref.store %v, %dst[%j] : memref<8xi64>
  }
  scf.for %j = %c0 to %c8 step %c1 {
    %k = arith.addi %j, %c0 : index
    %v = memref.load %src[%k] : memref<8xi64>
    memref.store %v, %dst[%j] : memref<8xi64>
  }
  scf.for %j = %c0 to %c8 step %c1 {
    func.call @opaque() : () -> ()
    %v = memref.load %src[%i] : memref<8xi64>
    memref.store %v, %dst[%j] : memref<8xi64>
  }
  memref.dealloc %src : memref<8xi64>
  return %dst : memref<8xi64>
}
