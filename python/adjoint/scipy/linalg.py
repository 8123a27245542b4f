"""scipy.linalg in jitted code (jax.scipy.linalg's signatures, real and
complex matrices): triangular and Cholesky solves, the decompositions
with scipy's defaults (cholesky upper, qr complete, eigh lower) and lu as
(p, l, u).

Built on the same primitives as adjoint.numpy.linalg. The ``overwrite_*``
and ``check_finite`` arguments are accepted and ignored, as in JAX: inputs
are never overwritten and nothing is checked at run time.
"""

import numpy as _np

from .. import _adjoint as _adj
from .._adjoint import DType
from .. import _np_linalg as _la
from .._np_support import cast_to, part_dtype

__all__ = ["cho_factor", "cho_solve", "cholesky", "det", "eigh", "inv", "lu",
           "qr", "solve", "solve_triangular", "svd"]


def _transpose_flags(trans):
    """(transpose, conjugate) for scipy's trans: a^T, or a^H for 'C' (a^T
    for a real a)."""
    if trans in (0, "N"):
        return False, False
    if trans in (1, "T"):
        return True, False
    if trans in (2, "C"):
        return True, True
    raise ValueError("adjoint.scipy.linalg.solve_triangular: trans must be "
                     "0, 1, 2, 'N', 'T' or 'C', got %r" % (trans,))


def _right_hand_side(a, b, name):
    """b as a batch of matrices with a's batch shape, and whether it was a
    vector."""
    b = _la._floats(b, name)
    a, b = _la._common_float(a, b)
    vector = b.rank == a.rank - 1
    if vector:
        b = _adj.reshape(b, list(b.shape) + [1])
    if b.rank < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError("adjoint.scipy.linalg.%s: shapes %s and %s are "
                         "incompatible" % (name, tuple(a.shape),
                                           tuple(b.shape)))
    batch = _np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    return (_la._broadcast_batch(a, batch), _la._broadcast_batch(b, batch),
            vector)


def _vector_result(x, vector):
    return _adj.reshape(x, list(x.shape[:-1])) if vector else x


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False,
                     overwrite_b=False, debug=None, check_finite=True):
    """x with op(a) x = b, a triangular (only the `lower` or upper
    triangle is read)."""
    a = _la._matrices(a, "solve_triangular", square=True)
    a, b, vector = _right_hand_side(a, b, "solve_triangular")
    transpose, conjugate = _transpose_flags(trans)
    x = _adj.triangular_solve(_adj.conj(a) if conjugate else a, b,
                              left_side=True, lower=bool(lower),
                              transpose_a=transpose,
                              unit_diagonal=bool(unit_diagonal))
    return _vector_result(x, vector)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The factor of the lower (or upper: scipy's default) triangle, which
    alone is read and differentiated (not symmetrized, as JAX's)."""
    a = _la._matrices(a, "cholesky", square=True)
    if lower:
        return _adj.cholesky(a)
    return _la._mT(_adj.cholesky(_la._mT(a)))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower): the factor with zeros in the other triangle (scipy leaves
    whatever was there; cho_solve reads only the factor's triangle)."""
    return cholesky(a, lower=lower), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """x with a x = b from cho_factor's (c, lower)."""
    c, lower = c_and_lower
    c = _la._matrices(c, "cho_solve", square=True)
    c, b, vector = _right_hand_side(c, b, "cho_solve")
    # a = l l^H (lower) or u^H u (upper): two triangular solves, the one
    # with the conjugate transpose on the conjugated factor.
    y = _adj.triangular_solve(c if lower else _adj.conj(c), b,
                              left_side=True, lower=bool(lower),
                              transpose_a=not lower)
    x = _adj.triangular_solve(_adj.conj(c) if lower else c, y,
                              left_side=True, lower=bool(lower),
                              transpose_a=bool(lower))
    return _vector_result(x, vector)


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False,
          debug=False, check_finite=True, assume_a="gen"):
    """Every assume_a solves through LU of the whole matrix: for 'pos' JAX
    factors one triangle but differentiates the solve as one of the whole
    (symmetric) matrix (custom_linear_solve), which is the derivative of
    the LU solve at every order; the values agree to rounding."""
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ValueError("adjoint.scipy.linalg.solve: assume_a must be "
                         "'gen', 'sym', 'her' or 'pos', got %r" % (assume_a,))
    a = _la._matrices(a, "solve", square=True)
    a, b, vector = _right_hand_side(a, b, "solve")
    lu, _, permutation = _adj.lu(a)
    return _vector_result(_la._lu_solve(lu, permutation, b), vector)


def inv(a, overwrite_a=False, check_finite=True):
    return _la.inv(a)


def det(a, overwrite_a=False, check_finite=True):
    return _la.det(a)


def eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False,
         overwrite_b=False, turbo=True, eigvals=None, type=1,
         check_finite=True):
    """The standard problem only (b=None). Only the `lower` (or upper)
    triangle is read, as scipy's: the input is not symmetrized."""
    if b is not None:
        raise NotImplementedError("adjoint.scipy.linalg.eigh: the "
                                  "generalized problem (b) is not supported")
    if eigvals is not None:
        raise NotImplementedError("adjoint.scipy.linalg.eigh: eigvals "
                                  "(a subset) is not supported")
    w, v = _la.eigh(a, "L" if lower else "U", symmetrize_input=False)
    return w if eigvals_only else (w, v)


