"""numpy.linalg in jitted code: ``adjoint.numpy.linalg`` (jax.numpy.linalg's
functions, for real and complex matrices).

Everything is built from the seven primitives of the LinearAlgebra family
(adj.cholesky, triangular_solve, lu, qr, eigh, eig, svd), matmul and
elementwise ops, as JAX builds jax.numpy.linalg from lax.linalg, so the
derivatives and batching come from the primitives' rules: solve is an LU
factorization and two triangular solves, det and slogdet read the LU
factors, pinv, lstsq, matrix_rank, cond and the spectral norms take
singular values. Matrices are the last two axes; leading axes are batches
and broadcast between operands as numpy's do.

Integers and booleans are computed in the program's float dtype; f16 and
bf16 are refused, as numpy's LAPACK routines refuse them. complex64 and
complex128 matrices are Hermitian where real ones are symmetric, and the
transposes of the definitions conjugate; eigenvalues of eigh, singular
values and norms are real, eig's results always complex. Shapes and
dtypes follow JAX where numpy's depend on the data (lstsq's residuals
always have one entry per column of b). Results that numpy returns as
named tuples are named tuples here too (EigResult, EighResult, QRResult,
SlogdetResult, SVDResult).
"""

import collections
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType
from ._np_contraction import matmul, outer as _outer  # noqa: F401
from ._np_diagonals import diagonal as _diagonal, trace as _trace
from ._np_elementwise import where
from ._np_movement import take_along_axis
from ._np_products import cross as _cross, tensordot, vecdot  # noqa: F401
from ._np_reductions import prod
from ._np_rounding import floor
from ._np_sorting import argsort as _argsort
from ._np_support import (as_value, cast_to, float_dtype, normalize_axes,
                          normalize_axis, part_dtype, size)

EigResult = collections.namedtuple("EigResult",
                                   ["eigenvalues", "eigenvectors"])
EighResult = collections.namedtuple("EighResult",
                                    ["eigenvalues", "eigenvectors"])
QRResult = collections.namedtuple("QRResult", ["Q", "R"])
SlogdetResult = collections.namedtuple("SlogdetResult",
                                       ["sign", "logabsdet"])
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])

LinAlgError = _np.linalg.LinAlgError


# --- operands --------------------------------------------------------------

_LINALG_DTYPES = (DType.f32, DType.f64, DType.c64, DType.c128)


def _floats(x, name):
    """`x` as a Value of f32, f64, c64 or c128 (integers and booleans as
    the program's float dtype)."""
    x = as_value(x, "linalg." + name)
    if not x.dtype.is_float and not x.dtype.is_complex:
        return _adj.cast(x, float_dtype())
    if x.dtype not in _LINALG_DTYPES:
        raise TypeError("adjoint.numpy.linalg.%s: array type %s is "
                        "unsupported in linalg (f32, f64, complex64 and "
                        "complex128 are)" % (name, x.dtype))
    return x


def _matrices(x, name, square=False):
    """`x` as a batch of matrices (rank >= 2), square if asked."""
    x = _floats(x, name)
    if x.rank < 2:
        raise LinAlgError("adjoint.numpy.linalg.%s: %d-dimensional array "
                          "given. Array must be at least two-dimensional"
                          % (name, x.rank))
    if square and x.shape[-1] != x.shape[-2]:
        raise LinAlgError("adjoint.numpy.linalg.%s: last 2 dimensions of "
                          "the array must be square, got %s"
                          % (name, tuple(x.shape)))
    return x


def _common_float(a, b):
    """`a` and `b` in one dtype: complex if either is, 64-bit parts if
    either has them."""
    if a.dtype != b.dtype:
        dtypes = (a.dtype, b.dtype)
        wide = DType.f64 in dtypes or DType.c128 in dtypes
        if any(d.is_complex for d in dtypes):
            common = DType.c128 if wide else DType.c64
        else:
            common = DType.f64 if wide else DType.f32
        a, b = (x if x.dtype == common else _adj.cast(x, common)
                for x in (a, b))
    return a, b


