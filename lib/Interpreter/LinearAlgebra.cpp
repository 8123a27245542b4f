//===- LinearAlgebra.cpp - cholesky, triangular_solve, lu, qr, eig(h), svd ===//
//
// The decompositions on Eigen, one matrix of the batch at a time, in the
// element type (float, double, std::complex of either): LLT (reading the
// lower triangle), triangular views, HouseholderQR (LAPACK's reflector
// signs: beta = -sign(Re alpha) |x|), SelfAdjointEigenSolver and BDCSVD,
// which take complex (Hermitian) matrices as they are, and EigenSolver
// (ComplexEigenSolver for complex matrices) for eig. lu is written out
// here because LAPACK's getrf semantics (rectangular matrices, the first
// largest pivot by |Re| + |Im| for complex, no stop at a zero pivot) are
// not Eigen's. Failures are NaNs, as the ops define.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

namespace {

template <typename C>
using Mat = Eigen::Matrix<C, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// A batch of row-major matrices in the compute type `C`.
template <typename C> struct Batch {
  std::vector<int64_t> batch;
  int64_t rows = 0, cols = 0;
  std::vector<C> data;

  explicit Batch(const Tensor &t)
      : batch(t.shape().begin(), t.shape().end() - 2),
        rows(t.shape()[t.rank() - 2]), cols(t.shape().back()),
        data(elementsAs<C>(t)) {}
  int64_t count() const { return numElements(batch); }
  Eigen::Map<const Mat<C>> matrix(int64_t i) const {
    return {data.data() + i * rows * cols, rows, cols};
  }
};

/// A result tensor of `dtype` with shape batch + dims, filled from `C`s.
template <typename C> struct Output {
  Tensor tensor;
  int64_t size;

  Output(DType dtype, ArrayRef<int64_t> batch, ArrayRef<int64_t> dims)
      : tensor(dtype, concat(batch, dims)), size(numElements(dims)) {}
  static std::vector<int64_t> concat(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
    std::vector<int64_t> out(a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    return out;
  }
  /// Element `k` of matrix `i`.
  C *at(int64_t i) { return ptr<C>(tensor) + i * size; }
  Eigen::Map<Mat<C>> matrix(int64_t i, int64_t rows, int64_t cols) {
    return {at(i), rows, cols};
  }
};

/// The real type of `C`'s values (`C` itself unless complex).
template <typename C> using RealOf = typename Eigen::NumTraits<C>::Real;

template <typename C> C nan() {
  constexpr RealOf<C> q = std::numeric_limits<RealOf<C>>::quiet_NaN();
  if constexpr (kIsComplex<C>)
    return C(q, q);
  else
    return q;
}

/// LAPACK's pivot magnitude: |x| for reals, |Re x| + |Im x| for complex
/// numbers (i?amax's), so that pivots match getrf's.
template <typename C> RealOf<C> pivotMagnitude(C x) {
  if constexpr (kIsComplex<C>)
    return std::abs(x.real()) + std::abs(x.imag());
  else
    return std::abs(x);
}

/// The DType of `C`'s real values, for eigh's and svd's real results.
template <typename C> DType realDType() {
  return std::is_same_v<RealOf<C>, double> ? DType::F64 : DType::F32;
}

template <typename C>
std::vector<Tensor> cholesky(const Tensor &a) {
  Batch<C> in(a);
  Output<C> out(a.dtype(), in.batch, {in.rows, in.cols});
  for (int64_t i = 0; i < in.count(); ++i) {
    Mat<C> m = in.matrix(i);
    Eigen::LLT<Mat<C>, Eigen::Lower> llt(m);
    auto l = out.matrix(i, in.rows, in.cols);
    l = llt.matrixL().toDenseMatrix();
    // Eigen stops at a pivot <= 0; potrf (and the GPU kernel) also at a
    // NaN one, which every NaN of the lower triangle reaches (a NaN of
    // the other triangle is not read).
    if (llt.info() != Eigen::Success || l.hasNaN())
      l.setConstant(nan<C>());
  }
  return {std::move(out.tensor)};
}

template <typename C>
std::vector<Tensor> triangularSolve(adj::TriangularSolveOp op, const Tensor &a,
                                    const Tensor &b) {
  Batch<C> ta(a), tb(b);
  Output<C> out(b.dtype(), tb.batch, {tb.rows, tb.cols});
  bool left = op.getLeftSide(), unit = op.getUnitDiagonal();
  // op(a) is lower when a is lower and not transposed, or upper and
  // transposed.
  bool lower = op.getLower() != op.getTransposeA();
  for (int64_t i = 0; i < tb.count(); ++i) {
    Mat<C> m = ta.matrix(i);
    if (op.getTransposeA())
      m.transposeInPlace();
    // The triangle not read is cleared, and a unit diagonal set, so that
    // one dense triangular view serves every case.
    Mat<C> t = lower ? Mat<C>(m.template triangularView<Eigen::Lower>())
                     : Mat<C>(m.template triangularView<Eigen::Upper>());
    if (unit)
      t.diagonal().setOnes();
    auto x = out.matrix(i, tb.rows, tb.cols);
    Mat<C> rhs = tb.matrix(i);
    if (lower) {
      auto view = t.template triangularView<Eigen::Lower>();
      x = left ? Mat<C>(view.solve(rhs))
               : Mat<C>(view.template solve<Eigen::OnTheRight>(rhs));
    } else {
      auto view = t.template triangularView<Eigen::Upper>();
      x = left ? Mat<C>(view.solve(rhs))
               : Mat<C>(view.template solve<Eigen::OnTheRight>(rhs));
    }
  }
  return {std::move(out.tensor)};
}

/// getrf: row pivoting on the first entry of largest magnitude, the
/// multipliers below the diagonal, and no stop at a zero pivot (its column
/// is left as it is, as LAPACK does).
template <typename C> std::vector<Tensor> lu(const Tensor &a) {
  Batch<C> in(a);
  int64_t m = in.rows, n = in.cols, k = std::min(m, n);
  Output<C> out(a.dtype(), in.batch, {m, n});
  Output<int32_t> pivots(DType::I32, in.batch, {k});
  Output<int32_t> perm(DType::I32, in.batch, {m});
  for (int64_t b = 0; b < in.count(); ++b) {
    auto lu = out.matrix(b, m, n);
    lu = in.matrix(b);
    int32_t *piv = pivots.at(b), *p = perm.at(b);
    std::iota(p, p + m, 0);
    for (int64_t j = 0; j < k; ++j) {
      int64_t best = j;
      for (int64_t r = j + 1; r < m; ++r)
        if (pivotMagnitude(lu(r, j)) > pivotMagnitude(lu(best, j)))
          best = r;
      piv[j] = static_cast<int32_t>(best);
      if (best != j) {
        lu.row(j).swap(lu.row(best));
        std::swap(p[j], p[best]);
      }
      C pivot = lu(j, j);
      if (pivot == C(0))
        continue;
      for (int64_t r = j + 1; r < m; ++r) {
        lu(r, j) /= pivot;
        for (int64_t c = j + 1; c < n; ++c)
          lu(r, c) -= lu(r, j) * lu(j, c);
      }
    }
  }
  return {std::move(out.tensor), std::move(pivots.tensor),
          std::move(perm.tensor)};
}

template <typename C>
std::vector<Tensor> qr(const Tensor &a, bool full) {
  Batch<C> in(a);
  int64_t m = in.rows, n = in.cols, k = full ? m : std::min(m, n);
  Output<C> q(a.dtype(), in.batch, {m, k});
  Output<C> r(a.dtype(), in.batch, {k, n});
  for (int64_t i = 0; i < in.count(); ++i) {
    Eigen::HouseholderQR<Mat<C>> house(Mat<C>(in.matrix(i)));
    q.matrix(i, m, k) = house.householderQ() * Mat<C>::Identity(m, k);
    Mat<C> upper = house.matrixQR().template triangularView<Eigen::Upper>();
    auto rm = r.matrix(i, k, n);
    rm.setZero();
    int64_t rows = std::min(k, m);
    rm.topRows(rows) = upper.topRows(rows);
  }
  return {std::move(q.tensor), std::move(r.tensor)};
}

/// What column `j` is multiplied by to make its entry of largest magnitude
/// (the first of equal ones) real and positive: its sign, or for complex
/// vectors the conjugate of its phase. The ops' convention for eigen- and
/// singular vectors (cpu::leadingPhase is the runtime's).
template <typename M> typename M::Scalar leadingPhase(const M &m, int64_t j) {
  using C = typename M::Scalar;
  int64_t best = 0;
  for (int64_t i = 1; i < m.rows(); ++i)
    if (std::abs(m(i, j)) > std::abs(m(best, j)))
      best = i;
  C entry = m(best, j);
  if constexpr (kIsComplex<C>) {
    RealOf<C> size = std::abs(entry);
    return size > 0 ? std::conj(entry) / size : C(1);
  } else {
    return entry < 0 ? C(-1) : C(1);
  }
}

template <typename C>
std::vector<Tensor> eigh(const Tensor &a, bool upper) {
  Batch<C> in(a);
  int64_t n = in.rows;
  using R = RealOf<C>;
  Output<R> w(realDType<C>(), in.batch, {n});
  Output<C> v(a.dtype(), in.batch, {n, n});
  for (int64_t i = 0; i < in.count(); ++i) {
    Mat<C> m = in.matrix(i);
    // Eigen's solver reads the lower triangle: the upper one is that of
    // the adjoint (of the transpose for real matrices).
    if (upper)
      m.adjointInPlace();
    Eigen::SelfAdjointEigenSolver<Mat<C>> solver(m);
    auto values = Eigen::Map<Eigen::Matrix<R, Eigen::Dynamic, 1>>(w.at(i), n);
    auto vectors = v.matrix(i, n, n);
    if (solver.info() != Eigen::Success) {
      values.setConstant(nan<R>());
      vectors.setConstant(nan<C>());
      continue;
    }
    values = solver.eigenvalues();
    vectors = solver.eigenvectors();
    for (int64_t j = 0; j < n; ++j)
      vectors.col(j) *= leadingPhase(vectors, j);
  }
  return {std::move(w.tensor), std::move(v.tensor)};
}

/// eig: Eigen's eigenvalues and unit eigenvectors, sorted by (real part,
/// imaginary part) and each vector phased by leadingPhase, as the op
/// defines them; NaNs where the solver fails or the matrix is not finite.
template <typename C> std::vector<Tensor> eig(const Tensor &a) {
  using R = RealOf<C>;
  using Z = std::complex<R>;
  Batch<C> in(a);
  int64_t n = in.rows;
  DType complex = realDType<C>() == DType::F64 ? DType::C128 : DType::C64;
  Output<Z> w(complex, in.batch, {n});
  Output<Z> v(complex, in.batch, {n, n});
  for (int64_t i = 0; i < in.count(); ++i) {
    auto values = Eigen::Map<Eigen::Matrix<Z, Eigen::Dynamic, 1>>(w.at(i), n);
    auto vectors = v.matrix(i, n, n);
    Mat<C> m = in.matrix(i);
    Eigen::Matrix<Z, Eigen::Dynamic, 1> found;
    Mat<Z> foundVectors;
    bool ok = m.allFinite();
    if (ok) {
      if constexpr (kIsComplex<C>) {
        Eigen::ComplexEigenSolver<Mat<C>> solver(m);
        ok = solver.info() == Eigen::Success;
        found = solver.eigenvalues();
        foundVectors = solver.eigenvectors();
      } else {
        Eigen::EigenSolver<Mat<C>> solver(m);
        ok = solver.info() == Eigen::Success;
        found = solver.eigenvalues();
        foundVectors = solver.eigenvectors();
      }
    }
    if (!ok) {
      values.setConstant(nan<Z>());
      vectors.setConstant(nan<Z>());
      continue;
    }
    std::vector<int64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      Z p = found(x), q = found(y);
      return p.real() < q.real() ||
             (p.real() == q.real() && p.imag() < q.imag());
    });
    for (int64_t j = 0; j < n; ++j) {
      values(j) = found(order[j]);
      vectors.col(j) = foundVectors.col(order[j]).normalized();
      vectors.col(j) *= leadingPhase(vectors, j);
    }
  }
  return {std::move(w.tensor), std::move(v.tensor)};
}

