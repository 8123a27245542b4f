// ocml calls of functions AMDGPU selects natively become LLVM intrinsics
// (f16, f32 and f64 alike); transcendentals, calls whose suffix does not
// match their type and other functions stay, with their declarations.
// RUN: ir-opt %s -pass-pipeline='builtin.module(gpu.module(adj-amd-native-math))' | FileCheck %s

// CHECK-LABEL: gpu.module @m
// CHECK-NOT:     llvm.func @__ocml_floor_f32
// CHECK-NOT:     llvm.func @__ocml_rsqrt_f64
// CHECK-NOT:     llvm.func @__ocml_fmod_f16
// CHECK-DAG:     llvm.func @__ocml_exp_f64(f64) -> f64
// CHECK-DAG:     llvm.func @__ocml_sqrt_f64(f32) -> f32
// CHECK-DAG:     llvm.func @helper(f32) -> f32
// CHECK:         %[[F:.*]] = llvm.intr.floor(%{{.*}}) : (f32) -> f32
// CHECK:         %[[S:.*]] = llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
// CHECK:         %[[R:.*]] = llvm.fdiv %{{.*}}, %[[S]] : f64
// CHECK:         llvm.frem %{{.*}}, %{{.*}} : f16
// CHECK:         llvm.intr.fma(%[[F]], %[[F]], %[[F]]) : (f32, f32, f32) -> f32
// CHECK:         llvm.call @__ocml_exp_f64(%[[R]])
// CHECK:         llvm.call @__ocml_sqrt_f64(%[[F]]) : (f32) -> f32
// CHECK:         llvm.call @helper(%[[F]])
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @__ocml_floor_f32(f32) -> f32
    llvm.func @__ocml_rsqrt_f64(f64) -> f64
    llvm.func @__ocml_fmod_f16(f16, f16) -> f16
    llvm.func @__ocml_fma_f32(f32, f32, f32) -> f32
    llvm.func @__ocml_exp_f64(f64) -> f64
    llvm.func @__ocml_sqrt_f64(f32) -> f32
    llvm.func @helper(f32) -> f32
    llvm.func @k(%x: f32, %d: f64, %h: f16) attributes {gpu.kernel, rocdl.kernel} {
      %f = llvm.call @__ocml_floor_f32(%x) : (f32) -> f32
      %r = llvm.call @__ocml_rsqrt_f64(%d) : (f64) -> f64
      %m = llvm.call @__ocml_fmod_f16(%h, %h) : (f16, f16) -> f16
      %a = llvm.call @__ocml_fma_f32(%f, %f, %f) : (f32, f32, f32) -> f32
      %e = llvm.call @__ocml_exp_f64(%r) : (f64) -> f64
      %w = llvm.call @__ocml_sqrt_f64(%f) : (f32) -> f32
      %g = llvm.call @helper(%f) : (f32) -> f32
      llvm.return
    }
  }
}
