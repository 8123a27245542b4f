// Every gpu.module gets the ROCDL target of one chip: O3, code object v5
// (abi 500), the wavefront size as a flag (ocml's __oclc_wavefrontsize64)
// and, on RDNA run at 64, as the LLVM feature; target ID modes become LLVM
// features. ocml calls need device libraries; bad chips, modes and
// wavefront sizes are errors.
// RUN: ir-opt %s -split-input-file -adj-amd-attach-target="rocm=%rocm_path" | FileCheck %s --check-prefix=GFX942
// RUN: ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx1100 rocm=%rocm_path" | FileCheck %s --check-prefix=GFX1100
// RUN: ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx1100 wavefront-size=64 rocm=%rocm_path" | FileCheck %s --check-prefix=WAVE64
// RUN: ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx90a:sramecc+:xnack- features=+cumode rocm=%rocm_path" | FileCheck %s --check-prefix=TARGETID
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx942 device-libs=false" 2>&1 | FileCheck %s --check-prefix=NOLIBS
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx942 rocm=%t.missing" 2>&1 | FileCheck %s --check-prefix=NOFOLDER
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx942 rocm=%t.missing check-linker=true" 2>&1 | FileCheck %s --check-prefix=NOLLD
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx942 wavefront-size=32" 2>&1 | FileCheck %s --check-prefix=WAVE32
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx1100 wavefront-size=16" 2>&1 | FileCheck %s --check-prefix=WAVE16
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=sm_90" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx942:ecc+" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not ir-opt %s -split-input-file -adj-amd-attach-target="chip=gfx1100:xnack+" 2>&1 | FileCheck %s --check-prefix=NOMODE
// REQUIRES: rocm-device-libs

// GFX942:   gpu.module @math [#rocdl.target<O = 3, chip = "gfx942", abi = "500", flags = {wave64}>]
// GFX942:   gpu.module @plain [#rocdl.target<O = 3, chip = "gfx942", abi = "500", flags = {wave64}>]
// GFX1100:  gpu.module @math [#rocdl.target<O = 3, chip = "gfx1100", abi = "500", flags = {no_wave64}>]
// WAVE64:   gpu.module @math [#rocdl.target<O = 3, chip = "gfx1100", features = "+wavefrontsize64", abi = "500", flags = {wave64}>]
// TARGETID: gpu.module @math [#rocdl.target<O = 3, chip = "gfx90a", features = "+sramecc,-xnack,+cumode", abi = "500", flags = {wave64}>]
// NOLIBS:   attach-target.mlir:[[# @LINE + 10]]:5: error: the kernels call __ocml_tanh_f64 from the ROCm device libraries, which are not to be linked (device-libs=false): f32 and f16 math have approximations, f64 only exp, expm1, log, log1p, tanh and erf
// NOFOLDER: error: the kernels call __ocml_tanh_f64 from the ROCm device libraries, and there are none in '{{.*}}.missing/amdgcn/bitcode' (set ADJOINT_ROCM_PATH or the rocm option to a folder with amdgcn/bitcode/ocml.bc)
// NOLLD:    error: no ld.lld to link AMD code objects: '{{.*}}.missing/llvm/bin/ld.lld' is missing
// WAVE32:   error: gfx942 runs wavefronts of 64 only: subgroup size 32 is for RDNA chips (gfx10, gfx11, ...)
// WAVE16:   error: AMD wavefronts are 32 or 64 work items, not 16
// CHIP:     error: unknown AMD chip 'sm_90' (expected a gfx processor LLVM knows: gfx90a, gfx942, gfx1100)
// MODE:     error: bad feature 'ecc+' in AMD target ID 'gfx942:ecc+' (expected sramecc+, sramecc-, xnack+ or xnack-)
// NOMODE:   error: gfx1100 has no xnack mode ('gfx1100:xnack+')
module attributes {gpu.container_module} {
  gpu.module @math {
    llvm.func @__ocml_tanh_f64(f64) -> f64
    llvm.func @k(%p: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
      %x = llvm.load %p : !llvm.ptr -> f64
      %y = llvm.call @__ocml_tanh_f64(%x) : (f64) -> f64
      llvm.store %y, %p : f64, !llvm.ptr
      llvm.return
    }
  }
  gpu.module @plain {
    llvm.func @k(%p: !llvm.ptr) attributes {gpu.kernel, rocdl.kernel} {
      llvm.return
    }
  }
}
