// Outlined kernels named after host functions with any symbol name become
// C identifiers (PTX and AMDGPU assembly reject others), launches follow.
// RUN: ir-opt %s -split-input-file -adj-gpu-kernel-names | FileCheck %s

// CHECK-LABEL: func.func @"host<lambda>"
// CHECK:         gpu.launch_func @f__lambda__kernel::@f__lambda__kernel
// CHECK:         gpu.launch_func @f__lambda__kernel_0::@k_1
// CHECK:       gpu.module @f__lambda__kernel {
// CHECK:         gpu.func @f__lambda__kernel() kernel
// CHECK:       gpu.module @f__lambda__kernel_0 {
// CHECK:         gpu.func @k_1() kernel
// CHECK:         gpu.func @"not a kernel"()
module attributes {gpu.container_module} {
  func.func @"host<lambda>"() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"f.<lambda>_kernel"::@"f.<lambda>_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @"f.<lambda>-kernel"::@"k-1" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @"f.<lambda>_kernel" {
    gpu.func @"f.<lambda>_kernel"() kernel { gpu.return }
  }
  // Sanitized to the name of the module above: it gets a suffix.
  gpu.module @"f.<lambda>-kernel" {
    gpu.func @"k-1"() kernel { gpu.return }
    gpu.func @"not a kernel"() { gpu.return }
  }
}

// -----

// Identifiers are kept; a leading digit gets an underscore.
// CHECK-LABEL: func.func @host
// CHECK:         gpu.launch_func @model_kernel::@model_kernel
// CHECK:         gpu.launch_func @_0m::@_1k
// CHECK:       gpu.module @model_kernel {
// CHECK:       gpu.module @_0m {
module attributes {gpu.container_module} {
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @model_kernel::@model_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @"0m"::@"1k" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @model_kernel {
    gpu.func @model_kernel() kernel { gpu.return }
  }
  gpu.module @"0m" {
    gpu.func @"1k"() kernel { gpu.return }
  }
}
