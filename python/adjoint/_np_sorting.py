"""numpy's sort and argsort in jitted code, by ranks.

adj has no sort op. Along the last axis, element i's rank is the number of
elements that sort before it: smaller ones, and equal ones at a smaller
index (so the order is stable, as numpy's kind='stable'; NaN sorts last,
as in numpy). argsort puts index i at position rank[i] (a one-hot sum), and
sort gathers the elements in that order (take_along_axis), so its gradient
is the permutation's. The pairwise comparison costs O(n^2) per row: meant
for the rows of a few thousand elements researchers sort inside a step.
"""

from . import _adjoint as _adj
from ._adjoint import DType
from ._np_movement import take_along_axis
from ._np_support import (as_value, iota, move_axis_last, move_back,
                          normalize_axis, ravel)

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _check(kind, order, name):
    if kind not in _KINDS:
        raise ValueError("adjoint.numpy.%s: unknown kind %r" % (name, kind))
    if order is not None:
        raise ValueError("adjoint.numpy.%s: order= (fields of structured "
                         "arrays) is not supported" % name)


def _as_int(x):
    return _adj.cast(x, DType.i64)


def _last_axis_argsort(x):
    """The argsort of x (rank >= 1) along its last axis."""
    shape = list(x.shape)
    n = shape[-1]
    if x.dtype == DType.i1:
        x = _as_int(x)
    xi = _adj.reshape(x, shape + [1])        # [..., i, 1]
    xj = _adj.reshape(x, shape[:-1] + [1, n])  # [..., 1, j]
    before = _adj.cmp(_adj.Cmp.LT, xj, xi)
    same = _adj.cmp(_adj.Cmp.EQ, xj, xi)
    if x.dtype.is_float:
        # NaN is after every number and equal to NaN (for stability).
        ni, nj = xi != xi, xj != xj
        before = _as_int(before) + _as_int(ni) * (1 - _as_int(nj))
        same = _as_int(same) + _as_int(ni) * _as_int(nj)
    else:
        before, same = _as_int(before), _as_int(same)
    pair = [n, n]
    earlier = _as_int(iota(x.module, pair, 1) < iota(x.module, pair, 0))
    rank = _adj.sum(before + same * earlier, [x.rank], False)  # [..., i]
    # position r holds the i with rank[i] == r.
    ranks = _adj.reshape(rank, shape[:-1] + [1, n])            # [..., 1, i]
    positions = iota(x.module, pair, 0)                        # [r, i]
    hit = _adj.cast(ranks == positions, DType.i64)
    return _adj.sum(hit * iota(x.module, pair, 1), [x.rank], False)


def _along(a, axis, kind, order, name, last_axis):
    """`last_axis` applied along `axis` (None: the flattened array)."""
    _check(kind, order, name)
    x = as_value(a, name)
    if axis is None:
        x, axis = ravel(x), 0
    x, back = move_axis_last(x, normalize_axis(axis, x.rank, name))
    return move_back(last_axis(x), back)


def argsort(a, axis=-1, kind=None, order=None):
    return _along(a, axis, kind, order, "argsort", _last_axis_argsort)


def sort(a, axis=-1, kind=None, order=None):
    return _along(a, axis, kind, order, "sort", lambda x: take_along_axis(
        x, _last_axis_argsort(x), -1))
