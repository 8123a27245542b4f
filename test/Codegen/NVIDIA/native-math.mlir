// Calls of libdevice functions that PTX has instructions for become LLVM
// intrinsics (f32 and f64), their declarations go; other calls stay.
// RUN: ir-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(adj-nvidia-native-math))' | FileCheck %s

// CHECK-LABEL: gpu.module @kernels
// CHECK-NOT:     llvm.func @__nv_sqrtf
// CHECK-NOT:     llvm.func @__nv_fmod(
// CHECK-NOT:     llvm.func @__nv_rsqrtf
// CHECK-NOT:     llvm.func @__nv_fmaf
// CHECK-NOT:     llvm.func @__nv_floor(
// CHECK-NOT:     llvm.func @__nv_abs(
// CHECK-NOT:     llvm.func @__nv_llabs(
// CHECK:         llvm.func @__nv_exp(f64) -> f64
// CHECK-LABEL:   llvm.func @k
// CHECK:           %[[S:.*]] = llvm.intr.sqrt(%[[X:.*]]) : (f32) -> f32
// CHECK:           %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK:           %[[Q:.*]] = llvm.intr.sqrt(%[[S]]) : (f32) -> f32
// CHECK:           %[[R:.*]] = llvm.fdiv %[[ONE]], %[[Q]] : f32
// CHECK:           %[[F:.*]] = llvm.intr.fma(%[[R]], %[[X]], %[[X]]) : (f32, f32, f32) -> f32
// CHECK:           %[[M:.*]] = llvm.frem %[[D:.*]], %[[D]] : f64
// CHECK:           %[[FL:.*]] = llvm.intr.floor(%[[M]]) : (f64) -> f64
// CHECK:           llvm.call @__nv_exp(%[[FL]]) : (f64) -> f64
// CHECK:           "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK:           "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i64) -> i64
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @__nv_sqrtf(f32) -> f32
    llvm.func @__nv_rsqrtf(f32) -> f32
    llvm.func @__nv_fmaf(f32, f32, f32) -> f32
    llvm.func @__nv_fmod(f64, f64) -> f64
    llvm.func @__nv_floor(f64) -> f64
    llvm.func @__nv_exp(f64) -> f64
    llvm.func @__nv_abs(i32) -> i32
    llvm.func @__nv_llabs(i64) -> i64
    llvm.func @k(%a: !llvm.ptr, %b: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %a : !llvm.ptr -> f32
      %s = llvm.call @__nv_sqrtf(%x) : (f32) -> f32
      %r = llvm.call @__nv_rsqrtf(%s) : (f32) -> f32
      %f = llvm.call @__nv_fmaf(%r, %x, %x) : (f32, f32, f32) -> f32
      llvm.store %f, %a : f32, !llvm.ptr
      %d = llvm.load %b : !llvm.ptr -> f64
      %m = llvm.call @__nv_fmod(%d, %d) : (f64, f64) -> f64
      %fl = llvm.call @__nv_floor(%m) : (f64) -> f64
      %e = llvm.call @__nv_exp(%fl) : (f64) -> f64
      llvm.store %e, %b : f64, !llvm.ptr
      %i = llvm.load %a : !llvm.ptr -> i32
      %ia = llvm.call @__nv_abs(%i) : (i32) -> i32
      llvm.store %ia, %a : i32, !llvm.ptr
      %l = llvm.load %b : !llvm.ptr -> i64
      %la = llvm.call @__nv_llabs(%l) : (i64) -> i64
      llvm.store %la, %b : i64, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// Transcendentals, and functions of other names, are no instructions: the
// calls stay (-adj-nvidia-attach-target reports them without libdevice).
// CHECK-LABEL: gpu.module @left
// CHECK:         llvm.func @__nv_expf(f32) -> f32
// CHECK:         llvm.func @__nv_powf(f32, f32) -> f32
// CHECK:         llvm.func @sqrtf(f32) -> f32
// CHECK:         llvm.call @__nv_expf
// CHECK:         llvm.call @__nv_powf
// CHECK:         llvm.call @sqrtf
module attributes {gpu.container_module} {
  gpu.module @left {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @__nv_powf(f32, f32) -> f32
    llvm.func @sqrtf(f32) -> f32
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %a : !llvm.ptr -> f32
      %e = llvm.call @__nv_expf(%x) : (f32) -> f32
      %p = llvm.call @__nv_powf(%e, %x) : (f32, f32) -> f32
      %s = llvm.call @sqrtf(%p) : (f32) -> f32
      llvm.store %s, %a : f32, !llvm.ptr
      llvm.return
    }
  }
}
