//===- AttachTarget.cpp - ROCDL target of the kernels ---------------------===//

#include "adjoint/Codegen/AMD/Passes.h"

#include "llvm/Support/FileSystem.h"

namespace adjoint::amd {
#define GEN_PASS_DEF_ATTACHTARGET
#include "adjoint/Codegen/AMD/Passes.h.inc"
} // namespace adjoint::amd

using namespace mlir;

namespace {

/// Code object v5: what ROCm 6 and (reportedly) 5.6+ load (MLIR 22
/// defaults to v6, which needs ROCm 6.2 or newer).
constexpr const char *kCodeObjectABI = "500";

/// `a` and `b`, comma-separated feature lists, as one.
std::string joinFeatures(StringRef a, StringRef b) {
  if (a.empty())
    return b.str();
  if (b.empty())
    return a.str();
  return (a + "," + b).str();
}

struct AttachTarget : adjoint::amd::impl::AttachTargetBase<AttachTarget> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::string error;
    std::optional<adjoint::amd::Chip> parsed =
        adjoint::amd::parseChip(chip, error);
    if (!parsed) {
      module.emitError(error);
      return signalPassFailure();
    }
    int64_t wave = wavefrontSize ? int64_t(wavefrontSize)
                                 : (parsed->wave32 ? 32 : 64);
    if (wave != 32 && wave != 64) {
      module.emitError("AMD wavefronts are 32 or 64 work items, not ")
          << wave;
      return signalPassFailure();
    }
    if (wave == 32 && !parsed->wave32) {
      module.emitError(parsed->processor)
          << " runs wavefronts of 64 only: subgroup size 32 is for RDNA "
             "chips (gfx10, gfx11, ...)";
      return signalPassFailure();
    }
    std::string llvmFeatures = joinFeatures(parsed->features, features);
    // RDNA runs wave32 unless told; CDNA only knows 64.
    if (wave == 64 && parsed->wave32)
      llvmFeatures = joinFeatures(llvmFeatures, "+wavefrontsize64");
    // The flag sets ocml's __oclc_wavefrontsize64; MLIR's default (wave64)
    // is wrong on RDNA's wave32.
    auto flags = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, wave == 64 ? "wave64"
                                                             : "no_wave64"),
                             UnitAttr::get(ctx))});
    auto target = ROCDL::ROCDLTargetAttr::get(
        ctx, /*optLevel=*/3, "amdgcn-amd-amdhsa", parsed->processor,
        llvmFeatures, kCodeObjectABI, flags, /*linkFiles=*/nullptr);

    std::string folder = adjoint::amd::resolveRocmPath(rocm);
    if (checkLinker &&
        !llvm::sys::fs::can_execute(adjoint::amd::linkerPath(folder))) {
      module.emitError("no ld.lld to link AMD code objects: ")
          << (folder.empty() ? std::string("no ROCm folder")
                             : "'" + adjoint::amd::linkerPath(folder) +
                                   "' is missing")
          << " (set ADJOINT_ROCM_PATH or the rocm option to a folder with "
             "llvm/bin/ld.lld, a link to Debian's ld.lld-22; "
             "scripts/setup.sh arranges one)";
      return signalPassFailure();
    }
    // Without device libraries the pipeline approximates f32 and f16
    // math; what remains an ocml call (f64 functions) is an error here.
    bool haveLibs = deviceLibs && adjoint::amd::hasDeviceLibs(folder);
    bool missingLibs = false;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.setTargetsAttr(ArrayAttr::get(ctx, {target}));
      if (haveLibs)
        return;
      for (auto function : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
        if (!function.isExternal() ||
            !function.getSymName().starts_with("__ocml_"))
          continue;
        if (!deviceLibs)
          function.emitError("the kernels call ")
              << function.getSymName()
              << " from the ROCm device libraries, which are not to be "
                 "linked (device-libs=false): f32 and f16 math have "
                 "approximations, f64 only exp, expm1, log, log1p, tanh "
                 "and erf";
        else
          function.emitError("the kernels call ")
              << function.getSymName()
              << " from the ROCm device libraries, and there are none in "
              << (folder.empty() ? std::string("any ROCm folder")
                                 : "'" + folder + "/amdgcn/bitcode'")
              << " (set ADJOINT_ROCM_PATH or the rocm option to a folder "
                 "with amdgcn/bitcode/ocml.bc)";
        missingLibs = true;
        return;
      }
    });
    if (missingLibs)
      signalPassFailure();
  }
};

} // namespace
