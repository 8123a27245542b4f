// Workgroup attributions of kernels become allocs in SPIR-V Workgroup
// storage, the form convert-gpu-to-spirv lowers for OpenCL.
// RUN: ir-opt %s -split-input-file -adj-gpu-workgroup-allocs | FileCheck %s

// CHECK-LABEL: gpu.func @two_buffers
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>) kernel
// CHECK-NEXT:    %[[W0:.*]] = memref.alloc() : memref<2x3xi32, #spirv.storage_class<Workgroup>>
// CHECK-NEXT:    %[[W1:.*]] = memref.alloc() : memref<4xf32, #spirv.storage_class<Workgroup>>
// CHECK:         memref.store %{{.*}}, %[[W0]][%{{.*}}, %{{.*}}] : memref<2x3xi32, #spirv.storage_class<Workgroup>>
// CHECK:         memref.load %[[W1]][%{{.*}}] : memref<4xf32, #spirv.storage_class<Workgroup>>
// CHECK-NOT:   workgroup(
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @two_buffers(%a: memref<4xf32>)
        workgroup(%w0 : memref<2x3xi32, #gpu.address_space<workgroup>>, %w1 : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      memref.store %one, %w0[%c0, %c0] : memref<2x3xi32, #gpu.address_space<workgroup>>
      %v = memref.load %w1[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// Left alone: kernels without workgroup memory and private attributions.
// CHECK-LABEL: gpu.func @none
// CHECK-NOT:   memref.alloc
// CHECK:       private(%{{.*}} : memref<2xf32, #gpu.address_space<private>>)
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @none(%a: memref<4xf32>) private(%p : memref<2xf32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
  }
}
