//===- AttachTarget.cpp - SPIR-V OpenCL target of the kernels -------------===//

#include "adjoint/Codegen/Intel/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace adjoint {
#define GEN_PASS_DEF_ATTACHTARGET
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct Features {
  bool fp16 = true;
  bool fp64 = true;
};

FailureOr<Features> parseFeatures(StringRef text, Location loc) {
  Features features;
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    item = item.trim();
    bool on = !item.consume_front("-");
    if (on)
      item.consume_front("+");
    if (item == "fp16")
      features.fp16 = on;
    else if (item == "fp64")
      features.fp64 = on;
    else
      return emitError(loc, "unknown opencl feature '")
             << item << "' (known: fp16, fp64)";
  }
  return features;
}

FailureOr<spirv::DeviceType> parseChip(StringRef chip, Location loc) {
  std::optional<spirv::DeviceType> type =
      llvm::StringSwitch<std::optional<spirv::DeviceType>>(chip)
          .Case("", spirv::DeviceType::Unknown)
          .Case("cpu", spirv::DeviceType::CPU)
          .Case("integrated", spirv::DeviceType::IntegratedGPU)
          .Case("discrete", spirv::DeviceType::DiscreteGPU)
          .Default(std::nullopt);
  if (!type)
    return emitError(loc, "unknown opencl chip '")
           << chip << "' (known: cpu, integrated, discrete)";
  return *type;
}

/// The first element type in `kernel` the device cannot compute with, as
/// an error message, or empty.
std::string unsupportedType(gpu::GPUFuncOp kernel, const Features &features) {
  std::string problem;
  auto check = [&](Type type) {
    if (auto shaped = dyn_cast<ShapedType>(type))
      type = shaped.getElementType();
    if (!problem.empty())
      return;
    if (type.isBF16())
      problem = "bf16 is not supported on opencl yet";
    else if (type.isF64() && !features.fp64)
      problem = "f64 needs a device with fp64 (the target has -fp64)";
    else if (type.isF16() && !features.fp16)
      problem = "f16 needs a device with fp16 (the target has -fp16)";
    else if (isa<FloatType>(type) && !type.isF16() && !type.isF32() &&
             !type.isF64() && !type.isBF16())
      problem = "this float type is not supported on opencl";
  };
  for (Type type : kernel.getArgumentTypes())
    check(type);
  kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      check(type);
    for (Type type : op->getOperandTypes())
      check(type);
  });
  return problem;
}

struct AttachTarget : adjoint::impl::AttachTargetBase<AttachTarget> {
  using AttachTargetBase::AttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    FailureOr<Features> features =
        parseFeatures(this->features, module.getLoc());
    FailureOr<spirv::DeviceType> device = parseChip(chip, module.getLoc());
    if (failed(features) || failed(device))
      return signalPassFailure();
    if (subgroupSize < 0)
      return (void)(module.emitError("the subgroup size must not be "
                                     "negative"),
                    signalPassFailure());

    // What the OpenCL kernel flavour offers; -spirv-update-vce keeps only
    // what each module uses. Int8 holds bools (one byte each).
    using C = spirv::Capability;
    SmallVector<C> caps = {C::Kernel,
                           C::Addresses,
                           C::Int64,
                           C::Int8,
                           C::Int16,
                           C::GroupNonUniform,
                           C::GroupNonUniformArithmetic,
                           C::GroupNonUniformShuffle,
                           C::GroupNonUniformBallot};
    if (features->fp16)
      caps.push_back(C::Float16);
    if (features->fp64)
      caps.push_back(C::Float64);
    // The SubgroupSize execution mode needs it (OpenCL 2.x sub-group
    // dispatch); without it the requested size would be dropped silently.
    if (subgroupSize > 0)
      caps.push_back(C::SubgroupDispatch);
    auto vce = spirv::VerCapExtAttr::get(spirv::Version::V_1_3, caps, {}, ctx);
    // The subgroup size the kernels are written for: the SPIR-V conversion
    // accepts a shuffle only when its width equals it.
    spirv::ResourceLimitsAttr defaults = spirv::getDefaultResourceLimits(ctx);
    auto limits = spirv::ResourceLimitsAttr::get(
        ctx, defaults.getMaxComputeSharedMemorySize(),
        defaults.getMaxComputeWorkgroupInvocations(),
        defaults.getMaxComputeWorkgroupSize(),
        subgroupSize > 0 ? int(subgroupSize) : defaults.getSubgroupSize(),
        std::nullopt, std::nullopt,
        defaults.getCooperativeMatrixPropertiesKhr(),
        defaults.getCooperativeMatrixPropertiesNv());
    auto env = spirv::TargetEnvAttr::get(
        vce, limits, spirv::ClientAPI::OpenCL,
        spirv::Vendor::Intel, *device);

    bool failedKernel = false;
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      gpuModule.setTargetsAttr(ArrayAttr::get(ctx, {env}));
      gpuModule->setAttr(spirv::getTargetEnvAttrName(), env);
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
        if (!kernel.isKernel())
          continue;
        std::string problem = unsupportedType(kernel, *features);
        if (!problem.empty()) {
          kernel.emitError(problem);
          failedKernel = true;
          continue;
        }
        // The launch's block size when outlining knew it (LocalSize lets
        // the driver size registers); none otherwise (any size runs).
        SmallVector<int32_t> size;
        if (std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize())
          size.assign(known->begin(), known->end());
        std::optional<int> subgroup;
        if (subgroupSize > 0)
          subgroup = subgroupSize;
        kernel->setAttr(spirv::getEntryPointABIAttrName(),
                        spirv::getEntryPointABIAttr(ctx, size, subgroup));
      }
    });
    if (failedKernel)
      signalPassFailure();
  }
};

} // namespace
