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
