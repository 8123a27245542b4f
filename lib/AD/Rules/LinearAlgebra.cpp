//===- LinearAlgebra.cpp - Rules of the decompositions --------------------===//
//
// The derivative rules JAX uses for its lax.linalg primitives. cholesky and
// eigh read one triangle of their operand, yet, as in JAX, their tangent
// is that of the whole operand dA (not of the symmetric matrix the read
// triangle defines): the two agree for symmetric perturbations, and
// np.linalg symmetrizes its input first while scipy.linalg does not, so
// both match JAX's derivatives exactly. Every rule is built from matmuls,
// masks and triangular solves, whose rules are here too, so derivatives
// of any order follow. ^H is the conjugate transpose (^T for real
// matrices), F o M the entrywise product.
//
//   cholesky: dL = L phi(L^-1 dA L^-H), phi = the lower triangle with half
//             the diagonal.
//   triangular_solve (left): dX = op(A)^-1 (dB - op(dT) X), dT the read
//             triangle of dA.
//   eigh:     M = V^H dA V, dw = Re diag(M), dV = V (F o M), F_ij = 1/(w_j
//             - w_i) off the diagonal (infinite for equal eigenvalues, as
//             in JAX).
//   lu (square): X = l^-1 (p dA) u^-1, d(lu) = l tril(X, -1) + triu(X) u.
//   qr (m >= n, reduced): Y = dA r^-1, Z = q^H Y, O = tril(Z, -1) -
//             tril(Z, -1)^H + i Im diag(Z); dq = q (O - Z) + Y, dr = (Z -
//             O) r.
//   eig:      dw = diag(V^-1 dA V), the eigenvalues' rule alone, as in JAX
//             (eigenvectors' derivatives are refused, and so are second
//             derivatives, whose rules read V).
//   svd (reduced): P = U^H dA V, ds = Re diag(P), dU = U (F o (P S + S
//             P^H) + i Im diag(P) / s) + (1 - U U^H) dA V / s, dV = V (F o
//             (S P + P^H S)) + (1 - V V^H) dA^H U / s, F_ij = 1/(s_j^2 -
//             s_i^2).
//
// Bprops are those maps transposed by hand. JAX transposes a map of
// complex numbers without conjugating (the transpose of z -> a z is c ->
// a c): for the holomorphic maps (triangular_solve, lu, eig) that is the real
// formula as it is; for the others it is conj . adjoint . conj, so their
// bprops conjugate the incoming cotangents, apply the adjoint (the
// formula written with ^H), and conjugate the result. The phase of
// complex eigen- and singular vectors is JAX's gauge (no component of dV
// along V), not the ops' normalization: derivatives of functions that do
// not depend on the phase are exact, as in JAX. The cases JAX does not
// differentiate either (a rectangular lu, a wide or complete qr, an svd
// with full_matrices of a non-square matrix) are refused when the
// transform asks for their rules (Rules::supports).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;
using adjoint::ad::Rules;
using adjoint::ad::isDifferentiable;

using Ts = ArrayRef<Val>;

