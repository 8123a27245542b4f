// Calls of declarations marked adj.linear_algebra become one launch each,
// a workgroup per matrix of the batch, with scratch allocated around the
// launch, behind the runtime's choice of route; the declarations go. What the kernels compute is checked against
// the interpreter by the conformance suite (test/unit/Conformance/
// LinearAlgebraTest.cpp), on OpenCL in every run.
// RUN: ir-opt %s -adj-gpu-linear-algebra -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-NOT: adj.linear_algebra
// CHECK-LABEL: func.func @cholesky(
// CHECK-SAME: %[[A:.*]]: memref<3x4x4xf32>, %[[L:.*]]: memref<3x4x4xf32>)
// The runtime chooses the route: op 1 (cholesky), dtype 1 (f32), the
// addresses of A and L, no more buffers, the kernel's scalars (zeros for
// those it has not); the kernels run unless it returns 0 (a library
// computed the result).
// CHECK-DAG: %[[OP:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[APTR:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[LPTR:.*]] = memref.extract_aligned_pointer_as_index %[[L]]
// CHECK: %[[TICKET:.*]] = call @adj_rt_gpu_linalg_begin(%[[OP]], %{{.*}}, %{{.*}}, %{{.*}}, %[[NULL]], %[[NULL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64) -> i64
// CHECK: %[[KERNELS:.*]] = arith.cmpi ne, %[[TICKET]], %{{.*}} : i64
// CHECK: scf.if %[[KERNELS]] {
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[WARP:.*]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[THREE]],
// CHECK-SAME: threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[WARP]],
// The lower triangle copied, then one column per step with barriers that
// order the global memory the matrix is in.
// CHECK: memref.load %[[A]]
// CHECK: gpu.barrier {adj.global_fence}
// CHECK: scf.for
// CHECK: math.sqrt
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %[[L]]
// CHECK: call @adj_rt_gpu_linalg_end(%[[TICKET]]) : (i64) -> ()
// CHECK: return
func.func private @chol_kernel(memref<3x4x4xf32>, memref<3x4x4xf32>, i64, i64)
    attributes {adj.linear_algebra = "cholesky"}
func.func @cholesky(%a: memref<3x4x4xf32>, %l: memref<3x4x4xf32>) {
  %batch = arith.constant 3 : i64
  %n = arith.constant 4 : i64
  call @chol_kernel(%a, %l, %batch, %n) : (memref<3x4x4xf32>, memref<3x4x4xf32>, i64, i64) -> ()
  return
}

// -----

// lu: the chosen pivot row reaches every work item through workgroup
// memory.
// CHECK-LABEL: func.func @lu(
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[SLOT:.*]] : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[SLOT]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SLOT]]
func.func private @lu_kernel(memref<5x3xf64>, memref<5x3xf64>, memref<3xi32>, memref<5xi32>, i64, i64, i64)
    attributes {adj.linear_algebra = "lu"}
func.func @lu(%a: memref<5x3xf64>, %lu: memref<5x3xf64>, %p: memref<3xi32>, %q: memref<5xi32>) {
  %one = arith.constant 1 : i64
  %m = arith.constant 5 : i64
  %n = arith.constant 3 : i64
  call @lu_kernel(%a, %lu, %p, %q, %one, %m, %n) : (memref<5x3xf64>, memref<5x3xf64>, memref<3xi32>, memref<5xi32>, i64, i64, i64) -> ()
  return
}

// -----

// qr keeps its reflectors' scales in global scratch, one row per matrix,
// freed after the launch.
// CHECK-LABEL: func.func @qr(
// CHECK: %[[TAU:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[TAU]]
// CHECK: gpu.terminator
// CHECK: memref.dealloc %[[TAU]]
func.func private @qr_kernel(memref<2x5x3xf32>, memref<2x5x3xf32>, memref<2x3x3xf32>, i64, i64, i64, i64)
    attributes {adj.linear_algebra = "qr"}
func.func @qr(%a: memref<2x5x3xf32>, %q: memref<2x5x3xf32>, %r: memref<2x3x3xf32>) {
  %two = arith.constant 2 : i64
  %m = arith.constant 5 : i64
  %n = arith.constant 3 : i64
  %reduced = arith.constant 0 : i64
  call @qr_kernel(%a, %q, %r, %two, %m, %n, %reduced) : (memref<2x5x3xf32>, memref<2x5x3xf32>, memref<2x3x3xf32>, i64, i64, i64, i64) -> ()
  return
}

