"""numpy's diagonal functions in jitted code: diagonal, diag, diagflat,
trace, fill_diagonal, tri and kron. A diagonal's positions are known while
building, so reading one is a gather at constant flat offsets and writing
one a gather from the values joined with a zero (every output element
reads either a value or the zero), whose adjoints are scatter_add and
gather.
"""

import operator

import numpy as _np

from . import _adjoint as _adj
from ._np_reductions import sum as _sum
from ._np_resizing import gather_static
from ._np_support import (as_value, binop, cast_to, float_dtype, iota,
                          normalize_axis, ravel, to_dtype, translator)


def _offsets(n, m, k):
    """Flat offsets in an n x m matrix of its k-th diagonal."""
    rows = _np.arange(max(0, -k), max(0, min(n, m - k)))
    return rows * m + rows + k


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The `offset` diagonal of the matrices on axes (axis1, axis2), as the
    last axis of the result (the other axes in order before it)."""
    x = as_value(a, "diagonal")
    if x.rank < 2:
        raise ValueError("adjoint.numpy.diagonal: diag requires an array of "
                         "at least two dimensions")
    i, j = (normalize_axis(v, x.rank, "diagonal") for v in (axis1, axis2))
    if i == j:
        raise ValueError("adjoint.numpy.diagonal: axis1 and axis2 cannot be "
                         "the same")
    rest = [d for d in range(x.rank) if d not in (i, j)]
    if rest + [i, j] != list(range(x.rank)):
        x = _adj.transpose(x, rest + [i, j])
    n, m = x.shape[-2], x.shape[-1]
    lead = list(x.shape[:-2])
    flat = _adj.reshape(x, lead + [n * m])
    return gather_static(flat, _offsets(n, m, int(offset)), len(lead))


def diag(v, k=0):
    """The k-th diagonal of a matrix, or a matrix with the vector v on its
    k-th diagonal."""
    x = as_value(v, "diag")
    if x.rank == 2:
        return diagonal(x, k)
    if x.rank != 1:
        raise ValueError("adjoint.numpy.diag: input must be 1- or 2-d")
    return _on_diagonal(x, int(k))


def _on_diagonal(x, k):
    """The square matrix of size len(x) + |k| holding x on its k-th
    diagonal: a gather from [x, 0] (the zero at index len(x))."""
    n = x.shape[0] + abs(k)
    source = _np.full(n * n, x.shape[0], _np.int64)
    source[_offsets(n, n, k)] = _np.arange(x.shape[0])
    padded = _adj.concat([x, _adj.fill(x.module, 0.0, [1], x.dtype)], 0) \
        if x.shape[0] else _adj.fill(x.module, 0.0, [1], x.dtype)
    return _adj.reshape(gather_static(padded, source, 0), [n, n])


def diagflat(v, k=0):
    return _on_diagonal(ravel(as_value(v, "diagflat")), int(k))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """The sum of the `offset` diagonal (numpy's sum dtypes)."""
    return _sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype,
                out=out)


def fill_diagonal(a, val, wrap=False, *, inplace=True):
    """a with `val` (repeated cyclically) on its main diagonal: JAX's
    inplace=False form, since arrays are immutable values. A 2-d a may be
    tall (with `wrap`, the diagonal restarts after every n + 1 rows as
    numpy's does); a higher one must have equal dimensions."""
    if inplace:
        raise ValueError("adjoint.numpy.fill_diagonal: arrays are immutable "
                         "values; pass inplace=False and use the result")
    x = as_value(a, "fill_diagonal")
    if x.rank < 2:
        raise ValueError("adjoint.numpy.fill_diagonal: array must be at "
                         "least 2-d")
    shape = list(x.shape)
    total = 1
    for d in shape:
        total *= d
    if x.rank == 2:
        step = shape[1] + 1
        end = total if wrap else min(total, shape[1] * shape[1])
    else:
        if any(d != shape[0] for d in shape):
            raise ValueError("adjoint.numpy.fill_diagonal: all dimensions of "
                             "input must be of equal length")
        step = sum(shape[0] ** p for p in range(x.rank))
        end = total
    positions = _np.arange(0, end, step)
    v = ravel(cast_to(as_value(val, "fill_diagonal", like=x), x.dtype))
    if not positions.size or not v.shape[0]:
        return x
    # Each flat slot reads x, or the value cycling along the diagonal.
    source = _np.arange(total)
    source[positions] = total + _np.arange(positions.size) % v.shape[0]
    joined = _adj.concat([ravel(x), v], 0)
    return _adj.reshape(gather_static(joined, source, 0), shape)


def tri(N, M=None, k=0, dtype=None, *, like=None):
    """Ones at and below the k-th diagonal of an N x M array (an iota
    comparison built into the program)."""
    M = N if M is None else M
    dtype = to_dtype(dtype, "tri") or float_dtype()
    module = translator("tri").module
    rows = iota(module, [N, M], 0)
    cols = iota(module, [N, M], 1)
    return _adj.cast(cols <= rows + float(k), dtype)


def kron(a, b):
    """The Kronecker product: each element of a times b, as blocks; the
    operands get leading ones to the same rank, then an outer product with
    interleaved axes is folded."""
    x, y = as_value(a, "kron"), as_value(b, "kron")
    rank = max(x.rank, y.rank)
    xs = [1] * (rank - x.rank) + list(x.shape)
    ys = [1] * (rank - y.rank) + list(y.shape)
    xr = _adj.reshape(x, [v for d in xs for v in (d, 1)])
    yr = _adj.reshape(y, [v for d in ys for v in (1, d)])
    return _adj.reshape(binop(operator.mul, xr, yr),
                        [p * q for p, q in zip(xs, ys)])
