// The tiled GEMM kernel (-adj-gpu-matmul, 64x64x16 tiles, 4x4 outputs per
// thread) for sm_90: ptxas takes its PTX, it uses at most 255 registers
// (a 4x4 block of f32 accumulators, the tiles' fragments, addresses), no
// stack frame and no spills, and the two tiles in shared memory (16 rows
// along k of 64 f32 plus one word of padding each: 2 x 16 x 65 x 4 = 8320
// bytes, under the 48 KiB of static shared memory). The zero fill of C is
// folded into it (-adj-gpu-fold-fills): the kernel stores the products.
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm=chip=sm_90 -gpu-module-to-binary="format=isa toolkit=%cuda_toolkit" | %python %inputs/ptxas-report.py %cuda_toolkit/bin/ptxas sm_90 | FileCheck %s
// REQUIRES: cuda-toolkit

// CHECK:      module gemm_kernel
// CHECK:      Compiling entry function 'gemm_kernel' for 'sm_90'
// CHECK-NEXT: Function properties for gemm_kernel
// CHECK-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CHECK-NEXT: Used {{([1-9][0-9]?|1[0-9][0-9]|2[0-4][0-9]|25[0-5])}} registers, used 1 barriers, 8320 bytes smem
adj.func @gemm(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>) -> tensor<256x128xf32> {
  %c = adj.matmul %a, %b : tensor<256x512xf32>, tensor<512x128xf32>
  adj.return %c : tensor<256x128xf32>
}
