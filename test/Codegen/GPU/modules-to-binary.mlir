// Every kernel module becomes a gpu.binary with an object per target, in
// module order and in the order of each module's targets, as upstream's
// gpu-module-to-binary makes them (here serialized together); a module
// without targets is an error.
// RUN: ir-opt %s -split-input-file -verify-diagnostics -adj-gpu-modules-to-binary=format=isa | FileCheck %s

// CHECK:     gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_80">, {{.*}}.target sm_80{{.*}}.entry first_kernel{{.*}}>, #gpu.object<#nvvm.target<chip = "sm_90">, {{.*}}.target sm_90{{.*}}.entry first_kernel{{.*}}>]
// CHECK:     gpu.binary @second [#gpu.object<#nvvm.target<chip = "sm_90">, {{.*}}.entry second_kernel{{.*}}>]
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  gpu.module @first [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
    llvm.func @first_kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @second [#nvvm.target<chip = "sm_90">] {
    llvm.func @second_kernel() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{the module has no target attributes}}
  gpu.module @untargeted {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
