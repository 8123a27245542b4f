//===- Pipeline.cpp - The NVIDIA NVVM stage -------------------------------===//

#include "adjoint/Codegen/NVIDIA/Pipeline.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/Common/PipelineText.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Codegen/NVIDIA/Passes.h"
#include "adjoint/Target/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

void adjoint::buildNVIDIANVVMPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options) {
  // Views fold into their loads and stores, affine index arithmetic and
  // structured control flow become what the LLVM dialect has; then the
  // NVVM conversion with bare pointers, the runtime's kernel ABI
  // (include/adjoint/Runtime/GpuABI.h): one device address per memref,
  // which the kernels' static layouts (-adj-gpu-kernel-layouts) make
  // enough. Math ops become libdevice calls there; the target checks that
  // libdevice is at hand for them.
  // Flat buffers of dynamic extent (-adj-gpu-kernel-layouts) as pointers
  // first: bare pointers carry only static shapes.
  pm.addNestedPass<gpu::GPUModuleOp>(createFlatKernelArgs());
  // Without libdevice, math must not stay __nv_* calls: transcendentals
  // as polynomials first (powf through exp and log; f64 exp, expm1, log,
  // log1p, tanh and erf too), and after the NVVM conversion the calls of
  // what PTX has instructions for (sqrt, floor) as LLVM intrinsics. What
  // remains (other f64 transcendentals: sin, cos, ...) is a libdevice call
  // that the target then reports.
  bool libdevice = options.libdevice &&
                   nvidia::hasLibdevice(nvidia::resolveCudaToolkit(
                       options.toolkit));
  if (!libdevice) {
    addPipelineText(pm, "gpu.module(math-expand-ops{ops=powf,fpowi,tan,"
                        "sinh,cosh,asinh,acosh,atanh,exp2})");
    pm.addNestedPass<gpu::GPUModuleOp>(createApproximateMath());
  }
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "convert-scf-to-cf,canonicalize,"
                      "convert-complex-to-llvm,"
                      "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
                      // What has no libdevice function (math.absi, ...):
                      // LLVM intrinsics, which NVPTX selects.
                      "convert-math-to-llvm,reconcile-unrealized-casts)");
  // Loop metadata of the kernels' loops (the GEMM's k steps) for LLVM.
  pm.addNestedPass<gpu::GPUModuleOp>(createLoopAnnotations());
  if (!libdevice)
    pm.addNestedPass<gpu::GPUModuleOp>(nvidia::createNativeMath());
  nvidia::AttachTargetOptions target;
  if (!options.chip.empty())
    target.chip = options.chip;
  // Adjoint's own features (+tf32) are read by the GPU codegen, not LLVM.
  target.features = llvmTargetFeatures(options.features);
  target.toolkit = options.toolkit;
  // The target tells a missing libdevice from one not to be linked.
  target.libdevice = options.libdevice;
  pm.addPass(nvidia::createAttachTarget(target));
}
