// Device buffers on the host go through the runtime: allocation, freeing,
// copies, constants and scalar reads and writes; host-only buffers (the
// deallocation bookkeeping) stay host memory.
// RUN: ir-opt %s -adj-gpu-host-memory -split-input-file -verify-diagnostics | FileCheck %s

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// CHECK-LABEL: func.func @device(
// CHECK-SAME:      %[[X:.*]]: memref<4xf32>, %[[N:.*]]: memref<i64>)
// The host slots for scalars sit at the top of the function.
// CHECK:         %[[SLOT_W:.*]] = llvm.alloca %{{.*}} x i64 : (i64) -> !llvm.ptr
// CHECK:         %[[SLOT_R:.*]] = llvm.alloca %{{.*}} x i1 : (i64) -> !llvm.ptr
// The constant: the host global's address and size -> its device copy.
// CHECK:         %[[G:.*]] = memref.get_global @table : memref<4xf32>
// CHECK:         %[[GI:.*]] = memref.extract_aligned_pointer_as_index %[[G]]
// CHECK:         %[[GP:.*]] = llvm.getelementptr
// CHECK:         %[[DG:.*]] = call @adj_rt_gpu_constant(%[[GP]], %[[C16:.*]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK:         %[[T:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<4xf32>
// 4 x f32 and 1 x i1 (one byte) from the pool.
// CHECK:         %[[P:.*]] = call @adj_rt_gpu_alloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<4xf32>
// CHECK:         %[[Q:.*]] = call @adj_rt_gpu_alloc(%[[C1:.*]]) : (i64) -> !llvm.ptr
// CHECK:         %[[F:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<i1>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[T]]
// CHECK:           memref.store %{{.*}}, %[[B]]
// CHECK:           memref.store %{{.*}}, %[[F]]
// A contiguous device copy is a runtime copy of 16 bytes.
// CHECK:         call @adj_rt_gpu_memcpy(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// The branch condition is read back into a host slot.
// CHECK:         call @adj_rt_gpu_read(%[[SLOT_R]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK:         %[[C:.*]] = llvm.load %[[SLOT_R]] : !llvm.ptr -> i1
// CHECK:         call @adj_rt_gpu_free(
// CHECK:         scf.if %[[C]] {
// CHECK:           llvm.store %{{.*}}, %[[SLOT_W]] : i64, !llvm.ptr
// CHECK:           func.call @adj_rt_gpu_write(%{{.*}}, %[[SLOT_W]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK:         }
// CHECK:         call @adj_rt_gpu_free(
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK:         return
// CHECK-DAG:   func.func private @adj_rt_gpu_alloc(i64) -> !llvm.ptr
// CHECK-DAG:   func.func private @adj_rt_gpu_free(!llvm.ptr)
func.func @device(%x: memref<4xf32>, %n: memref<i64>) {
  %t = memref.get_global @table : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %flag = memref.alloc() : memref<i1>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %t[%tx] : memref<4xf32>
    memref.store %v, %b[%tx] : memref<4xf32>
    %p = arith.cmpf ogt, %v, %v : f32
    memref.store %p, %flag[] : memref<i1>
    gpu.terminator
  }
  memref.copy %b, %x : memref<4xf32> to memref<4xf32>
  %c = memref.load %flag[] : memref<i1>
  memref.dealloc %flag : memref<i1>
  scf.if %c {
    %seven = arith.constant 7 : i64
    memref.store %seven, %n[] : memref<i64>
  }
  memref.dealloc %b : memref<4xf32>
  return
}

// -----

// Buffers that reach neither a kernel nor the caller are host memory.
// CHECK-LABEL: func.func private @bookkeeping(
// CHECK:         %[[H:.*]] = memref.alloc() : memref<2xindex>
// CHECK:         memref.store %{{.*}}, %[[H]]
// CHECK:         memref.load %[[H]]
// CHECK:         memref.dealloc %[[H]]
// CHECK-NOT:     adj_rt_gpu
func.func private @bookkeeping(%i: index) -> index {
  %h = memref.alloc() : memref<2xindex>
  %c0 = arith.constant 0 : index
  memref.store %i, %h[%c0] : memref<2xindex>
  %v = memref.load %h[%c0] : memref<2xindex>
  memref.dealloc %h : memref<2xindex>
  return %v : index
}

// -----

