//===- Flops.h - FLOP counts of adj functions -------------------*- C++ -*-===//
//
// A static cost model: the FLOPs of one call of an adj.func, used by
// -adj-count-flops and by tests that bound the cost of derived programs
// ("the optimized gradient costs at most 3x its forward").
//
// The model: matmul 2*M*N*K per batch element; conv2d
// 2*N*O*OH*OW*(C/groups)*KH*KW; every elementwise op (arithmetic,
// transcendentals, comparisons, select, cast, grad_add of tensors) one per
// output element; reductions one per input element; pooling one per window
// element per output element; gather one per element read, scatter_add one
// per update element; random sampling one per element; shape, tuple,
// creation and environment-bookkeeping ops zero. A call of a known callee (a
// func_ref, an adj.closure or an adj.lambda of the same body, possibly
// through a tuple) adds the callee's FLOPs; adj.if costs its dearer branch,
// adj.for its body times its trip count when the bounds are constants.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_TRANSFORMS_FLOPS_H
#define ADJOINT_DIALECT_ADJ_TRANSFORMS_FLOPS_H

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace adjoint::adj {

/// The cost of one call, or why it cannot be known statically.
struct FlopCount {
  /// The count when it is known.
  std::optional<int64_t> flops;
  /// Why the count is unknown ("recursive", "call of an unknown function
  /// value", ...); empty when it is known.
  std::string reason;
  /// The function is part of a cycle of calls (its cost depends on data).
  bool recursive = false;
};

/// Counts FLOPs of functions, memoizing every function it visits, so that
/// counting all functions of a module visits each body once.
class FlopCounter {
public:
  /// The cost of one call of `func`.
  FlopCount count(FuncOp func);

private:
  struct Impl;
  /// Memoized results per adj.func and adj.lambda.
  llvm::DenseMap<mlir::Operation *, FlopCount> done;
  /// Functions being counted, outermost first: meeting one again means
  /// recursion, and every function from it to the top is on the cycle.
  std::vector<mlir::Operation *> stack;
  /// Callables found on a cycle of calls.
  llvm::DenseSet<mlir::Operation *> onCycle;
};

/// The FLOPs of one call of `func`, or std::nullopt when they cannot be
/// known statically (recursion, calls of unknown function values, loops
/// without constant bounds, dynamic or untyped shapes).
std::optional<int64_t> countFlops(FuncOp func);

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_TRANSFORMS_FLOPS_H
