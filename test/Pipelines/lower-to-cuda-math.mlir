// Math on NVIDIA, both routes. With libdevice (the toolkit has it) the
// functions are linked into the PTX: no .extern, no call left to resolve.
// Without it (libdevice=false, or a toolkit without nvvm/libdevice) f32
// and f16 transcendentals are polynomial approximations and sqrt, floor,
// fmod, ... PTX instructions: the PTX names no __nv_ function and ptxas
// makes the cubins. f64 exp, expm1, log, log1p, tanh and erf are
// approximations too; other f64 transcendentals (sin) have none: an error
// at the op, naming what is missing.
// RUN: ir-opt %s -split-input-file -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm=chip=sm_90 -gpu-module-to-binary="format=isa toolkit=%cuda_toolkit" | FileCheck %s --check-prefix=LIBDEVICE
// RUN: not ir-opt %s -split-input-file -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-nvidia-nvvm="chip=sm_90 libdevice=false" -gpu-module-to-binary="format=isa toolkit=%cuda_toolkit" 2>/dev/null | FileCheck %s --check-prefix=APPROX
// RUN: not ir-opt %s -split-input-file -adj-lower-to-cuda="libdevice=false" 2>&1 >/dev/null | FileCheck %s --check-prefix=F64
// RUN: rm -rf %t && mkdir -p %t/bin %t/out && ln -s %cuda_toolkit/bin/ptxas %t/bin/ptxas && ln -s %cuda_toolkit/bin/fatbinary %t/bin/fatbinary
// RUN: not ir-opt %s -split-input-file -adj-lower-to-cuda="toolkit=%t" 2>&1 | FileCheck %s --check-prefix=NOLIB
// RUN: not ir-opt %s -split-input-file -adj-lower-to-cuda="toolkit=%t" 2>/dev/null | %python %inputs/extract-gpu-binaries.py %t/out %python %inputs/fatbin-entries.py | FileCheck %s --check-prefix=CUBINS
// REQUIRES: cuda-toolkit

// LIBDEVICE-NOT: .extern
// LIBDEVICE:     gpu.binary @unary_kernels {{.*}}.target sm_90
// LIBDEVICE-NOT: .extern
// APPROX-NOT:    __nv_
// APPROX:        gpu.binary {{.*}}.target sm_90{{.*}}sqrt.rn.f32
// APPROX-NOT:    __nv_
// F64-NOT:       __nv_exp
// F64:           lower-to-cuda-math.mlir:[[# @LINE + 30]]:8: error: the kernels call __nv_sin from libdevice, which is not to be linked (libdevice=false): f32 math has approximations, f64 only exp, expm1, log, log1p, tanh and erf
// The kernel module of the f32/f16 program gets its cubins and PTX from a
// toolkit without libdevice.
// CUBINS:         cubin sm_80 {{[1-9][0-9]*}}{{$}}
// CUBINS-NEXT:    cubin sm_90 {{[1-9][0-9]*}}{{$}}
// CUBINS-NEXT:    ptx sm_80 {{[1-9][0-9]*}}{{$}}
// CUBINS:         extracted 1 modules
// NOLIB-NOT:      __nv_exp
// NOLIB:          error: the kernels call __nv_sin from libdevice, and there is no '{{.*}}/nvvm/libdevice/libdevice.10.bc'
// (gpu-module-to-binary also reports the missing libdevice of the f32
// program's toolkit as an error, yet succeeds: MLIR 22 looks for it
// whenever it is given a toolkit folder.)
adj.func @unary(%x: tensor<7x33xf32>, %y: tensor<7x33xf32>, %h: tensor<5xf16>) -> (tensor<7x33xf32>, tensor<7x33xf32>, tensor<7x33xf32>, tensor<7x33xf32>, tensor<7x33xf32>, tensor<5xf16>) {
  %e = adj.exp %x : tensor<7x33xf32>
  %a = adj.abs %x : tensor<7x33xf32>
  %l = adj.log %a : tensor<7x33xf32>
  %t = adj.tanh %x : tensor<7x33xf32>
  %s = adj.sqrt %a : tensor<7x33xf32>
  %r = adj.rsqrt %a : tensor<7x33xf32>
  %p = adj.pow %a, %y : tensor<7x33xf32>, tensor<7x33xf32>
  %q = adj.erf %p : tensor<7x33xf32>
  %he = adj.exp %h : tensor<5xf16>
  adj.return %e, %l, %t, %s, %q, %he : tensor<7x33xf32>, tensor<7x33xf32>, tensor<7x33xf32>, tensor<7x33xf32>, tensor<7x33xf32>, tensor<5xf16>
}

// -----

adj.func @f64(%x: tensor<8xf64>, %y: tensor<8xf64>) -> (tensor<8xf64>, tensor<8xf64>, tensor<8xf64>) {
  %e = adj.exp %x : tensor<8xf64>
  %s = adj.sqrt %y : tensor<8xf64>
  %c = adj.sin %y : tensor<8xf64>
  adj.return %e, %s, %c : tensor<8xf64>, tensor<8xf64>, tensor<8xf64>
}
