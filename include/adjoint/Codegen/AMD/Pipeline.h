//===- Pipeline.h - The AMD ROCDL stage -------------------------*- C++ -*-===//

#ifndef ADJOINT_CODEGEN_AMD_PIPELINE_H
#define ADJOINT_CODEGEN_AMD_PIPELINE_H

#include "adjoint/Codegen/Common/LowerToTargetOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

namespace amd {
/// What the hip pipeline makes of the options: the default chip (gfx942)
/// where none is named, the ROCm folder resolved, the chip's wavefront
/// size where no subgroup size is asked for.
struct ResolvedOptions {
  std::string chip;
  std::string rocm;
  int64_t wavefrontSize;
};
ResolvedOptions resolveOptions(const LowerToTargetOptions &options);
} // namespace amd

/// `-adj-amd-rocdl`: kernels -> the ROCDL/LLVM dialects in each
/// gpu.module, one bare device pointer per memref argument, with the ROCDL
/// target of one chip (-adj-amd-attach-target; gfx942 by default, code
/// object v5, the chip's wavefront size). Math from the ROCm device
/// libraries where they were built for the chip, else f32/f16
/// approximations and native instructions (-adj-amd-native-math).
/// `checkLinker`: the target also checks the ROCm folder's ld.lld (the
/// whole hip pipeline links; this stage alone does not).
void buildAMDROCDLPipeline(mlir::OpPassManager &pm,
                           const LowerToTargetOptions &options,
                           bool checkLinker = false);

} // namespace adjoint

#endif // ADJOINT_CODEGEN_AMD_PIPELINE_H
