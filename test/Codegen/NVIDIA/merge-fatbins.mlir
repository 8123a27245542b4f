// A gpu.binary of one fatbin per chip becomes one fatbin holding every
// chip's cubin and the lowest chip's PTX, with the lowest chip's target;
// binaries of one object or of other formats stay as they are. Something
// that is not a fatbin is an error.
// RUN: ir-opt %s -split-input-file -gpu-module-to-binary="format=fatbin toolkit=%cuda_toolkit" -adj-nvidia-merge-fatbins -verify-diagnostics | FileCheck %s
// REQUIRES: cuda-toolkit

// CHECK-LABEL: gpu.binary @kernels
// CHECK-SAME:    [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, "P\ED
// CHECK-NOT:     #gpu.object
// CHECK-LABEL: gpu.binary @one
// CHECK-SAME:    [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">,
// CHECK-NOT:     #gpu.object
// The merged container's entries are in test/Pipelines/lower-to-cuda.mlir
// (fatbin-entries.py and cuobjdump).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">,
                       #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %a : f32, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @one [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  func.func @f(%p: memref<f32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : memref<f32>)
    gpu.launch_func @one::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : memref<f32>)
    return
  }
}

// -----

// Assembly (PTX text) is no container: left alone.
// CHECK-LABEL: gpu.binary @text
// CHECK-SAME:    [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "a">, #gpu.object<#nvvm.target<chip = "sm_90">, assembly = "b">]
module attributes {gpu.container_module} {
  gpu.binary @text [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = "a">,
                    #gpu.object<#nvvm.target<chip = "sm_90">, assembly = "b">]
}

// -----

// Fatbins in name only: an error, not a read past their end.
module attributes {gpu.container_module} {
  // expected-error @+1 {{not a CUDA fatbin: no fatbin header}}
  gpu.binary @short [#gpu.object<#nvvm.target<chip = "sm_80">, fatbin = "P\ED">,
                     #gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "P\ED">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{not a CUDA fatbin: its sizes exceed its 16 bytes}}
  gpu.binary @sizes [#gpu.object<#nvvm.target<chip = "sm_80">, fatbin = "P\ED\55\BA\01\00\10\00\FF\00\00\00\00\00\00\00">,
                     #gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "P\ED\55\BA\01\00\10\00\FF\00\00\00\00\00\00\00">]
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{not a CUDA fatbin: an entry at byte 16 overruns the container}}
  gpu.binary @entry [#gpu.object<#nvvm.target<chip = "sm_80">, fatbin = "P\ED\55\BA\01\00\10\00\20\00\00\00\00\00\00\00\02\00\01\01\40\00\00\00\A8\0D\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\50\00\00\00">,
                     #gpu.object<#nvvm.target<chip = "sm_90">, fatbin = "P\ED\55\BA\01\00\10\00\00\00\00\00\00\00\00\00">]
}