func.func @stack(%x: memref<4xf32>) {
  // expected-error @+1 {{a stack buffer cannot live on the device}}
  %s = memref.alloca() : memref<4xf32>
  memref.copy %s, %x : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func @host_math(%x: memref<4xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{this host op would touch device memory; run it in a kernel}}
  %r = memref.atomic_rmw addf %f, %x[%c0] : (f32, memref<4xf32>) -> f32
  return
}

// -----

// A clone is a fresh device buffer and a runtime copy (64 bytes); a copy
// out of a strided view is a copy kernel. A private function called with
// device buffers works on device buffers too.
// CHECK-LABEL: func.func @clones(
// CHECK:         %[[C64:.*]] = arith.constant 64 : i64
// CHECK:         call @adj_rt_gpu_alloc(%[[C64]]) : (i64) -> !llvm.ptr
// CHECK:         %[[BYTES:.*]] = arith.constant 64 : i64
// CHECK:         call @adj_rt_gpu_memcpy(%{{.*}}, %{{.*}}, %[[BYTES]])
// CHECK:         %[[V:.*]] = memref.subview
// CHECK:         %[[P:.*]] = call @adj_rt_gpu_alloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<4x2xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[V]]
// CHECK:           memref.store %{{.*}}, %[[D]]
// CHECK:         call @scale(%[[D]])
// CHECK-LABEL: func.func private @scale(
// CHECK:         call @adj_rt_gpu_read(
func.func @clones(%x: memref<4x4xf32>) -> (memref<4x4xf32>, memref<4x2xf32>) {
  %a = bufferization.clone %x : memref<4x4xf32> to memref<4x4xf32>
  %v = memref.subview %x[0, 1] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1], offset: 1>>
  %b = memref.alloc() : memref<4x2xf32>
  memref.copy %v, %b : memref<4x2xf32, strided<[4, 1], offset: 1>> to memref<4x2xf32>
  %s = call @scale(%b) : (memref<4x2xf32>) -> f32
  return %a, %b : memref<4x4xf32>, memref<4x2xf32>
}
func.func private @scale(%b: memref<4x2xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0, %c0] : memref<4x2xf32>
  return %v : f32
}

// -----

// The closure runtime boxes tensors on the call's device: a buffer whose
// address it takes is a device buffer even where no kernel and no caller
// sees it (here a tensor moved from one box to another), and a buffer
// that reaches neither stays host memory.
// CHECK-LABEL: func.func @rebox(
// CHECK-SAME:      %[[FROM:.*]]: !llvm.ptr, %[[TO:.*]]: !llvm.ptr)
// CHECK:         %[[P:.*]] = call @adj_rt_gpu_alloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<4xf32>
// CHECK:         %[[A:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK:         call @adj_rt_tuple_get_tensor(%[[FROM]], %{{.*}}, %[[A]], %{{.*}})
// CHECK:         call @adj_rt_tuple_put_tensor(%[[TO]], %{{.*}}, %{{.*}}, %[[A]], %{{.*}})
// CHECK:         call @adj_rt_gpu_free(
// CHECK:         %[[H:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NOT:     adj_rt_gpu
// CHECK:         memref.dealloc %[[H]]
func.func private @adj_rt_tuple_get_tensor(!llvm.ptr, i64, index, i64)
func.func private @adj_rt_tuple_put_tensor(!llvm.ptr, i64, i64, index, i64)
func.func @rebox(%from: !llvm.ptr, %to: !llvm.ptr) {
  %slot = arith.constant 0 : i64
  %f32 = arith.constant 1 : i64
  %bytes = arith.constant 16 : i64
  %b = memref.alloc() : memref<4xf32>
  %a = memref.extract_aligned_pointer_as_index %b : memref<4xf32> -> index
  call @adj_rt_tuple_get_tensor(%from, %slot, %a, %bytes)
      : (!llvm.ptr, i64, index, i64) -> ()
  call @adj_rt_tuple_put_tensor(%to, %slot, %f32, %a, %bytes)
      : (!llvm.ptr, i64, i64, index, i64) -> ()
  memref.dealloc %b : memref<4xf32>
  %h = memref.alloc() : memref<4xf32>
  %ha = memref.extract_aligned_pointer_as_index %h : memref<4xf32> -> index
  memref.dealloc %h : memref<4xf32>
  return
}
