//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void adjoint::buildOptimizePipeline(OpPassManager &pm) {
  pm.addPass(adj::createInfer());
  // Each round exposes work for the next: an inlined body has new known
  // calls, an unrolled loop new closures, a simplified env new dead code.
  // Rounds beyond what a program needs change nothing.
  constexpr int kRounds = 4;
  for (int round = 0; round < kRounds; ++round) {
    pm.addPass(adj::createUnroll());
    pm.addPass(adj::createSpecialize());
    pm.addPass(adj::createInline());
    pm.addPass(adj::createSimplifyTuples());
    pm.addPass(adj::createSimplifyEnvs());
    pm.addPass(adj::createSimplifyAlgebra());
    pm.addPass(adj::createFoldConstants());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addPass(adj::createRemoveDeadValues());
    pm.addPass(createSymbolDCEPass());
  }
  // Whatever still builds closures (recursive code) gets explicit
  // environments.
  pm.addPass(adj::createClosureConvert());
}

void adjoint::registerPipelines() {
  PassPipelineRegistration<>(
      "adj-optimize",
      "Type inference, inlining, specialization and simplification until "
      "the program is first-order tensor code; closure conversion of the "
      "rest",
      [](OpPassManager &pm) { buildOptimizePipeline(pm); });
}
