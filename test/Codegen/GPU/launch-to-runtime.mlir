// Kernel binaries become constant descriptors (GpuABI.h) and each launch a
// call of adj_rt_gpu_launch with the addresses of its argument values:
// device pointers for memrefs (argSize 0), values for scalars.
// RUN: ir-opt %s -adj-gpu-launch-to-runtime -split-input-file -verify-diagnostics | FileCheck %s
// RUN: ir-opt %s -adj-gpu-launch-to-runtime -split-input-file -verify-diagnostics \
// RUN:   | ir-opt -split-input-file -finalize-memref-to-llvm -convert-to-llvm -reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir -split-input-file | FileCheck %s --check-prefix=LLVMIR

// The bytes "ABC" stand for a SPIR-V module: format 1 (ADJ_RT_GPU_SPIRV),
// 3 bytes, named "mod"; kernel "k" of 3 arguments: a pointer, an index
// (8 bytes) and an f32 (4 bytes).
// CHECK-LABEL: func.func @host(
// CHECK-SAME:      %[[X:.*]]: memref<8xf32, strided<[1], offset: 2>>, %[[N:.*]]: index, %[[F:.*]]: f32)
// CHECK:         %[[ARGS:.*]] = llvm.alloca %{{.*}} x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK:         %[[S0:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK:         %[[S1:.*]] = llvm.alloca %{{.*}} x i64
// CHECK:         %[[S2:.*]] = llvm.alloca %{{.*}} x f32
// The aligned pointer: the kernel applies the offset of its memref type.
// CHECK:         %[[I:.*]] = memref.extract_aligned_pointer_as_index %[[X]]
// CHECK:         %[[I64:.*]] = arith.index_castui %[[I]] : index to i64
// CHECK:         %[[P:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr
// CHECK:         llvm.store %[[P]], %[[S0]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[A0:.*]] = llvm.getelementptr %[[ARGS]][0]
// CHECK:         llvm.store %[[S0]], %[[A0]]
// CHECK:         %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:         llvm.store %[[NI]], %[[S1]] : i64, !llvm.ptr
// CHECK:         llvm.store %[[F]], %[[S2]] : f32, !llvm.ptr
// CHECK:         %[[K:.*]] = llvm.mlir.addressof @__adj_gpu_kernel_mod_k : !llvm.ptr
// CHECK:         call @adj_rt_gpu_launch(%[[K]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ARGS]]) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr) -> ()
// CHECK-NOT:     gpu.launch_func
// CHECK-NOT:     gpu.binary
// CHECK-DAG: llvm.mlir.global internal constant @__adj_gpu_data_mod("ABC") {addr_space = 0 : i32, alignment = 8 : i64}
// CHECK-DAG: llvm.mlir.global internal constant @__adj_gpu_name_mod("mod\00")
// CHECK-DAG: llvm.mlir.global internal constant @__adj_gpu_args_mod_k(dense<[0, 8, 4]> : tensor<3xi32>)
// LLVMIR-DAG: @__adj_gpu_module_mod = internal constant { i32, i32, ptr, i64, ptr } { i32 1, i32 0, ptr @__adj_gpu_data_mod, i64 3, ptr @__adj_gpu_name_mod }
// LLVMIR-DAG: @__adj_gpu_kernel_mod_k = internal constant { ptr, ptr, i32, i32, ptr } { ptr @__adj_gpu_module_mod, ptr @__adj_gpu_name_mod_k, i32 3, i32 0, ptr @__adj_gpu_args_mod_k }
// LLVMIR: call void @adj_rt_gpu_launch(ptr @__adj_gpu_kernel_mod_k, i64 %{{.*}}, i64 1, i64 1, i64 64, i64 1, i64 1, i32 0, ptr %{{.*}})
module attributes {gpu.container_module} {
  gpu.binary @mod [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int64], []>, api=OpenCL, #spirv.resource_limits<>>, "ABC">]
  func.func @host(%x: memref<8xf32, strided<[1], offset: 2>>, %n: index, %f: f32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @mod::@k blocks in (%n, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%x : memref<8xf32, strided<[1], offset: 2>>, %n : index, %f : f32)
    return
  }
}

