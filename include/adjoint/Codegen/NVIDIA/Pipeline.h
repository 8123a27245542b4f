//===- Pipeline.h - The NVIDIA NVVM stage -----------------------*- C++ -*-===//

#ifndef ADJOINT_CODEGEN_NVIDIA_PIPELINE_H
#define ADJOINT_CODEGEN_NVIDIA_PIPELINE_H

#include "adjoint/Codegen/Common/LowerToTargetOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

/// `-adj-nvidia-nvvm`: kernels -> the NVVM/LLVM dialects in each
/// gpu.module, one bare device pointer per memref argument, with an NVVM
/// target per chip (-adj-nvidia-attach-target; sm_80 and sm_90 with
/// +ptx80 by default). Math as libdevice calls when the toolkit has it,
/// else as polynomials and PTX instructions (-adj-nvidia-native-math).
void buildNVIDIANVVMPipeline(mlir::OpPassManager &pm,
                             const LowerToTargetOptions &options);

} // namespace adjoint

#endif // ADJOINT_CODEGEN_NVIDIA_PIPELINE_H
