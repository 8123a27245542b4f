// Math on AMD, every route. Where the device libraries were built for the
// chip (Debian's 5.2 and gfx90a) the kernels call ocml and the code object
// links it: no undefined symbol remains. Where they were not (gfx942,
// gfx1100) or are not to be used (libdevice=false), f32 and f16
// transcendentals are polynomial approximations and floor, rsqrt, ... LLVM
// intrinsics: no ocml call at all. f64 transcendentals are ocml from the
// device libraries when there are any; without them f64 exp, expm1, log,
// log1p, tanh and erf are approximations too and the others (sin) an error
// at the op.
// RUN: rm -rf %t && mkdir -p %t/libs %t/approx %t/f64 %t/nolibs/llvm/bin %t/nolibs-out
// RUN: ir-opt %s -split-input-file -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=64 -adj-amd-rocdl=chip=gfx90a | FileCheck %s --check-prefix=OCML
// RUN: ir-opt %s -split-input-file -adj-lower-to-hip=chip=gfx90a | %python %inputs/extract-gpu-binaries.py %t/libs
// RUN: llvm-nm --undefined-only %t/libs/unary_kernels.bin | count 0
// RUN: llvm-readelf --notes %t/libs/unary_kernels.bin | FileCheck %s --check-prefix=GFX90A
// RUN: ir-opt %s -split-input-file -adj-tensor -adj-bufferize -adj-gpu-kernels=subgroup-size=32 -adj-amd-rocdl=chip=gfx1100 | FileCheck %s --check-prefix=APPROX
// RUN: ir-opt %s -split-input-file -adj-lower-to-hip=chip=gfx942 | %python %inputs/extract-gpu-binaries.py %t/approx
// RUN: llvm-nm --undefined-only %t/approx/unary_kernels.bin | count 0
// RUN: llvm-nm --undefined-only %t/approx/f64_kernels.bin | count 0
// RUN: llvm-readelf --syms %t/approx/f64_kernels.bin | FileCheck %s --check-prefix=F64SYMS
// RUN: not ir-opt %s -split-input-file -adj-lower-to-hip="libdevice=false" 2>&1 >/dev/null | FileCheck %s --check-prefix=F64
// A ROCm folder with ld.lld and no device libraries: the f32 program
// still gets its code objects, the f64 one an error.
// RUN: ln -s %rocm_path/llvm/bin/ld.lld %t/nolibs/llvm/bin/ld.lld
// RUN: not ir-opt %s -split-input-file -adj-lower-to-hip="toolkit=%t/nolibs" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOLIBS
// RUN: not ir-opt %s -split-input-file -adj-lower-to-hip="toolkit=%t/nolibs" 2>/dev/null | %python %inputs/extract-gpu-binaries.py %t/nolibs-out | FileCheck %s --check-prefix=OBJECTS
// RUN: llvm-nm --undefined-only %t/nolibs-out/unary_kernels.bin | count 0
// REQUIRES: rocm-device-libs

// OCML:        llvm.call @__ocml_tanh_f32
// OCML:        llvm.call @__ocml_erf_f32
// GFX90A:      amdhsa.target: amdgcn-amd-amdhsa--gfx90a
// APPROX-NOT:  __ocml
// APPROX:      rocdl.target<O = 3, chip = "gfx1100"
// APPROX-NOT:  __ocml
// APPROX:      llvm.func @__ocml_exp_f64(f64) -> f64
// The f64 kernel of gfx942 took exp from ocml: its code is in the object.
// F64SYMS-NOT: UND {{.*}}__ocml
// F64SYMS:     FUNC {{.*}} f64_kernel
// F64SYMS-NOT: UND {{.*}}__ocml
// F64-NOT:     __ocml_exp_f64
// F64:         lower-to-hip-math.mlir:[[# @LINE + 22]]:8: error: the kernels call __ocml_sin_f64 from the ROCm device libraries, which are not to be linked (device-libs=false): f32 and f16 math have approximations, f64 only exp, expm1, log, log1p, tanh and erf
// NOLIBS-NOT:  __ocml_exp_f64
// NOLIBS:      error: the kernels call __ocml_sin_f64 from the ROCm device libraries, and there are none in '{{.*}}/nolibs/amdgcn/bitcode'
// OBJECTS:     extracted 1 modules
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
