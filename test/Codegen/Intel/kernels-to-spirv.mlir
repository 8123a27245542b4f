// Each gpu.module gets its SPIR-V module inside and keeps empty kernel
// stubs for the launches. Complex values are vector<2xf32> in memory and in
// registers: their loads, parts and selects convert in one conversion.
// RUN: ir-opt %s -adj-intel-kernels-to-spirv | FileCheck %s

// CHECK-LABEL: gpu.module @kernels
// CHECK:         spirv.module @__spv__kernels Physical64 OpenCL
// CHECK:           spirv.func @k(%[[A:.*]]: !spirv.ptr<!spirv.array<4 x vector<2xf32>>, CrossWorkgroup>, %[[I:.*]]: i64, %[[C:.*]]: i1)
// CHECK:             %[[P:.*]] = spirv.AccessChain %[[A]][%[[I]]]
// CHECK:             %[[Z:.*]] = spirv.Load "CrossWorkgroup" %[[P]] : vector<2xf32>
// CHECK:             spirv.CompositeExtract %[[Z]][0 : i32] : vector<2xf32>
// CHECK:             spirv.CompositeExtract %[[Z]][1 : i32] : vector<2xf32>
// CHECK:             %[[SRE:.*]] = spirv.Select %[[C]], %{{.*}}, %{{.*}} : i1, f32
// CHECK:             %[[SIM:.*]] = spirv.Select %[[C]], %{{.*}}, %{{.*}} : i1, f32
// CHECK:             %[[W:.*]] = spirv.CompositeConstruct %[[SRE]], %[[SIM]] : (f32, f32) -> vector<2xf32>
// CHECK:             spirv.Store "CrossWorkgroup" %{{.*}}, %[[W]] : vector<2xf32>
// CHECK:         func.func @k(%{{.*}}: memref<4xcomplex<f32>>, %{{.*}}: index, %{{.*}}: i1) attributes {gpu.kernel}
// CHECK-NEXT:      return
// CHECK-NOT:     gpu.func
gpu.module @kernels attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64], []>, api=OpenCL, #spirv.resource_limits<>>} {
  gpu.func @k(%a: memref<4xcomplex<f32>>, %i: index, %c: i1) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
    %z = memref.load %a[%i] : memref<4xcomplex<f32>>
    %re = complex.re %z : complex<f32>
    %im = complex.im %z : complex<f32>
    %swapped = complex.create %im, %re : complex<f32>
    %w = arith.select %c, %swapped, %z : complex<f32>
    memref.store %w, %a[%i] : memref<4xcomplex<f32>>
    gpu.return
  }
}
