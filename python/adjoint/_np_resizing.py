"""numpy's functions that change an array's length along axes in jitted
code: repeat, tile, resize, delete, insert, broadcast_arrays and
broadcast_shapes. The positions read are known while building, so each is
a broadcast and reshape, or one adj.gather at constant indices (whose
adjoint, scatter_add, sums the copies' sensitivities).
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_support import as_value, cast_to, normalize_axis, ravel, size


def index_constant(module, positions):
    """Static integer positions as an i64 constant of `module`."""
    a = _np.asarray(positions, _np.int64)
    return _adj.constant(module, a.astype(_np.float64), list(a.shape),
                         DType.i64)


def gather_static(x, positions, axis):
    """x's slices along `axis` at the static `positions` (empty ones are a
    fill: no element is read)."""
    positions = _np.asarray(positions, _np.int64)
    if positions.size == 0:
        shape = list(x.shape)
        shape[axis:axis + 1] = list(positions.shape)
        return _adj.fill(x.module, 0.0, shape, x.dtype)
    return _adj.gather(x, index_constant(x.module, positions), axis)


def _static_ints(v, name, what):
    if isinstance(v, Value):
        raise TypeError("adjoint.numpy.%s: %s must be known while building "
                        "(the result's shape depends on it)" % (name, what))
    a = _np.asarray(v)
    if a.dtype.kind not in "iub":
        raise TypeError("adjoint.numpy.%s: %s must be integers" % (name, what))
    return a


def repeat(a, repeats, axis=None, *, total_repeat_length=None):
    """Each element (each slice along `axis`; of the flattened array when
    None) repeated `repeats` times, or repeats[i] times for element i."""
    x = as_value(a, "repeat")
    r = _static_ints(repeats, "repeat", "repeats")
    if axis is None:
        x, axis = ravel(x), 0
    ax = normalize_axis(axis, x.rank, "repeat")
    n = x.shape[ax]
    if (r < 0).any():
        raise ValueError("adjoint.numpy.repeat: negative dimensions are not "
                         "allowed")
    if r.ndim > 1 or (r.ndim == 1 and r.size not in (1, n)):
        raise ValueError("adjoint.numpy.repeat: operands could not be "
                         "broadcast together with shape (%d,) (%s,)"
                         % (n, ",".join(map(str, r.shape))))
    positions = _np.repeat(_np.arange(n), _np.broadcast_to(r.ravel(), (n,))
                           if r.ndim else int(r))
    if total_repeat_length is not None:
        # JAX's form: cut or extended with the last element.
        k = int(total_repeat_length)
        positions = positions[:k]
        if len(positions) < k:
            positions = _np.concatenate(
                [positions, _np.full(k - len(positions),
                                     positions[-1] if len(positions) else 0)])
    return gather_static(x, positions, ax)


def tile(A, reps):
    """A repeated along each axis: reps padded with ones to A's rank (or A
    given leading ones to reps' length), then a broadcast of A with a new
    axis before each of its own, folded into it."""
    x = as_value(A, "tile")
    reps = [int(r) for r in _np.atleast_1d(_static_ints(reps, "tile",
                                                        "reps"))]
    if any(r < 0 for r in reps):
        raise ValueError("adjoint.numpy.tile: negative dimensions are not "
                         "allowed")
    rank = max(len(reps), x.rank)
    reps = [1] * (rank - len(reps)) + reps
    shape = [1] * (rank - x.rank) + list(x.shape)
    out = [r * d for r, d in zip(reps, shape)]
    if size(out) == 0:
        return _adj.fill(x.module, 0.0, out, x.dtype)
    spread = []
    for r, d in zip(reps, shape):
        spread += [r, d]
    x = _adj.reshape(x, [v for d in shape for v in (1, d)])
    return _adj.reshape(_adj.broadcast_to(x, spread), out)


def resize(a, new_shape):
    """The flattened array repeated cyclically to fill `new_shape`."""
    x = ravel(as_value(a, "resize"))
    shape = [int(d) for d in _np.atleast_1d(_static_ints(
        new_shape, "resize", "new_shape"))]
    if any(d < 0 for d in shape):
        raise ValueError("adjoint.numpy.resize: all elements of `new_shape` "
                         "must be non-negative")
    total, n = size(shape), x.shape[0]
    if n == 0 or total == 0:
        return _adj.fill(x.module, 0.0, shape, x.dtype)
    return _adj.reshape(gather_static(x, _np.arange(total) % n, 0), shape)


def _flat_axis(x, axis, name):
    if axis is None:
        return ravel(x), 0
    return x, normalize_axis(axis, x.rank, name)


def delete(arr, obj, axis=None, *, assume_unique_indices=False):
    """arr without the slices at `obj` (an int, a slice, a sequence of ints
    or a boolean mask, known while building) along `axis`."""
    x, ax = _flat_axis(as_value(arr, "delete"), axis, "delete")
    n = x.shape[ax]
    keep = _np.ones(n, bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        o = _static_ints(obj, "delete", "the indices")
        if o.dtype.kind == "b":
            if o.shape != (n,):
                raise ValueError("adjoint.numpy.delete: boolean array "
                                 "argument obj to delete must be one "
                                 "dimensional and match the axis length of "
                                 "%d" % n)
            keep = ~o
        else:
            if ((o < -n) | (o >= n)).any():
                raise IndexError("adjoint.numpy.delete: index out of bounds "
                                 "for axis %d with size %d" % (ax, n))
            keep[o] = False
    return gather_static(x, _np.nonzero(keep)[0], ax)


def insert(arr, obj, values, axis=None):
    """arr with `values` inserted before the indices `obj` (known while
    building) along `axis`, as numpy does: a scalar index inserts all of
    `values` there (its first axis turned to `axis`), a sequence one slice
    before each index. arr and the values broadcast to the slots' shape are
    joined, then one gather puts every slice in its place."""
    x, ax = _flat_axis(as_value(arr, "insert"), axis, "insert")
    n = x.shape[ax]
    if isinstance(obj, slice):
        obj = _np.arange(*obj.indices(n))
    idx = _static_ints(obj, "insert", "the indices")
    if idx.dtype.kind == "b":
        raise TypeError("adjoint.numpy.insert: a boolean obj is not "
                        "supported (pass integer indices)")
    if idx.ndim > 1:
        raise ValueError("adjoint.numpy.insert: index array argument obj to "
                         "insert must be one dimensional or scalar")
    if ((idx < -n) | (idx > n)).any():
        raise IndexError("adjoint.numpy.insert: index out of bounds for axis "
                         "%d with size %d" % (ax, n))
    idx = _np.where(idx < 0, idx + n, idx)
    v = cast_to(as_value(values, "insert", like=x), x.dtype)
    if idx.size == 1:
        if v.rank < x.rank:
            v = _adj.reshape(v, [1] * (x.rank - v.rank) + list(v.shape))
        if idx.ndim == 0:
            perm = list(range(1, v.rank))
            perm.insert(ax, 0)
            v = _adj.transpose(v, perm)
        count, at = v.shape[ax], [int(idx.ravel()[0])] * v.shape[ax]
    else:
        count, at = idx.size, list(idx)
    slots = list(x.shape)
    slots[ax] = count
    v = _broadcast(v, slots, "insert")
    # Stable by index: values for the same index keep their order.
    order = sorted(range(count), key=lambda k: at[k])
    new_pos = _np.empty(count, _np.int64)
    for shift, k in enumerate(order):
        new_pos[k] = at[k] + shift
    source = _np.empty(n + count, _np.int64)
    taken = _np.zeros(n + count, bool)
    source[new_pos] = n + _np.arange(count)
    taken[new_pos] = True
    source[~taken] = _np.arange(n)
    return gather_static(_adj.concat([x, v], ax), source, ax)


def _broadcast(x, shape, name):
    """x broadcast to `shape` with numpy's rules (leading ones added)."""
    shape = list(shape)
    extra = x.rank - len(shape)
    if extra > 0 and all(d == 1 for d in x.shape[:extra]):
        x = _adj.reshape(x, list(x.shape)[extra:])
    try:
        ok = list(_np.broadcast_shapes(tuple(x.shape), tuple(shape))) == shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError("adjoint.numpy.%s: could not broadcast shape %s to "
                         "%s" % (name, tuple(x.shape), tuple(shape)))
    if list(x.shape) == shape:
        return x
    return _adj.broadcast_to(x, shape)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (numpy's rules)."""
    return _np.broadcast_shapes(*shapes)


def broadcast_arrays(*args):
    """The arrays broadcast to their common shape (a tuple, as numpy 2)."""
    xs = [as_value(a, "broadcast_arrays") for a in args]
    try:
        shape = _np.broadcast_shapes(*(tuple(x.shape) for x in xs))
    except ValueError as e:
        raise ValueError("adjoint.numpy.broadcast_arrays: %s" % e) from None
    return tuple(x if tuple(x.shape) == shape else
                 _adj.broadcast_to(x, list(shape)) for x in xs)
