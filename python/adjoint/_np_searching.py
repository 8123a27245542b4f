"""numpy's sorted-search and set functions in jitted code: searchsorted,
digitize, bincount (length=), isin, partition/argpartition (a full sort
is a valid partition), lexsort, and unique/unique_values/unique_counts/
unique_inverse/unique_all with intersect1d/union1d/setdiff1d/setxor1d in
JAX's size= form.

Shapes are known while building, so a result whose length depends on the
data (unique without size=, bincount without length=) is an error naming
the function. With size=, the distinct values are laid out sorted in the
first slots, the rest hold fill_value (by default the smallest value, as
JAX), indices pad with the first value's index and counts with 0.

Searches count comparisons against every element (O(n m) work in a few
fused ops), in numpy's total order with NaN last.
"""

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_movement import take, take_along_axis
from ._np_reductions import cumsum
from ._np_sorting import _complex_less, argsort, sort
from ._np_support import (as_value, cast_to, float_dtype, iota,
                          normalize_axis, ravel)


def _and(p, q):
    return _adj.select(p, q, p)


def _or(p, q):
    return _adj.select(p, p, q)


def _not(p):
    return _adj.cast(p, DType.i32) == 0.0


def _common(a, v, name):
    """a and v as Values of one dtype (numbers take the other's)."""
    a = as_value(a, name, like=v if isinstance(v, Value) else None)
    v = as_value(v, name, like=a)
    if a.dtype != v.dtype:
        dtype = _adj.promote_types(a.dtype, v.dtype)
        a, v = cast_to(a, dtype), cast_to(v, dtype)
    return a, v


def _count_before(a, v, side):
    """For each element of v, how many elements of the 1-D a sort before
    it (left) or not after it (right), NaN last."""
    ar = _adj.reshape(a, [1] * v.rank + [a.shape[0]])
    vr = _adj.reshape(v, list(v.shape) + [1])
    if a.dtype.is_complex:  # numpy's order of complex numbers
        if side == "left":
            return _adj.sum(_adj.cast(_complex_less(ar, vr), DType.i64),
                            [v.rank], False)
        after = _adj.sum(_adj.cast(_complex_less(vr, ar), DType.i64),
                         [v.rank], False)
        return float(a.shape[0]) - after
    if side == "left":
        hit = ar < vr
        if a.dtype.is_float:
            hit = _or(hit, _and(ar == ar, vr != vr))
    else:
        hit = ar <= vr
        if a.dtype.is_float:
            hit = _or(hit, vr != vr)
    return _adj.sum(_adj.cast(hit, DType.i64), [v.rank], False)


def searchsorted(a, v, side="left", sorter=None, *, method=None):
    """Where v's elements would be inserted into the sorted 1-D a to keep
    it sorted (the first such place, or the last for side='right')."""
    if side not in ("left", "right"):
        raise ValueError("adjoint.numpy.searchsorted: side must be 'left' "
                         "or 'right', not %r" % (side,))
    a, v = _common(a, v, "searchsorted")
    if a.rank != 1:
        raise ValueError("adjoint.numpy.searchsorted: a must be 1-D")
    if sorter is not None:
        a = take(a, sorter)
    return _count_before(a, v, side)


def digitize(x, bins, right=False, *, method=None):
    """The index of the bin of each x (bins increasing or decreasing,
    which is decided when the program runs if bins is traced)."""
    x, b = _common(x, bins, "digitize")
    if x.dtype.is_complex:
        raise TypeError("adjoint.numpy.digitize: x may not be complex")
    if b.rank != 1:
        raise ValueError("adjoint.numpy.digitize: bins must be 1-D")
    side = "left" if right else "right"
    rising = _count_before(b, x, side)
    if b.shape[0] < 2:
        return rising
    falling = float(b.shape[0]) - _count_before(
        _adj.reverse(b, [0]), x, side)
    first = _adj.slice(b, [0], [1])
    last = _adj.slice(b, [b.shape[0] - 1], [b.shape[0]])
    increasing = _adj.reshape(last >= first, [])
    return _adj.select(increasing, rising, falling)


