//===- Passes.td - NVIDIA (NVVM) codegen -------------------*- tablegen -*-===//
//
// Pass `FooBar` lives in lib/Codegen/NVIDIA/FooBar.cpp, has the flag
// `-adj-nvidia-foo-bar` and is tested in test/Codegen/NVIDIA/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_NVIDIA_PASSES_TD
#define ADJOINT_CODEGEN_NVIDIA_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachTarget : Pass<"adj-nvidia-attach-target", "::mlir::ModuleOp"> {
  let summary = "Gives each gpu.module an NVVM target per chip (PTX version, "
                "O3) and checks that libdevice is there for its math calls";
  let description = [{
    `attach(gpu.module) = gpu.module with targets = [#nvvm.target<O = 3,
    chip = c, features = +ptxNN,features> for c in chips, lowest first]`;
    an error when a kernel calls a libdevice function (`__nv_expf`, ...)
    and `toolkit` has no `nvvm/libdevice/libdevice.10.bc`.

    Runs after convert-gpu-to-nvvm, which is what turns math ops into
    `__nv_*` calls. `chip` is one chip or several separated by commas,
    `sm_80,sm_90` by default: gpu-module-to-binary then serializes the
    module once per chip, and -adj-nvidia-merge-fatbins makes one fatbin
    of them. `features` are LLVM NVPTX features; without a `+ptxNN` among
    them each chip gets `+ptx80` (or its minimum where higher: +ptx86 for
    sm_100). A PTX version a chip cannot take is an error here: LLVM would
    abort the process. `toolkit` (empty: resolveCudaToolkit's default) is
    the folder gpu-module-to-binary must get as its own `toolkit` option:
    that is where libdevice gets linked from and ptxas found.

    Before:
    ```mlir
    gpu.module @m {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @k(%a: !llvm.ptr) attributes {nvvm.kernel} { ... }
    }
    ```
    After:
    ```mlir
    gpu.module @m [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">,
                   #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
    { ... }
    ```

    Why: upstream's nvvm-attach-target defaults to sm_50/+ptx60, which
    CUDA 13's ptxas refuses, takes one chip per run, and when no toolkit is
    found it leaves `.extern .func __nv_expf` in the PTX without a word;
    the kernel then fails to load on the device, far from the cause.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80,sm_90\"",
           "The SM architectures, comma-separated (sm_80,sm_90)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "LLVM NVPTX features (+ptx80; empty: each chip's default PTX "
           "version)">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit folder holding nvvm/libdevice (empty: the "
           "default of resolveCudaToolkit)">,
    Option<"libdevice", "libdevice", "bool", /*default=*/"true",
           "Whether kernels may call libdevice (false: any __nv_* call is "
           "an error, as without a libdevice)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def MergeFatbins : Pass<"adj-nvidia-merge-fatbins", "::mlir::ModuleOp"> {
  let summary = "Makes one fatbin of the per-chip fatbins of each "
                "gpu.binary: every chip's cubin and the lowest chip's PTX";
  let description = [{
    `merge(gpu.binary [fatbin(cubin_a, ptx_a), fatbin(cubin_b, ptx_b)]) =
    gpu.binary [fatbin(cubin_a, cubin_b, ptx_min(a, b))]`, for binaries
    whose objects are all NVVM fatbins; others are left alone. The entries
    are copied as they are (ptxas' cubins, fatbinary's compressed PTX);
    the merged object keeps the lowest chip's target.

    Before:
    ```mlir
    gpu.binary @m [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "...">,
                   #gpu.object<#nvvm.target<chip = "sm_90">, bin = "...">]
    ```
    After:
    ```mlir
    gpu.binary @m [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "...">]
    ```

    Why: gpu-module-to-binary makes one object per target, and the runtime
    loads one image per module (cuModuleLoadData of a fatbin picks the
    cubin of the device's chip, or JITs the PTX on a newer one). One PTX
    is enough: the lowest chip's runs on every newer GPU, and the cubins
    cover the chips asked for.
  }];
}

def NativeMath : Pass<"adj-nvidia-native-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Calls of libdevice functions that PTX has instructions for "
                "-> LLVM intrinsics";
  let description = [{
    `llvm.call @__nv_sqrtf(x) = llvm.intr.sqrt(x)`, likewise (f32 and f64)
    fabs, floor, ceil, trunc, round, rint, copysign, fma, fmin, fmax,
    rsqrt (1 / sqrt) and fmod (llvm.frem), and the integer abs and llabs;
    declarations left unused go. Only without libdevice: NVPTX lowers frem
    as a - trunc(a / b) * b, which is not exact once a / b is large
    (fmodf(1e10, 3) gives 256, not 1), where libdevice's fmod is exact;
    arith.remf reaches this pass as __nv_fmodf.
    Calls of other functions (`__nv_expf`, ...) are left alone.

    Before:
    ```mlir
    llvm.func @__nv_sqrtf(f32) -> f32
    %r = llvm.call @__nv_sqrtf(%x) : (f32) -> f32
    %e = llvm.call @__nv_exp(%y) : (f64) -> f64
    ```
    After:
    ```mlir
    %r = llvm.intr.sqrt(%x) : (f32) -> f32
    %e = llvm.call @__nv_exp(%y) : (f64) -> f64
    ```

    Why: convert-gpu-to-nvvm makes every math op a libdevice call, even
    those NVPTX selects to one instruction, and refuses the intrinsics
    before it. Without libdevice (-adj-lower-to-cuda{libdevice=false}, or
    a toolkit without it) the calls would stay unresolved; the intrinsics
    need nothing. The transcendentals are -adj-approximate-math's, before
    the conversion.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // ADJOINT_CODEGEN_NVIDIA_PASSES_TD
