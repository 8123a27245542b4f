//===- Contraction.cpp - matmul -------------------------------------------===//
//
// Matrix products go through Eigen's GEMM on row-major maps: in float for
// f32, f16 and bf16 (converted first), in double for f64, in
// complex<double> for c64 and c128, and in 64-bit integers (wrapping) for i64
// and i32.
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
  dispatchAny(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) {
      using W = std::complex<double>;
      std::vector<W> r = batchedGemm<W>(a, b, *batch, m, k, n);
      T *o = ptr<T>(out);
      for (size_t i = 0; i < r.size(); ++i)
        o[i] = static_cast<T>(r[i]);
    } else if constexpr (std::is_same_v<T, double>) {
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

std::optional<Tensor>
adjoint::interp::detail::evalContraction(Operation *op,
                                         ArrayRef<Tensor> operands) {
  if (isa<adj::MatmulOp>(op))
    return evalMatmul(op, operands);
  return std::nullopt;
}
