//===- InitAll.cpp - Register everything Adjoint provides -----------------===//

#include "adjoint/InitAll.h"
#include "adjoint/AD/Passes.h"
#include "adjoint/Codegen/AMD/Passes.h"
#include "adjoint/Codegen/CPU/Passes.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Codegen/Intel/Passes.h"
#include "adjoint/Codegen/NVIDIA/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void adjoint::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<adj::AdjDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary and the ExecutionEngine need these translations.
  mlir::registerAllToLLVMIRTranslations(registry);
}

void adjoint::registerAllPasses() {
  mlir::registerAllPasses();
  adj::registerAdjPasses();
  ad::registerADPasses();
  registerCodegenCommonPasses();
  cpu::registerCodegenCPUPasses();
  registerGPUCodegenPasses();
  registerIntelCodegenPasses();
  nvidia::registerNVIDIACodegenPasses();
  amd::registerAMDCodegenPasses();
  registerPipelines();
}
