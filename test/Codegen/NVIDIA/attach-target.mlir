// Each gpu.module gets an NVVM target per chip, the lowest first (sm_80 and
// sm_90, PTX 8.0, O3 by default, or the chips and features asked for;
// features without a PTX version get the chip's default one); a kernel
// calling libdevice without a toolkit that has it is an error, and so is a
// PTX version the chip cannot take (LLVM would abort the process).
// RUN: ir-opt %s -split-input-file -adj-nvidia-attach-target="toolkit=%t.none" -verify-diagnostics | FileCheck %s
// RUN: ir-opt %s -split-input-file -adj-nvidia-attach-target="chip=sm_80 features=+ptx70 toolkit=%t.none" -verify-diagnostics | FileCheck %s --check-prefix=SM80
// RUN: ir-opt %s -split-input-file -adj-nvidia-attach-target="chip=sm_100,sm_90 features=+sm_90 toolkit=%t.none" -verify-diagnostics | FileCheck %s --check-prefix=DEFAULTPTX
// RUN: not ir-opt %s -split-input-file -adj-nvidia-attach-target="chip=sm_90 features=+ptx60 toolkit=%t.none" 2>&1 | FileCheck %s --check-prefix=OLDPTX
// RUN: not ir-opt %s -split-input-file -adj-nvidia-attach-target="chip=sm_80,sm_100 features=+ptx80 toolkit=%t.none" 2>&1 | FileCheck %s --check-prefix=OLDPTX100
// RUN: not ir-opt %s -split-input-file -adj-nvidia-attach-target="chip=sm_90,gfx90a toolkit=%t.none" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not ir-opt %s -split-input-file -adj-nvidia-attach-target="chip=, toolkit=%t.none" 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: not ir-opt %s -split-input-file -adj-nvidia-attach-target="libdevice=false toolkit=%cuda_toolkit" 2>&1 | FileCheck %s --check-prefix=NOTLINKED

// CHECK-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// CHECK:         llvm.func @k(
// SM80-LABEL:  gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">]
// DEFAULTPTX-LABEL: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80,+sm_90">, #nvvm.target<O = 3, chip = "sm_100", features = "+ptx86,+sm_90">]
// OLDPTX: error: PTX 6.0 (+ptx60) does not support sm_90: use +ptx78 or newer
// OLDPTX100: error: PTX 8.0 (+ptx80) does not support sm_100: use +ptx86 or newer
// CHIP: error: unknown cuda chip 'gfx90a' (expected sm_NN, sm_NNa or sm_NNf: sm_80, sm_90)
// NOCHIP: error: no cuda chip (chip=',')
// With libdevice=false a libdevice call is an error even where the toolkit
// has libdevice.
// NOTLINKED: error: the kernels call __nv_expf from libdevice, which is not to be linked (libdevice=false): f32 math has approximations, f64 only exp, expm1, log, log1p, tanh and erf
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %a : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// Math that convert-gpu-to-nvvm turned into a libdevice call, with no
// libdevice under the toolkit folder: an error naming the function and the
// missing file, not PTX with an unresolvable .extern.
module attributes {gpu.container_module} {
  gpu.module @math {
    // expected-error-re @+1 {{the kernels call __nv_expf from libdevice, and there is no '{{.*}}.none/nvvm/libdevice/libdevice.10.bc' (set ADJOINT_CUDA_TOOLKIT or the toolkit option to a folder with nvvm/libdevice/libdevice.10.bc)}}
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @k(%a: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.load %a : !llvm.ptr -> f32
      %e = llvm.call @__nv_expf(%v) : (f32) -> f32
      llvm.store %e, %a : f32, !llvm.ptr
      llvm.return
    }
  }
}
