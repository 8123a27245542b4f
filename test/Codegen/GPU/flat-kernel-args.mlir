// A kernel's flat memref<?xT> arguments (-adj-gpu-kernel-layouts) become
// pointers (0-d memrefs) reinterpreted with the largest extent; static
// shapes and non-kernels are left alone; a use that needs the extent is an
// error.
// RUN: ir-opt %s -split-input-file -pass-pipeline='builtin.module(gpu.module(adj-gpu-flat-kernel-args))' -verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.func @k(
// CHECK-SAME:      %[[I:.*]]: index, %[[P:.*]]: memref<f32>, %[[H:.*]]: memref<f16>, %[[S:.*]]: memref<4xf32>) kernel
// CHECK-DAG:     %[[N4:.*]] = arith.constant 2305843009213693951 : index
// CHECK-DAG:     %[[B:.*]] = memref.reinterpret_cast %[[P]] to offset: [0], sizes: [%[[N4]]], strides: [1] : memref<f32> to memref<?xf32>
// CHECK-DAG:     %[[N2:.*]] = arith.constant 4611686018427387903 : index
// CHECK-DAG:     %[[HB:.*]] = memref.reinterpret_cast %[[H]] to offset: [0], sizes: [%[[N2]]], strides: [1] : memref<f16> to memref<?xf16>
// CHECK:         %[[V:.*]] = memref.load %[[B]][%[[I]]] : memref<?xf32>
// CHECK:         memref.store %[[V]], %[[S]][%[[I]]] : memref<4xf32>
// CHECK:         memref.store %{{.*}}, %[[HB]][%[[I]]] : memref<?xf16>
// CHECK-LABEL: gpu.func @helper(
// CHECK-SAME:      memref<?xf32>)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%i: index, %b: memref<?xf32>, %h: memref<?xf16>, %s: memref<4xf32>) kernel {
      %v = memref.load %b[%i] : memref<?xf32>
      memref.store %v, %s[%i] : memref<4xf32>
      %w = arith.truncf %v : f32 to f16
      memref.store %w, %h[%i] : memref<?xf16>
      gpu.return
    }
    gpu.func @helper(%b: memref<?xf32>) {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%b: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{a kernel on CUDA or HIP only loads and stores its argument #0 of type 'memref<?xf32>' (a pointer); this 'memref.dim' needs its extent}}
      %n = memref.dim %b, %c0 : memref<?xf32>
      gpu.return
    }
  }
}