namespace {

bool isComplex(Val x) {
  return isa<ComplexType>(x.type().getElementType());
}

/// A constant of `like`'s element type (real entries, also for a complex
/// type), shaped [rows, cols], from `entry`.
template <typename F>
Val matrixConstant(Emitter &e, Val like, int64_t rows, int64_t cols,
                   F entry) {
  Type element = like.type().getElementType();
  auto complex = dyn_cast<ComplexType>(element);
  auto real = cast<FloatType>(complex ? complex.getElementType() : element);
  auto type = RankedTensorType::get({rows, cols}, element);
  SmallVector<APFloat> values;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      APFloat v(entry(i, j));
      bool lost;
      v.convert(real.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      values.push_back(v);
    }
  if (!complex)
    return e.make<ConstantOp>(type, DenseElementsAttr::get(type, values));
  APFloat zero = APFloat::getZero(real.getFloatSemantics());
  SmallVector<std::complex<APFloat>> pairs;
  for (const APFloat &v : values)
    pairs.emplace_back(v, zero);
  return e.make<ConstantOp>(type, DenseElementsAttr::get(type, pairs));
}

int64_t rows(Val x) { return x.shape()[x.shape().size() - 2]; }
int64_t cols(Val x) { return x.shape().back(); }

/// x with the entries outside the band kept by `keep(i, j)` zeroed.
template <typename F> Val masked(Emitter &e, Val x, F keep) {
  return x * matrixConstant(e, x, rows(x), cols(x), [&](int64_t i, int64_t j) {
           return keep(i, j) ? 1.0 : 0.0;
         });
}

/// The lower (k = 0) or strictly lower (k = -1) triangle, or the upper.
Val triangle(Emitter &e, Val x, bool lower, int64_t k = 0) {
  return masked(e, x, [&](int64_t i, int64_t j) {
    return lower ? j - i <= k : j - i >= -k;
  });
}

Val identityLike(Emitter &e, Val x) {
  return matrixConstant(e, x, rows(x), cols(x),
                        [](int64_t i, int64_t j) { return i == j ? 1.0 : 0.0; });
}

Val mT(Emitter &e, Val x) { return e.transposeLast2(x); }
/// The conjugate transpose (the transpose of a real matrix).
Val mH(Emitter &e, Val x) { return e.conj(mT(e, x)); }

/// A real `x` in `like`'s (complex) element type; `x` itself when `like`
/// is real.
Val like(Emitter &e, Val x, Val like) {
  Type element = like.type().getElementType();
  return x.type().getElementType() == element ? x : e.cast(x, element);
}

/// i Im(x) (zero for a real x, which is returned as it is: the callers
/// only add it for complex matrices).
Val imaginaryPart(Emitter &e, Val x) { return x - like(e, e.real(x), x); }

/// op(a)^-1 b (left) or b op(a)^-1, with the given triangle and flags.
Val solve(Emitter &e, Val a, Val b, bool left, bool lower, bool transpose,
          bool unit = false) {
  return e.make<TriangularSolveOp>(a, b, left, lower, transpose, unit);
}

/// Rules of a multi-result op: bprop(Emitter &, OpT, ArrayRef<Val> dys) ->
/// Sens and jvp(Emitter &, OpT, ArrayRef<Val> t) -> SmallVector<Val> (one
/// per result, null where zero). Null sensitivities and tangents are zeros,
/// and integer results (lu's pivots) have none.
template <typename OpT, typename BpropFn, typename JvpFn>
void defineMulti(RuleMap &map, BpropFn bprop, JvpFn jvp) {
  Rules rules;
  rules.bprop = [bprop](OpBuilder &b, Operation *op, ArrayRef<Value> dys) {
    SmallVector<Value> out(op->getNumOperands());
    Emitter e(b, op->getLoc());
    SmallVector<Val> d;
    bool any = false;
    for (auto [r, dy] : llvm::zip(op->getResults(), dys)) {
      bool keep = dy && isDifferentiable(r.getType());
      d.push_back(keep ? e.val(dy) : Val());
      any |= keep;
    }
    if (!any)
      return out;
    Sens sens = bprop(e, cast<OpT>(op), ArrayRef<Val>(d));
    for (auto [i, s] : llvm::enumerate(sens))
      out[i] = s;
    return out;
  };
  rules.jvp = [jvp](OpBuilder &b, Operation *op, ArrayRef<Value> tangents) {
    SmallVector<Value> out(op->getNumResults());
    if (!tangents.front())
      return out;
    Emitter e(b, op->getLoc());
    SmallVector<Val> t;
    for (Value v : tangents)
      t.push_back(v ? e.val(v) : Val());
    for (auto [i, r] : llvm::enumerate(jvp(e, cast<OpT>(op), Ts(t))))
      if (r && isDifferentiable(op->getResult(i).getType()))
        out[i] = r;
    return out;
  };
  map[TypeID::get<OpT>()] = std::move(rules);
}

/// The conjugates of cotangents `d` (null ones stay null): a
/// non-holomorphic rule's adjoint takes them (see the file comment).
SmallVector<Val> conjugates(Emitter &e, Ts d) {
  SmallVector<Val> out;
  for (Val x : d)
    out.push_back(x ? e.conj(x) : Val());
  return out;
}

/// phi(X): the lower triangle with half the diagonal.
Val phi(Emitter &e, Val x) {
  return masked(e, x, [](int64_t i, int64_t j) { return j <= i; }) -
         0.5 * x * identityLike(e, x);
}

/// F_ij = 1 / (w_j - w_i) off the diagonal, 0 on it, for a batch of (real)
/// eigenvalue vectors w [..., n].
Val eigenGaps(Emitter &e, Val w) {
  SmallVector<int64_t> column(w.shape()), row(w.shape());
  column.push_back(1);
  row.insert(row.end() - 1, 1);
  Val gaps = e.reshape(w, row) - e.reshape(w, column);
  Val eye = identityLike(e, gaps);
  // 1 / (gap + I) - I: the diagonal's 1/1 - 1 is 0 (JAX's formulation).
  return 1.0 / (gaps + eye) - eye;
}

/// diag(v) for a batch of vectors v [..., n]: v[..., None, :] * I.
Val diagonalMatrix(Emitter &e, Val v) {
  SmallVector<int64_t> row(v.shape());
  row.insert(row.end() - 1, 1);
  Val r = e.reshape(v, row);
  int64_t n = v.shape().back();
  return r * matrixConstant(e, r, n, n, [](int64_t i, int64_t j) {
           return i == j ? 1.0 : 0.0;
         });
}

/// The diagonal of a batch of square matrices, [..., n].
Val diagonalOf(Emitter &e, Val m) {
  return e.reduceSum(m * identityLike(e, m), {int64_t(m.shape().size()) - 1});
}

/// Re diag(m): the tangent of real eigen- and singular values.
Val realDiagonalOf(Emitter &e, Val m) {
  Val d = diagonalOf(e, m);
  return isComplex(d) ? e.real(d) : d;
}

/// G_ij = 1 / (s_j^2 - s_i^2) off the diagonal, 0 on it (JAX's svd rule;
/// infinite for equal singular values).
Val singularGaps(Emitter &e, Val s) {
  return eigenGaps(e, s * s);
}

/// diag(i Im(diag(m)) / s), 0 where s is 0: the part of a complex svd's dU
/// (and its adjoint) that fixes the phases JAX's gauge leaves (JAX's
/// dUdV_diag).
Val phaseTerm(Emitter &e, Val m, Val s) {
  // 1 / (s + z) - z with z = [s == 0]: no 1/0 even in derivatives of it.
  Val zero = e.indicator(e.cmp(CmpPredicate::eq, s, e.scalarLike(0, s)), s);
  Val inverse = 1.0 / (s + zero) - zero;
  return diagonalMatrix(e, imaginaryPart(e, diagonalOf(e, m)) *
                               like(e, inverse, m));
}

/// s [..., k] as a row [..., 1, k] in `m`'s element type: a divisor of
/// m's columns.
Val sRowLike(Emitter &e, Val s, Val m) {
  SmallVector<int64_t> row(s.shape());
  row.insert(row.end() - 1, 1);
  return like(e, e.reshape(s, row), m);
}

/// The permutation matrix p (p a = l u) of `op`, a square lu, in its
/// factors' element type.
Val permutationMatrix(Emitter &e, LuOp op) {
  Val packed = e.val(op.getLu());
  // p[i, j] = 1 where permutation[i] = j, compared in the real type.
  Type element = elementOf(packed);
  auto complex = dyn_cast<ComplexType>(element);
  Type real = complex ? complex.getElementType() : element;
  Val perm = e.cast(e.val(op.getPermutation()), real);
  SmallVector<int64_t> column(perm.type().getShape());
  column.push_back(1);
  int64_t n = rows(packed);
  Val columns = matrixConstant(e, perm, 1, n,
                               [](int64_t, int64_t j) { return double(j); });
  Val p = e.cast(e.cmp(CmpPredicate::eq, e.reshape(perm, column), columns),
                 real);
  return like(e, p, packed);
}

/// l (unit lower), u (upper) and the permutation matrix p (p a = l u) of
/// a square lu.
std::tuple<Val, Val, Val> luFactors(Emitter &e, LuOp op) {
  Val packed = e.val(op.getLu());
  Val l = triangle(e, packed, true, -1) + identityLike(e, packed);
  Val u = triangle(e, packed, false);
  return {l, u, permutationMatrix(e, op)};
}

/// v^-1 x, or v^-T x with `transpose`, for a batch of square v: through
/// v's LU (v = p^T l u) and two triangular solves.
Val generalSolve(Emitter &e, Val v, Val x, bool transpose) {
  auto lu = LuOp::create(e.builder(), e.loc(), v);
  Val packed = e.val(lu.getLu()), p = permutationMatrix(e, lu);
  if (!transpose) {
    Val y = solve(e, packed, e.matmul(p, x), /*left=*/true, /*lower=*/true,
                  false, /*unit=*/true);
    return solve(e, packed, y, /*left=*/true, /*lower=*/false, false);
  }
  // v^-T = p^T l^-T u^-T.
  Val y = solve(e, packed, x, /*left=*/true, /*lower=*/false, true);
  y = solve(e, packed, y, /*left=*/true, /*lower=*/true, true, /*unit=*/true);
  return e.matmul(mT(e, p), y);
}

} // namespace

