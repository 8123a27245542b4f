"""numpy's polynomial functions on coefficient arrays (highest power
first) in jitted code: polyval (Horner's rule), polyadd, polysub, polymul
(a convolution), polyder, polyint, vander (running products of x, so that
x = 0 has the derivative of x**k), poly (coefficients from roots, or a
matrix's characteristic polynomial) and roots (the eigenvalues of the
companion matrix, as numpy computes them).
"""

import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_core import reshape
from ._np_creation import arange, eye, zeros
from ._np_elementwise import where
from ._np_linalg import eigvals, inv, lstsq
from ._np_movement import concatenate, take
from ._np_products import convolve
from ._np_reductions import argmin, cumprod
from ._np_sorting import argsort
from ._np_support import (as_value, binop, complex_dtype, empty_part,
                          float_dtype)


def _coefficients(p, name, like=None):
    x = as_value(p, name, like=like)
    if x.rank == 0:
        x = _adj.reshape(x, [1])
    if x.rank != 1:
        raise ValueError("adjoint.numpy.%s: the coefficients must be 1-D"
                         % name)
    return x


def _float(x):
    return x if x.dtype.is_float else _adj.cast(x, float_dtype())


def _pair(a1, a2, name):
    like = a1 if isinstance(a1, Value) else a2 if isinstance(a2, Value) \
        else None
    a, b = _coefficients(a1, name, like), _coefficients(a2, name, like)
    if a.dtype != b.dtype:
        dtype = _adj.promote_types(a.dtype, b.dtype)
        a = a if a.dtype == dtype else _adj.cast(a, dtype)
        b = b if b.dtype == dtype else _adj.cast(b, dtype)
    return a, b


def _coefficient(p, i):
    return _adj.reshape(_adj.slice(p, [i], [i + 1]), [])


def polyval(p, x, unroll=16):
    """p[0] * x**(n-1) + ... + p[n-1], by Horner's rule."""
    p = _coefficients(p, "polyval", like=x if isinstance(x, Value) else None)
    xv = as_value(x, "polyval", like=p)
    y = binop(operator.mul, xv, 0)   # zeros of x's shape and dtype
    for i in range(p.shape[0]):
        y = binop(operator.add, binop(operator.mul, y, xv),
                  _coefficient(p, i))
    return y


def _aligned(a1, a2, name, combine):
    a, b = _pair(a1, a2, name)
    n = max(a.shape[0], b.shape[0])
    a = _adj.pad(a, [n - a.shape[0]], [0], 0.0)
    b = _adj.pad(b, [n - b.shape[0]], [0], 0.0)
    return combine(a, b)


def polyadd(a1, a2):
    """The sum of two polynomials (the shorter padded with leading
    zeros)."""
    return _aligned(a1, a2, "polyadd", lambda a, b: a + b)


def polysub(a1, a2):
    return _aligned(a1, a2, "polysub", lambda a, b: a - b)


def polymul(a1, a2, *, trim_leading_zeros=False):
    """The product of two polynomials: the convolution of their
    coefficients."""
    a, b = _pair(a1, a2, "polymul")
    return convolve(a, b)


