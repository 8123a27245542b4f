"""numpy's sort and argsort in jitted code.

adj has no sort op. Both sort (value, index) pairs along the last axis:
comparing the indices of equal values makes the order total, so the sort
is stable (numpy's kind='stable'), and NaN sorts last, as in numpy.
Complex numbers sort as numpy's do: by real part, then imaginary part,
those with a NaN after the others in four groups (R + Rj, R + nanj,
nan + Rj, nan + nanj). Two compositions, chosen by size:

- ranks: element i goes to the count of elements that sort before it, from
  a pairwise comparison (O(n^2) work and memory per row, in a few fused
  ops: the faster one for the short rows of most uses);
- a bitonic network, for long rows: the row padded to a power of two n
  (padding after every element: NaN for floats, the row's maximum for
  integers, at indices past the row) goes through log2(n)(log2(n)+1)/2
  compare-exchange stages, each a gather of partners (i ^ j) and selects:
  O(n log^2 n) work and O(n) memory.

sort gathers by the argsort (take_along_axis), so its gradient is the
permutation's.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType
from ._np_movement import take_along_axis
from ._np_support import (as_value, complex_dtype, float_dtype, iota,
                          move_axis_last, move_back, normalize_axis,
                          part_dtype, ravel)

_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _check(kind, order, name):
    if kind not in _KINDS:
        raise ValueError("adjoint.numpy.%s: unknown kind %r" % (name, kind))
    if order is not None:
        raise ValueError("adjoint.numpy.%s: order= (fields of structured "
                         "arrays) is not supported" % name)


def _and(a, b):
    return _adj.select(a, b, a)


def _or(a, b):
    return _adj.select(a, a, b)


def _complex_less(a, b):
    """numpy's order of complex numbers (its CFLOAT_LT): a before b."""
    ar, ai, br, bi = _adj.real(a), _adj.imag(a), _adj.real(b), _adj.imag(b)
    a_num_i, b_nan_i = ai == ai, bi != bi
    real_less, real_more = ar < br, ar > br
    same_real = _or(ar == br, _and(ar != ar, br != br))
    return _adj.select(
        real_less, _or(a_num_i, b_nan_i),
        _adj.select(real_more, _and(b_nan_i, a_num_i),
                    _adj.select(same_real, _or(ai < bi, _and(b_nan_i, a_num_i)),
                                br != br)))


def _before(v1, i1, v2, i2):
    """Whether (v1, i1) sorts before (v2, i2): by value, NaN after numbers,
    then by index."""
    if v1.dtype.is_complex:
        # Neither before the other: by index (less is false where more).
        less, more = _complex_less(v1, v2), _complex_less(v2, v1)
        return _adj.select(less, less, _adj.select(more, less, i1 < i2))
    if not v1.dtype.is_float:
        return _or(v1 < v2, _and(v1 == v2, i1 < i2))
    nan2 = v2 != v2
    same = _or(v1 == v2, _and(v1 != v1, nan2))
    return _or(_or(v1 < v2, _and(v1 == v1, nan2)), _and(same, i1 < i2))


def _stage(keys, idx, k, j):
    """One compare-exchange stage of the network: element i and its
    partner i ^ j. Element i should hold the first of the two when it is
    the lower one in an ascending block of k (bit k of i clear; every block
    is in the last merge) or the higher one in a descending block, else the
    second."""
    n = keys.shape[-1]
    axis = keys.rank - 1
    partner = _adj.constant(keys.module, _np.arange(n) ^ j, [n], DType.i64)
    other_k = _adj.gather(keys, partner, axis)
    other_i = _adj.gather(idx, partner, axis)
    i = _np.arange(n)
    keep_first = ((i & j) == 0) == ((i & k) == 0)
    first = _adj.constant(keys.module, keep_first.astype(_np.float64), [n],
                          DType.i32)
    mine_first = _adj.cast(_before(keys, idx, other_k, other_i), DType.i32)
    keep = mine_first == first
    return _adj.select(keep, keys, other_k), _adj.select(keep, idx, other_i)


#: Rows of at most this many pairs in all are sorted by ranks.
RANK_PAIRS = 1 << 22


def _rank_argsort(x):
    """Position r holds the i whose rank (the number of elements sorting
    before it) is r."""
    shape = list(x.shape)
    n = shape[-1]
    xi = _adj.reshape(x, shape + [1])                          # [..., i, 1]
    xj = _adj.reshape(x, shape[:-1] + [1, n])                  # [..., 1, j]
    pair = [n, n]
    before = _before(xj, iota(x.module, pair, 1), xi, iota(x.module, pair, 0))
    rank = _adj.sum(_adj.cast(before, DType.i64), [x.rank], False)
    ranks = _adj.reshape(rank, shape[:-1] + [1, n])            # [..., 1, i]
    hit = _adj.cast(ranks == iota(x.module, pair, 0), DType.i64)  # [r, i]
    return _adj.sum(hit * iota(x.module, pair, 1), [x.rank], False)


def _last_axis_argsort(x):
    """The argsort of x (rank >= 1) along its last axis."""
    if x.dtype == DType.i1:
        x = _adj.cast(x, DType.i32)
    m = x.shape[-1]
    rows = 1
    for d in x.shape[:-1]:
        rows *= d
    if rows * m * m <= RANK_PAIRS:
        return _rank_argsort(x)
    return _network_argsort(x)


def _network_argsort(x):
    batch, m = list(x.shape[:-1]), x.shape[-1]
    n = 1
    while n < m:
        n *= 2
    keys = x
    if n > m:
        if x.dtype.is_complex:
            # nan + nanj: after every complex number.
            nan = _adj.fill(x.module, float("nan"), batch + [n - m],
                            part_dtype(x.dtype))
            pad = _adj.complex(nan, nan)
        elif x.dtype.is_float:
            pad = _adj.fill(x.module, float("nan"), batch + [n - m], x.dtype)
        else:
            pad = _adj.broadcast_to(_adj.max(x, [x.rank - 1], True),
                                    batch + [n - m])
        keys = _adj.concat([x, pad], x.rank - 1)
    idx = iota(x.module, batch + [n], x.rank - 1)
    k = 2
    while k <= n:
        j = k // 2
        while j >= 1:
            keys, idx = _stage(keys, idx, k, j)
            j //= 2
        k *= 2
    if n > m:
        idx = _adj.slice(idx, [0] * x.rank, batch + [m])
    return idx


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


def sort_complex(a):
    """a sorted along its last axis as complex numbers (by real, then
    imaginary part), in the complex type of its dtype (JAX's: c64 for f32,
    c128 for f64, the program's float dtype's for integers)."""
    x = as_value(a, "sort_complex")
    if not x.dtype.is_complex:
        real = x.dtype if x.dtype in (DType.f32, DType.f64) else \
            float_dtype()
        if x.dtype != real:
            x = _adj.cast(x, real)
        x = _adj.cast(x, complex_dtype(real))
    return sort(x)
