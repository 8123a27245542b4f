// A rank-0 kernel argument at a static offset (a scalar element of a
// vector) becomes a rank-1 buffer read at that offset, and each launch
// passes a reinterpret_cast of the view: MLIR 22's SPIR-V conversion drops
// the offset of rank-0 memrefs. Rank-1 views and offset-0 scalars stay.
// RUN: ir-opt %s -split-input-file -verify-diagnostics -adj-intel-scalar-view-args | FileCheck %s
// And the result converts to valid SPIR-V that reads element 1:
// RUN: ir-opt %s -split-input-file -verify-diagnostics -adj-intel-spirv | FileCheck %s --check-prefix=SPIRV

module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @host
  // CHECK:         %[[V:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2], strides: [1]
  // CHECK-SAME:      memref<f32, strided<[], offset: 1>> to memref<2xf32>
  // CHECK:         gpu.launch_func @m::@k {{.*}} args(%{{.*}} : memref<4xf32>, %[[V]] : memref<2xf32>, %{{.*}} : memref<f32>, %{{.*}} : memref<1xf32, strided<[1], offset: 2>>)
  func.func @host(%x: memref<4xf32>, %p: memref<3xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %sub = memref.subview %p[1] [1] [1] : memref<3xf32> to memref<1xf32, strided<[1], offset: 1>>
    %s = memref.collapse_shape %sub [] : memref<1xf32, strided<[1], offset: 1>> into memref<f32, strided<[], offset: 1>>
    %z = memref.alloc() : memref<f32>
    %r = memref.subview %p[2] [1] [1] : memref<3xf32> to memref<1xf32, strided<[1], offset: 2>>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%x : memref<4xf32>, %s : memref<f32, strided<[], offset: 1>>, %z : memref<f32>, %r : memref<1xf32, strided<[1], offset: 2>>)
    return
  }
  // CHECK-LABEL: gpu.func @k
  // CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %[[P:.*]]: memref<2xf32>, %[[Z:.*]]: memref<f32>, %[[R:.*]]: memref<1xf32, strided<[1], offset: 2>>)
  // CHECK:         %[[C1:.*]] = arith.constant 1 : index
  // CHECK:         memref.load %[[P]][%[[C1]]] : memref<2xf32>
  // CHECK:         memref.store %{{.*}}, %[[P]][%[[C1]]] : memref<2xf32>
  // CHECK:         memref.load %[[Z]][] : memref<f32>
  // SPIRV-LABEL: spirv.func @k
  // SPIRV-SAME:    %[[P:arg1]]: !spirv.ptr<!spirv.array<2 x f32>, CrossWorkgroup>
  // SPIRV:         %[[ONE:.*]] = spirv.Constant 1 : i64
  // SPIRV:         spirv.AccessChain %[[P]][%[[ONE]]]
  gpu.module @m {
    gpu.func @k(%x: memref<4xf32>, %p: memref<f32, strided<[], offset: 1>>, %z: memref<f32>, %r: memref<1xf32, strided<[1], offset: 2>>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      %a = memref.load %x[%t] : memref<4xf32>
      %b = memref.load %p[] : memref<f32, strided<[], offset: 1>>
      %c = arith.mulf %a, %b : f32
      memref.store %c, %p[] : memref<f32, strided<[], offset: 1>>
      %d = memref.load %z[] : memref<f32>
      memref.store %d, %x[%t] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%p: memref<f32, strided<[], offset: 3>>, %out: memref<index>) kernel {
      // expected-error @+1 {{a SPIR-V kernel only loads and stores its scalar view argument #0, not 'memref.extract_aligned_pointer_as_index'}}
      %a = memref.extract_aligned_pointer_as_index %p : memref<f32, strided<[], offset: 3>> -> index
      memref.store %a, %out[] : memref<index>
      gpu.return
    }
  }
}
