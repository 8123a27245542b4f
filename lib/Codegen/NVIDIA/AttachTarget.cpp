//===- AttachTarget.cpp - NVVM target of the kernels ----------------------===//

#include "adjoint/Codegen/NVIDIA/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace adjoint::nvidia {
#define GEN_PASS_DEF_ATTACHTARGET
#include "adjoint/Codegen/NVIDIA/Passes.h.inc"
} // namespace adjoint::nvidia

using namespace mlir;

namespace {

/// The lowest PTX version (times ten) LLVM's NVPTX back end accepts for
/// `sm` (the number of sm_NN; `accelerated` for the sm_90a-style
/// variants). Asking for less makes LLVM abort the whole process, so the
/// pass checks it first.
unsigned minimumPTX(unsigned sm, bool accelerated) {
  if (sm >= 120)
    return 87;
  if (sm >= 100)
    return 86;
  if (sm >= 90)
    return accelerated ? 80 : 78;
  if (sm >= 89)
    return 78;
  if (sm >= 87)
    return 74;
  if (sm >= 86)
    return 71;
  if (sm >= 80)
    return 70;
  if (sm >= 75)
    return 63;
  if (sm >= 70)
    return 60;
  return 0;
}

LogicalResult checkChipAndFeatures(StringRef chip, StringRef features,
                                   Location loc) {
  StringRef digits = chip;
  unsigned sm = 0;
  if (!digits.consume_front("sm_") || digits.empty() ||
      digits.consumeInteger(10, sm) || !(digits.empty() || digits == "a" ||
                                         digits == "f"))
    return emitError(loc, "unknown cuda chip '")
           << chip << "' (expected sm_NN, sm_NNa or sm_NNf: sm_80, sm_90)";
  SmallVector<StringRef> items;
  features.split(items, ',', -1, /*KeepEmpty=*/false);
  std::optional<unsigned> ptx;
  for (StringRef item : items) {
    unsigned version;
    StringRef rest = item.trim();
    if (rest.consume_front("+ptx") && !rest.consumeInteger(10, version) &&
        rest.empty())
      ptx = version;
  }
  unsigned needed = minimumPTX(sm, digits == "a");
  if (!ptx)
    return emitError(loc, "cuda features '")
           << features << "' name no PTX version (+ptx" << needed
           << " or newer for " << chip << ")";
  if (*ptx < needed)
    return emitError(loc, "PTX ")
           << *ptx / 10 << "." << *ptx % 10 << " (+ptx" << *ptx
           << ") does not support " << chip << ": use +ptx" << needed
           << " or newer";
  return success();
}

struct AttachTarget
    : adjoint::nvidia::impl::AttachTargetBase<AttachTarget> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(checkChipAndFeatures(chip, features, module.getLoc())))
      return signalPassFailure();
    std::string folder = adjoint::nvidia::resolveCudaToolkit(toolkit);
    SmallString<256> libdevice(folder);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice",
                            "libdevice.10.bc");
    bool haveLibdevice = !folder.empty() && llvm::sys::fs::exists(libdevice);

    auto target = NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3,
                                            "nvptx64-nvidia-cuda", chip,
                                            features);
    bool missingLibdevice = false;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.setTargetsAttr(ArrayAttr::get(ctx, {target}));
      if (haveLibdevice)
        return;
      // Calls that only libdevice defines: without it the PTX keeps them
      // as .extern declarations that no driver can resolve.
      for (auto function : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
        if (!function.isExternal() ||
            !function.getSymName().starts_with("__nv_"))
          continue;
        function.emitError("the kernels call ")
            << function.getSymName()
            << " from libdevice, and there is no "
            << (folder.empty() ? std::string("CUDA toolkit")
                               : ("'" + libdevice + "'").str())
            << " (set ADJOINT_CUDA_TOOLKIT or the toolkit option to a "
               "folder with nvvm/libdevice/libdevice.10.bc)";
        missingLibdevice = true;
        return;
      }
    });
    if (missingLibdevice)
      signalPassFailure();
  }
};

} // namespace