// -----

// The format option overrides the target: hsaco is 3.
// RUN: ir-opt %s -adj-gpu-launch-to-runtime=format=hsaco -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=HSACO
// HSACO: llvm.mlir.global internal constant @__adj_gpu_module_m()
// HSACO: llvm.mlir.constant(3 : i32) : i32
module attributes {gpu.container_module} {
  gpu.binary @m [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, api=OpenCL, #spirv.resource_limits<>>, "X">]
}

// -----

module attributes {gpu.container_module} {
  gpu.module @unserialized {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kernel module 'unserialized' is not a gpu.binary (serialize it first)}}
    gpu.launch_func @unserialized::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{the runtime takes one object per gpu.binary}}
  gpu.binary @two [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, api=OpenCL, #spirv.resource_limits<>>, "A">,
                   #gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, api=OpenCL, #spirv.resource_limits<>>, "B">]
}

// -----

// A GEMM record (-adj-gpu-matmul) and the next launch_func become one
// adj_rt_gpu_gemm: a constant descriptor (f64 = DType 0, batch 2, 4x3x5, A
// column-major with ld 4 and batch stride 20, B a view of batch stride 0
// with ld 3, C row-major, no TF32, the kernel and its 1x1x2 grid of 8x4x1
// work items), the addresses of element (0, 0) of A, B and C (B's view
// offset 6 applied: 48 bytes) and the kernel's arguments as for a launch.
// Launches without a record stay launches; the records' declarations go.
// CHECK-LABEL: func.func @gemm(
// CHECK-SAME:      %[[A:.*]]: memref<2x5x4xf64>, %[[B:.*]]: memref<2x5x3xf64, strided<[0, 3, 1], offset: 6>>, %[[C:.*]]: memref<2x4x3xf64>)
// CHECK:         %[[ARGS:.*]] = llvm.alloca %{{.*}} x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK:         call @adj_rt_gpu_launch(
// CHECK-NOT:     @adj_gpu_gemm
// CHECK:         %[[G:.*]] = llvm.mlir.addressof @__adj_gpu_gemm_mod_k_0 : !llvm.ptr
// CHECK:         memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:         memref.extract_aligned_pointer_as_index %[[B]]
// CHECK:         %{{.*}}, %[[BOFF:[a-z0-9_]+]], %{{.*}} = memref.extract_strided_metadata %[[B]]
// CHECK:         %[[BOFF64:.*]] = arith.index_castui %[[BOFF]] : index to i64
// CHECK:         %[[BBYTES:.*]] = arith.muli %[[BOFF64]], %c8_i64
// CHECK:         %[[PB:.*]] = llvm.getelementptr %{{.*}}[%[[BBYTES]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         memref.extract_aligned_pointer_as_index %[[C]]
// CHECK:         call @adj_rt_gpu_gemm(%[[G]], %{{.*}}, %[[PB]], %{{.*}}, %[[ARGS]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NOT:     gpu.launch_func
// CHECK-NOT:     @adj_gpu_gemm
// CHECK-NOT:     func.func private @adj_gpu_gemm
// LLVMIR: @__adj_gpu_gemm_mod_k_0 = internal constant { i32, i32, i64, i64, i64, i64, i32, i32, i64, i64, i32, i32, i64, i64, i32, i32, i64, i64, ptr, i64, i64, i64, i64, i64, i64, i32, i32 } { i32 0, i32 0, i64 2, i64 4, i64 3, i64 5, i32 1, i32 0, i64 4, i64 20, i32 0, i32 0, i64 3, i64 0, i32 0, i32 0, i64 3, i64 12, ptr @__adj_gpu_kernel_mod_k, i64 1, i64 1, i64 2, i64 8, i64 4, i64 1, i32 0, i32 0 }
// LLVMIR: call void @adj_rt_gpu_launch(ptr @__adj_gpu_kernel_mod_k,
// LLVMIR: call void @adj_rt_gpu_gemm(ptr @__adj_gpu_gemm_mod_k_0, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
module attributes {gpu.container_module} {
  gpu.binary @mod [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int64], []>, api=OpenCL, #spirv.resource_limits<>>, "ABC">]
  func.func private @adj_gpu_gemm(memref<2x5x4xf64>, memref<2x5x3xf64, strided<[0, 3, 1], offset: 6>>, memref<2x4x3xf64>) attributes {adj.gpu.gemm}
  func.func @gemm(%a: memref<2x5x4xf64>, %b: memref<2x5x3xf64, strided<[0, 3, 1], offset: 6>>, %c: memref<2x4x3xf64>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @mod::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%c : memref<2x4x3xf64>)
    call @adj_gpu_gemm(%a, %b, %c) {adj.gpu.gemm = {a = {batch_stride = 20 : i64, ld = 4 : i64, order = "col"}, b = {batch_stride = 0 : i64, ld = 3 : i64, order = "row"}, batch = 2 : i64, c = {batch_stride = 12 : i64, ld = 3 : i64, order = "row"}, k = 5 : i64, m = 4 : i64, n = 3 : i64}} : (memref<2x5x4xf64>, memref<2x5x3xf64, strided<[0, 3, 1], offset: 6>>, memref<2x4x3xf64>) -> ()
    gpu.launch_func @mod::@k blocks in (%c1, %c1, %c2) threads in (%c8, %c4, %c1)
        args(%a : memref<2x5x4xf64>, %b : memref<2x5x3xf64, strided<[0, 3, 1], offset: 6>>, %c : memref<2x4x3xf64>)
    return
  }
}

