//===- Fixpoint.cpp - Repeat a pipeline until it changes nothing ----------===//
//
// -adj-fixpoint{pipeline=... max-rounds=N}: runs the round pipeline on the
// module again and again, and stops after the first round that leaves the
// module as it found it (compared by OperationFingerPrint, a hash of every
// op's identity, attributes, operands, result types and successors), or
// after N rounds.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_FIXPOINT
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;

namespace {

struct Fixpoint : adjoint::adj::impl::FixpointBase<Fixpoint> {
  using FixpointBase::FixpointBase;

  /// Built from passes (adjoint::buildOptimizePipeline): no registry needed.
  /// The option keeps the text, so the pass prints as it would be written.
  Fixpoint(const OpPassManager &pipelineOfRound, unsigned rounds) {
    round = pipelineOfRound;
    given = true;
    std::string text;
    llvm::raw_string_ostream os(text);
    round.printAsTextualPipeline(os);
    // "builtin.module(a,b)" -> "a,b": the option holds the round's passes.
    llvm::StringRef inner(text);
    if (inner.consume_front("builtin.module(") && inner.consume_back(")"))
      text = inner.str();
    pipeline = text;
    maxRounds = rounds;
  }

  /// The round's dialects must be loaded before any pass runs. A textual
  /// pipeline is parsed here too (parsing needs only the pass registry, no
  /// context); its errors are reported by initialize().
  void getDependentDialects(DialectRegistry &registry) const override {
    if (given)
      return round.getDependentDialects(registry);
    OpPassManager parsed(ModuleOp::getOperationName());
    if (succeeded(parsePassPipeline(pipeline, parsed, llvm::nulls())))
      parsed.getDependentDialects(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    if (given)
      return success();
    round = OpPassManager(ModuleOp::getOperationName());
    std::string message;
    llvm::raw_string_ostream os(message);
    if (failed(parsePassPipeline(pipeline, round, os)))
      return emitError(UnknownLoc::get(context))
             << "-adj-fixpoint: bad pipeline '" << pipeline << "': "
             << message;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OperationFingerPrint before(module);
    for (unsigned i = 0; i < maxRounds; ++i) {
      if (failed(runPipeline(round, module)))
        return signalPassFailure();
      OperationFingerPrint after(module);
      if (after == before)
        return;
      before = after;
    }
  }

private:
  OpPassManager round{ModuleOp::getOperationName()};
  /// Whether `round` came from the constructor rather than the option.
  bool given = false;
};

} // namespace

std::unique_ptr<Pass>
adjoint::adj::createFixpoint(const OpPassManager &round, unsigned maxRounds) {
  return std::make_unique<Fixpoint>(round, maxRounds);
}