// -----

// eigh without vectors: the working matrix and the rotations, no V; the
// sweeps' rotation flags in workgroup memory, one per work item, and a
// slot saying whether the input has a NaN or an infinity.
// CHECK-LABEL: func.func @eigvalsh(
// CHECK: memref.alloc() : memref<6x6xf64>
// CHECK-NEXT: memref.alloc() : memref<6xf64>
// CHECK-NEXT: arith.constant
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%{{.*}} : memref<32xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>)
func.func private @eigh_kernel(memref<6x6xf64>, memref<6xf64>, memref<6x6xf64>, i64, i64, i64, i64)
    attributes {adj.linear_algebra = "eigh"}
func.func @eigvalsh(%a: memref<6x6xf64>, %w: memref<6xf64>, %v: memref<6x6xf64>) {
  %one = arith.constant 1 : i64
  %n = arith.constant 6 : i64
  %no = arith.constant 0 : i64
  call @eigh_kernel(%a, %w, %v, %one, %n, %no, %no) : (memref<6x6xf64>, memref<6xf64>, memref<6x6xf64>, i64, i64, i64, i64) -> ()
  return
}

// -----

// svd with vectors: two kernels sharing the scratch (rotations, values and
// vectors; then the completion of the basis and the signs), freed after
// the second.
// CHECK-LABEL: func.func @svd(
// CHECK: %[[X:.*]] = memref.alloc() : memref<5x3xf32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[X]]
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: memref.dealloc %[[X]]
func.func private @svd_kernel(memref<5x3xf32>, memref<5x5xf32>, memref<3xf32>, memref<3x3xf32>, i64, i64, i64, i64, i64)
    attributes {adj.linear_algebra = "svd"}
func.func @svd(%a: memref<5x3xf32>, %u: memref<5x5xf32>, %s: memref<3xf32>, %vh: memref<3x3xf32>) {
  %one = arith.constant 1 : i64
  %m = arith.constant 5 : i64
  %n = arith.constant 3 : i64
  call @svd_kernel(%a, %u, %s, %vh, %one, %m, %n, %one, %one) : (memref<5x3xf32>, memref<5x5xf32>, memref<3xf32>, memref<3x3xf32>, i64, i64, i64, i64, i64) -> ()
  return
}

// -----

// An empty batch launches nothing.
// CHECK-LABEL: func.func @empty(
// CHECK-NOT: gpu.launch
// CHECK-NOT: call
// CHECK: return
func.func private @empty_kernel(memref<0x3x3xf32>, memref<0x3x3xf32>, i64, i64)
    attributes {adj.linear_algebra = "cholesky"}
func.func @empty(%a: memref<0x3x3xf32>, %l: memref<0x3x3xf32>) {
  %zero = arith.constant 0 : i64
  %n = arith.constant 3 : i64
  call @empty_kernel(%a, %l, %zero, %n) : (memref<0x3x3xf32>, memref<0x3x3xf32>, i64, i64) -> ()
  return
}

// -----

func.func private @half_kernel(memref<3x3xf16>, memref<3x3xf16>, i64, i64)
    attributes {adj.linear_algebra = "cholesky"}
func.func @half(%a: memref<3x3xf16>, %l: memref<3x3xf16>) {
  %one = arith.constant 1 : i64
  %n = arith.constant 3 : i64
  // expected-error @+1 {{-adj-gpu-linear-algebra computes in f32 or f64, real or complex, not 'f16'}}
  call @half_kernel(%a, %l, %one, %n) : (memref<3x3xf16>, memref<3x3xf16>, i64, i64) -> ()
  return
}

// -----

func.func private @odd_kernel(memref<3x3xf32>, memref<3x3xf32>, i64, i64)
    attributes {adj.linear_algebra = "cholesky"}
func.func @dynamic(%a: memref<3x3xf32>, %l: memref<3x3xf32>, %n: i64) {
  %one = arith.constant 1 : i64
  // expected-error @+1 {{-adj-gpu-linear-algebra needs constant sizes and flags in a call of odd_kernel}}
  call @odd_kernel(%a, %l, %one, %n) : (memref<3x3xf32>, memref<3x3xf32>, i64, i64) -> ()
  return
}

// -----

// expected-error @+1 {{unknown linear algebra kernel 'lq'}}
func.func private @lq_kernel(memref<3x3xf32>, memref<3x3xf32>, i64, i64)
    attributes {adj.linear_algebra = "lq"}
