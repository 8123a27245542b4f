//===- Indexing.cpp - numpy and lax indexing in the builder API -----------===//
//
// numpy's integer-array indexing, lax's dynamic_slice/dynamic_update_slice
// and reversal, built from gather and scatter: the elements addressed have
// flat positions sum_d coordinate_d * stride_d over the leading dimensions
// that are indexed, so each form is one gather (or scatter) of x viewed as
// [rows, trailing...] along axis 0, and gets its derivatives from theirs.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/Shapes.h"
#include "adjoint/Support/Error.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

namespace {

int64_t product(llvm::ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

std::vector<int64_t> concatShapes(llvm::ArrayRef<int64_t> a,
                                  llvm::ArrayRef<int64_t> b) {
  std::vector<int64_t> out(a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

/// A rank-0 or larger integer index as i64.
Value asI64(const char *fn, Value index) {
  DType d = tensorTypeOf(fn, index).dtype();
  if (d != DType::I64 && d != DType::I32)
    throw Error(std::string(fn) + ": indices must be i32 or i64, got " +
                index.type().str());
  return d == DType::I64 ? index : cast(index, DType::I64);
}

/// `index` with numpy's negative indices counted from the end of `n`.
Value wrapped(const char *fn, Value index, int64_t n) {
  Value i = asI64(fn, index);
  return select(i < 0.0, i + static_cast<double>(n), i);
}

/// `index` wrapped, then clamped into [0, n) in its own dimension, as JAX
/// clamps: flattened with the other coordinates, an index past the end of
/// its dimension must not reach a neighbouring row.
Value clamped(const char *fn, Value index, int64_t n) {
  return maximum(minimum(wrapped(fn, index, n),
                         static_cast<double>(std::max<int64_t>(n - 1, 0))),
                 0.0);
}

/// The flat positions, over x's leading dimensions, of the elements that
/// `coords` (one per leading dimension, broadcast together) address.
Value flatPositions(const std::vector<Value> &coords,
                    llvm::ArrayRef<int64_t> leading,
                    llvm::ArrayRef<int64_t> shape) {
  Value flat;
  int64_t stride = 1;
  for (size_t d = coords.size(); d-- > 0;) {
    Value term = stride == 1 ? coords[d]
                             : coords[d] * static_cast<double>(stride);
    flat = flat ? term + flat : term;
    stride *= leading[d];
  }
  if (flat.shape() != std::vector<int64_t>(shape.begin(), shape.end()))
    flat = broadcast_to(flat, std::vector<int64_t>(shape.begin(),
                                                   shape.end()));
  return flat;
}

/// x as [rows, trailing...] with the first `k` dimensions merged.
Value rowsOf(Value x, size_t k) {
  std::vector<int64_t> shape = x.shape();
  std::vector<int64_t> view{product(llvm::ArrayRef(shape).take_front(k))};
  view.insert(view.end(), shape.begin() + k, shape.end());
  return reshape(x, view);
}

/// Where x[indices...] lies: the leading shape, the flat positions of the
/// elements (each coordinate clamped into its dimension) and whether every
/// coordinate was in range (i1, of the leading shape).
struct Positions {
  std::vector<int64_t> leading;
  Value flat, inRange;
};

Positions arrayPositions(const char *fn, Value x,
                         const std::vector<Value> &indices) {
  std::vector<int64_t> shape = tensorTypeOf(fn, x).shape();
  if (indices.empty() || indices.size() > shape.size())
    throw Error(std::string(fn) + ": expected 1 to " +
                std::to_string(shape.size()) + " index tensors, got " +
                std::to_string(indices.size()));
  adj::Shape common;
  std::vector<Value> coords;
  Value inRange;
  for (size_t d = 0; d < indices.size(); ++d) {
    Value w = wrapped(fn, indices[d], shape[d]);
    Value ok = cast(w >= 0.0, DType::I64) *
               cast(w < static_cast<double>(shape[d]), DType::I64);
    inRange = inRange ? inRange * ok : ok;
    Value i = clamped(fn, indices[d], shape[d]);
    std::optional<adj::Shape> joined = adj::broadcastShapes(common, i.shape());
    if (!joined)
      throw Error(std::string(fn) + ": index shapes " + adj::formatShape(common) +
                  " and " + adj::formatShape(i.shape()) + " do not broadcast");
    common = *joined;
    coords.push_back(i);
  }
  std::vector<int64_t> leading(common.begin(), common.end());
  if (inRange.shape() != leading)
    inRange = broadcast_to(inRange, leading);
  return {leading,
          flatPositions(coords,
                        llvm::ArrayRef(shape).take_front(indices.size()),
                        leading),
          inRange > 0.0};
}

/// `updates` as x's dtype, broadcast to `shape`.
Value updatesFor(Value x, Value updates, const std::vector<int64_t> &shape) {
  if (updates.dtype() != x.dtype())
    updates = cast(updates, x.dtype());
  if (updates.shape() != shape)
    updates = broadcast_to(updates, shape);
  return updates;
}

/// The leading dimensions a window indexes (those it does not span whole)
/// and the flat positions of its elements there.
std::pair<size_t, Value> windowPositions(const char *fn, Value x,
                                         const std::vector<Value> &starts,
                                         const std::vector<int64_t> &sizes) {
  std::vector<int64_t> shape = tensorTypeOf(fn, x).shape();
  if (starts.size() != shape.size() || sizes.size() != shape.size())
    throw Error(std::string(fn) + ": expected " +
                std::to_string(shape.size()) + " starts and sizes, got " +
                std::to_string(starts.size()) + " and " +
                std::to_string(sizes.size()));
  size_t k = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (sizes[d] < 0 || sizes[d] > shape[d])
      throw Error(std::string(fn) + ": a window of " +
                  std::to_string(sizes[d]) + " does not fit dimension " +
                  std::to_string(d) + " of size " + std::to_string(shape[d]));
    if (starts[d].rank() != 0)
      throw Error(std::string(fn) + ": start " + std::to_string(d) +
                  " must be a rank-0 integer, got " + starts[d].type().str());
    if (sizes[d] != shape[d])
      k = d + 1;
  }
  // A dimension spanned whole has start 0 once clamped: the rows after the
  // last partial one are copied as they are.
  std::vector<Value> coords;
  for (size_t d = 0; d < k; ++d) {
    // As lax.dynamic_slice: a negative start counts from the end, then the
    // slice is moved to fit.
    Value start = wrapped(fn, starts[d], shape[d]);
    start = maximum(minimum(start, static_cast<double>(shape[d] - sizes[d])),
                    0.0);
    std::vector<double> steps(sizes[d]);
    for (int64_t j = 0; j < sizes[d]; ++j)
      steps[j] = static_cast<double>(j);
    std::vector<int64_t> placed(k, 1);
    placed[d] = sizes[d];
    coords.push_back(makeConstant(*x.state(), steps, placed, DType::I64, fn) +
                     start);
  }
  std::vector<int64_t> window(sizes.begin(), sizes.begin() + k);
  return {k, k ? flatPositions(coords,
                               llvm::ArrayRef(shape).take_front(k), window)
               : Value()};
}

} // namespace

Value api::index(Value x, std::vector<Value> indices) {
  auto [leading, flat, inRange] = arrayPositions("index", x, indices);
  return gather(rowsOf(x, indices.size()), flat, 0);
}

Value api::index_update(Scatter mode, Value x, std::vector<Value> indices,
                        Value updates) {
  auto [leading, flat, inRange] = arrayPositions("index_update", x, indices);
  std::vector<int64_t> shape = x.shape();
  Value rows = rowsOf(x, indices.size());
  std::vector<int64_t> target =
      concatShapes(leading, llvm::ArrayRef(shape).drop_front(indices.size()));
  // As JAX's, an update at an index out of range is dropped: it goes to one
  // extra row after the table, cut off afterwards.
  std::vector<int64_t> table = rows.shape(), zeros(table.size(), 0);
  std::vector<int64_t> spare = zeros;
  spare.front() = 1;
  Value spareRow = flat * 0.0 + static_cast<double>(table.front());
  Value out = scatter(mode, pad(rows, zeros, spare),
                      select(inRange, flat, spareRow),
                      updatesFor(x, updates, target), 0);
  out = slice(out, zeros, table, std::vector<int64_t>(table.size(), 1));
  return reshape(out, shape);
}

Value api::dynamic_slice(Value x, std::vector<Value> starts,
                         std::vector<int64_t> sizes) {
  auto [k, flat] = windowPositions("dynamic_slice", x, starts, sizes);
  if (!k)
    return x;
  return gather(rowsOf(x, k), flat, 0);
}

Value api::dynamic_update_slice(Value x, Value update,
                                std::vector<Value> starts) {
  std::vector<int64_t> sizes = tensorTypeOf("dynamic_update_slice",
                                            update).shape();
  auto [k, flat] = windowPositions("dynamic_update_slice", x, starts, sizes);
  if (!k)
    return updatesFor(x, update, x.shape());
  Value out = scatter(Scatter::Set, rowsOf(x, k), flat,
                      updatesFor(x, update, sizes), 0);
  return reshape(out, x.shape());
}

Value api::reverse(Value x, std::vector<int64_t> axes) {
  std::vector<int64_t> shape = tensorTypeOf("reverse", x).shape();
  for (int64_t axis : axes) {
    axis = normalizeAxis(axis, static_cast<int64_t>(shape.size()));
    if (axis < 0 || axis >= static_cast<int64_t>(shape.size()))
      throw Error("reverse: axis out of range for rank " +
                  std::to_string(shape.size()));
    int64_t n = shape[axis];
    std::vector<double> order(n);
    for (int64_t j = 0; j < n; ++j)
      order[j] = static_cast<double>(n - 1 - j);
    x = gather(x, makeConstant(*x.state(), order, {n}, DType::I64, "reverse"),
               axis);
  }
  return x;
}
