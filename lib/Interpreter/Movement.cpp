//===- Movement.cpp - Shape and data movement primitives ------------------===//
//
// broadcast_to, reshape, transpose, slice, concat, pad, gather,
// scatter_add and scatter. Except for the scatters' combinations these only
// move elements, so they copy bytes of dtypeSize() and need no element-type
// dispatch.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

/// Copies the elements of `in` read with `strides` from `base` over the
/// index space `shape`, in row-major order, into `out` (from element 0).
static void gatherStrided(const Tensor &in, Tensor &out,
                          ArrayRef<int64_t> shape,
                          std::vector<int64_t> strides, int64_t base = 0) {
  size_t es = dtypeSize(in.dtype());
  const uint8_t *src = static_cast<const uint8_t *>(in.data());
  uint8_t *dst = static_cast<uint8_t *>(out.mutableData());
  IndexWalker walk(shape, {std::move(strides)});
  for (int64_t i = 0, n = numElements(shape); i < n; ++i, walk.next())
    std::memcpy(dst + i * es, src + (base + walk.offset(0)) * es, es);
}

/// The result type's shape with dynamic dimensions resolved by `resolve`.
template <typename F>
static std::vector<int64_t> targetShape(Operation *op, F resolve) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    fail(op, "needs a ranked tensor result type to know the target shape");
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  resolve(shape);
  return shape;
}

static Tensor evalBroadcastTo(Operation *op, const Tensor &x) {
  std::vector<int64_t> shape = targetShape(op, [&](std::vector<int64_t> &s) {
    // A dynamic target dimension takes the aligned input dimension.
    size_t lead = s.size() - std::min(s.size(), x.shape().size());
    for (size_t d = 0; d < s.size(); ++d)
      if (ShapedType::isDynamic(s[d]))
        s[d] = d >= lead ? x.shape()[d - lead] : 1;
  });
  if (!adj::broadcastsTo(x.shape(), shape))
    fail(op, "cannot broadcast " + shapeString(x.shape()) + " to " +
                 shapeString(shape));
  Tensor out(x.dtype(), shape);
  gatherStrided(x, out, shape, broadcastStrides(x.shape(), shape));
  return out;
}

static Tensor evalReshape(Operation *op, const Tensor &x) {
  std::vector<int64_t> shape = targetShape(op, [&](std::vector<int64_t> &s) {
    int64_t known = 1, dynamic = -1;
    for (size_t d = 0; d < s.size(); ++d) {
      if (!ShapedType::isDynamic(s[d])) {
        known *= s[d];
      } else if (dynamic >= 0) {
        fail(op, "cannot infer more than one dynamic dimension");
      } else {
        dynamic = d;
      }
    }
    if (dynamic >= 0)
      s[dynamic] = known ? x.numel() / known : 0;
  });
  if (numElements(shape) != x.numel())
    fail(op, "cannot reshape " + shapeString(x.shape()) + " (" +
                 Twine(x.numel()) + " elements) to " + shapeString(shape));
  Tensor out(x.dtype(), shape);
  std::memcpy(out.mutableData(), x.data(), x.byteSize());
  return out;
}

static Tensor evalTranspose(adj::TransposeOp op, const Tensor &x) {
  ArrayRef<int64_t> perm = op.getPerm();
  std::vector<bool> used(x.rank(), false);
  bool valid = static_cast<int64_t>(perm.size()) == x.rank();
  for (int64_t p : perm) {
    valid = valid && p >= 0 && p < x.rank() && !used[p];
    if (valid)
      used[p] = true;
  }
  if (!valid)
    fail(op, shapeString(perm) + " is not a permutation of the dimensions of " +
                 shapeString(x.shape()));
  std::vector<int64_t> in = stridesOf(x.shape()), shape, strides;
  for (int64_t p : perm) {
    shape.push_back(x.shape()[p]);
    strides.push_back(in[p]);
  }
  Tensor out(x.dtype(), shape);
  gatherStrided(x, out, shape, strides);
  return out;
}

static Tensor evalSlice(adj::SliceOp op, const Tensor &x) {
  ArrayRef<int64_t> start = op.getStart(), limit = op.getLimit(),
                    stride = op.getStride();
  int64_t rank = x.rank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(stride.size()) != rank)
    fail(op, "start, limit and stride need " + Twine(rank) + " entries for " +
                 shapeString(x.shape()));
  std::vector<int64_t> in = stridesOf(x.shape()), shape, strides;
  int64_t base = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (start[d] < 0 || limit[d] < start[d] || limit[d] > x.shape()[d] ||
        stride[d] < 1)
      fail(op, "dimension " + Twine(d) + " of " + shapeString(x.shape()) +
                   ": [" + Twine(start[d]) + ":" + Twine(limit[d]) + ":" +
                   Twine(stride[d]) + "] is not a valid slice");
    shape.push_back((limit[d] - start[d] + stride[d] - 1) / stride[d]);
    strides.push_back(in[d] * stride[d]);
    base += start[d] * in[d];
  }
  Tensor out(x.dtype(), shape);
  gatherStrided(x, out, shape, strides, base);
  return out;
}