func.func @lq(%a: memref<3x3xf32>, %l: memref<3x3xf32>) {
  %one = arith.constant 1 : i64
  %n = arith.constant 3 : i64
  call @lq_kernel(%a, %l, %one, %n) : (memref<3x3xf32>, memref<3x3xf32>, i64, i64) -> ()
  return
}

// -----

// An FFT's call only asks for the route (op 7, dtype 1: f32, the parts of
// complex<f32>) and gives the ticket to its caller, which runs the
// generated FFT itself where the ticket asks for the kernels and ends the
// route (-adj-to-linalg, AdjToLinalg/fft-gpu.mlir).
// CHECK-LABEL: func.func @fft(
// CHECK-SAME: %[[IN:.*]]: memref<3x4xcomplex<f32>>, %[[OUT:.*]]: memref<3x4xcomplex<f32>>) -> i64
// CHECK-DAG: %[[OP:.*]] = arith.constant 7 : i32
// CHECK-DAG: %[[F32:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[INPTR:.*]] = memref.extract_aligned_pointer_as_index %[[IN]]
// CHECK-DAG: %[[OUTPTR:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[T:.*]] = call @adj_rt_gpu_linalg_begin(%[[OP]], %[[F32]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: scf.if
// CHECK-NOT: gpu.launch
// CHECK-NOT: adj_rt_gpu_linalg_end
// CHECK: return %[[T]] : i64
func.func private @fft_kernel(memref<3x4xcomplex<f32>>, memref<3x4xcomplex<f32>>, i64, i64, i64, i64, i64, i64) -> i64 attributes {adj.linear_algebra = "fft"}
func.func @fft(%in: memref<3x4xcomplex<f32>>, %out: memref<3x4xcomplex<f32>>) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %t = call @fft_kernel(%in, %out, %c3, %c0, %c1, %c4, %c1, %c1) : (memref<3x4xcomplex<f32>>, memref<3x4xcomplex<f32>>, i64, i64, i64, i64, i64, i64) -> i64
  return %t : i64
}

// -----

// Complex matrices have no kernels: the call asks for the route (op 5:
// eigh, dtype 8: c128) and ends it; the runtime computes the result with a
// library whatever the route.
// CHECK-LABEL: func.func @complex_eigh(
// CHECK-DAG: %[[OP:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[C128:.*]] = arith.constant 8 : i32
// CHECK: %[[T:.*]] = call @adj_rt_gpu_linalg_begin(%[[OP]], %[[C128]],
// CHECK-NOT: scf.if
// CHECK-NOT: gpu.launch
// CHECK: call @adj_rt_gpu_linalg_end(%[[T]])
func.func private @eigh_kernel(memref<2x3x3xcomplex<f64>>, memref<2x3xf64>, memref<2x3x3xcomplex<f64>>, i64, i64, i64, i64) attributes {adj.linear_algebra = "eigh"}
func.func @complex_eigh(%a: memref<2x3x3xcomplex<f64>>, %w: memref<2x3xf64>, %v: memref<2x3x3xcomplex<f64>>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  call @eigh_kernel(%a, %w, %v, %c2, %c3, %c0, %c1) : (memref<2x3x3xcomplex<f64>>, memref<2x3xf64>, memref<2x3x3xcomplex<f64>>, i64, i64, i64, i64) -> ()
  return
}

// -----

// eig has no kernels on GPUs (as in JAX), for real matrices too: the call
// asks for the route (op 8, dtype 0: f64) and ends it.
// CHECK-LABEL: func.func @eig(
// CHECK-DAG: %[[OP:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[F64:.*]] = arith.constant 0 : i32
// CHECK: %[[T:.*]] = call @adj_rt_gpu_linalg_begin(%[[OP]], %[[F64]],
// CHECK-NOT: gpu.launch
// CHECK: call @adj_rt_gpu_linalg_end(%[[T]])
func.func private @eig_kernel(memref<4x4xf64>, memref<4xcomplex<f64>>, memref<4x4xcomplex<f64>>, i64, i64, i64) attributes {adj.linear_algebra = "eig"}
func.func @eig(%a: memref<4x4xf64>, %w: memref<4xcomplex<f64>>, %v: memref<4x4xcomplex<f64>>) {
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i64
  call @eig_kernel(%a, %w, %v, %c1, %c4, %c1) : (memref<4x4xf64>, memref<4xcomplex<f64>>, memref<4x4xcomplex<f64>>, i64, i64, i64) -> ()
  return
}
