//===- AttachTarget.cpp - NVVM target of the kernels ----------------------===//

#include "adjoint/Codegen/NVIDIA/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

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

/// The SM number of `chip` (90 for sm_90 and sm_90a) and whether it is an
/// arch-specific variant (sm_90a), or an error naming the chip.
FailureOr<std::pair<unsigned, bool>> parseChip(StringRef chip, Location loc) {
  StringRef digits = chip;
  unsigned sm = 0;
  if (!digits.consume_front("sm_") || digits.empty() ||
      digits.consumeInteger(10, sm) || !(digits.empty() || digits == "a" ||
                                         digits == "f"))
    return emitError(loc, "unknown cuda chip '")
           << chip << "' (expected sm_NN, sm_NNa or sm_NNf: sm_80, sm_90)";
  return std::make_pair(sm, digits == "a");
}

/// The PTX version (times ten) `features` names with +ptxNN, if any.
std::optional<unsigned> ptxVersionOf(StringRef features) {
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
  return ptx;
}

/// The NVVM target of one chip: `features` as given when they name a PTX
/// version (checked against the chip), else with the chip's default one
/// added: PTX 8.0 (CUDA 12.0 drivers JIT it), or the chip's minimum where
/// that is higher.
FailureOr<NVVM::NVVMTargetAttr> targetFor(MLIRContext *ctx, StringRef chip,
                                          StringRef features, Location loc) {
  FailureOr<std::pair<unsigned, bool>> sm = parseChip(chip, loc);
  if (failed(sm))
    return failure();
  unsigned needed = minimumPTX(sm->first, sm->second);
  std::string withPTX = features.str();
  if (std::optional<unsigned> ptx = ptxVersionOf(features)) {
    if (*ptx < needed)
      return emitError(loc, "PTX ")
             << *ptx / 10 << "." << *ptx % 10 << " (+ptx" << *ptx
             << ") does not support " << chip << ": use +ptx" << needed
             << " or newer";
  } else {
    withPTX = "+ptx" + std::to_string(std::max(80u, needed)) +
              (features.empty() ? "" : "," + features.str());
  }
  return NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda",
                                   chip, withPTX);
}

struct AttachTarget
    : adjoint::nvidia::impl::AttachTargetBase<AttachTarget> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // One target per chip, the lowest first (whose PTX the fatbin keeps,
    // -adj-nvidia-merge-fatbins).
    SmallVector<StringRef> chips;
    StringRef(chip).split(chips, ',', -1, /*KeepEmpty=*/false);
    SmallVector<std::tuple<unsigned, StringRef, Attribute>> ordered;
    for (StringRef one : chips) {
      FailureOr<NVVM::NVVMTargetAttr> target =
          targetFor(ctx, one.trim(), features, module.getLoc());
      if (failed(target))
        return signalPassFailure();
      ordered.push_back({parseChip(one.trim(), module.getLoc())->first,
                         one.trim(), *target});
    }
    if (ordered.empty()) {
      module.emitError("no cuda chip (chip='") << chip << "')";
      return signalPassFailure();
    }
    llvm::sort(ordered, [](const auto &a, const auto &b) {
      return std::make_pair(std::get<0>(a), std::get<1>(a)) <
             std::make_pair(std::get<0>(b), std::get<1>(b));
    });
    SmallVector<Attribute> targets;
    for (auto &[sm, name, target] : ordered)
      if (!llvm::is_contained(targets, target))
        targets.push_back(target);
    std::string folder = adjoint::nvidia::resolveCudaToolkit(toolkit);
    std::string libdevicePath = adjoint::nvidia::libdevicePath(folder);
    // Without libdevice the pipeline approximates f32 math; what remains
    // a libdevice call (f64 functions) is an error here.
    bool haveLibdevice = libdevice && adjoint::nvidia::hasLibdevice(folder);
    bool missingLibdevice = false;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.setTargetsAttr(ArrayAttr::get(ctx, targets));
      if (haveLibdevice)
        return;
      // Calls that only libdevice defines: without it the PTX keeps them
      // as .extern declarations that no driver can resolve.
      for (auto function : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
        if (!function.isExternal() ||
            !function.getSymName().starts_with("__nv_"))
          continue;
        if (!libdevice)
          function.emitError("the kernels call ")
              << function.getSymName()
              << " from libdevice, which is not to be linked (libdevice="
                 "false): f32 math has approximations, f64 only exp, expm1, "
                 "log, log1p, tanh and erf";
        else
          function.emitError("the kernels call ")
              << function.getSymName()
              << " from libdevice, and there is no "
              << (folder.empty() ? std::string("CUDA toolkit")
                                 : "'" + libdevicePath + "'")
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