static Tensor evalConcat(adj::ConcatOp op, ArrayRef<Tensor> inputs) {
  if (inputs.empty())
    fail(op, "needs at least one input");
  requireSameDType(op, inputs);
  const Tensor &first = inputs.front();
  int64_t axis = op.getAxis();
  if (axis < 0 || axis >= first.rank())
    fail(op, "axis " + Twine(axis) + " is out of range for rank " +
                 Twine(first.rank()));
  std::vector<int64_t> shape = first.shape();
  for (const Tensor &t : inputs.drop_front()) {
    bool same = t.rank() == first.rank();
    for (int64_t d = 0; same && d < t.rank(); ++d)
      same = d == axis || t.shape()[d] == first.shape()[d];
    if (!same)
      fail(op, "cannot join " + shapeString(first.shape()) + " and " +
                   shapeString(t.shape()) + " along axis " + Twine(axis));
    shape[axis] += t.shape()[axis];
  }
  Tensor out(first.dtype(), shape);
  size_t es = dtypeSize(first.dtype());
  int64_t outer = numElements(ArrayRef(shape).take_front(axis));
  int64_t inner = numElements(ArrayRef(shape).drop_front(axis + 1));
  uint8_t *dst = static_cast<uint8_t *>(out.mutableData());
  for (int64_t o = 0; o < outer; ++o)
    for (const Tensor &t : inputs) {
      size_t chunk = t.shape()[axis] * inner * es;
      std::memcpy(dst, static_cast<const uint8_t *>(t.data()) + o * chunk,
                  chunk);
      dst += chunk;
    }
  return out;
}

static Tensor evalPad(adj::PadOp op, const Tensor &x) {
  ArrayRef<int64_t> low = op.getLow(), high = op.getHigh();
  if (static_cast<int64_t>(low.size()) != x.rank() ||
      static_cast<int64_t>(high.size()) != x.rank())
    fail(op, "low and high need " + Twine(x.rank()) + " entries for " +
                 shapeString(x.shape()));
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (low[d] < 0 || high[d] < 0)
      fail(op, "padding must not be negative");
    shape.push_back(x.shape()[d] + low[d] + high[d]);
  }
  Tensor out(x.dtype(), shape);
  double value = op.getValue().convertToDouble();
  dispatchAny(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T fill = fromDouble<T>(value);
    std::fill_n(ptr<T>(out), out.numel(), fill);
  });
  // Scatter the input into the interior: walk the input, write with the
  // output's strides from the offset of `low`.
  std::vector<int64_t> strides = stridesOf(shape);
  int64_t base = 0;
  for (int64_t d = 0; d < x.rank(); ++d)
    base += low[d] * strides[d];
  size_t es = dtypeSize(x.dtype());
  const uint8_t *src = static_cast<const uint8_t *>(x.data());
  uint8_t *dst = static_cast<uint8_t *>(out.mutableData());
  IndexWalker walk(x.shape(), {strides});
  for (int64_t i = 0, n = x.numel(); i < n; ++i, walk.next())
    std::memcpy(dst + (base + walk.offset(0)) * es, src + i * es, es);
  return out;
}

/// The indices of gather/scatter_add as int64, each checked to be in
/// [0, size): the error names the index, its position and the axis.
static std::vector<int64_t> readIndices(Operation *op, const Tensor &indices,
                                        const Tensor &table, int64_t axis) {
  if (indices.dtype() != DType::I64 && indices.dtype() != DType::I32)
    fail(op, "indices must be i32 or i64, got " + indices.typeString());
  if (axis < 0 || axis >= table.rank())
    fail(op, "axis " + Twine(axis) + " is out of range for rank " +
                 Twine(table.rank()));
  int64_t size = table.shape()[axis];
  std::vector<int64_t> out(indices.numel());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = indices.dtype() == DType::I64 ? ptr<int64_t>(indices)[i]
                                           : ptr<int32_t>(indices)[i];
    if (out[i] < 0 || out[i] >= size)
      fail(op, "index " + Twine(out[i]) + " (element " + Twine(i) +
                   " of the indices) is out of range [0, " + Twine(size) +
                   ") along axis " + Twine(axis) + " of " +
                   table.typeString());
  }
  return out;
}

/// [A..., I..., B...] for a table [A..., N, B...] and indices [I...].
static std::vector<int64_t> gatheredShape(const Tensor &table,
                                          const Tensor &indices, int64_t axis) {
  std::vector<int64_t> shape(table.shape().begin(),
                             table.shape().begin() + axis);
  shape.insert(shape.end(), indices.shape().begin(), indices.shape().end());
  shape.insert(shape.end(), table.shape().begin() + axis + 1,
               table.shape().end());
  return shape;
}

static Tensor evalGather(adj::GatherOp op, const Tensor &table,
                         const Tensor &indices) {
  int64_t axis = op.getAxis();
  std::vector<int64_t> idx = readIndices(op, indices, table, axis);
  Tensor out(table.dtype(), gatheredShape(table, indices, axis));
  int64_t outer = numElements(ArrayRef(table.shape()).take_front(axis));
  int64_t n = table.shape()[axis];
  size_t chunk = numElements(ArrayRef(table.shape()).drop_front(axis + 1)) *
                 dtypeSize(table.dtype());
  const uint8_t *src = static_cast<const uint8_t *>(table.data());
  uint8_t *dst = static_cast<uint8_t *>(out.mutableData());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i : idx) {
      std::memcpy(dst, src + (o * n + i) * chunk, chunk);
      dst += chunk;
    }
  return out;
}

