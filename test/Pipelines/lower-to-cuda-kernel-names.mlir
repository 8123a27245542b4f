// A program whose name is no identifier (a Python lambda) lowers to PTX:
// its kernels are renamed (-adj-gpu-kernel-names) before LLVM prints them,
// which otherwise aborts with "Symbol name with unsupported characters".
// RUN: ir-opt %s -adj-lower-to-cuda=chip=sm_90 | FileCheck %s
// REQUIRES: cuda-toolkit

// CHECK: llvm.func @"f.<lambda>"(
// CHECK: llvm.mlir.global internal constant @__adj_gpu_data_f__lambda__kernel("P\EDU\BA
// CHECK: llvm.mlir.global internal constant @__adj_gpu_name_f__lambda__kernel_f__lambda__kernel("f__lambda__kernel\00")
adj.func @"f.<lambda>"(%x: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %e = adj.exp %x : tensor<64x100xf32>
  adj.return %e : tensor<64x100xf32>
}
