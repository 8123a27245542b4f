//===- Flops.cpp - Floating-point operation counts of adj functions -------===//
//
// The cost model of Flops.h. Counts are exact integers with overflow
// checks: a count that does not fit in int64_t is reported as unknown rather
// than wrapped, so that a bound checked against it can never pass by
// accident.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/Transforms/Flops.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace adjoint::adj;

namespace {
/// A known count or the first reason it is unknown.
using Cost = FlopCount;

Cost known(int64_t n) { return Cost{n, "", false}; }
Cost unknown(std::string why) {
  return Cost{std::nullopt, std::move(why), false};
}

/// a + b, unknown when either is or on overflow.
Cost plus(const Cost &a, const Cost &b) {
  if (!a.flops)
    return unknown(a.reason);
  if (!b.flops)
    return unknown(b.reason);
  int64_t sum;
  if (llvm::AddOverflow(*a.flops, *b.flops, sum))
    return unknown("the count overflows 64 bits");
  return known(sum);
}

/// a * n, unknown when a is or on overflow.
Cost times(const Cost &a, int64_t n) {
  if (!a.flops)
    return unknown(a.reason);
  int64_t product;
  if (llvm::MulOverflow(*a.flops, n, product))
    return unknown("the count overflows 64 bits");
  return known(product);
}

/// The product of `factors`, unknown on overflow.
Cost product(std::initializer_list<std::optional<int64_t>> factors) {
  Cost result = known(1);
  for (std::optional<int64_t> f : factors) {
    if (!f)
      return unknown("a shape is dynamic or untyped");
    result = times(result, *f);
  }
  return result;
}

/// The number of elements of a statically shaped tensor type.
std::optional<int64_t> numel(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  return tensor.getNumElements();
}

/// Dimension `d` of a statically shaped tensor type (negative: from the end).
std::optional<int64_t> dim(Type type, int64_t d) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  if (d < 0)
    d += tensor.getRank();
  if (d < 0 || d >= tensor.getRank())
    return std::nullopt;
  return tensor.getDimSize(d);
}

/// The elements added by grad_add on `type`: tensors elementwise, tuples per
/// element. Environments have no static size.
Cost gradAddCost(Type type) {
  if (auto tuple = dyn_cast<adjoint::adj::TupleType>(type)) {
    Cost sum = known(0);
    for (Type element : tuple.getTypes())
      sum = plus(sum, gradAddCost(element));
    return sum;
  }
  if (isa<adjoint::adj::EnvType>(type))
    return unknown("adds environments, whose size is not static");
  return product({numel(type)});
}

/// The value of a rank-0 (or one-element) integer adj.constant.
std::optional<int64_t> constantInt(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  if (!cst)
    return std::nullopt;
  auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue());
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  return (*dense.value_begin<APInt>()).getSExtValue();
}

/// A readable name of a callable for reasons.
std::string nameOf(Operation *callable) {
  if (auto func = dyn_cast<FuncOp>(callable))
    return "@" + func.getSymName().str();
  return "a closure";
}
} // namespace

struct FlopCounter::Impl {
  FlopCounter &self;

  /// The adj.func or adj.lambda a call of `callee` runs, when it is known
  /// statically; null otherwise.
  Operation *resolveCallee(Value callee) {
    Operation *def = callee.getDefiningOp();
    if (!def)
      return nullptr;
    if (auto lambda = dyn_cast<LambdaOp>(def))
      return lambda;
    if (auto ref = dyn_cast<FuncRefOp>(def))
      return SymbolTable::lookupNearestSymbolFrom<FuncOp>(ref,
                                                          ref.getCalleeAttr());
    if (auto closure = dyn_cast<ClosureOp>(def))
      return SymbolTable::lookupNearestSymbolFrom<FuncOp>(
          closure, closure.getCalleeAttr());
    if (auto get = dyn_cast<GetOp>(def))
      if (auto tuple = get.getTuple().getDefiningOp<TupleOp>())
        if (get.getIndex() >= 0 &&
            get.getIndex() < static_cast<int64_t>(tuple.getNumOperands()))
          return resolveCallee(tuple.getOperand(get.getIndex()));
    return nullptr;
  }

  /// The cost of one call of an adj.func or adj.lambda (memoized).
  Cost callable(Operation *op) {
    auto it = self.done.find(op);
    if (it != self.done.end())
      return it->second;
    auto onStack = llvm::find(self.stack, op);
    if (onStack != self.stack.end()) {
      // Every callable from `op` to the innermost one calls the next one:
      // they form a cycle.
      for (auto at = onStack; at != self.stack.end(); ++at)
        self.onCycle.insert(*at);
      return Cost{std::nullopt, "recursive", true};
    }
    self.stack.push_back(op);
    Cost cost = block(op->getRegion(0).front());
    self.stack.pop_back();
    if (self.onCycle.contains(op))
      cost = Cost{std::nullopt, "recursive", true};
    self.done[op] = cost;
    return cost;
  }

