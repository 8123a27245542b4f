// Host control flow on values computed on the device: the loop condition
// and the branch condition are computed by kernels and read back into host
// slots (adj_rt_gpu_read), the loop-carried buffers stay device buffers,
// constants are uploaded once; the f64 kernels pass spirv-val.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: ir-opt %s -adj-lower-to-opencl | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-opt %s -adj-lower-to-opencl | %python %inputs/extract-gpu-binaries.py %t spirv-val --target-env spv1.3 | FileCheck %s --check-prefix=COUNT
// RUN: not ir-opt %s -adj-lower-to-opencl=features=-fp64 2>&1 | FileCheck %s --check-prefix=NOFP64
// REQUIRES: spirv-tools
// COUNT: extracted 1 modules
// NOFP64: error: f64 needs a device with fp64 (the target has -fp64)

// KERNELS-LABEL: func.func @grow(
// KERNELS:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x i1
// KERNELS:         call @adj_rt_gpu_constant(
// KERNELS:         scf.while
// KERNELS:           %[[C:.*]] = builtin.unrealized_conversion_cast {{.*}} to memref<i1>
// KERNELS:           gpu.launch_func @grow_kernels::@grow_kernel {{.*}} args({{.*}}, %[[C]] : memref<i1>)
// KERNELS:           func.call @adj_rt_gpu_read(%[[SLOT]], %{{.*}}, %{{.*}})
// KERNELS:           %[[GO:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> i1
// KERNELS:           func.call @adj_rt_gpu_free(
// KERNELS:           scf.condition(%[[GO]])
// KERNELS:         } do {
// KERNELS:           gpu.launch_func @grow_kernels::@grow_kernel_0
// KERNELS:           gpu.launch_func @grow_kernels::@grow_kernel_1
// KERNELS:           scf.yield
// KERNELS:         return
// KERNELS-LABEL: func.func @branch(
// KERNELS:         gpu.launch_func @grow_kernels::@branch_kernel
// KERNELS:         call @adj_rt_gpu_read(
// KERNELS:         %[[P:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i1
// KERNELS:         scf.if %[[P]]
// KERNELS:           gpu.launch_func @grow_kernels::@branch_kernel_{{[0-9]+}}
// KERNELS:         } else {
// KERNELS:           gpu.launch_func @grow_kernels::@branch_kernel_{{[0-9]+}}
// The ownership bookkeeping of the deallocation pass is host memory.
// KERNELS:         memref.alloc() : memref<2xindex>
// KERNELS:         call @dealloc_helper(

// LLVMIR-LABEL: define { {{.*}} } @grow(
// LLVMIR: [[LOOP:[0-9]+]]:
// LLVMIR: call void @adj_rt_gpu_launch(ptr @__adj_gpu_kernel_grow_kernels_grow_kernel,
// LLVMIR: call void @adj_rt_gpu_read(ptr %{{.*}}, ptr %{{.*}}, i64 1)
// LLVMIR: load i1, ptr
// LLVMIR: br i1
// LLVMIR: call void @adj_rt_gpu_launch(ptr @__adj_gpu_kernel_grow_kernels_grow_kernel_0,
// LLVMIR: br label %[[LOOP]]
adj.func @grow(%x: tensor<f64>, %limit: tensor<f64>) -> (tensor<f64>, tensor<i64>) {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %onef = adj.constant dense<1.0> : tensor<f64>
  %r:2 = adj.while (%x, %zero : tensor<f64>, tensor<i64>) -> tensor<f64>, tensor<i64> cond {
  ^bb0(%a: tensor<f64>, %n: tensor<i64>):
    %c = adj.cmp lt, %a, %limit : tensor<f64>, tensor<f64>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<f64>, %n: tensor<i64>):
    %d = adj.add %a, %a : tensor<f64>, tensor<f64>
    %a2 = adj.add %d, %onef : tensor<f64>, tensor<f64>
    %n2 = adj.add %n, %one : tensor<i64>, tensor<i64>
    adj.yield %a2, %n2 : tensor<f64>, tensor<i64>
  }
  adj.return %r#0, %r#1 : tensor<f64>, tensor<i64>
}

adj.func @branch(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %zero = adj.constant dense<0.0> : tensor<f64>
  %c = adj.cmp gt, %x, %zero : tensor<f64>, tensor<f64>
  %r:2 = adj.if %c : tensor<i1> -> (tensor<f64>, tensor<f64>) {
    %sq = adj.mul %x, %x : tensor<f64>, tensor<f64>
    adj.yield %sq, %x : tensor<f64>, tensor<f64>
  } else {
    %n = adj.neg %x : tensor<f64>
    adj.yield %x, %n : tensor<f64>, tensor<f64>
  }
  adj.return %r#0, %r#1 : tensor<f64>, tensor<f64>
}
