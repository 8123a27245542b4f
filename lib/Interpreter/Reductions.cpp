//===- Reductions.cpp - matmul and reduce_sum/max/mean --------------------===//
//
// Matrix products go through Eigen's GEMM on row-major maps: in float for
// f32, f16 and bf16 (converted first), in double for f64 and in 64-bit
// integers (wrapping) for i64 and i32. Reductions accumulate in double for
// floating-point elements: the oracle should carry the smallest error, and
// compiled code is compared against it with a tolerance.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include <Eigen/Dense>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

/// Batched GEMM in the compute type `C`; returns the row-major result.
template <typename C>
static std::vector<C> batchedGemm(const Tensor &a, const Tensor &b,
                                  ArrayRef<int64_t> batch, int64_t m,
                                  int64_t k, int64_t n) {
  using Mat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  std::vector<C> av = elementsAs<C>(a), bv = elementsAs<C>(b);
  int64_t batches = numElements(batch);
  std::vector<C> out(batches * m * n);
  // Batch strides in matrices, 0 along broadcast batch dimensions.
  ArrayRef<int64_t> aBatch = ArrayRef(a.shape()).drop_back(2);
  ArrayRef<int64_t> bBatch = ArrayRef(b.shape()).drop_back(2);
  IndexWalker walk(batch, {broadcastStrides(aBatch, batch),
                           broadcastStrides(bBatch, batch)});
  for (int64_t i = 0; i < batches; ++i, walk.next()) {
    Eigen::Map<const Mat> ma(av.data() + walk.offset(0) * m * k, m, k);
    Eigen::Map<const Mat> mb(bv.data() + walk.offset(1) * k * n, k, n);
    Eigen::Map<Mat> mo(out.data() + i * m * n, m, n);
    if (k == 0)
      mo.setZero();
    else
      mo.noalias() = ma * mb;
  }
  return out;
}

static Tensor evalMatmul(Operation *op, ArrayRef<Tensor> operands) {
  const Tensor &a = operands[0], &b = operands[1];
  requireSameDType(op, operands);
  requireNotBool(op, a);
  if (a.rank() < 2 || b.rank() < 2)
    fail(op, "operands need rank >= 2, got " + shapeString(a.shape()) +
                 " and " + shapeString(b.shape()));
  int64_t m = a.shape()[a.rank() - 2], k = a.shape()[a.rank() - 1];
  int64_t n = b.shape()[b.rank() - 1];
  if (b.shape()[b.rank() - 2] != k)
    fail(op, "contracted dimensions differ: " + shapeString(a.shape()) +
                 " x " + shapeString(b.shape()));
  auto batch = adj::broadcastShapes(ArrayRef(a.shape()).drop_back(2),
                                    ArrayRef(b.shape()).drop_back(2));
  if (!batch)
    fail(op, "batch dimensions of " + shapeString(a.shape()) + " and " +
                 shapeString(b.shape()) + " do not broadcast");
  std::vector<int64_t> shape(batch->begin(), batch->end());
  shape.push_back(m);
  shape.push_back(n);
  Tensor out(a.dtype(), shape);
  dispatch(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, double>) {
      std::vector<double> r = batchedGemm<double>(a, b, *batch, m, k, n);
      std::copy(r.begin(), r.end(), ptr<double>(out));
    } else if constexpr (kIsFloat<T>) {
      std::vector<float> r = batchedGemm<float>(a, b, *batch, m, k, n);
      T *o = ptr<T>(out);
      for (size_t i = 0; i < r.size(); ++i)
        o[i] = static_cast<T>(r[i]);
    } else {
      std::vector<int64_t> r = batchedGemm<int64_t>(a, b, *batch, m, k, n);
      T *o = ptr<T>(out);
      for (size_t i = 0; i < r.size(); ++i)
        o[i] = static_cast<T>(r[i]);
    }
  });
  return out;
}

namespace {
enum class ReduceKind { Sum, Max, Mean };
} // namespace

static Tensor evalReduce(Operation *op, ReduceKind kind, const Tensor &x,
                         ArrayRef<int64_t> axes, bool keepdims) {
  if (kind == ReduceKind::Mean)
    requireFloat(op, x);
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
  dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Accumulator: double for floats, int64 (wrapping) for integers.
    using Acc = std::conditional_t<kIsFloat<T>, double, int64_t>;
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
      if (kind == ReduceKind::Max) {
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
      if constexpr (kIsFloat<T>)
        po[o] = fromDouble<T>(kind == ReduceKind::Mean
                                  ? acc[o] / static_cast<double>(count)
                                  : acc[o]);
      else
        po[o] = static_cast<T>(acc[o]);
    }
  });
  return out;
}

std::optional<Tensor> adjoint::interp::detail::evalReduction(Operation *op,
                                            ArrayRef<Tensor> operands) {
  if (isa<adj::MatmulOp>(op))
    return evalMatmul(op, operands);
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
