// RUN: ir-opt %s -adj-cpu-parallel-to-runtime=min-work=1000 | FileCheck %s
// RUN: ir-opt %s -adj-cpu-parallel-to-runtime=min-work=1000 -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// The runtime entry point is declared once.
// CHECK: func.func private @adjrt_parallel_for(i64, i64, i64, (!llvm.ptr, i64, i64) -> (), !llvm.ptr)

// A large loop: its context (the descriptors of %x and %y; %c is cloned as a
// constant) is stored on the stack, allocated in the entry block, and the
// pool runs the outlined chunk over the first dimension's 64 iterations.
// CHECK-LABEL: func.func @copy(
// CHECK-SAME: %[[X:.*]]: memref<64x32xf32>, %[[Y:.*]]: memref<64x32xf32>)
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK: %[[DX:.*]] = builtin.unrealized_conversion_cast %[[X]] : memref<64x32xf32> to !llvm.struct
// CHECK: %[[PX:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: llvm.store %[[DX]], %[[PX]]
// CHECK: %[[DY:.*]] = builtin.unrealized_conversion_cast %[[Y]]
// CHECK: %[[PY:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: llvm.store %[[DY]], %[[PY]]
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[FN:.*]] = constant @copy_parallel_0 : (!llvm.ptr, i64, i64) -> ()
// CHECK: call @adjrt_parallel_for(%[[ZERO]], %[[N]], %[[ZERO]], %[[FN]], %[[CTX]])
// CHECK-NOT: scf.parallel
// CHECK: return

// The chunk: the context unpacked, iterations [begin, end) of the first
// dimension (capped at its bound), the second dimension as an inner loop.
// CHECK-LABEL: func.func private @copy_parallel_0(
// CHECK-SAME: %[[C:.*]]: !llvm.ptr, %[[B:.*]]: i64, %[[E:.*]]: i64)
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.0
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[C]][0, 0]
// CHECK: %[[L0:.*]] = llvm.load %[[P0]]
// CHECK: %[[MX:.*]] = builtin.unrealized_conversion_cast %[[L0]] : !llvm.struct<{{.*}}> to memref<64x32xf32>
// CHECK: %[[MY:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<64x32xf32>
// CHECK: %[[BI:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK: %[[LO:.*]] = arith.minsi %{{.*}}, %[[C64]]
// CHECK: %[[EI:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK: %[[HI:.*]] = arith.minsi %{{.*}}, %[[C64]]
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%[[LO]], %{{.*}}) to (%[[HI]], %{{.*}})
// CHECK: memref.load %[[MX]][%[[I]], %[[J]]]
// CHECK: arith.mulf %{{.*}}, %[[TWO]]
// CHECK: memref.store %{{.*}}, %[[MY]][%[[I]], %[[J]]]
// CHECK: return

// After the LLVM lowering no cast is left and the chunk is a plain C
// function void(void *, int64_t, int64_t), internal to its object.
// LLVM-NOT: unrealized_conversion_cast
// LLVM: llvm.call @adjrt_parallel_for
// LLVM: llvm.func internal @copy_parallel_0(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
func.func @copy(%x: memref<64x32xf32>, %y: memref<64x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<64x32xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %y[%i, %j] : memref<64x32xf32>
    scf.reduce
  }
  return
}

// Too little work (16 iterations), a loop with a reduction result, and a
// parallel loop nested in a sequential one whose own nest is small: all
// stay where they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: adjrt_parallel_for
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.parallel
// CHECK-NOT: adjrt_parallel_for
// CHECK: return
func.func @left_alone(%x: memref<16xf32>, %big: memref<4096xf32>, %m: memref<512x8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    memref.store %zero, %x[%i] : memref<16xf32>
    scf.reduce
  }
  %sum = scf.parallel (%i) = (%c0) to (%c4096) step (%c1) init (%zero) -> f32 {
    %v = memref.load %big[%i] : memref<4096xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  scf.for %i = %c0 to %c512 step %c1 {
    scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
      memref.store %zero, %m[%i, %j] : memref<512x8xf32>
      scf.reduce
    }
  }
  return %sum : f32
}