def _mT(x):
    """The transpose of the last two axes."""
    perm = list(range(x.rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return _adj.transpose(x, perm)


def _mH(x):
    """The conjugate transpose of the last two axes (a real matrix's
    transpose: adj.conj returns a real tensor as it is)."""
    return _adj.conj(_mT(x))


def _broadcast_batch(x, batch):
    """`x` with its leading (batch) axes broadcast to `batch`."""
    shape = list(batch) + list(x.shape[-2:])
    return x if list(x.shape) == shape else _adj.broadcast_to(x, shape)


def _symmetrized(a):
    """The symmetric (Hermitian) part of `a`."""
    return (a + _mH(a)) * 0.5


def _identity_like(a):
    """The identity broadcast to `a`'s (square) batch shape."""
    n = a.shape[-1]
    eye = _adj.constant(a.module, _np.eye(n), dtype=a.dtype)
    return _adj.broadcast_to(eye, list(a.shape))


def _eps(x):
    return float(_np.finfo(_np.float64 if part_dtype(x.dtype) == DType.f64
                           else _np.float32).eps)


def _scalar(x, value):
    return _adj.scalar(x.module, float(value), x.dtype)


# --- decompositions ---------------------------------------------------------

def cholesky(a, *, upper=False, symmetrize_input=True):
    """The lower (or upper: l^H) Cholesky factor; NaNs when `a` is not
    positive definite. As JAX, `a` is symmetrized first unless told
    otherwise (the derivative is then that of a symmetric input)."""
    a = _matrices(a, "cholesky", square=True)
    if symmetrize_input:
        a = _symmetrized(a)
    l = _adj.cholesky(a)
    return _mH(l) if upper else l


def _uplo(UPLO, name):
    if UPLO not in (None, "L", "U"):
        raise ValueError("adjoint.numpy.linalg.%s: UPLO must be 'L' or "
                         "'U', got %r" % (name, UPLO))
    return UPLO == "U"


def eigh(a, UPLO=None, symmetrize_input=True):
    """Eigenvalues (real, ascending) and eigenvectors of symmetric
    (Hermitian) matrices."""
    upper = _uplo(UPLO, "eigh")
    a = _matrices(a, "eigh", square=True)
    if symmetrize_input:
        a = _symmetrized(a)
    w, v = _adj.eigh(a, upper=upper)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L", *, symmetrize_input=True):
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def qr(a, mode="reduced"):
    """numpy's modes 'reduced', 'complete' and 'r' ('raw' returns
    LAPACK's Householder reflectors, which no primitive exposes)."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError("adjoint.numpy.linalg.qr: mode must be 'reduced', "
                         "'complete' or 'r', got %r" % (mode,))
    a = _matrices(a, "qr")
    q, r = _adj.qr(a, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False,
        subset_by_index=None):
    """Singular values (descending) and, with `compute_uv`, the vectors.
    `hermitian` computes them from eigh, as numpy does."""
    if subset_by_index is not None:
        raise NotImplementedError("adjoint.numpy.linalg.svd: "
                                  "subset_by_index is not supported")
    a = _matrices(a, "svd", square=hermitian)
    if hermitian:
        return _svd_of_symmetric(a, compute_uv)
    u, s, vh = _adj.svd(a, full_matrices=bool(full_matrices and compute_uv))
    return SVDResult(u, s, vh) if compute_uv else s


def _svd_of_symmetric(a, compute_uv):
    """|eigenvalues| in descending order; u the eigenvectors, vh their
    conjugate transpose with each row signed as its eigenvalue."""
    w, v = _adj.eigh(_symmetrized(a))
    s = _adj.abs(w)
    order = _argsort_descending(s)
    s = take_along_axis(s, order, axis=-1)
    if not compute_uv:
        return s
    columns = _adj.broadcast_to(_adj.reshape(order, list(order.shape[:-1]) +
                                             [1, order.shape[-1]]),
                                list(v.shape))
    u = take_along_axis(v, columns, axis=-1)
    signs = take_along_axis(_adj.sign(w), order, axis=-1)
    vh = _mH(u * cast_to(_adj.reshape(signs, list(signs.shape[:-1]) +
                                      [1, signs.shape[-1]]), u.dtype))
    return SVDResult(u, s, vh)


def _argsort_descending(x):
    return _argsort(-x, axis=-1, stable=True)


def svdvals(x, /):
    return svd(x, compute_uv=False)


# --- solving -----------------------------------------------------------------

def _lu_solve(lu, permutation, b):
    """x with a @ x = b from a's LU factors (p @ a = l @ u); b is a batch
    of matrices with lu's batch shape."""
    rows = _adj.broadcast_to(
        _adj.reshape(permutation, list(permutation.shape) + [1]),
        list(b.shape))
    pb = take_along_axis(b, rows, axis=-2)
    y = _adj.triangular_solve(lu, pb, left_side=True, lower=True,
                              unit_diagonal=True)
    return _adj.triangular_solve(lu, y, left_side=True)


def solve(a, b):
    """x with a @ x = b. `b` is a vector when it is 1-D, else a batch of
    matrices [..., n, k]; batch axes broadcast (numpy 2's rule)."""
    a = _matrices(a, "solve", square=True)
    b = _floats(b, "solve")
    a, b = _common_float(a, b)
    vector = b.rank == 1
    if vector:
        b = _adj.reshape(b, [b.shape[0], 1])
    if b.rank < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError("adjoint.numpy.linalg.solve: %s does not solve %s "
                         "(b is [n] or [..., n, k])"
                         % (tuple(a.shape), tuple(b.shape)))
    batch = _np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    a, b = _broadcast_batch(a, batch), _broadcast_batch(b, batch)
    lu, _, permutation = _adj.lu(a)
    x = _lu_solve(lu, permutation, b)
    if vector:
        x = _adj.reshape(x, list(x.shape[:-1]))
    return x


def inv(a):
    a = _matrices(a, "inv", square=True)
    lu, _, permutation = _adj.lu(a)
    return _lu_solve(lu, permutation, _identity_like(a))


def _lu_diagonal_and_parity(a):
    """The diagonal of u and (-1)^(number of row swaps) of a's LU (in the
    real dtype of a's values)."""
    lu, pivots, _ = _adj.lu(a)
    d = _diagonal(lu, axis1=-2, axis2=-1)
    steps = _adj.broadcast_to(
        _adj.constant(a.module, _np.arange(pivots.shape[-1]), dtype=DType.i32),
        list(pivots.shape))
    swaps = _adj.sum(_adj.cast(_adj.cmp(_adj.Cmp.NE, pivots, steps),
                               part_dtype(a.dtype)), [pivots.rank - 1])
    # (-1)^swaps = 1 - 2 (swaps mod 2), swaps a whole number.
    odd = swaps - floor(swaps * 0.5) * 2.0
    return d, 1.0 - odd * 2.0


def det(a):
    a = _matrices(a, "det", square=True)
    d, parity = _lu_diagonal_and_parity(a)
    return cast_to(parity, d.dtype) * _product(d)


def _product(d):
    return prod(d, axis=-1)


def slogdet(a, *, method=None):
    """sign and log|det| (real): sign 0 and -inf for a singular matrix; a
    complex matrix's sign is det / |det|."""
    if method not in (None, "lu"):
        raise ValueError("adjoint.numpy.linalg.slogdet: method must be "
                         "'lu', got %r" % (method,))
    a = _matrices(a, "slogdet", square=True)
    d, parity = _lu_diagonal_and_parity(a)
    size = _adj.abs(d)
    if d.dtype.is_complex:
        zero = _adj.cmp(_adj.Cmp.EQ, size, _scalar(size, 0.0))
        phases = where(zero, _scalar(d, 0.0),
                       d / cast_to(where(zero, _scalar(size, 1.0), size),
                                   d.dtype))
    else:
        phases = _adj.sign(d)
    sign = cast_to(parity, d.dtype) * _product(phases)
    logabsdet = _adj.sum(_adj.log(size), [d.rank - 1])
    return SlogdetResult(sign, logabsdet)


def matrix_power(a, n):
    """a @ a @ ... (n times) by repeated squaring; a negative n inverts."""
    a = _matrices(a, "matrix_power", square=True)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("adjoint.numpy.linalg.matrix_power: the exponent "
                        "must be an integer, got %r" % (n,)) from None
    if n == 0:
        return _identity_like(a)
    if n < 0:
        a, n = inv(a), -n
    result, power = None, a
    while n:
        if n & 1:
            result = power if result is None else _adj.matmul(result, power)
        n >>= 1
        if n:
            power = _adj.matmul(power, power)
    return result


def _default_rtol(x, s):
    return _scalar(s, max(x.shape[-2:]) * _eps(s))


def _largest(s, keepdims=True):
    out = _adj.max(s, [s.rank - 1], keepdims=keepdims)
    return out


def pinv(a, rtol=None, hermitian=False, *, rcond=None):
    """The pseudo-inverse from the singular values above rtol * max(s)
    (default 10 * max(m, n) * eps, as numpy)."""
    if rcond is not None:
        if rtol is not None:
            raise ValueError("adjoint.numpy.linalg.pinv: give rtol or rcond, "
                             "not both")
        rtol = rcond
    a = _matrices(a, "pinv", square=hermitian)
    if hermitian:
        u, s, vh = _svd_of_symmetric(a, True)
    else:
        u, s, vh = _adj.svd(a)
    if rtol is None:
        rtol = _scalar(s, 10 * max(a.shape[-2:]) * _eps(s))
    else:
        rtol = _rtol_value(rtol, s)
    cutoff = rtol * _largest(s)
    keep = _adj.cmp(_adj.Cmp.GT, s, cutoff)
    safe = where(keep, s, _scalar(s, 1.0))
    s_inv = where(keep, 1.0 / safe, _scalar(s, 0.0))
    scaled = _mH(u) * cast_to(_adj.reshape(s_inv, list(s_inv.shape) + [1]),
                              u.dtype)
    return _adj.matmul(_mH(vh), scaled)


def _rtol_value(rtol, s):
    """A tolerance given per matrix of the batch, as a [..., 1] Value."""
    r = _adj.cast(as_value(rtol, "linalg"), s.dtype) \
        if not isinstance(rtol, (int, float)) else _scalar(s, rtol)
    if r.rank:
        r = _adj.reshape(r, list(r.shape) + [1])
    return r


def matrix_rank(M, rtol=None, *, hermitian=False, tol=None):
    """The number of singular values above tol (default rtol * max(s) with
    rtol = max(m, n) * eps). A vector's rank is 1 unless it is zero."""
    M = _floats(M, "matrix_rank")
    if M.rank < 2:
        size = _adj.abs(M)
        nonzero = _adj.cmp(_adj.Cmp.NE, size, _scalar(size, 0.0))
        return _adj.cast(_adj.max(_adj.cast(nonzero, DType.i32),
                                         list(range(M.rank))), DType.i32) \
            if M.rank else _adj.cast(nonzero, DType.i32)
    s = svd(M, compute_uv=False, hermitian=hermitian)
    if tol is not None:
        cutoff = _rtol_value(tol, s)
    else:
        r = _default_rtol(M, s) if rtol is None else _rtol_value(rtol, s)
        cutoff = r * _largest(s)
    above = _adj.cast(_adj.cmp(_adj.Cmp.GT, s, cutoff), DType.i32)
    return _adj.sum(above, [s.rank - 1])


def lstsq(a, b, rcond=None, *, numpy_resid=False):
    """The least-squares solution through the SVD: (x, residuals, rank,
    singular values). As in JAX, the residuals are the squared norms of
    each column of b - a @ x whatever the rank (numpy returns them only
    for full-rank tall systems: a shape that depends on the data)."""
    if numpy_resid:
        raise ValueError("adjoint.numpy.linalg.lstsq: numpy_resid=True "
                         "gives a shape that depends on the rank; it is "
                         "not supported in jitted code")
    a = _matrices(a, "lstsq")
    b = _floats(b, "lstsq")
    a, b = _common_float(a, b)
    if a.rank != 2 or b.rank not in (1, 2):
        raise TypeError("adjoint.numpy.linalg.lstsq: a must be 2-D and b 1-D "
                        "or 2-D, got %s and %s"
                        % (tuple(a.shape), tuple(b.shape)))
    vector = b.rank == 1
    if vector:
        b = _adj.reshape(b, [b.shape[0], 1])
    m, n = a.shape
    if b.shape[0] != m:
        raise ValueError("adjoint.numpy.linalg.lstsq: leading dimensions of "
                         "a %s and b %s differ"
                         % (tuple(a.shape), tuple(b.shape)))
    u, s, vh = _adj.svd(a)
    rcond = _scalar(s, _eps(s) * max(m, n)) if rcond is None or rcond < 0 \
        else _scalar(s, rcond)
    keep = _adj.cmp(_adj.Cmp.GE, s, rcond * _largest(s))
    rank = _adj.sum(_adj.cast(keep, DType.i32), [0])
    safe = where(keep, s, _scalar(s, 1.0))
    s_inv = where(keep, 1.0 / safe, _scalar(s, 0.0))
    utb = _adj.matmul(_mH(u), b) * cast_to(
        _adj.reshape(s_inv, [s.shape[0], 1]), b.dtype)
    x = _adj.matmul(_mH(vh), utb)
    r = b - _adj.matmul(a, x)
    resid = _adj.sum(_abs2(r), [0])
    if vector:
        x = _adj.reshape(x, [n])
    return x, resid, rank, s


# --- norms -------------------------------------------------------------------

def _abs2(x):
    """|x|^2: x * x for reals, Re(x conj(x)) for complex numbers (JAX's
    form, differentiable at 0)."""
    return _adj.real(x * _adj.conj(x)) if x.dtype.is_complex else x * x


def _vector_norm(x, ord, axes, keepdims):
    ax = _adj.abs(x)
    if ord is None or ord == 2:
        out = _adj.sqrt(_adj.sum(_abs2(x), axes, keepdims=keepdims))
    elif ord == _np.inf:
        out = _adj.max(ax, axes, keepdims=keepdims)
    elif ord == -_np.inf:
        out = -_adj.max(-ax, axes, keepdims=keepdims)
    elif ord == 0:
        nonzero = _adj.cast(_adj.cmp(_adj.Cmp.NE, ax, _scalar(ax, 0.0)),
                            ax.dtype)
        out = _adj.sum(nonzero, axes, keepdims=keepdims)
    elif ord == 1:
        out = _adj.sum(ax, axes, keepdims=keepdims)
    elif isinstance(ord, str):
        raise ValueError("adjoint.numpy.linalg.norm: invalid norm order %r "
                         "for vectors" % (ord,))
    else:
        p = float(ord)
        out = _adj.sum(ax ** p, axes, keepdims=keepdims) ** (1.0 / p)
    return out


def _matrix_norm(x, ord, row, col, keepdims):
    """A matrix norm over axes (row, col)."""
    if ord is None or ord == "fro":
        return _adj.sqrt(_adj.sum(_abs2(x), [row, col], keepdims=keepdims))
    if ord in (1, -1, _np.inf, -_np.inf):
        # 1: the largest column sum; inf: the largest row sum.
        summed, then = (row, col) if ord in (1, -1) else (col, row)
        sums = _adj.sum(_adj.abs(x), [summed], keepdims=True)
        pick = _adj.max(sums if ord > 0 else -sums, [then],
                               keepdims=True)
        pick = pick if ord > 0 else -pick
        return pick if keepdims else _adj.reshape(
            pick, [d for i, d in enumerate(x.shape) if i not in (row, col)])
    if ord in ("nuc", 2, -2):
        rest = [i for i in range(x.rank) if i not in (row, col)]
        moved = _adj.transpose(x, rest + [row, col])
        s = svd(moved, compute_uv=False)
        last = [s.rank - 1]
        if ord == "nuc":
            out = _adj.sum(s, last)
        elif ord == 2:
            out = _adj.max(s, last)
        else:
            out = -_adj.max(-s, last)
        if keepdims:
            shape = list(x.shape)
            shape[row] = shape[col] = 1
            out = _adj.reshape(out, shape)
        return out
    raise ValueError("adjoint.numpy.linalg.norm: invalid norm order %r for "
                     "matrices" % (ord,))


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy's vector norms (ord None/2, inf, -inf, 0, 1, any p) over one
    axis and matrix norms ('fro', 'nuc', inf, -inf, 1, -1, 2, -2) over
    two."""
    x = _floats(x, "norm")
    if axis is None:
        if ord is None:
            out = _vector_norm(x, None, list(range(x.rank)), keepdims)
            return out
        if x.rank == 1:
            return _vector_norm(x, ord, [0], keepdims)
        if x.rank == 2:
            return _matrix_norm(x, ord, 0, 1, keepdims)
        raise ValueError("adjoint.numpy.linalg.norm: improper number of "
                         "dimensions to norm (ord=%r needs 1 or 2 axes)"
                         % (ord,))
    axes = normalize_axes(axis, x.rank, "linalg.norm")
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes[0], axes[1], keepdims)
    raise ValueError("adjoint.numpy.linalg.norm: improper number of "
                     "dimensions to norm (axis=%r)" % (axis,))


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    x = _floats(x, "vector_norm")
    axes = normalize_axes(axis, x.rank, "linalg.vector_norm")
    return _vector_norm(x, ord, axes, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    x = _matrices(x, "matrix_norm")
    return _matrix_norm(x, ord, x.rank - 2, x.rank - 1, keepdims)


def cond(x, p=None):
    """The condition number in norm p: the ratio of extreme singular values
    for p None, 2, -2; norm(x) * norm(inv(x)) otherwise; inf for a
    singular matrix (as JAX)."""
    x = _matrices(x, "cond")
    if p in (None, 2, -2):
        s = svd(x, compute_uv=False)
        last = [s.rank - 1]
        big = _adj.max(s, last)
        small = -_adj.max(-s, last)
        return big / small if p != -2 else small / big
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError("adjoint.numpy.linalg.cond: norm %r needs square "
                          "matrices" % (p,))
    r = _matrix_norm(x, p, x.rank - 2, x.rank - 1, False) * \
        _matrix_norm(inv(x), p, x.rank - 2, x.rank - 1, False)
    return where(_adj.cmp(_adj.Cmp.NE, r, r), _scalar(r, _np.inf), r)


# --- products and the array API's linalg names ------------------------------

def multi_dot(arrays, *, precision=None):
    """The chained product in the cheapest order (numpy's dynamic
    programme over the matrices' sizes); a 1-D first operand is a row and
    a 1-D last one a column, as numpy's."""
    if len(arrays) < 2:
        raise ValueError("adjoint.numpy.linalg.multi_dot: expecting at least "
                         "two arrays")
    xs = [_floats(a, "multi_dot") for a in arrays]
    first_vector, last_vector = xs[0].rank == 1, xs[-1].rank == 1
    if first_vector:
        xs[0] = _adj.reshape(xs[0], [1, xs[0].shape[0]])
    if last_vector:
        xs[-1] = _adj.reshape(xs[-1], [xs[-1].shape[0], 1])
    for x in xs:
        if x.rank != 2:
            raise ValueError("adjoint.numpy.linalg.multi_dot: operands must be "
                             "2-D (the first and last may be 1-D)")
    out = _chain(xs, _chain_order(xs), 0, len(xs) - 1)
    shape = list(out.shape)
    if last_vector:
        shape.pop(-1)
    if first_vector:
        shape.pop(0)
    return _adj.reshape(out, shape)


def _chain_order(xs):
    dims = [xs[0].shape[0]] + [x.shape[1] for x in xs]
    n = len(xs)
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + \
                    dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(xs, split, i, j):
    if i == j:
        return xs[i]
    k = split[i][j]
    a, b = _chain(xs, split, i, k), _chain(xs, split, k + 1, j)
    a, b = _common_float(a, b)
    return _adj.matmul(a, b)


def tensorinv(a, ind=2):
    a = _floats(a, "tensorinv")
    ind = operator.index(ind)
    if ind <= 0:
        raise ValueError("adjoint.numpy.linalg.tensorinv: ind must be a "
                         "positive integer")
    rows, cols = list(a.shape[:ind]), list(a.shape[ind:])
    if size(rows) != size(cols):
        raise LinAlgError("adjoint.numpy.linalg.tensorinv: %s is not "
                          "'square' at ind=%d" % (tuple(a.shape), ind))
    flat = _adj.reshape(a, [size(rows), size(cols)])
    return _adj.reshape(inv(flat), cols + rows)


def tensorsolve(a, b, axes=None):
    a, b = _floats(a, "tensorsolve"), _floats(b, "tensorsolve")
    if axes is not None:
        moved = [normalize_axis(i, a.rank, "linalg.tensorsolve")
                 for i in axes]
        rest = [i for i in range(a.rank) if i not in moved]
        a = _adj.transpose(a, rest + moved)
    solution_shape = list(a.shape[b.rank:])
    n = size(solution_shape)
    if size(b.shape) != n or list(a.shape[:b.rank]) != list(b.shape):
        raise LinAlgError("adjoint.numpy.linalg.tensorsolve: %s does not "
                          "solve %s" % (tuple(a.shape), tuple(b.shape)))
    x = solve(_adj.reshape(a, [n, n]), _adj.reshape(b, [n]))
    return _adj.reshape(x, solution_shape)


def cross(x1, x2, /, *, axis=-1):
    return _cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    return _diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    return _trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def matrix_transpose(x, /):
    return _mT(_matrices(x, "matrix_transpose"))


def outer(x1, x2, /):
    x1, x2 = as_value(x1, "linalg.outer"), as_value(x2, "linalg.outer")
    if x1.rank != 1 or x2.rank != 1:
        raise ValueError("adjoint.numpy.linalg.outer: operands must be 1-D")
    return _outer(x1, x2)


def eig(a):
    """Eigenvalues and unit right eigenvectors of general square matrices,
    always complex (as JAX's; numpy's are real where every imaginary part
    is zero, a dtype that depends on the data). The eigenvalues are sorted
    by real part, then imaginary part (numpy and JAX give LAPACK's order,
    which is the implementation's), and each eigenvector's entry of
    largest magnitude is real and positive. As in JAX only the
    eigenvalues have derivatives (use eigvals): a derivative through an
    eig whose eigenvectors are used is an error."""
    a = _matrices(a, "eig", square=True)
    w, v = _adj.eig(a)
    return EigResult(w, v)


def eigvals(a):
    """The eigenvalues of eig (the vectors are not computed), with JAX's
    first derivative diag(V^-1 dA V)."""
    a = _matrices(a, "eigvals", square=True)
    return _adj.eig(a)[0]

#: The functions of adjoint.numpy.linalg (jax.numpy.linalg's names).
NAMES = ("cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh",
         "eigvals", "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm",
         "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot",
         "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals",
         "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot",
         "vector_norm")