/// How a scatter combines a slot with an update: scatter_add's sum or one
/// of adj.scatter's modes.
enum class Combine { Add, Set, Mul, Min, Max };

static Combine combineOf(adj::ScatterMode mode) {
  switch (mode) {
  case adj::ScatterMode::set:
    return Combine::Set;
  case adj::ScatterMode::mul:
    return Combine::Mul;
  case adj::ScatterMode::min:
    return Combine::Min;
  case adj::ScatterMode::max:
    return Combine::Max;
  }
  return Combine::Set;
}

/// `slot` combined with `u`: floats in double (NaN propagates through min and
/// max, as in adj.minimum/maximum), integers wrap.
template <typename T> static T combine(Combine how, T slot, T u) {
  if (how == Combine::Set)
    return u;
  if constexpr (kIsComplex<T>) {
    // Add and mul only: the ops' type rules refuse max and min.
    return how == Combine::Mul ? slot * u : slot + u;
  } else if constexpr (kIsFloat<T>) {
    double a = toDouble(slot), b = toDouble(u);
    switch (how) {
    case Combine::Add:
      return fromDouble<T>(a + b);
    case Combine::Mul:
      return fromDouble<T>(a * b);
    default:
      if (std::isnan(a) || std::isnan(b))
        return fromDouble<T>(std::numeric_limits<double>::quiet_NaN());
      return fromDouble<T>(how == Combine::Min ? std::min(a, b)
                                               : std::max(a, b));
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    return u; // Only set reaches here (the others reject i1).
  } else {
    auto a = static_cast<uint64_t>(slot), b = static_cast<uint64_t>(u);
    switch (how) {
    case Combine::Add:
      return static_cast<T>(a + b);
    case Combine::Mul:
      return static_cast<T>(a * b);
    default:
      return how == Combine::Min ? std::min(slot, u) : std::max(slot, u);
    }
  }
}

/// scatter_add and scatter: slots combined with their updates in the
/// row-major order of the indices (so a repeated index's last `set` wins).
static Tensor evalScatter(Operation *op, Combine how, int64_t axis,
                          const Tensor &target, const Tensor &indices,
                          const Tensor &updates) {
  if (how != Combine::Set)
    requireNotBool(op, target);
  std::vector<int64_t> idx = readIndices(op, indices, target, axis);
  std::vector<int64_t> expected = gatheredShape(target, indices, axis);
  if (updates.dtype() != target.dtype() || updates.shape() != expected)
    fail(op, "updates must be " + shapeString(expected) + " of " +
                 dtypeName(target.dtype()) + ", got " + updates.typeString());
  Tensor out = target;
  int64_t outer = numElements(ArrayRef(target.shape()).take_front(axis));
  int64_t n = target.shape()[axis];
  int64_t inner = numElements(ArrayRef(target.shape()).drop_front(axis + 1));
  if (isComplex(target.dtype()) &&
      (how == Combine::Min || how == Combine::Max))
    fail(op, "complex numbers are not ordered, got " + target.typeString());
  dispatchAny(target.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *dst = ptr<T>(out);
    const T *upd = ptr<T>(updates);
    for (int64_t o = 0; o < outer; ++o)
      for (size_t j = 0; j < idx.size(); ++j)
        for (int64_t b = 0; b < inner; ++b) {
          T &slot = dst[(o * n + idx[j]) * inner + b];
          slot = combine<T>(how, slot, *upd++);
        }
  });
  return out;
}

std::optional<Tensor> adjoint::interp::detail::evalMovement(Operation *op,
                                           ArrayRef<Tensor> operands) {
  if (isa<adj::BroadcastToOp>(op))
    return evalBroadcastTo(op, operands[0]);
  if (isa<adj::ReshapeOp>(op))
    return evalReshape(op, operands[0]);
  if (auto t = dyn_cast<adj::TransposeOp>(op))
    return evalTranspose(t, operands[0]);
  if (auto s = dyn_cast<adj::SliceOp>(op))
    return evalSlice(s, operands[0]);
  if (auto c = dyn_cast<adj::ConcatOp>(op))
    return evalConcat(c, operands);
  if (auto p = dyn_cast<adj::PadOp>(op))
    return evalPad(p, operands[0]);
  if (auto g = dyn_cast<adj::GatherOp>(op))
    return evalGather(g, operands[0], operands[1]);
  if (auto s = dyn_cast<adj::ScatterAddOp>(op))
    return evalScatter(op, Combine::Add, s.getAxis(), operands[0],
                       operands[1], operands[2]);
  if (auto s = dyn_cast<adj::ScatterOp>(op))
    return evalScatter(op, combineOf(s.getMode()), s.getAxis(), operands[0],
                       operands[1], operands[2]);
  return std::nullopt;
}
