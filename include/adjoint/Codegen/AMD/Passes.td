//===- Passes.td - AMD (ROCDL) codegen ---------------------*- tablegen -*-===//
//
// Pass `FooBar` lives in lib/Codegen/AMD/FooBar.cpp, has the flag
// `-adj-amd-foo-bar` and is tested in test/Codegen/AMD/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_AMD_PASSES_TD
#define ADJOINT_CODEGEN_AMD_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachTarget : Pass<"adj-amd-attach-target", "::mlir::ModuleOp"> {
  let summary = "Gives each gpu.module the ROCDL target of one chip and "
                "wavefront size (code object v5, O3) and checks that the "
                "device libraries are there for its math calls";
  let description = [{
    `attach(gpu.module) = gpu.module with targets = [#rocdl.target<O = 3,
    chip = c, features = f, abi = "500", flags = {wave64 | no_wave64}>]`
    for the target ID `chip` = `c[:sramecc±][:xnack±]` (f its features as
    LLVM spells them, plus +wavefrontsize64 for wave64 on RDNA); an error
    when a kernel calls an ocml function (`__ocml_exp_f64`, ...) and the
    ROCm folder has no device libraries (or `device-libs=false`).

    Runs after convert-gpu-to-rocdl, which turns math ops into `__ocml_*`
    calls. `wavefront-size` is what the kernels were written for
    (-adj-gpu-reductions' shuffles): 64 on CDNA (gfx90a, gfx942), 32 or 64
    on RDNA (gfx1100: 32 by default); 32 on a wave64-only chip is an
    error. `rocm` (empty: resolveRocmPath's default) is the folder
    gpu-module-to-binary must get as its `toolkit`: amdgcn/bitcode/ for
    ocml, llvm/bin/ld.lld for linking; with `check-linker` a folder without
    ld.lld is an error here rather than an "lld invocation failed" there.

    Before:
    ```mlir
    gpu.module @m {
      llvm.func @__ocml_tanh_f64(f64) -> f64
      llvm.func @k(%a: !llvm.ptr) attributes {rocdl.kernel} { ... }
    }
    ```
    After:
    ```mlir
    gpu.module @m [#rocdl.target<O = 3, chip = "gfx942", abi = "500",
                                 flags = {wave64}>] { ... }
    ```

    Why: upstream's rocdl-attach-target defaults to gfx900 and code object
    v6, which ROCm before 6.2 cannot load; it sets __oclc_wavefrontsize64
    for every chip unless told (wrong on RDNA's wave32); and without device
    libraries it leaves `__ocml_*` undefined in the code object, which the
    driver then refuses, far from the cause.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx942\"",
           "The AMD target ID: gfx90a, gfx942, gfx1100, gfx942:xnack-">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "More LLVM AMDGPU features (+/-name, comma-separated)">,
    Option<"wavefrontSize", "wavefront-size", "int64_t", /*default=*/"0",
           "The wavefront (subgroup) size the kernels are written for (0: "
           "the chip's default, 64 on CDNA, 32 on RDNA)">,
    Option<"rocm", "rocm", "std::string", /*default=*/"\"\"",
           "ROCm folder with amdgcn/bitcode and llvm/bin/ld.lld (empty: "
           "the default of resolveRocmPath)">,
    Option<"deviceLibs", "device-libs", "bool", /*default=*/"true",
           "Whether kernels may call ocml (false: any __ocml_* call is an "
           "error, as without device libraries)">,
    Option<"checkLinker", "check-linker", "bool", /*default=*/"false",
           "Whether a ROCm folder without llvm/bin/ld.lld is an error">,
  ];
  let dependentDialects = ["::mlir::ROCDL::ROCDLDialect"];
}

def NativeMath : Pass<"adj-amd-native-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Calls of ocml functions that AMDGPU has instructions for "
                "-> LLVM intrinsics";
  let description = [{
    `llvm.call @__ocml_floor_f32(x) = llvm.intr.floor(x)`, likewise (f16,
    f32 and f64) sqrt, fabs, ceil, trunc, round, rint, copysign, fma, fmin,
    fmax, rsqrt (1 / sqrt) and fmod (llvm.frem); declarations left unused
    go. Only without device libraries: AMDGPU expands frem as
    a - trunc(a / b) * b, inexact once a / b is large, where ocml's fmod
    is exact (arith.remf reaches this pass as __ocml_fmod_f32). Calls of
    other functions (`__ocml_exp_f64`, ...) are left alone.

    Before:
    ```mlir
    llvm.func @__ocml_floor_f32(f32) -> f32
    %r = llvm.call @__ocml_floor_f32(%x) : (f32) -> f32
    %e = llvm.call @__ocml_exp_f64(%y) : (f64) -> f64
    ```
    After:
    ```mlir
    %r = llvm.intr.floor(%x) : (f32) -> f32
    %e = llvm.call @__ocml_exp_f64(%y) : (f64) -> f64
    ```

    Why: convert-gpu-to-rocdl makes ocml calls of functions the AMDGPU
    back end selects to one instruction or a short sequence. Where the
    device libraries are not linked (absent, or not built for the chip:
    Debian's 5.2 predates gfx942 and gfx1100) the calls would stay
    undefined; the intrinsics need nothing. The f32 transcendentals are
    -adj-approximate-math's, before the conversion.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // ADJOINT_CODEGEN_AMD_PASSES_TD
