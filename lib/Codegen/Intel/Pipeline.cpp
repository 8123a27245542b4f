//===- Pipeline.cpp - The Intel SPIR-V stage ------------------------------===//

#include "adjoint/Codegen/Intel/Pipeline.h"
#include "adjoint/Codegen/Common/PipelineText.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Codegen/Intel/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

int64_t adjoint::intelSubgroupSize(const LowerToTargetOptions &options) {
  return options.subgroupSize ? options.subgroupSize : int64_t(16);
}

void adjoint::buildIntelSPIRVPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options) {
  pm.addPass(createAttachTarget(AttachTargetOptions{
      options.chip, options.features, intelSubgroupSize(options)}));
  // Workgroup buffers of the tiled kernels as SPIR-V Workgroup variables.
  pm.addNestedPass<gpu::GPUModuleOp>(createWorkgroupAllocs());
  // Views sunk into the kernels fold into their loads and stores; affine
  // index arithmetic and math become what the SPIR-V conversion knows
  // (math as OpenCL extended instructions; log1p and expm1, which it
  // would write as log(1 + x) and exp(x) - 1, through log and exp first).
  pm.addNestedPass<gpu::GPUModuleOp>(createPreciseMath());
  // Barriers of kernels that share global memory order it too.
  pm.addNestedPass<gpu::GPUModuleOp>(createGlobalBarriers());
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "canonicalize,convert-math-to-spirv)");
  pm.addNestedPass<gpu::GPUModuleOp>(createLegalizeArith());
  // Rank-0 views at an offset (a scalar element of a vector) as rank-1
  // buffers: the conversion below would read them at offset 0.
  pm.addPass(createScalarViewArgs());
  // Upstream's convert-gpu-to-spirv with the complex patterns in the same
  // conversion.
  pm.addPass(createKernelsToSPIRV());
  addPipelineText(pm, "gpu.module(spirv.module(spirv-lower-abi-attrs,"
                      "spirv-update-vce))");
}
