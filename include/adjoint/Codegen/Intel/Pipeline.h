//===- Pipeline.h - The Intel SPIR-V stage ----------------------*- C++ -*-===//

#ifndef ADJOINT_CODEGEN_INTEL_PIPELINE_H
#define ADJOINT_CODEGEN_INTEL_PIPELINE_H

#include "adjoint/Codegen/Common/LowerToTargetOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

/// The subgroup size kernels are written for when the options leave it to
/// the kind (0), which only the SPIR-V pipelines do. Intel GPUs run
/// subgroups of 8 to 32; 16 suits them all, and Intel's CPU OpenCL runtime
/// miscompiles the reductions' shuffle butterfly at 32 and 64
/// (docs/gpu-kernels.md).
int64_t intelSubgroupSize(const LowerToTargetOptions &options);

/// `-adj-intel-spirv`: kernels -> the SPIR-V dialect (OpenCL kernel
/// flavour) in each gpu.module.
void buildIntelSPIRVPipeline(mlir::OpPassManager &pm,
                             const LowerToTargetOptions &options);

} // namespace adjoint

#endif // ADJOINT_CODEGEN_INTEL_PIPELINE_H