template <typename C>
std::vector<Tensor> svd(const Tensor &a, bool full) {
  Batch<C> in(a);
  int64_t m = in.rows, n = in.cols, k = std::min(m, n);
  Output<C> u(a.dtype(), in.batch, {m, full ? m : k});
  using R = RealOf<C>;
  Output<R> s(realDType<C>(), in.batch, {k});
  Output<C> vh(a.dtype(), in.batch, {full ? n : k, n});
  unsigned options = full ? (Eigen::ComputeFullU | Eigen::ComputeFullV)
                          : (Eigen::ComputeThinU | Eigen::ComputeThinV);
  for (int64_t i = 0; i < in.count(); ++i) {
    auto um = u.matrix(i, m, full ? m : k);
    auto vm = vh.matrix(i, full ? n : k, n);
    auto values = Eigen::Map<Eigen::Matrix<R, Eigen::Dynamic, 1>>(s.at(i), k);
    // A NaN or an infinity: all NaN, as LAPACK's gesdd refuses it (Eigen
    // would return zeros).
    if (!in.matrix(i).allFinite()) {
      values.setConstant(nan<R>());
      um.setConstant(nan<C>());
      vm.setConstant(nan<C>());
      continue;
    }
    Eigen::BDCSVD<Mat<C>> decomposition(Mat<C>(in.matrix(i)), options);
    values = decomposition.singularValues();
    um = decomposition.matrixU();
    vm = decomposition.matrixV().adjoint();
    // u's column j times p and vh's row j times conj(p) keep the product.
    for (int64_t j = 0; j < um.cols(); ++j) {
      C phase = leadingPhase(um, j);
      um.col(j) *= phase;
      if (j < k)
        vm.row(j) *= Eigen::numext::conj(phase);
    }
    // A full vh's rows beyond k pair with no column of u.
    for (int64_t j = k; j < vm.rows(); ++j) {
      Mat<C> row = vm.row(j).transpose();
      vm.row(j) *= leadingPhase(row, 0);
    }
  }
  return {std::move(u.tensor), std::move(s.tensor), std::move(vh.tensor)};
}

