//===- Pipeline.cpp - The AMD ROCDL stage ---------------------------------===//

#include "adjoint/Codegen/AMD/Pipeline.h"
#include "adjoint/Codegen/AMD/Passes.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/Common/PipelineText.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

adjoint::amd::ResolvedOptions
adjoint::amd::resolveOptions(const LowerToTargetOptions &options) {
  ResolvedOptions hip;
  hip.chip = options.chip.empty() ? std::string(amd::kDefaultChip)
                                  : options.chip.getValue();
  hip.rocm = amd::resolveRocmPath(options.toolkit);
  hip.wavefrontSize = options.subgroupSize
                          ? int64_t(options.subgroupSize)
                          : amd::defaultWavefrontSize(hip.chip);
  return hip;
}

void adjoint::buildAMDROCDLPipeline(OpPassManager &pm,
                                    const LowerToTargetOptions &options,
                                    bool checkLinker) {
  amd::ResolvedOptions hip = amd::resolveOptions(options);
  // Bare pointers as on NVIDIA: one device address per memref
  // (GpuABI.h), flat buffers of dynamic extent as pointers first.
  pm.addNestedPass<gpu::GPUModuleOp>(createFlatKernelArgs());
  // The device libraries where they were built for the chip; elsewhere
  // (absent, or Debian's 5.2 on gfx942 and gfx1100) f32 and f16
  // transcendentals as polynomials, and after the conversion the ocml
  // calls of what AMDGPU has instructions for (floor, rsqrt) as LLVM
  // intrinsics. f64 transcendentals are ocml calls linked from the device
  // libraries when present (whatever the chip: their f64 code does not
  // depend on it); without them exp, expm1, log, log1p, tanh and erf are
  // our approximations too, and the other f64 functions an error at the op.
  bool native = !(options.libdevice &&
                  amd::deviceLibsSupport(hip.rocm, hip.chip));
  if (native) {
    addPipelineText(pm, "gpu.module(math-expand-ops{ops=powf,fpowi,tan,"
                        "sinh,cosh,asinh,acosh,atanh,exp2})");
    ApproximateMathOptions approximate;
    approximate.f64 = !(options.libdevice && amd::hasDeviceLibs(hip.rocm));
    pm.addNestedPass<gpu::GPUModuleOp>(createApproximateMath(approximate));
  }
  // The conversion takes the processor alone (gfx942, not its target ID).
  std::string processor = StringRef(hip.chip).split(':').first.str();
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "convert-scf-to-cf,canonicalize,"
                      "convert-complex-to-llvm,"
                      "convert-gpu-to-rocdl{chipset=" +
                          processor +
                          " use-bare-ptr-memref-call-conv=true runtime=HIP "
                          // Not math's generic patterns, which compete with
                          // the ocml ones (math.tanh -> llvm.intr.tanh, which
                          // AMDGPU cannot select) where every dialect is
                          // loaded (compile(), ir-run).
                          "allowed-dialects=arith,cf,func,index,memref,ub,"
                          "vector},"
                          "convert-math-to-llvm,reconcile-unrealized-casts)");
  // Loop metadata of the kernels' loops (the GEMM's k steps) for LLVM.
  pm.addNestedPass<gpu::GPUModuleOp>(createLoopAnnotations());
  if (native)
    pm.addNestedPass<gpu::GPUModuleOp>(amd::createNativeMath());
  amd::AttachTargetOptions target;
  target.chip = hip.chip;
  target.features = llvmTargetFeatures(options.features);
  target.wavefrontSize = hip.wavefrontSize;
  target.rocm = hip.rocm;
  target.deviceLibs = options.libdevice;
  target.checkLinker = checkLinker;
  pm.addPass(amd::createAttachTarget(target));
}