// -----

// A grid known only at run time cannot go into a constant descriptor: the
// kernel alone, the record dropped.
// CHECK-LABEL: func.func @dynamic_grid(
// CHECK-NOT:     @adj_gpu_gemm
// CHECK:         call @adj_rt_gpu_launch(
// CHECK-NOT:     adj_rt_gpu_gemm
// CHECK-NOT:     @adj_gpu_gemm
module attributes {gpu.container_module} {
  gpu.binary @mod [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int64], []>, api=OpenCL, #spirv.resource_limits<>>, "ABC">]
  func.func private @adj_gpu_gemm(memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) attributes {adj.gpu.gemm}
  func.func @dynamic_grid(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    call @adj_gpu_gemm(%a, %b, %c) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 5 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 3 : i64, order = "row"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 3 : i64, order = "row"}, k = 5 : i64, m = 4 : i64, n = 3 : i64}} : (memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) -> ()
    gpu.launch_func @mod::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4x5xf32>, %b : memref<5x3xf32>, %c : memref<4x3xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func private @adj_gpu_gemm(memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) attributes {adj.gpu.gemm}
  func.func @orphan(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
    // expected-error @+1 {{GEMM record without its launch (the next gpu.launch_func of its block)}}
    call @adj_gpu_gemm(%a, %b, %c) {adj.gpu.gemm = {}} : (memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @mod [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int64], []>, api=OpenCL, #spirv.resource_limits<>>, "ABC">]
  func.func private @adj_gpu_gemm(memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) attributes {adj.gpu.gemm}
  func.func @malformed(%a: memref<4x5xf32>, %b: memref<5x3xf32>, %c: memref<4x3xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{malformed GEMM record: the order of b is not "row" or "col"}}
    call @adj_gpu_gemm(%a, %b, %c) {adj.gpu.gemm = {a = {batch_stride = 0 : i64, ld = 5 : i64, order = "row"}, b = {batch_stride = 0 : i64, ld = 3 : i64, order = "diagonal"}, batch = 1 : i64, c = {batch_stride = 0 : i64, ld = 3 : i64, order = "row"}, k = 5 : i64, m = 4 : i64, n = 3 : i64}} : (memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) -> ()
    gpu.launch_func @mod::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4x5xf32>, %b : memref<5x3xf32>, %c : memref<4x3xf32>)
    return
  }
}