/// `fn` instantiated for the compute type of `dtype` (f32, f64, c64 or
/// c128).
template <typename F>
std::vector<Tensor> byFloatType(Operation *op, DType dtype, F fn) {
  switch (dtype) {
  case DType::F64:
    return fn(double());
  case DType::F32:
    return fn(float());
  case DType::C128:
    return fn(std::complex<double>());
  case DType::C64:
    return fn(std::complex<float>());
  default:
    fail(op, "needs f32, f64, c64 or c128 operands");
  }
}

} // namespace

std::optional<std::vector<Tensor>>
adjoint::interp::detail::evalLinearAlgebra(Operation *op,
                                           ArrayRef<Tensor> operands) {
  if (!op->hasTrait<adj::trait::MatrixDecomposition>())
    return std::nullopt;
  const Tensor &a = operands[0];
  if (a.rank() < 2)
    fail(op, "needs a batch of matrices, got " + shapeString(a.shape()));
  return byFloatType(op, a.dtype(), [&](auto tag) -> std::vector<Tensor> {
    using C = decltype(tag);
    if (isa<adj::CholeskyOp>(op))
      return cholesky<C>(a);
    if (auto solve = dyn_cast<adj::TriangularSolveOp>(op))
      return triangularSolve<C>(solve, a, operands[1]);
    if (isa<adj::LuOp>(op))
      return lu<C>(a);
    if (auto q = dyn_cast<adj::QrOp>(op))
      return qr<C>(a, q.getFullMatrices());
    if (auto e = dyn_cast<adj::EighOp>(op))
      return eigh<C>(a, e.getUpper());
    if (isa<adj::EigOp>(op))
      return eig<C>(a);
    return svd<C>(a, cast<adj::SvdOp>(op).getFullMatrices());
  });
}
