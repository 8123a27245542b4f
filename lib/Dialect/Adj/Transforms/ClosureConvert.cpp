//===- ClosureConvert.cpp - Lift closures to top-level functions ----------===//
//
// Lambda lifting with explicit environments: each adj.lambda becomes a
// private adj.func whose leading parameters are the lambda's free variables,
// and the lambda becomes an adj.closure that binds them. Lambdas are lifted
// innermost first, so that when a lambda is lifted every lambda nested in it
// has already become an adj.closure whose captures are ordinary operands:
// the inner lambda's free variables that the outer one does not define are
// then simply free variables of the outer one.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_CLOSURECONVERT
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

/// Whether `v` is made by an op without operands that is a constant (a
/// func_ref, a constant tensor, the empty environment): such values are
/// rebuilt inside the lifted function rather than captured, so that
/// closures carry only what they really need.
static bool isRematerializable(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         def->hasTrait<OpTrait::ConstantLike>();
}

namespace {
struct ClosureConvert
    : adjoint::adj::impl::ClosureConvertBase<ClosureConvert> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);

    // Post-order visits nested lambdas before the ones around them.
    SmallVector<LambdaOp> lambdas;
    module.walk<WalkOrder::PostOrder>(
        [&](LambdaOp lambda) { lambdas.push_back(lambda); });

    // Per enclosing function: the next lambda index, and the last function
    // lifted out of it (the lifted functions follow their origin in order).
    llvm::DenseMap<Operation *, unsigned> nextIndex;
    llvm::DenseMap<Operation *, Operation *> lastLifted;
    for (LambdaOp lambda : lambdas) {
      // The top-level symbol it is in: an adj.func, or another function
      // (a func.func driver) into which the inliner moved adj code.
      Operation *parent = lambda->getParentOp();
      while (parent && parent->getParentOp() != module.getOperation())
        parent = parent->getParentOp();
      auto symbol = dyn_cast_or_null<SymbolOpInterface>(parent);
      if (!symbol) {
        lambda.emitOpError("is not inside a top-level function and cannot be "
                           "lifted");
        return signalPassFailure();
      }
      std::string name;
      do {
        name = (symbol.getName() + "_lambda_" + Twine(nextIndex[parent]++))
                   .str();
      } while (symbols.lookup(name));
      Operation *after = lastLifted.lookup(parent);
      FuncOp lifted = lift(lambda, name, after ? after : parent);
      symbols.insert(lifted);
      lastLifted[parent] = lifted;
    }
  }

  /// Moves `lambda`'s body into a new private function `name` placed after
  /// `after`, and replaces the lambda with an adj.closure of it.
  FuncOp lift(LambdaOp lambda, StringRef name, Operation *after) {
    Region &body = lambda.getBody();
    // Free variables in first-use order (a pre-order walk), which is
    // deterministic for a given input.
    llvm::SetVector<Value> captured;
    llvm::SetVector<Value> rebuilt;
    body.walk([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        if (body.isAncestor(operand.getParentRegion()))
          continue;
        if (isRematerializable(operand))
          rebuilt.insert(operand);
        else
          captured.insert(operand);
      }
    });

    FnType fnType = lambda.getFnType();
    SmallVector<Type> inputs;
    for (Value v : captured)
      inputs.push_back(v.getType());
    llvm::append_range(inputs, fnType.getInputs());

    OpBuilder b(after->getContext());
    b.setInsertionPointAfter(after);
    auto func = FuncOp::create(
        b, lambda.getLoc(), name,
        b.getFunctionType(inputs, fnType.getResults()));
    func.setPrivate();
    func.getBody().takeBody(body);
    Block &entry = func.getBody().front();

    auto inside = [&](OpOperand &use) {
      return func->isProperAncestor(use.getOwner());
    };
    for (auto [i, captive] : llvm::enumerate(captured)) {
      Value v = captive;
      BlockArgument arg = entry.insertArgument(i, v.getType(), v.getLoc());
      v.replaceUsesWithIf(arg, inside);
    }
    b.setInsertionPointToStart(&entry);
    for (Value v : rebuilt.getArrayRef()) {
      Operation *copy = b.clone(*v.getDefiningOp());
      v.replaceUsesWithIf(copy->getResult(0), inside);
    }

    b.setInsertionPoint(lambda);
    auto closure =
        ClosureOp::create(b, lambda.getLoc(), fnType,
                          FlatSymbolRefAttr::get(b.getContext(), name),
                          captured.getArrayRef());
    lambda.getResult().replaceAllUsesWith(closure.getResult());
    lambda.erase();
    return func;
  }
};

} // namespace
