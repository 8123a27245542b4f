"""numpy's functions whose result's length is the count of true (non-zero)
elements: nonzero, flatnonzero, argwhere, extract, compress. With a
traced condition that length depends on the data, so, as in JAX, the
caller gives it with `size=` (results padded with `fill_value`, or cut);
without it the call is an error naming the function. A condition known
while building (a Python list) needs no size.

The positions are compacted in one scatter: the k-th true element's
running count is its slot, the others go to a slot past the end that is
cut off.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_elementwise import where
from ._np_movement import stack
from ._np_reductions import cumsum
from ._np_resizing import gather_static
from ._np_rounding import floor_divide, remainder
from ._np_support import (as_value, cast_to, iota, normalize_axis, ravel,
                          size as _size, truth)


def _need_size(name):
    return ValueError(
        "adjoint.numpy.%s: the result's shape depends on the data of a "
        "traced array; pass size= (JAX's form: the result is padded with "
        "fill_value or cut to that length)" % name)


def _sources(mask, size):
    """For a flat i1 mask, the i64 positions of its first `size` true
    elements in order, -1 where there are fewer."""
    n = mask.shape[0]
    count = cumsum(_adj.cast(mask, DType.i64))
    slot = _adj.select(mask, count - 1.0, float(size))
    slot = _adj.select(slot > float(size), float(size), slot)
    if n == 0 or size == 0:
        return _adj.fill(mask.module, -1.0, [size], DType.i64)
    empty = _adj.fill(mask.module, -1.0, [size + 1], DType.i64)
    out = _adj.scatter("set", empty, slot, iota(mask.module, [n], 0), 0)
    return _adj.slice(out, [0], [size])


def _fills(fill_value, count, name):
    if fill_value is None:
        return [0] * count
    if isinstance(fill_value, (tuple, list)):
        if len(fill_value) != count:
            raise ValueError("adjoint.numpy.%s: fill_value must be a scalar "
                             "or a tuple of length %d" % (name, count))
        return list(fill_value)
    return [fill_value] * count


def nonzero(a, *, size=None, fill_value=None):
    """The coordinate arrays of a's non-zero elements (the first `size`,
    padded with `fill_value`)."""
    x = as_value(a, "nonzero")
    if x.rank == 0:
        raise ValueError("adjoint.numpy.nonzero: calling nonzero on 0d "
                         "arrays is not allowed; use atleast_1d first")
    if size is None:
        raise _need_size("nonzero")
    src = _sources(ravel(truth(x)) if x.dtype != DType.i1 else ravel(x),
                   int(size))
    valid = src >= 0.0
    out, stride = [], _size(x.shape)
    for d, fill in zip(x.shape, _fills(fill_value, x.rank, "nonzero")):
        stride //= d
        coord = remainder(floor_divide(src, stride), d) if d else src
        out.append(cast_to(where(valid, coord, fill), DType.i64))
    return tuple(out)


def flatnonzero(a, *, size=None, fill_value=None):
    x = as_value(a, "flatnonzero")
    if size is None:
        raise _need_size("flatnonzero")
    return nonzero(ravel(x), size=size, fill_value=fill_value)[0]


def argwhere(a, *, size=None, fill_value=None):
    """The coordinates of a's non-zero elements, one row each."""
    x = as_value(a, "argwhere")
    if size is None:
        raise _need_size("argwhere")
    if x.rank == 0:
        # numpy's coordinates of a 0-d array have no columns.
        return _adj.fill(x.module, 0.0, [int(size), 0], DType.i64)
    return stack(nonzero(x, size=size, fill_value=fill_value), axis=1)


def compress(condition, a, axis=None, *, size=None, fill_value=0, out=None):
    """The slices of a (flattened when `axis` is None) where the 1-d
    `condition` is true."""
    if out is not None:
        raise TypeError("adjoint.numpy.compress: out= is not supported "
                        "(arrays are immutable values; use the result)")
    x = as_value(a, "compress")
    if axis is None:
        x, axis = ravel(x), 0
    ax = normalize_axis(axis, x.rank, "compress")
    n = x.shape[ax]
    if not isinstance(condition, Value):
        keep = _np.asarray(condition).astype(bool)
        if keep.ndim != 1:
            raise ValueError("adjoint.numpy.compress: condition must be a "
                             "1-d array")
        if keep[n:].any():
            raise IndexError("adjoint.numpy.compress: condition has true "
                             "entries beyond the axis length %d" % n)
        pos = _np.nonzero(keep[:n])[0]
        if size is None:
            return gather_static(x, pos, ax)
        condition = as_value(_np.concatenate(
            [keep[:n], _np.zeros(max(0, n - len(keep)), bool)]), "compress")
    cond = truth(as_value(condition, "compress"))
    if cond.rank != 1:
        raise ValueError("adjoint.numpy.compress: condition must be a 1-d "
                         "array")
    if size is None:
        raise _need_size("compress")
    m = cond.shape[0]
    if m > n:
        cond = _adj.slice(cond, [0], [n])
    elif m < n:
        cond = _adj.concat([cond, _adj.fill(x.module, 0.0, [n - m],
                                            DType.i1)], 0)
    src = _sources(cond, int(size))
    taken = _adj.gather(x, _adj.select(src < 0.0, 0.0, src), ax) \
        if n else _adj.fill(x.module, 0.0, _with(x.shape, ax, int(size)),
                            x.dtype)
    shape = [1] * x.rank
    shape[ax] = int(size)
    valid = _adj.reshape(src >= 0.0, shape)
    fill = cast_to(as_value(fill_value, "compress", like=x), x.dtype)
    return where(valid, taken, fill)


def _with(shape, axis, n):
    shape = list(shape)
    shape[axis] = n
    return shape


def extract(condition, arr, *, size=None, fill_value=0):
    """The elements of arr where condition (flattened) is true."""
    cond = ravel(condition) if isinstance(condition, Value) else \
        _np.ravel(condition)
    return compress(cond, ravel(as_value(arr, "extract")), size=size,
                    fill_value=fill_value)