def bincount(x, weights=None, minlength=0, *, length=None):
    """Counts (or summed weights) of each value in [0, length) of the
    non-negative integers x; values outside are dropped, as JAX."""
    x = as_value(x, "bincount")
    if x.dtype.is_float:
        raise TypeError("adjoint.numpy.bincount: x must be integers")
    if x.rank != 1:
        raise ValueError("adjoint.numpy.bincount: x must be 1-D")
    if length is None:
        raise ValueError("adjoint.numpy.bincount: the result's length is "
                         "max(x) + 1, known only from the data: pass "
                         "length= (as jax.numpy does)")
    length = max(int(length), int(minlength))
    hit = _adj.reshape(cast_to(x, DType.i64), [x.shape[0], 1]) == \
        iota(x.module, [1, length], 1)
    if weights is None:
        return _adj.sum(_adj.cast(hit, DType.i64), [0], False)
    w = as_value(weights, "bincount", like=x)
    if list(w.shape) != list(x.shape):
        raise ValueError("adjoint.numpy.bincount: the weights and list "
                         "don't have the same length")
    if not w.dtype.is_float:
        w = _adj.cast(w, float_dtype())
    return _adj.sum(_adj.select(hit, _adj.reshape(w, [x.shape[0], 1]), 0.0),
                    [0], False)


def isin(element, test_elements, assume_unique=False, invert=False, *,
         kind=None, method=None):
    """Whether each element equals one of test_elements (NaN equals
    none)."""
    e, t = _common(element, test_elements, "isin")
    t = ravel(t)
    eq = _adj.reshape(e, list(e.shape) + [1]) == \
        _adj.reshape(t, [1] * e.rank + [t.shape[0]])
    found = _adj.max(_adj.cast(eq, DType.i32), [e.rank], False) > 0.0
    return _not(found) if invert else found


def _kth(kth, n, name):
    ks = [kth] if isinstance(kth, int) else list(kth)
    for k in ks:
        if isinstance(k, Value) or not -n <= int(k) < n:
            raise ValueError("adjoint.numpy.%s: kth(=%s) out of bounds (%d)"
                             % (name, k, n))


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """a sorted along `axis`: a partition around every kth."""
    x = as_value(a, "partition")
    if axis is None:
        x, axis = ravel(x), 0
    _kth(kth, x.shape[normalize_axis(axis, x.rank, "partition")],
         "partition")
    return sort(x, axis, None, order)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """The indices that sort a along `axis` (a valid argpartition)."""
    x = as_value(a, "argpartition")
    if axis is None:
        x, axis = ravel(x), 0
    _kth(kth, x.shape[normalize_axis(axis, x.rank, "argpartition")],
         "argpartition")
    return argsort(x, axis, None, order)


def lexsort(keys, axis=-1):
    """The stable order by the last key, then the one before, ...: stable
    sorts from the first key (least significant) to the last."""
    if isinstance(keys, Value):
        keys = [_adj.reshape(_adj.slice(keys, [i] + [0] * (keys.rank - 1),
                                        [i + 1] + list(keys.shape[1:])),
                             list(keys.shape[1:]))
                for i in range(keys.shape[0])]
    keys = [as_value(k, "lexsort") for k in keys]
    if not keys:
        raise TypeError("adjoint.numpy.lexsort: need sequence of keys with "
                        "len > 0")
    idx = argsort(keys[0], axis)
    for k in keys[1:]:
        idx = take_along_axis(idx, argsort(take_along_axis(k, idx, axis),
                                           axis), axis)
    return idx


# -- unique and the set functions ---------------------------------------------

def _need_size(size, name):
    if size is None:
        raise ValueError("adjoint.numpy.%s: the number of distinct values "
                         "depends on the data, and shapes are fixed while "
                         "building: pass size= (and fill_value=), as "
                         "jax.numpy does" % name)
    return int(size)


class _Runs:
    """The flattened x sorted (stably), with its runs of equal values: a
    run starts where the value differs from the one before (NaNs are one
    run when equal_nan)."""

    def __init__(self, x, equal_nan=True):
        flat = ravel(x)
        self.n = flat.shape[0]
        self.order = argsort(flat)
        self.values = take(flat, self.order)
        s = self.values
        if self.n == 0:
            self.first = s == s
        else:
            cur = _adj.slice(s, [1], [self.n])
            prev = _adj.slice(s, [0], [self.n - 1])
            same = cur == prev
            if s.dtype.is_float and equal_nan:
                same = _or(same, _and(cur != cur, prev != prev))
            start = _adj.fill(s.module, 1.0, [1], DType.i1)
            self.first = _adj.concat([start, _not(same)], 0)
        self.run = _adj.cast(cumsum(_adj.cast(self.first, DType.i64)),
                             DType.i64) - 1.0

    def slots(self, keep, size):
        """[size, n] i1: element i of the sorted values goes to slot j."""
        place = cumsum(_adj.cast(keep, DType.i64)) - 1.0
        m = self.values.module
        return _and(_adj.reshape(keep, [1, self.n]),
                    _adj.reshape(place, [1, self.n]) ==
                    iota(m, [size, 1], 0))

    def laid_out(self, data, slots, fill_value=None, name=None):
        """data (sorted like the values) in the slots, fill_value in the
        empty ones (by default what the first slot holds)."""
        filled = _adj.max(_adj.cast(slots, DType.i32), [1], False) > 0.0
        flags = data.dtype == DType.i1   # summed as integers
        picked = _adj.sum(_adj.select(slots, _adj.reshape(
            _adj.cast(data, DType.i32) if flags else data, [1, self.n]),
            _zero(data)), [1], False)
        if flags:
            picked = picked != 0.0
        if fill_value is None:
            fill = _adj.reshape(_adj.slice(picked, [0], [1]), [])
        else:
            fill = cast_to(as_value(fill_value, name, like=data), data.dtype)
        return _adj.select(filled, picked, fill)


