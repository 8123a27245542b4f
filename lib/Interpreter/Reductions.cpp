//===- Reductions.cpp - reduce_sum/max/mean -------------------------------===//
//
// Reductions accumulate in double for floating-point elements: the oracle
// should carry the smallest error, and compiled code is compared against it
// with a tolerance.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

namespace {
enum class ReduceKind { Sum, Max, Mean };
} // namespace

static Tensor evalReduce(Operation *op, ReduceKind kind, const Tensor &x,
                         ArrayRef<int64_t> axes, bool keepdims) {
  if (kind == ReduceKind::Mean && !isComplex(x.dtype()))
    requireFloat(op, x);
  if (kind == ReduceKind::Max && isComplex(x.dtype()))
    fail(op, "complex numbers are not ordered, got " + x.typeString());
  if (kind == ReduceKind::Sum)
    requireNotBool(op, x);
  std::vector<bool> reduced(x.rank(), false);
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= x.rank())
      fail(op, "axis " + Twine(axis) + " is out of range for " +
                   x.typeString());
    if (reduced[axis])
      fail(op, "axis " + Twine(axis) + " is repeated");
    reduced[axis] = true;
  }
  std::vector<int64_t> kept, result;
  int64_t count = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    kept.push_back(reduced[d] ? 1 : x.shape()[d]);
    if (reduced[d])
      count *= x.shape()[d];
    if (!reduced[d] || keepdims)
      result.push_back(reduced[d] ? 1 : x.shape()[d]);
  }
  if (kind == ReduceKind::Max && count == 0 && numElements(kept) > 0)
    fail(op, "reduce_max over an empty axis of " + x.typeString());
  std::vector<int64_t> strides = stridesOf(kept);
  for (int64_t d = 0; d < x.rank(); ++d)
    if (reduced[d])
      strides[d] = 0;
  Tensor out(x.dtype(), result);
  int64_t outN = out.numel();
  dispatchAny(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Accumulator: double for floats, complex<double> for complex, int64
    // (wrapping) for integers.
    using Acc = std::conditional_t<
        kIsFloat<T>, double,
        std::conditional_t<kIsComplex<T>, std::complex<double>, int64_t>>;
    const T *in = ptr<T>(x);
    std::vector<Acc> acc(outN, 0);
    std::vector<bool> seen(outN, false);
    IndexWalker walk(x.shape(), {strides});
    for (int64_t i = 0, n = x.numel(); i < n; ++i, walk.next()) {
      int64_t o = walk.offset(0);
      Acc v;
      if constexpr (kIsFloat<T>)
        v = toDouble(in[i]);
      else
        v = static_cast<Acc>(in[i]);
      if constexpr (kIsComplex<T>) {
        acc[o] += v; // Only sum and mean reach here.
      } else if (kind == ReduceKind::Max) {
        // NaN wins once seen, as in NumPy's max.
        bool keep = seen[o];
        if constexpr (kIsFloat<T>)
          keep = keep &&
                 (std::isnan(acc[o]) || (!std::isnan(v) && v <= acc[o]));
        else
          keep = keep && v <= acc[o];
        if (!keep)
          acc[o] = v;
        seen[o] = true;
      } else if constexpr (kIsFloat<T>) {
        acc[o] += v;
      } else {
        acc[o] = static_cast<int64_t>(static_cast<uint64_t>(acc[o]) +
                                      static_cast<uint64_t>(v));
      }
    }
    T *po = ptr<T>(out);
    for (int64_t o = 0; o < outN; ++o) {
      if constexpr (kIsComplex<T>)
        po[o] = T(kind == ReduceKind::Mean ? acc[o] / static_cast<double>(count)
                                           : acc[o]);
      else if constexpr (kIsFloat<T>)
        po[o] = fromDouble<T>(kind == ReduceKind::Mean
                                  ? acc[o] / static_cast<double>(count)
                                  : acc[o]);
      else
        po[o] = static_cast<T>(acc[o]);
    }
  });
  return out;
}

std::optional<Tensor>
adjoint::interp::detail::evalReductions(Operation *op,
                                       ArrayRef<Tensor> operands) {
  if (auto r = dyn_cast<adj::ReduceSumOp>(op))
    return evalReduce(op, ReduceKind::Sum, operands[0], r.getAxes(),
                      r.getKeepdims());
  if (auto r = dyn_cast<adj::ReduceMaxOp>(op))
    return evalReduce(op, ReduceKind::Max, operands[0], r.getAxes(),
                      r.getKeepdims());
  if (auto r = dyn_cast<adj::ReduceMeanOp>(op))
    return evalReduce(op, ReduceKind::Mean, operands[0], r.getAxes(),
                      r.getKeepdims());
  return std::nullopt;
}