def svd(a, full_matrices=True, compute_uv=True, overwrite_a=False,
        check_finite=True, lapack_driver="gesdd"):
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError("adjoint.scipy.linalg.svd: lapack_driver must be "
                         "'gesdd' or 'gesvd', got %r" % (lapack_driver,))
    out = _la.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
    return tuple(out) if compute_uv else out


def qr(a, overwrite_a=False, lwork=None, mode="full", pivoting=False,
       check_finite=True):
    """scipy's modes 'full' (complete), 'economic' (reduced) and 'r' (a
    1-tuple (r,), as scipy returns it)."""
    if pivoting:
        raise NotImplementedError("adjoint.scipy.linalg.qr: pivoting is "
                                  "not supported")
    modes = {"full": "complete", "economic": "reduced", "r": "r"}
    if mode not in modes:
        raise ValueError("adjoint.scipy.linalg.qr: mode must be 'full', "
                         "'economic' or 'r', got %r" % (mode,))
    a_mode = modes[mode]
    if mode == "r":
        return (_la.qr(a, "complete").R,)
    return tuple(_la.qr(a, a_mode))


def lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    """(p, l, u) with a = p @ l @ u, or (p @ l, u) with `permute_l`."""
    a = _la._matrices(a, "lu")
    packed, _, permutation = _adj.lu(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    rows = _adj.constant(a.module, _np.arange(m), dtype=DType.i32)
    # p[perm[i], i] = 1: row i of p^T a is row perm[i] of a.
    perm = _adj.reshape(permutation, list(permutation.shape[:-1]) + [1, m])
    # In the real dtype first: a boolean does not cast to complex.
    p = cast_to(_adj.cast(_adj.cmp(_adj.Cmp.EQ, _adj.reshape(rows, [m, 1]),
                                   perm), part_dtype(a.dtype)), a.dtype)
    lower = _np.tril(_np.ones((m, k)), -1)
    unit = _np.eye(m, k)
    l = _adj.slice(packed, *_last_two(packed, m, k)) \
        * _adj.constant(a.module, lower, dtype=a.dtype) \
        + _adj.constant(a.module, unit, dtype=a.dtype)
    u = _adj.slice(packed, *_last_two(packed, k, n)) \
        * _adj.constant(a.module, _np.triu(_np.ones((k, n))), dtype=a.dtype)
    if permute_l:
        return _adj.matmul(p, l), u
    return _adj.broadcast_to(p, list(a.shape[:-2]) + [m, m]), l, u


def _last_two(x, rows, cols):
    """slice bounds of x[..., :rows, :cols]."""
    start = [0] * x.rank
    limit = list(x.shape[:-2]) + [rows, cols]
    return start, limit