def polyder(p, m=1):
    """The m-th derivative: each step drops the constant and multiplies
    the k-th power's coefficient by k."""
    if m < 0:
        raise ValueError("adjoint.numpy.polyder: order of derivative must "
                         "be positive (see polyint)")
    p = _coefficients(p, "polyder")
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return empty_part(p, [0])
        powers = _adj.constant(p.module, _np.arange(n, 0, -1, dtype=float),
                               [n], p.dtype)
        p = _adj.slice(p, [0], [n]) * powers
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative, with integration constants k (a number for
    all, or one per step, the first for the first integration)."""
    if m < 0:
        raise ValueError("adjoint.numpy.polyint: order of integral must be "
                         "positive (see polyder)")
    p = _float(_coefficients(p, "polyint"))
    if k is None:
        ks = [0.0] * m
    elif isinstance(k, Value) and k.rank == 1 or \
            not isinstance(k, Value) and _np.ndim(k) == 1:
        kv = as_value(k, "polyint", like=p)
        if kv.shape[0] != m:
            raise ValueError("adjoint.numpy.polyint: k must be a scalar or "
                             "a rank-1 array of length %d" % m)
        ks = [_adj.reshape(_adj.slice(kv, [i], [i + 1]), [1])
              for i in range(m)]
    else:
        ks = [k] * m
    for c in ks:
        n = p.shape[0]
        scale = _adj.constant(p.module, 1.0 / _np.arange(n, 0, -1),
                              [n], p.dtype)
        if not isinstance(c, Value) or c.rank == 0:
            c = _adj.reshape(_adj.cast(as_value(c, "polyint", like=p),
                                       p.dtype), [1])
        p = _adj.concat([p * scale, _adj.cast(c, p.dtype)], 0)
    return p


def vander(x, N=None, increasing=False):
    """Columns x**(N-1), ..., x, 1 (or increasing): running products."""
    x = as_value(x, "vander")
    if x.rank != 1:
        raise ValueError("adjoint.numpy.vander: x must be a one-dimensional "
                         "array or sequence")
    n = x.shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("adjoint.numpy.vander: N must be nonnegative")
    if n == 0:
        return empty_part(x, [x.shape[0], 0])
    col = _adj.reshape(x, [x.shape[0], 1])
    ones = binop(operator.add, binop(operator.mul, col, 0), 1)
    columns = [ones] + [col] * (n - 1)
    powers = cumprod(_adj.concat(columns, 1), axis=1)
    return powers if increasing else _adj.reverse(powers, [1])


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots, or of a
    square matrix's characteristic polynomial (from its eigenvalues).
    Complex roots give complex coefficients, as JAX's (numpy's are real
    when the roots pair up as conjugates: a dtype that depends on the
    data)."""
    r = as_value(seq_of_zeros, "poly")
    if r.rank == 2 and r.shape[0] == r.shape[1] and r.shape[0] > 0:
        r = eigvals(r)
    if r.rank != 1:
        raise ValueError("adjoint.numpy.poly: the roots must be 1-D, or a "
                         "square matrix (its eigenvalues)")
    r = r if r.dtype.is_complex else _float(r)
    c = _adj.fill(r.module, 1.0, [1], r.dtype)
    if r.shape[0] == 0:
        return _adj.reshape(c, [])
    for i in range(r.shape[0]):
        root = _coefficient(r, i)
        c = _adj.pad(c, [0], [1], 0.0) - _adj.pad(c, [1], [0], 0.0) * root
    return c


def polydiv(u, v, *, trim_leading_zeros=False):
    """The quotient and remainder of u / v by long division. As JAX's, the
    remainder keeps len(u) coefficients, the leading ones zero (to
    rounding): numpy drops them, a length that depends on the data."""
    if trim_leading_zeros:
        raise ValueError("adjoint.numpy.polydiv: trim_leading_zeros gives "
                         "a length that depends on the data, and shapes "
                         "are fixed while building")
    a, b = _pair(u, v, "polydiv")
    a, b = _float(a), _float(b)
    m, n = a.shape[0] - 1, b.shape[0] - 1
    scale = 1.0 / _coefficient(b, 0)
    quotient, r = [], a
    for k in range(m - n + 1):
        d = _coefficient(r, k) * scale
        quotient.append(_adj.reshape(d, [1]))
        r = r - _adj.pad(b * d, [k], [m - n - k], 0.0)
    if not quotient:
        quotient = [_adj.fill(a.module, 0.0, [1], a.dtype)]
    return _adj.concat(quotient, 0), r


