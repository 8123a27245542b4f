// Barriers marked adj.global_fence order global memory as well as
// workgroup memory; the others stay for convert-gpu-to-spirv, which gives
// them WorkgroupMemory semantics. The whole path to SPIR-V keeps the wide
// semantics.
// RUN: ir-opt %s -pass-pipeline='builtin.module(gpu.module(adj-intel-global-barriers))' | FileCheck %s
// RUN: ir-opt %s -pass-pipeline='builtin.module(gpu.module(adj-intel-global-barriers),convert-gpu-to-spirv{use-64bit-index=true})' | FileCheck %s --check-prefix=SPIRV

gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64], []>, api=OpenCL, #spirv.resource_limits<>>] {
  // CHECK-LABEL: gpu.func @k
  // CHECK:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory|CrossWorkgroupMemory>
  // CHECK-NEXT:    gpu.barrier
  // CHECK-NOT:     adj.global_fence
  // SPIRV-LABEL: spirv.func @k
  // SPIRV:         spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory|CrossWorkgroupMemory>
  // SPIRV-NEXT:    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
  gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
    gpu.barrier {adj.global_fence}
    gpu.barrier
    gpu.return
  }
}
