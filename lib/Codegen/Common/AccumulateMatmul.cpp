//===- AccumulateMatmul.cpp - Sum a matrix product into its addend --------===//
//
// A gradient accumulated over a loop's trips (a weight's gradient in a
// recurrent network's backward loop) is `acc + a @ b` each trip. Lowered
// as is, the product is computed into a zero-filled temporary (a copy of a
// shared zero fill) and then added to the accumulator: three passes over a
// weight-sized matrix per trip. linalg's contractions accumulate into their
// init, so the accumulator itself can be the init: one pass, written in
// place when the accumulator has no other reader.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

namespace adjoint {
#define GEN_PASS_DEF_ACCUMULATEMATMUL
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// Whether `generic` is `out = in0 + in1` (floats), elementwise over
/// same-shaped operands.
bool isPlainFloatAdd(linalg::GenericOp generic) {
  if (generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      generic.getNumResults() != 1 ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }) ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  Block &body = generic.getRegion().front();
  if (body.getOperations().size() != 2)
    return false;
  auto add = dyn_cast<arith::AddFOp>(body.front());
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (!add || yield.getNumOperands() != 1 || yield.getOperand(0) != add)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
}

/// Whether `init` is a linalg.fill of zero.
bool isZeroFill(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  return fill && matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

struct AccumulateMatmul
    : adjoint::impl::AccumulateMatmulBase<AccumulateMatmul> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    SmallVector<linalg::GenericOp> adds;
    getOperation().walk([&](linalg::GenericOp generic) {
      if (isPlainFloatAdd(generic))
        adds.push_back(generic);
    });
    for (linalg::GenericOp generic : adds) {
      Type type = generic.getResult(0).getType();
      for (unsigned i = 0; i < 2; ++i) {
        Value product = generic.getDpsInputOperand(i)->get();
        Value addend = generic.getDpsInputOperand(1 - i)->get();
        Operation *op = product.getDefiningOp();
        if (!op || !isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
            !product.hasOneUse() || product.getType() != type ||
            addend.getType() != type)
          continue;
        auto contraction = cast<linalg::LinalgOp>(op);
        OpOperand *init = contraction.getDpsInitOperand(0);
        // The addend must exist where the product is computed.
        if (!isZeroFill(init->get()) ||
            !dominance.properlyDominates(addend, op))
          continue;
        init->set(addend);
        generic.getResult(0).replaceAllUsesWith(product);
        generic.erase();
        break;
      }
    }
  }
};

} // namespace