def roots(p, *, strip_zeros=True):
    """The roots of the polynomial with coefficients p (highest power
    first): the eigenvalues of its companion matrix, complex, sorted by
    real part, then imaginary part (numpy gives LAPACK's order). numpy
    drops leading zero coefficients, so that the number of roots depends
    on the data; as JAX under jit, that needs strip_zeros=False here,
    which keeps len(p) - 1 roots and makes those of the k leading zeros
    NaN (k zero roots of the rolled polynomial, which numpy would not
    report)."""
    p = _coefficients(p, "roots")
    if strip_zeros:
        raise ValueError("adjoint.numpy.roots: numpy drops the leading zero "
                         "coefficients, so the number of roots depends on "
                         "the data, and shapes are fixed while building: "
                         "pass strip_zeros=False (leading zeros then give "
                         "NaN roots), as JAX under jit")
    if not p.dtype.is_complex and p.dtype not in (DType.f32, DType.f64):
        # LAPACK computes in f32 or wider, as numpy's roots does.
        p = _adj.cast(p, float_dtype() if not p.dtype.is_float
                      else DType.f32)
    n = p.shape[0]
    if n < 2:
        return zeros(0, dtype=p.dtype if p.dtype.is_complex
                     else complex_dtype(p.dtype))
    # k = the number of leading zeros (0 when every coefficient is zero,
    # which leaves a NaN companion), and the coefficients rolled left by k:
    # the companion of q has k zero roots for them.
    k = argmin(_adj.abs(p) == 0)
    q = take(p, (arange(n) + k) % n)
    lead = _adj.reshape(_adj.slice(q, [0], [1]), [])
    first = reshape(-_adj.slice(q, [1], [n]) / lead, (1, n - 1))
    companion = concatenate(
        [first, eye(n - 2, n - 1, dtype=q.dtype)], axis=0)
    w = eigvals(companion)
    # The k roots of smallest magnitude (zeros, to rounding) are the
    # rolled-in zeros': moved last (the others keep their order) as NaN.
    rank = argsort(argsort(_adj.abs(w), kind="stable"), kind="stable")
    rolled = rank < k
    w = take(w, argsort(rolled, kind="stable"))
    undefined = arange(n - 1) >= n - 1 - k
    return where(undefined, complex(_np.nan, _np.nan), w)


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial coefficients (highest power first) through
    np.linalg.lstsq on the Vandermonde matrix with unit-norm columns, as
    numpy. `full` adds (residuals, rank, singular values, rcond); `cov`
    the coefficients' covariance (scaled by the residuals unless
    'unscaled')."""
    x, y = _float(as_value(x, "polyfit")), _float(as_value(y, "polyfit"))
    order = operator.index(deg) + 1
    if order < 1:
        raise ValueError("adjoint.numpy.polyfit: expected deg >= 0")
    if x.rank != 1 or y.rank not in (1, 2) or y.shape[0] != x.shape[0]:
        raise TypeError("adjoint.numpy.polyfit: x must be 1-D and y 1-D or "
                        "2-D with as many rows as x has points")
    n = x.shape[0]
    if x.dtype != y.dtype:
        x, y = _adj.cast(x, float_dtype()), _adj.cast(y, float_dtype())
    eps = _np.finfo(_np.float64 if x.dtype == DType.f64
                    else _np.float32).eps
    rcond = n * eps if rcond is None else float(rcond)
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = _adj.cast(as_value(w, "polyfit"), x.dtype)
        if w.rank != 1 or w.shape[0] != n:
            raise TypeError("adjoint.numpy.polyfit: w must be 1-D with one "
                            "weight per point")
        lhs = lhs * _adj.reshape(w, [n, 1])
        rhs = rhs * (w if y.rank == 1 else _adj.reshape(w, [n, 1]))
    # Unit-norm columns keep the least-squares problem well conditioned.
    scale = _adj.sqrt(_adj.sum(lhs * lhs, [0]))
    lhs = lhs / _adj.reshape(scale, [1, order])
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = c / (scale if y.rank == 1 else _adj.reshape(scale, [order, 1]))
    if full:
        return c, resids, rank, s, _adj.scalar(x.module, rcond, x.dtype)
    if not cov:
        return c
    if n <= order and cov != "unscaled":
        raise ValueError("adjoint.numpy.polyfit: the number of data points "
                         "must exceed order to scale the covariance matrix")
    base = inv(_adj.matmul(_adj.transpose(lhs, [1, 0]), lhs))
    base = base / (_adj.reshape(scale, [order, 1]) *
                   _adj.reshape(scale, [1, order]))
    if cov == "unscaled":
        # numpy's shapes: [order, order], or [order, order, 1] for a 2-D y.
        return c, base if y.rank == 1 else \
            _adj.reshape(base, [order, order, 1])
    factor = resids / float(n - order)
    if y.rank == 1:
        return c, base * _adj.reshape(factor, [])
    return c, _adj.reshape(base, [order, order, 1]) * \
        _adj.reshape(factor, [1, 1, y.shape[1]])
