"""numpy's joining, splitting, indexing and shape functions in jitted code:
concatenate, stack, split/array_split, take, take_along_axis, ravel,
expand_dims, squeeze. Indexing is adj.gather (whose adjoint is
scatter_add); negative indices count from the end, as in numpy.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_support import (as_value, cast_to, empty_part, iota,
                          normalize_axes, normalize_axis, ravel as _ravel,
                          size, stack_values, to_dtype)


def _values(xs, name):
    if isinstance(xs, Value):
        raise TypeError("adjoint.numpy.%s takes a sequence of arrays; to "
                        "split an array in rows, index it" % name)
    xs = [as_value(x, name) for x in xs]
    if not xs:
        raise ValueError("adjoint.numpy.%s: need at least one array" % name)
    return xs


def concatenate(arrays, axis=0, out=None, dtype=None):
    xs = _typed(arrays, out, dtype, "concatenate")
    if axis is None:
        return _adj.concat([_ravel(x) for x in xs], 0)
    if any(x.rank != xs[0].rank for x in xs):
        raise ValueError("adjoint.numpy.concatenate: all the arrays must "
                         "have the same number of dimensions")
    if xs[0].rank == 0:
        raise ValueError("adjoint.numpy.concatenate: zero-dimensional "
                         "arrays cannot be concatenated")
    return _adj.concat(xs, normalize_axis(axis, xs[0].rank, "concatenate"))


def _typed(arrays, out, dtype, name):
    """The arrays as Values of `dtype` (numpy's out= has no meaning for
    immutable values)."""
    if out is not None:
        raise TypeError("adjoint.numpy.%s: out= is not supported (arrays "
                        "are immutable values; use the result)" % name)
    dtype = to_dtype(dtype, name)
    return [cast_to(x, dtype) for x in _values(arrays, name)]


def expand_dims(a, axis):
    x = as_value(a, "expand_dims")
    shape = list(x.shape)
    axes = normalize_axes(axis, len(shape) + (
        len(axis) if isinstance(axis, (tuple, list)) else 1), "expand_dims")
    for ax in sorted(axes):
        shape.insert(ax, 1)
    return _adj.reshape(x, shape)


def squeeze(a, axis=None):
    x = as_value(a, "squeeze")
    shape = list(x.shape)
    if axis is None:
        return _adj.reshape(x, [d for d in shape if d != 1])
    axes = normalize_axes(axis, len(shape), "squeeze")
    if any(shape[ax] != 1 for ax in axes):
        raise ValueError("adjoint.numpy.squeeze: cannot select an axis to "
                         "squeeze out which has size not equal to one")
    return _adj.reshape(x, [d for i, d in enumerate(shape) if i not in axes])


def stack(arrays, axis=0, out=None, dtype=None):
    # The joining is _np_support's, which as_value uses for lists of tensors.
    return stack_values(_typed(arrays, out, dtype, "stack"), axis)


def ravel(a):
    return _ravel(as_value(a, "ravel"))


def _split(ary, indices_or_sections, axis, equal, name):
    x = as_value(ary, name)
    ax = normalize_axis(axis, x.rank, name)
    n = x.shape[ax]
    if isinstance(indices_or_sections, (int, _np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("adjoint.numpy.%s: number sections must be "
                             "larger than 0" % name)
        if equal and n % sections:
            raise ValueError("adjoint.numpy.split: array split does not "
                             "result in an equal division")
        each, extra = divmod(n, sections)
        bounds = [0]
        for i in range(sections):
            bounds.append(bounds[-1] + each + (1 if i < extra else 0))
    else:
        if isinstance(indices_or_sections, Value):
            raise TypeError("adjoint.numpy.%s: the split indices must be "
                            "known while building" % name)
        bounds = [0] + [int(i) for i in indices_or_sections] + [n]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        # Python's slice rules: negative indices count from the end.
        lo, hi, _ = slice(lo, hi).indices(n)
        hi = max(lo, hi)
        start, limit = [0] * x.rank, list(x.shape)
        start[ax], limit[ax] = lo, hi
        if lo == hi:
            limit[ax] = 0
            out.append(empty_part(x, limit))
        else:
            out.append(_adj.slice(x, start, limit))
    return out


def split(ary, indices_or_sections, axis=0):
    return _split(ary, indices_or_sections, axis, True, "split")


def array_split(ary, indices_or_sections, axis=0):
    return _split(ary, indices_or_sections, axis, False, "array_split")


def _indices(indices, n, name):
    """Integer indices as an i64 Value in [0, n) (negative ones wrapped)."""
    idx = as_value(indices, name)
    if idx.dtype.is_float or idx.dtype == DType.i1:
        raise TypeError("adjoint.numpy.%s: indices must be integers" % name)
    idx = cast_to(idx, DType.i64)
    return _adj.select(idx < 0.0, idx + float(n), idx)


def take(a, indices, axis=None, out=None, mode="raise"):
    """a's elements (or slices along `axis`) at `indices`."""
    if out is not None:
        raise TypeError("adjoint.numpy.take: out= is not supported (arrays "
                        "are immutable values; use the result)")
    if mode != "raise":
        raise ValueError("adjoint.numpy.take: mode=%r is not supported "
                         "(only 'raise')" % (mode,))
    x = as_value(a, "take")
    if axis is None:
        x, axis = _ravel(x), 0
    ax = normalize_axis(axis, x.rank, "take")
    return _adj.gather(x, _indices(indices, x.shape[ax], "take"), ax)


def take_along_axis(arr, indices, axis=-1):
    """``out[..., j, ...] = arr[..., indices[..., j, ...], ...]`` along
    `axis` (the other dimensions broadcast): one gather from the flattened
    array at the row-major offsets."""
    x = as_value(arr, "take_along_axis")
    if axis is None:
        x, axis = _ravel(x), 0
    idx = as_value(indices, "take_along_axis")
    if idx.rank != x.rank:
        raise ValueError("adjoint.numpy.take_along_axis: indices and arr "
                         "must have the same number of dimensions")
    ax = normalize_axis(axis, x.rank, "take_along_axis")
    out_shape = []
    for d, (n, m) in enumerate(zip(x.shape, idx.shape)):
        if d == ax or n == m or n == 1 or m == 1:
            out_shape.append(m if d == ax or n == 1 else n)
        else:
            raise ValueError("adjoint.numpy.take_along_axis: shape mismatch "
                             "in dimension %d (%d and %d)" % (d, n, m))
    idx = _indices(idx, x.shape[ax], "take_along_axis")
    if list(idx.shape) != out_shape:
        idx = _adj.broadcast_to(idx, out_shape)
    offset = idx * float(size(x.shape[ax + 1:]))
    for d in range(x.rank):
        if d != ax and x.shape[d] != 1:
            offset = offset + iota(x.module, out_shape, d) * float(
                size(x.shape[d + 1:]))
    return _adj.gather(_ravel(x), offset, 0)