void adjoint::ad::rules::addLinearAlgebraRules(RuleMap &m) {
  define<CholeskyOp>(
      m,
      [](Emitter &e, CholeskyOp op, Val dl) -> Sens {
        Val l = e.val(op.getResult());
        // The adjoint: L^-H phi(L^H L-bar) L^-1, of conj(dl), conjugated.
        Val inner = phi(e, e.matmul(mH(e, l), e.conj(dl)));
        Val left = solve(e, e.conj(l), inner, /*left=*/true, /*lower=*/true,
                         /*transpose=*/true);
        Val p = solve(e, l, left, /*left=*/false, /*lower=*/true,
                      /*transpose=*/false);
        return {e.conj(p)};
      },
      [](Emitter &e, CholeskyOp op, Ts t) -> Val {
        Val l = e.val(op.getResult());
        // L^-1 dA L^-H.
        Val x = solve(e, l, t[0], true, true, false);
        x = solve(e, e.conj(l), x, /*left=*/false, /*lower=*/true,
                  /*transpose=*/true);
        return e.matmul(l, phi(e, x));
      });

  define<TriangularSolveOp>(
      m,
      [](Emitter &e, TriangularSolveOp op, Val dx) -> Sens {
        Val a = e.val(op.getA()), x = e.val(op.getResult());
        bool left = op.getLeftSide(), lower = op.getLower(),
             transpose = op.getTransposeA(), unit = op.getUnitDiagonal();
        // B-bar = op(A)^-T X-bar; T-bar from -B-bar X^T, masked to the
        // read triangle (holomorphic: no conjugation).
        Val db = solve(e, a, dx, left, lower, !transpose, unit);
        Val dOp = left ? -e.matmul(db, mT(e, x)) : -e.matmul(mT(e, x), db);
        Val dt = transpose ? mT(e, dOp) : dOp;
        Val da = triangle(e, dt, lower, unit ? -1 : 0);
        return {da, db};
      },
      [](Emitter &e, TriangularSolveOp op, Ts t) -> Val {
        Val a = e.val(op.getA()), x = e.val(op.getResult());
        bool left = op.getLeftSide(), lower = op.getLower(),
             transpose = op.getTransposeA(), unit = op.getUnitDiagonal();
        Val rhs = t[1];
        if (t[0]) {
          Val dt = triangle(e, t[0], lower, unit ? -1 : 0);
          Val dOp = transpose ? mT(e, dt) : dt;
          Val term = left ? e.matmul(dOp, x) : e.matmul(x, dOp);
          rhs = rhs ? rhs - term : -term;
        }
        return solve(e, a, rhs, left, lower, transpose, unit);
      });

  defineMulti<EighOp>(
      m,
      [](Emitter &e, EighOp op, Ts dys) -> Sens {
        Val w = e.val(op.getEigenvalues()), v = e.val(op.getEigenvectors());
        SmallVector<Val> d = conjugates(e, dys);
        // The adjoint: V (diag(w-bar) + F o (V^H V-bar)) V^H.
        Val inner;
        if (d[1])
          inner = like(e, eigenGaps(e, w), v) * e.matmul(mH(e, v), d[1]);
        if (d[0]) {
          Val values = like(e, diagonalMatrix(e, d[0]), v);
          inner = inner ? inner + values : values;
        }
        return {e.conj(e.matmul(e.matmul(v, inner), mH(e, v)))};
      },
      [](Emitter &e, EighOp op, Ts t) -> SmallVector<Val> {
        Val w = e.val(op.getEigenvalues()), v = e.val(op.getEigenvectors());
        Val mm = e.matmul(e.matmul(mH(e, v), t[0]), v);
        return {realDiagonalOf(e, mm),
                e.matmul(v, like(e, eigenGaps(e, w), v) * mm)};
      });

  defineMulti<LuOp>(
      m,
      [](Emitter &e, LuOp op, Ts d) -> Sens {
        auto [l, u, p] = luFactors(e, op);
        Val g = d[0];
        // X-bar = tril(l^T L-bar, -1) + triu(U-bar u^T), a-bar = p^T
        // l^-T X-bar u^-T (holomorphic: no conjugation).
        Val x = triangle(e, e.matmul(mT(e, l), triangle(e, g, true, -1)), true,
                         -1) +
                triangle(e, e.matmul(triangle(e, g, false), mT(e, u)), false);
        x = solve(e, l, x, true, true, true, /*unit=*/true);
        x = solve(e, u, x, /*left=*/false, /*lower=*/false, /*transpose=*/true);
        return {e.matmul(mT(e, p), x)};
      },
      [](Emitter &e, LuOp op, Ts t) -> SmallVector<Val> {
        auto [l, u, p] = luFactors(e, op);
        // X = l^-1 (p dA) u^-1; d(lu) = l tril(X, -1) + triu(X) u.
        Val x = solve(e, l, e.matmul(p, t[0]), true, true, false, true);
        x = solve(e, u, x, /*left=*/false, /*lower=*/false, false);
        return {e.matmul(l, triangle(e, x, true, -1)) +
                    e.matmul(triangle(e, x, false), u),
                Val(), Val()};
      });

  defineMulti<QrOp>(
      m,
      [](Emitter &e, QrOp op, Ts dys) -> Sens {
        Val q = e.val(op.getQ()), r = e.val(op.getR());
        SmallVector<Val> d = conjugates(e, dys);
        // The adjoint: M = q^H q-bar - r-bar r^H; Z-bar = tril(M, -1) -
        // tril(M^H, -1) + i Im diag(M) - M; Y-bar = q-bar + q Z-bar;
        // a-bar = Y-bar r^-H.
        Val mm;
        if (d[0])
          mm = e.matmul(mH(e, q), d[0]);
        if (d[1]) {
          Val rr = e.matmul(d[1], mH(e, r));
          mm = mm ? mm - rr : -rr;
        }
        Val z = triangle(e, mm, true, -1) - triangle(e, mH(e, mm), true, -1) -
                mm;
        if (isComplex(mm))
          z = z + imaginaryPart(e, mm) * identityLike(e, mm);
        Val y = e.matmul(q, z);
        if (d[0])
          y = y + d[0];
        return {e.conj(solve(e, e.conj(r), y, /*left=*/false, /*lower=*/false,
                             /*transpose=*/true))};
      },
      [](Emitter &e, QrOp op, Ts t) -> SmallVector<Val> {
        Val q = e.val(op.getQ()), r = e.val(op.getR());
        // Y = dA r^-1, Z = q^H Y, O = tril(Z, -1) - tril(Z, -1)^H (+ i Im
        // diag(Z)); dq = q (O - Z) + Y, dr = (Z - O) r.
        Val y = solve(e, r, t[0], /*left=*/false, /*lower=*/false, false);
        Val z = e.matmul(mH(e, q), y);
        Val lowerZ = triangle(e, z, true, -1);
        Val o = lowerZ - mH(e, lowerZ);
        if (isComplex(z))
          o = o + imaginaryPart(e, z) * identityLike(e, z);
        return {e.matmul(q, o - z) + y, e.matmul(z - o, r)};
      });

  defineMulti<EigOp>(
      m,
      [](Emitter &e, EigOp op, Ts d) -> Sens {
        // The transpose (holomorphic: no conjugation) of dA -> diag(V^-1
        // dA V): V^-T diag(w-bar) V^T, its real part for a real A (the
        // transpose of the cast to complex).
        if (!d[0])
          return {Val()};
        Val v = e.val(op.getEigenvectors());
        Val da = generalSolve(e, v, e.matmul(diagonalMatrix(e, d[0]), mT(e, v)),
                              /*transpose=*/true);
        return {isComplex(e.val(op.getInput())) ? da : e.real(da)};
      },
      [](Emitter &e, EigOp op, Ts t) -> SmallVector<Val> {
        Val v = e.val(op.getEigenvectors());
        Val da = like(e, t[0], v);
        return {diagonalOf(e, generalSolve(e, v, e.matmul(da, v), false)),
                Val()};
      });

  defineMulti<SvdOp>(
      m,
      [](Emitter &e, SvdOp op, Ts dys) -> Sens {
        Val u = e.val(op.getU()), s = e.val(op.getS()),
            v = mH(e, e.val(op.getVh()));
        Val f = like(e, singularGaps(e, s), u),
            sm = like(e, diagonalMatrix(e, s), u);
        // The adjoint, of conjugated cotangents: P-bar = diag(s-bar) +
        // (G_U + G_U^H) S + S (G_V + G_V^H) (+ i Im diag(U^H U-bar) / s)
        // with G_U = F o (U^H U-bar), G_V = F o (V^H V-bar); a-bar = U
        // P-bar V^H plus the parts of U-bar and V-bar outside the spans.
        // The results are (u, s, vh): V-bar is vh-bar^H.
        SmallVector<Val> d = conjugates(e, dys);
        Val ubar = d[0], vbar = d[2] ? mH(e, d[2]) : Val();
        SmallVector<Val> terms;
        if (d[1])
          terms.push_back(like(e, diagonalMatrix(e, d[1]), u));
        if (ubar) {
          Val uu = e.matmul(mH(e, u), ubar);
          Val g = f * uu;
          terms.push_back(e.matmul(g + mH(e, g), sm));
          if (isComplex(u))
            terms.push_back(phaseTerm(e, uu, s));
        }
        if (vbar) {
          Val g = f * e.matmul(mH(e, v), vbar);
          terms.push_back(e.matmul(sm, g + mH(e, g)));
        }
        Val pbar = terms.front();
        for (Val term : ArrayRef<Val>(terms).drop_front())
          pbar = pbar + term;
        Val da = e.matmul(e.matmul(u, pbar), mH(e, v));
        int64_t rowsA = rows(u), colsA = rows(v);
        Val sRow = sRowLike(e, s, u);
        if (ubar && rowsA > colsA) {
          Val outside = ubar - e.matmul(u, e.matmul(mH(e, u), ubar));
          da = da + e.matmul(outside / sRow, mH(e, v));
        }
        if (vbar && colsA > rowsA) {
          Val outside = vbar - e.matmul(v, e.matmul(mH(e, v), vbar));
          da = da + e.matmul(u, mH(e, outside / sRow));
        }
        return {e.conj(da)};
      },
      [](Emitter &e, SvdOp op, Ts t) -> SmallVector<Val> {
        Val u = e.val(op.getU()), s = e.val(op.getS()),
            v = mH(e, e.val(op.getVh()));
        Val f = like(e, singularGaps(e, s), u),
            sm = like(e, diagonalMatrix(e, s), u);
        Val p = e.matmul(e.matmul(mH(e, u), t[0]), v);
        Val ps = e.matmul(p, sm), sp = e.matmul(sm, p);
        Val inner = f * (ps + mH(e, ps));
        if (isComplex(p))
          inner = inner + phaseTerm(e, p, s);
        Val du = e.matmul(u, inner);
        Val dv = e.matmul(v, f * (sp + mH(e, sp)));
        int64_t rowsA = rows(u), colsA = rows(v);
        Val sRow = sRowLike(e, s, u);
        if (rowsA > colsA) {
          Val av = e.matmul(t[0], v);
          du = du + (av - e.matmul(u, e.matmul(mH(e, u), av))) / sRow;
        }
        if (colsA > rowsA) {
          Val au = e.matmul(mH(e, t[0]), u);
          dv = dv + (au - e.matmul(v, e.matmul(mH(e, v), au))) / sRow;
        }
        return {du, realDiagonalOf(e, p), mH(e, dv)};
      });

  // The configurations JAX does not differentiate either.
  m[TypeID::get<LuOp>()].supports = [](Operation *op) -> LogicalResult {
    auto lu = cast<LuOp>(op);
    ArrayRef<int64_t> shape = tensorOf(lu.getLu()).getShape();
    if (shape[shape.size() - 1] != shape[shape.size() - 2])
      return lu.emitOpError("has derivatives only for square matrices");
    return success();
  };
  m[TypeID::get<QrOp>()].supports = [](Operation *op) -> LogicalResult {
    auto qr = cast<QrOp>(op);
    ArrayRef<int64_t> shape = tensorOf(qr.getInput()).getShape();
    int64_t rowsA = shape[shape.size() - 2], colsA = shape.back();
    if (rowsA < colsA || (qr.getFullMatrices() && rowsA != colsA))
      return qr.emitOpError("has derivatives only for m >= n and reduced "
                            "factors (as JAX), got ")
             << tensorOf(qr.getInput());
    return success();
  };
  m[TypeID::get<EigOp>()].supports = [](Operation *op) -> LogicalResult {
    auto eig = cast<EigOp>(op);
    if (!eig.getEigenvectors().use_empty())
      return eig.emitOpError(
          "has derivatives only of its eigenvalues (as JAX): the eigenvectors "
          "of a general matrix are used, or this is a second derivative, "
          "whose rule reads them");
    return success();
  };
  m[TypeID::get<SvdOp>()].supports = [](Operation *op) -> LogicalResult {
    auto svd = cast<SvdOp>(op);
    ArrayRef<int64_t> shape = tensorOf(svd.getInput()).getShape();
    if (svd.getFullMatrices() && shape.back() != shape[shape.size() - 2])
      return svd.emitOpError("has derivatives of full_matrices only for "
                             "square matrices (as JAX)");
    return success();
  };
}
