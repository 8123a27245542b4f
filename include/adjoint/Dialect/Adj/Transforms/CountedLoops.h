//===- CountedLoops.h - Trip counts of counted loops -------*- C++ -*-===//
//
// -adj-unroll, -adj-reverse-loops and the gradient checker (which expects
// first-order code after -adj-optimize for such loops) need to know how many
// times a loop runs when that is known at compile time. The front end writes
// `while t < n: ...; t = t + 1` as often as `for t in range(n)`, so both loop
// kinds are recognized.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_TRANSFORMS_COUNTEDLOOPS_H
#define ADJOINT_DIALECT_ADJ_TRANSFORMS_COUNTEDLOOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace adjoint::adj {

/// The value of a one-element integer constant (adj.constant or a fill).
std::optional<int64_t> constantInt(mlir::Value value);

/// A rank-0 i64 adj.constant: the type of adj.for's bounds and induction
/// variable, and of the row counters the loop passes make.
mlir::Value constantI64(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// The trip count of `loop` when it is known at compile time:
/// - adj.for with constant bounds and a positive constant step;
/// - adj.while whose condition is `k < v` or `k <= v` (or `v > k`,
///   `v >= k`) on a carried integer `k` with a constant start, a constant
///   `v`, and whose body yields `k + c` for a constant `c > 0`.
/// std::nullopt for anything else.
std::optional<uint64_t> staticTripCount(mlir::Operation *loop);

} // namespace adjoint::adj

#endif // ADJOINT_DIALECT_ADJ_TRANSFORMS_COUNTEDLOOPS_H