  Cost block(Block &body) {
    Cost sum = known(0);
    for (Operation &op : body) {
      sum = plus(sum, operation(&op));
      if (!sum.flops)
        return sum;
    }
    return sum;
  }

  Cost call(CallOp call) {
    Operation *callee = resolveCallee(call.getCallee());
    if (!callee)
      return unknown("calls an unknown function value");
    Cost cost = callable(callee);
    if (cost.flops)
      return cost;
    if (cost.recursive)
      return unknown("calls recursive " + nameOf(callee));
    return unknown(cost.reason);
  }

  Cost ifOp(IfOp op) {
    Cost a = block(op.getThenRegion().front());
    Cost b = block(op.getElseRegion().front());
    if (!a.flops || !b.flops)
      return a.flops ? b : a;
    return known(std::max(*a.flops, *b.flops));
  }

  Cost forOp(ForOp op) {
    std::optional<int64_t> lb = constantInt(op.getLowerBound());
    std::optional<int64_t> ub = constantInt(op.getUpperBound());
    std::optional<int64_t> step = constantInt(op.getStep());
    std::optional<uint64_t> trips;
    if (lb && ub && step)
      trips = checkedTripCount(*lb, *ub, *step);
    if (!trips)
      return unknown("a loop without constant bounds");
    return times(block(op.getBody().front()),
                 static_cast<int64_t>(std::min<uint64_t>(
                     *trips, std::numeric_limits<int64_t>::max())));
  }

  Cost whileOp(WhileOp op) {
    // The trip count depends on data; only a loop that costs nothing per
    // iteration has a known cost.
    Cost perTrip =
        plus(block(op.getCond().front()), block(op.getBody().front()));
    if (perTrip.flops && *perTrip.flops == 0)
      return perTrip;
    return perTrip.flops ? unknown("a while loop") : perTrip;
  }

  Cost operation(Operation *op) {
    // Elementwise, including transcendentals, comparisons, conversions and
    // bit manipulation: one per output element.
    if (op->hasTrait<trait::BroadcastingElementwise>())
      return product({numel(op->getResult(0).getType())});
    // One per input element.
    if (op->hasTrait<trait::Reduction>())
      return product({numel(op->getOperand(0).getType())});
    return llvm::TypeSwitch<Operation *, Cost>(op)
        .Case([&](CallOp c) { return call(c); })
        .Case([&](IfOp c) { return ifOp(c); })
        .Case([&](ForOp c) { return forOp(c); })
        .Case([&](WhileOp c) { return whileOp(c); })
        .Case([&](MatmulOp m) {
          return product(
              {2, numel(m.getType()), dim(m.getLhs().getType(), -1)});
        })
        .Case([&](Conv2DOp c) {
          Type filter = c.getFilter().getType();
          return product({2, numel(c.getType()), dim(filter, 1),
                          dim(filter, 2), dim(filter, 3)});
        })
        .Case<MaxPool2DOp, AvgPool2DOp>([&](auto pool) {
          Cost cost = product({numel(pool.getType())});
          for (int64_t k : pool.getKernel())
            cost = times(cost, k);
          return cost;
        })
        .Case([&](GatherOp g) { return product({numel(g.getType())}); })
        .Case([&](ScatterAddOp s) {
          return product({numel(s.getUpdates().getType())});
        })
        .Case([&](ScatterOp s) {
          return product({numel(s.getUpdates().getType())});
        })
        .Case([&](GradAddOp g) { return gradAddCost(g.getType()); })
        .Case([&](EnvAddOp) {
          return unknown("adds environments, whose size is not static");
        })
        .Case<GradOp, ValueAndGradOp, VjpOp, JvpOp, VmapOp>([&](Operation *) {
          return unknown("an AD request (run -adj-grad first)");
        })
        // Shape, tuple, creation, function-value and environment
        // bookkeeping ops move or name data without arithmetic. Making a
        // closure is free; calling it costs its body.
        .Case<BroadcastToOp, ReshapeOp, TransposeOp, SliceOp, ConcatOp, PadOp,
              ConstantOp, FillOp, IotaOp, ZerosLikeOp, TupleOp, GetOp,
              FuncRefOp, LambdaOp, ClosureOp, EnvNewOp, EnvGetOp, EnvSetOp,
              ReturnOp, YieldOp>([&](Operation *) { return known(0); })
        // Identities and function values with rules attached; the barrier's
        // copy moves data without arithmetic.
        .Case<StopGradientOp, OptimizationBarrierOp, CustomVjpOp, CustomJvpOp,
              CheckpointOp>([&](Operation *) { return known(0); })
        .Default([&](Operation *other) {
          return unknown("'" + other->getName().getStringRef().str() +
                         "' has no cost model");
        });
  }
};

FlopCount FlopCounter::count(FuncOp func) {
  Impl impl{*this};
  return impl.callable(func);
}

std::optional<int64_t> adjoint::adj::countFlops(FuncOp func) {
  return FlopCounter().count(func).flops;
}
