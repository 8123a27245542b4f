//===- KernelsToSPIRV.cpp - GPU kernels to SPIR-V, complex numbers too ----===//

#include "adjoint/Codegen/Intel/Passes.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ComplexToSPIRV/ComplexToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"

namespace adjoint {
#define GEN_PASS_DEF_KERNELSTOSPIRV
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// Memory spaces of the kernel's memrefs as OpenCL storage classes (global
/// buffers CrossWorkgroup, workgroup buffers Workgroup).
void mapStorageClasses(Operation *module) {
  spirv::MemorySpaceToStorageClassConverter converter(
      spirv::mapMemorySpaceToOpenCLStorageClass);
  spirv::convertMemRefTypesAndAttrs(module, converter);
}

/// Selects of complex values as selects of their parts: SPIR-V 1.3's
/// OpSelect takes vector objects only with a condition of as many
/// components, and the arith conversion has no pattern for complex types.
void splitComplexSelects(Operation *module) {
  SmallVector<arith::SelectOp> selects;
  module->walk([&](arith::SelectOp select) {
    if (isa<ComplexType>(select.getType()))
      selects.push_back(select);
  });
  for (arith::SelectOp select : selects) {
    OpBuilder b(select);
    Location loc = select.getLoc();
    auto part = [&](auto partOp) {
      using PartOp = decltype(partOp);
      return arith::SelectOp::create(
          b, loc, select.getCondition(),
          PartOp::create(b, loc, select.getTrueValue()),
          PartOp::create(b, loc, select.getFalseValue()));
    };
    Value re = part(complex::ReOp()), im = part(complex::ImOp());
    select.replaceAllUsesWith(
        complex::CreateOp::create(b, loc, select.getType(), re, im)
            .getResult());
    select.erase();
  }
}

/// The kernels of `module` (a copy of a gpu.module) as one spirv.module:
/// every dialect the kernels use, converted with one type converter.
LogicalResult convertToSPIRV(Operation *module) {
  MLIRContext *ctx = module->getContext();
  spirv::TargetEnvAttr env = spirv::lookupTargetEnvOrDefault(module);
  std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
  SPIRVConversionOptions options;
  // Buffers beyond 2^31 elements index with 64 bits (the runtime's ABI).
  options.use64bitIndex = true;
  SPIRVTypeConverter converter(env, options);
  RewritePatternSet patterns(ctx);
  populateGPUToSPIRVPatterns(converter, patterns);
  ScfToSPIRVContext scf;
  populateSCFToSPIRVPatterns(converter, scf, patterns);
  arith::populateArithToSPIRVPatterns(converter, patterns);
  populateMemRefToSPIRVPatterns(converter, patterns);
  populateFuncToSPIRVPatterns(converter, patterns);
  populateComplexToSPIRVPatterns(converter, patterns);
  return applyFullConversion(module, *target, std::move(patterns));
}

/// The launches name the gpu.funcs: each becomes an empty func.func that
/// keeps its signature and the kernel attribute.
void stubKernels(gpu::GPUModuleOp module) {
  SmallVector<gpu::GPUFuncOp> kernels(module.getOps<gpu::GPUFuncOp>());
  for (gpu::GPUFuncOp kernel : kernels) {
    OpBuilder b(kernel);
    auto stub = func::FuncOp::create(b, kernel.getLoc(), kernel.getName(),
                                     kernel.getFunctionType());
    OpBuilder body = OpBuilder::atBlockEnd(stub.addEntryBlock());
    func::ReturnOp::create(body, kernel.getLoc());
    stub->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
    kernel.erase();
  }
}

struct KernelsToSPIRV : adjoint::impl::KernelsToSPIRVBase<KernelsToSPIRV> {
  void runOnOperation() override {
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules) {
      // The converted copy goes first inside the original, where
      // gpu-module-to-binary looks for the SPIR-V module.
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      Operation *copy = b.clone(*module);
      mapStorageClasses(copy);
      splitComplexSelects(copy);
      if (failed(convertToSPIRV(copy)))
        return signalPassFailure();
      stubKernels(module);
    }
  }
};

} // namespace
