// RUN: ir-opt %s -adj-cpu-outline-loops -split-input-file | FileCheck %s
// RUN: ir-opt %s -adj-cpu-outline-loops -split-input-file -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// Two nests: each becomes a call of a private function that takes the
// buffers and scalars it uses from above; constants (bounds, 2.0) are cloned
// into it, so its loops keep constant bounds. A nest with an inner loop
// moves whole.
// The constants only the nests used leave the parent.
// CHECK-LABEL: func.func @two(
// CHECK-SAME: %[[X:.*]]: memref<64x32xf32>, %[[Y:.*]]: memref<64x32xf32>, %[[S:.*]]: f32)
// CHECK-NEXT: call @two_loop_0(%[[X]], %[[Y]]) : (memref<64x32xf32>, memref<64x32xf32>) -> ()
// CHECK-NEXT: call @two_loop_1(%[[S]], %[[Y]]) : (f32, memref<64x32xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @two_loop_1(%[[S1:.*]]: f32, %[[Y1:.*]]: memref<64x32xf32>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C64]])
// CHECK: memref.store %[[S1]], %[[Y1]]
// CHECK: return
// CHECK: func.func private @two_loop_0(%[[X0:.*]]: memref<64x32xf32>, %[[Y0:.*]]: memref<64x32xf32>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.0
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C32]]
// CHECK: memref.load %[[X0]]
// CHECK: arith.mulf %{{.*}}, %[[TWO]]
// CHECK: memref.store %{{.*}}, %[[Y0]]
// CHECK-NOT: scf.for
// CHECK: return

// Lowered to the LLVM dialect, the functions are internal and never inlined.
// LLVM-LABEL: llvm.func @two(
// LLVM: llvm.call @two_loop_0(
// LLVM: llvm.call @two_loop_1(
// LLVM: llvm.func internal @two_loop_1(
// LLVM-SAME: passthrough = ["noinline"]
// LLVM: llvm.func internal @two_loop_0(
// LLVM-SAME: passthrough = ["noinline"]
func.func @two(%x: memref<64x32xf32>, %y: memref<64x32xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x32xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %y[%i, %j] : memref<64x32xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %s, %y[%i, %c0] : memref<64x32xf32>
    scf.reduce
  }
  return
}

// -----

// A loop with results (a lowered adj.for carrying a buffer) stays; the
// nests in its body are outlined, with the loop's own values (the
// induction variable, the carried buffer) as arguments.
// CHECK-LABEL: func.func @carried(
// CHECK: %[[R:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %{{.*}}) -> (memref<8xf32>)
// CHECK-NEXT: call @carried_loop_0(%[[B]], %[[T]]) : (memref<8xf32>, index) -> ()
// CHECK-NEXT: call @carried_loop_1(%[[B]]) : (memref<8xf32>) -> ()
// CHECK-NEXT: scf.yield %[[B]]
// CHECK: return %[[R]]
// CHECK-DAG: func.func private @carried_loop_1(
// CHECK-DAG: func.func private @carried_loop_0(
func.func @carried(%x: memref<8xf32>) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %t = %c0 to %c10 step %c1 iter_args(%b = %x) -> (memref<8xf32>) {
    scf.for %i = %c0 to %c8 step %c1 {
      %v = memref.load %b[%i] : memref<8xf32>
      %ti = arith.index_cast %t : index to i64
      %tf = arith.sitofp %ti : i64 to f32
      %w = arith.addf %v, %tf : f32
      memref.store %w, %b[%i] : memref<8xf32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      %v = memref.load %b[%i] : memref<8xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %b[%i] : memref<8xf32>
    }
    scf.yield %b : memref<8xf32>
  }
  return %r : memref<8xf32>
}

// -----

// One nest (a parallel chunk, a small kernel): nothing to gain.
// CHECK-LABEL: func.func @one(
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-NOT: func.func private
func.func @one(%x: memref<8xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %s, %x[%i] : memref<8xf32>
  }
  return
}
