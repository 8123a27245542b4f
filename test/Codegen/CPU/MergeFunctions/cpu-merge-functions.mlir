// RUN: ir-opt %s -adj-cpu-merge-functions -split-input-file | FileCheck %s

// Equal private functions (other names, other SSA names) become one, and
// every call and func.constant refers to it; a function that differs in a
// constant stays. Merging the two leaves makes their callers equal, which
// the next round merges too. Public functions are never merged.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[C:.*]]: memref<8xf32>)
// CHECK-NEXT: call @scale_a(%[[A]])
// CHECK-NEXT: call @scale_a(%[[B]])
// CHECK-NEXT: call @scale_c(%[[C]])
// CHECK-NEXT: call @outer_a(%[[A]])
// CHECK-NEXT: call @outer_a(%[[B]])
// CHECK-NEXT: %[[FN:.*]] = constant @scale_a
// CHECK-NEXT: return %[[FN]]
// CHECK: func.func private @scale_a(
// CHECK: arith.constant 2.0
// CHECK-NOT: func.func private @scale_b
// CHECK: func.func private @scale_c(
// CHECK: arith.constant 3.0
// CHECK: func.func private @outer_a(
// CHECK-NEXT: call @scale_a
// CHECK-NOT: func.func private @outer_b
// CHECK: func.func @public_a(
// CHECK: func.func @public_b(
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) -> ((memref<8xf32>) -> ()) {
  call @scale_a(%a) : (memref<8xf32>) -> ()
  call @scale_b(%b) : (memref<8xf32>) -> ()
  call @scale_c(%c) : (memref<8xf32>) -> ()
  call @outer_a(%a) : (memref<8xf32>) -> ()
  call @outer_b(%b) : (memref<8xf32>) -> ()
  %fn = func.constant @scale_b : (memref<8xf32>) -> ()
  return %fn : (memref<8xf32>) -> ()
}
func.func private @scale_a(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %x[%i] : memref<8xf32>
  }
  return
}
func.func private @scale_b(%y: memref<8xf32>) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %eight = arith.constant 8 : index
  %k = arith.constant 2.0 : f32
  scf.for %j = %zero to %eight step %one {
    %p = memref.load %y[%j] : memref<8xf32>
    %q = arith.mulf %p, %k : f32
    memref.store %q, %y[%j] : memref<8xf32>
  }
  return
}
func.func private @scale_c(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %three = arith.constant 3.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.mulf %v, %three : f32
    memref.store %w, %x[%i] : memref<8xf32>
  }
  return
}
func.func private @outer_a(%x: memref<8xf32>) {
  call @scale_a(%x) : (memref<8xf32>) -> ()
  return
}
func.func private @outer_b(%x: memref<8xf32>) {
  call @scale_b(%x) : (memref<8xf32>) -> ()
  return
}
func.func @public_a(%x: memref<8xf32>) {
  return
}
func.func @public_b(%x: memref<8xf32>) {
  return
}

// -----

// Functions that differ in an attribute (here one is never inlined) or in
// their type are not equal.
// CHECK-LABEL: func.func private @attr_a(
// CHECK: func.func private @attr_b(
// CHECK: func.func private @type_a(
// CHECK: func.func private @type_b(
func.func private @attr_a(%x: memref<8xf32>) {
  return
}
func.func private @attr_b(%x: memref<8xf32>) attributes {passthrough = ["noinline"]} {
  return
}
func.func private @type_a(%x: memref<2xf32>) {
  return
}
func.func private @type_b(%x: memref<4xf32>) {
  return
}

// -----

// A function referred to other than as a callee or a func.constant (here
// by an attribute the pass does not know) is never removed; the others
// (@pinned_c, only called) still merge.
// CHECK-LABEL: func.func @user(
// CHECK: call @pinned_a
// CHECK: call @pinned_a(%{{.*}}) {test.keep = @pinned_b}
// CHECK: func.func private @pinned_a(
// CHECK: func.func private @pinned_b(
// CHECK-NOT: func.func private
func.func @user(%x: memref<8xf32>) {
  call @pinned_a(%x) : (memref<8xf32>) -> ()
  call @pinned_c(%x) {test.keep = @pinned_b} : (memref<8xf32>) -> ()
  return
}
func.func private @pinned_a(%x: memref<8xf32>) {
  return
}
func.func private @pinned_b(%x: memref<8xf32>) {
  return
}
func.func private @pinned_c(%x: memref<8xf32>) {
  return
}
