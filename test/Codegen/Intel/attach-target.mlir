// Each gpu.module gets the OpenCL SPIR-V target environment (capabilities
// from the features), each kernel the workgroup size it is launched with.
// RUN: ir-opt %s -adj-intel-attach-target -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not ir-opt %s -adj-intel-attach-target="chip=cpu features=-fp64 subgroup-size=16" -split-input-file 2>&1 | FileCheck %s --check-prefix=NOFP64

// CHECK-LABEL: gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Int8, Int16, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, Float16, Float64], []>, api=OpenCL, Intel, #spirv.resource_limits<>>]
// CHECK-SAME:      spirv.target_env = #spirv.target_env<
// CHECK:         gpu.func @sized
// CHECK-SAME:      spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [128, 1, 1]>
// CHECK:         gpu.func @unsized
// CHECK-SAME:      spirv.entry_point_abi = #spirv.entry_point_abi<>
// CHECK:         gpu.func @helper
// CHECK-NOT:       spirv.entry_point_abi
// NOFP64-DAG: gpu.module @kernels [#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64, Int8, Int16, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, Float16, SubgroupDispatch], []>, api=OpenCL, Intel:CPU, #spirv.resource_limits<subgroup_size = 16>>]
// NOFP64-DAG:     spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [128, 1, 1], subgroup_size = 16>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sized(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    gpu.func @unsized(%a: memref<4xi1>) kernel {
      gpu.return
    }
    gpu.func @helper(%a: f32) {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{bf16 is not supported on opencl yet}}
    gpu.func @k(%a: memref<4xbf16>) kernel {
      gpu.return
    }
  }
}

// -----

// Without fp64 (the second RUN line) doubles are an error; with it, fine.
// CHECK: gpu.func @doubles
// NOFP64-DAG: error: f64 needs a device with fp64 (the target has -fp64)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @doubles(%a: memref<4xf64>) kernel {
      gpu.return
    }
  }
}

// -----

// RUN: not ir-opt %s -adj-intel-attach-target="features=+fp128" 2>&1 | FileCheck %s --check-prefix=BADFEATURE
// BADFEATURE: unknown opencl feature 'fp128' (known: fp16, fp64)
// RUN: not ir-opt %s -adj-intel-attach-target="chip=gfx942" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// BADCHIP: unknown opencl chip 'gfx942' (known: cpu, integrated, discrete)
module {}