def _zero(x):
    return 0.0 if x.dtype.is_float else 0


def _unique(x, size, fill_value, equal_nan, name, index=False,
            inverse=False, counts=False):
    size = _need_size(size, name)
    x = as_value(x, name)
    runs = _Runs(x, equal_nan)
    slots = runs.slots(runs.first, size)
    out = [runs.laid_out(runs.values, slots, fill_value, name)]
    if index:
        out.append(runs.laid_out(runs.order, slots))
    if inverse:
        rank = argsort(runs.order)
        out.append(_adj.reshape(take(runs.run, rank), list(x.shape)))
    if counts:
        per_run = _adj.reshape(runs.run, [1, runs.n]) == \
            iota(x.module, [size, 1], 0)
        out.append(_adj.sum(_adj.cast(per_run, DType.i64), [1], False))
    return out


def unique(ar, return_index=False, return_inverse=False,
           return_counts=False, axis=None, *, equal_nan=True, size=None,
           fill_value=None, sorted=True):
    """The sorted distinct values of the flattened ar (size= of them), with
    the index of each one's first occurrence, the inverse (ar's shape) and
    the counts on request."""
    if axis is not None:
        raise ValueError("adjoint.numpy.unique: axis= (distinct slices) is "
                         "not supported; unique works on the flattened "
                         "array")
    out = _unique(ar, size, fill_value, equal_nan, "unique", return_index,
                  return_inverse, return_counts)
    return out[0] if len(out) == 1 else tuple(out)


def unique_values(x, /, *, size=None, fill_value=None):
    return _unique(x, size, fill_value, True, "unique_values")[0]


def unique_counts(x, /, *, size=None, fill_value=None):
    """(values, counts)."""
    return tuple(_unique(x, size, fill_value, True, "unique_counts",
                         counts=True))


def unique_inverse(x, /, *, size=None, fill_value=None):
    """(values, inverse_indices of x's shape)."""
    return tuple(_unique(x, size, fill_value, True, "unique_inverse",
                         inverse=True))


def unique_all(x, /, *, size=None, fill_value=None):
    """(values, indices, inverse_indices, counts)."""
    return tuple(_unique(x, size, fill_value, True, "unique_all", True,
                         True, True))


def _set_result(values, keep, size, fill_value, name):
    size = _need_size(size, name)
    runs = _Runs(values)
    slots = runs.slots(_and(runs.first, keep(runs.values)), size)
    return runs.laid_out(runs.values, slots, fill_value, name)


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """The sorted distinct values in either array."""
    a, b = _common(ar1, ar2, "union1d")
    return _set_result(_adj.concat([ravel(a), ravel(b)], 0),
                       lambda s: _or(s == s, s != s), size, fill_value,
                       "union1d")


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *,
                size=None, fill_value=None):
    """The sorted distinct values in both arrays."""
    if return_indices:
        raise ValueError("adjoint.numpy.intersect1d: return_indices is not "
                         "supported")
    a, b = _common(ar1, ar2, "intersect1d")
    return _set_result(a, lambda s: isin(s, b), size, fill_value,
                       "intersect1d")


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """The sorted distinct values of ar1 that are not in ar2."""
    a, b = _common(ar1, ar2, "setdiff1d")
    return _set_result(a, lambda s: isin(s, b, invert=True), size,
                       fill_value, "setdiff1d")


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """The sorted distinct values in exactly one of the arrays."""
    a, b = _common(ar1, ar2, "setxor1d")

    def in_one(s):
        return _adj.cast(isin(s, a), DType.i32) != \
            _adj.cast(isin(s, b), DType.i32)
    return _set_result(_adj.concat([ravel(a), ravel(b)], 0), in_one, size,
                       fill_value, "setxor1d")


def trim_zeros(filt, trim="fb", axis=None):
    raise ValueError("adjoint.numpy.trim_zeros: the result's length depends "
                     "on how many zeros the data holds, and shapes are "
                     "fixed while building (slice with indices computed "
                     "in Python, or mask with numpy.where)")
