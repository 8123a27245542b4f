//===- FoldConstants.cpp - Evaluate ops whose operands are constants ------===//
//
// An op whose operands are all adj.constant / adj.fill is evaluated by the
// reference interpreter and replaced by an adj.constant. Using the oracle
// itself, rather than a second implementation of every primitive, makes the
// folded values agree with interpretation by construction (element types,
// rounding, broadcasting, the random number generators).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"
#include "adjoint/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

#include <complex>
#include <cstring>

namespace adjoint::adj {
#define GEN_PASS_DEF_FOLDCONSTANTS
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;
namespace interp = adjoint::interp;
using adjoint::DType;

namespace {

/// Results above this many elements stay computed at run time: a constant
/// that large would bloat the IR more than it saves.
constexpr int64_t kMaxResultElements = 65536;
/// Operands above this many elements (a big adj.fill) are not materialized
/// by the interpreter at compile time.
constexpr int64_t kMaxOperandElements = 1 << 20;

bool isConstantTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() &&
         type.getNumElements() <= kMaxOperandElements &&
         (value.getDefiningOp<ConstantOp>() || value.getDefiningOp<FillOp>());
}

/// Tensor primitives with constant operands. Structure (tuples, calls,
/// control flow), the AD ops and the constants themselves are not folded;
/// ops without operands (iota) are left as the compact form they are.
bool isFoldable(Operation *op) {
  if (!isa_and_nonnull<AdjDialect>(op->getDialect()) ||
      op->getNumRegions() != 0 ||
      op->getNumResults() != 1 || op->getNumOperands() == 0)
    return false;
  if (isa<ConstantOp, FillOp, IotaOp, TupleOp, GetOp, CallOp, FuncRefOp,
          ReturnOp, YieldOp, ZerosLikeOp, GradAddOp, EnvNewOp, EnvGetOp,
          EnvSetOp, EnvAddOp, GradOp, ValueAndGradOp, VjpOp, JvpOp, VmapOp>(op))
    return false;
  // The barrier exists to stay; stop_gradient waits for -adj-grad.
  if (isa<OptimizationBarrierOp, StopGradientOp>(op))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxResultElements)
    return false;
  return llvm::all_of(op->getOperands(), isConstantTensor);
}

/// Reads `count` elements of type T from raw interpreter storage.
template <typename T>
SmallVector<T> readRaw(const interp::Tensor &tensor) {
  SmallVector<T> values(tensor.numel());
  std::memcpy(values.data(), tensor.data(), values.size() * sizeof(T));
  return values;
}

/// The interpreter's tensor as an attribute of `type`; null when its dtype
/// or shape does not match the type (never expected: the op inferred it).
DenseElementsAttr toAttribute(const interp::Tensor &tensor,
                              RankedTensorType type) {
  if (llvm::ArrayRef<int64_t>(tensor.shape()) != type.getShape())
    return {};
  DType dtype;
  try {
    dtype = interp::dtypeOf(type.getElementType());
  } catch (const std::exception &) {
    return {};
  }
  if (dtype != tensor.dtype())
    return {};
  SmallVector<APFloat> floats;
  switch (dtype) {
  case DType::F64:
    for (double v : readRaw<double>(tensor))
      floats.emplace_back(v);
    return DenseElementsAttr::get(type, floats);
  case DType::F32:
    for (float v : readRaw<float>(tensor))
      floats.emplace_back(v);
    return DenseElementsAttr::get(type, floats);
  case DType::F16:
  case DType::BF16: {
    const llvm::fltSemantics &semantics = dtype == DType::F16
                                        ? APFloat::IEEEhalf()
                                        : APFloat::BFloat();
    for (uint16_t bits : readRaw<uint16_t>(tensor))
      floats.emplace_back(semantics, APInt(16, bits));
    return DenseElementsAttr::get(type, floats);
  }
  case DType::I64: {
    SmallVector<APInt> ints;
    for (int64_t v : readRaw<int64_t>(tensor))
      ints.emplace_back(64, v, /*isSigned=*/true);
    return DenseElementsAttr::get(type, ints);
  }
  case DType::I32: {
    SmallVector<APInt> ints;
    for (int32_t v : readRaw<int32_t>(tensor))
      ints.emplace_back(32, v, /*isSigned=*/true);
    return DenseElementsAttr::get(type, ints);
  }
  case DType::I1: {
    SmallVector<bool> bools;
    for (uint8_t v : readRaw<uint8_t>(tensor))
      bools.push_back(v != 0);
    return DenseElementsAttr::get(type, bools);
  }
  case DType::C64: {
    SmallVector<std::complex<float>> values =
        readRaw<std::complex<float>>(tensor);
    return DenseElementsAttr::get(type, ArrayRef(values));
  }
  case DType::C128: {
    SmallVector<std::complex<double>> values =
        readRaw<std::complex<double>>(tensor);
    return DenseElementsAttr::get(type, ArrayRef(values));
  }
  }
  return {};
}

/// Evaluates `op` (foldable) in a module of its own: one function holding
/// clones of the op's constant operands and of the op. Null when the
/// interpreter reports an error (an index out of range, say): the op is
/// then left for run time, where the error is reported.
DenseElementsAttr evaluate(Operation *op) {
  Location loc = op->getLoc();
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder builder(module->getBodyRegion());
  auto func = FuncOp::create(builder, loc, "fold",
                             builder.getFunctionType({}, {type}));
  builder.createBlock(&func.getBody());
  IRMapping mapping;
  for (Value operand : op->getOperands())
    if (!mapping.contains(operand))
      mapping.map(operand,
                  builder.clone(*operand.getDefiningOp())->getResult(0));
  Operation *clone = builder.clone(*op, mapping);
  ReturnOp::create(builder, loc, clone->getResult(0));
  try {
    interp::Interpreter interpreter(*module);
    std::vector<interp::Value> results = interpreter.call("fold", {});
    if (results.size() != 1 || !results[0].isTensor())
      return {};
    return toAttribute(results[0].tensor(), type);
  } catch (const std::exception &) {
    return {};
  }
}

struct FoldConstants
    : adjoint::adj::impl::FoldConstantsBase<FoldConstants> {
  void runOnOperation() override {
    // Pre-order, in block order: operands are folded before their users, so
    // chains of constant ops fold in one sweep.
    SmallVector<Operation *> candidates;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      if (!isFoldable(op))
        continue;
      DenseElementsAttr value = evaluate(op);
      if (!value)
        continue;
      llvm::SmallSetVector<Operation *, 2> defs;
      for (Value operand : op->getOperands())
        defs.insert(operand.getDefiningOp());
      OpBuilder builder(op);
      auto constant = ConstantOp::create(builder, op->getLoc(), value);
      op->getResult(0).replaceAllUsesWith(constant.getResult());
      op->erase();
      // The operands' constants die with the op they fed, unless used
      // elsewhere. They precede the op, so the sweep is already past them.
      for (Operation *def : defs)
        if (def->use_empty())
          def->erase();
    }
  }
};

} // namespace
