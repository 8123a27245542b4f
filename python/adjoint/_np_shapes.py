"""numpy's stacking, splitting and axis-reordering functions in jitted code:
the atleast_*d family, hstack/vstack/dstack/column_stack/block/append,
unstack and h/v/dsplit, flips and rot90, roll, moveaxis/rollaxis/swapaxes,
permute_dims/matrix_transpose, copy and astype. All are reshapes,
transposes, slices, reverses and concats of adj, so their derivatives and
batching are those ops' own.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_core import transpose
from ._np_movement import _split, concatenate
from ._np_rounding import remainder
from ._np_support import (as_value, cast_to, iota, normalize_axes,
                          normalize_axis, ravel, to_dtype)


def _lifted(arys, rank, name):
    """Each array with ones added as numpy's atleast_{rank}d adds them: a
    0-d or 1-d array gets leading ones, a 2-d one (for rank 3) a trailing
    one, and a 1-d one for rank 3 is (1, N, 1)."""
    out = []
    for a in arys:
        x = as_value(a, name)
        s = list(x.shape)
        if len(s) < rank:
            if len(s) == 0:
                s = [1] * rank
            elif len(s) == 1:
                s = [1] + s + [1] * (rank - 2)
            else:
                s = s + [1] * (rank - len(s))
            x = _adj.reshape(x, s)
        out.append(x)
    return out


def _atleast(rank):
    name = "atleast_%dd" % rank

    def atleast(*arys):
        out = _lifted(arys, rank, name)
        return out[0] if len(out) == 1 else tuple(out)
    atleast.__name__ = atleast.__qualname__ = name
    atleast.__doc__ = ("The arrays with at least %d dimensions (one array, "
                       "or a tuple of them)." % rank)
    return atleast


atleast_1d, atleast_2d, atleast_3d = (_atleast(r) for r in (1, 2, 3))


def _sequence(tup, name):
    if isinstance(tup, Value):
        raise TypeError("adjoint.numpy.%s takes a sequence of arrays" % name)
    return list(tup)


def _joined(xs, axis, dtype, name):
    """concatenate of `xs` in their promoted dtype (or `dtype`)."""
    dtype = to_dtype(dtype, name)
    if dtype is None:
        for x in xs:
            dtype = x.dtype if dtype is None else _adj.promote_types(
                dtype, x.dtype)
    return concatenate([cast_to(x, dtype) for x in xs], axis)


def vstack(tup, *, dtype=None):
    return _joined(_lifted(_sequence(tup, "vstack"), 2, "vstack"), 0, dtype,
                   "vstack")


row_stack = vstack


def hstack(tup, *, dtype=None):
    xs = _lifted(_sequence(tup, "hstack"), 1, "hstack")
    return _joined(xs, 0 if xs and xs[0].rank == 1 else 1, dtype, "hstack")


def dstack(tup):
    return _joined(_lifted(_sequence(tup, "dstack"), 3, "dstack"), 2, None,
                   "dstack")


def column_stack(tup):
    """1-d arrays as columns, others as they are (at least 2-d)."""
    xs = []
    for a in _sequence(tup, "column_stack"):
        x = as_value(a, "column_stack")
        if x.rank < 2:
            x = _adj.reshape(x, [x.shape[0] if x.rank else 1, 1])
        xs.append(x)
    return _joined(xs, 1, None, "column_stack")


def block(arrays):
    """numpy's block: the innermost lists join along the last axis, the
    next ones along the one before, ...; arrays get leading ones up to the
    result's rank (the larger of the nesting depth and the arrays' rank)."""
    depth = _depth(arrays, ())
    leaves = []
    _leaves(arrays, leaves)
    rank = max([depth] + [as_value(x, "block").rank for x in leaves])

    def build(node, level):
        if level == depth:
            x = as_value(node, "block")
            return _adj.reshape(x, [1] * (rank - x.rank) + list(x.shape))
        parts = [build(n, level + 1) for n in node]
        return _joined(parts, rank - depth + level, None, "block")
    return build(arrays, 0)


def _depth(node, where):
    """The nesting depth of lists in `node` (the same for every leaf)."""
    if isinstance(node, tuple):
        raise TypeError("adjoint.numpy.block: %s is a tuple: only lists can "
                        "be used to arrange blocks" % _where(where))
    if not isinstance(node, list):
        return 0
    if not node:
        raise ValueError("adjoint.numpy.block: %s is an empty list"
                         % _where(where))
    depths = [_depth(n, where + (i,)) for i, n in enumerate(node)]
    if any(d != depths[0] for d in depths):
        raise ValueError("adjoint.numpy.block: list depths are mismatched "
                         "(at %s)" % _where(where))
    return depths[0] + 1


def _where(where):
    return "arrays" + "".join("[%d]" % i for i in where)


def _leaves(node, out):
    if isinstance(node, list):
        for n in node:
            _leaves(n, out)
    else:
        out.append(node)


def append(arr, values, axis=None):
    """arr and values joined (both flattened when `axis` is None)."""
    x, v = as_value(arr, "append"), as_value(values, "append")
    if axis is None:
        return _joined([ravel(x), ravel(v)], 0, None, "append")
    return _joined([x, v], axis, None, "append")


def unstack(x, /, *, axis=0):
    """The slices of x along `axis`, as a tuple."""
    x = as_value(x, "unstack")
    if x.rank == 0:
        raise ValueError("adjoint.numpy.unstack: input array must be at "
                         "least 1-d")
    ax = normalize_axis(axis, x.rank, "unstack")
    rest = [d for i, d in enumerate(x.shape) if i != ax]
    return tuple(_adj.reshape(part, rest) for part in
                 _split(x, x.shape[ax], ax, True, "unstack"))


def hsplit(ary, indices_or_sections):
    x = as_value(ary, "hsplit")
    if x.rank == 0:
        raise ValueError("adjoint.numpy.hsplit only works on arrays of 1 or "
                         "more dimensions")
    return _split(x, indices_or_sections, 1 if x.rank > 1 else 0, True,
                  "hsplit")


def vsplit(ary, indices_or_sections):
    x = as_value(ary, "vsplit")
    if x.rank < 2:
        raise ValueError("adjoint.numpy.vsplit only works on arrays of 2 or "
                         "more dimensions")
    return _split(x, indices_or_sections, 0, True, "vsplit")


def dsplit(ary, indices_or_sections):
    x = as_value(ary, "dsplit")
    if x.rank < 3:
        raise ValueError("adjoint.numpy.dsplit only works on arrays of 3 or "
                         "more dimensions")
    return _split(x, indices_or_sections, 2, True, "dsplit")


def flip(m, axis=None):
    """m reversed along `axis` (all axes when None): adj.reverse."""
    x = as_value(m, "flip")
    axes = normalize_axes(axis, x.rank, "flip")
    return _adj.reverse(x, axes) if axes else x


def fliplr(m):
    x = as_value(m, "fliplr")
    if x.rank < 2:
        raise ValueError("adjoint.numpy.fliplr: input must be >= 2-d")
    return _adj.reverse(x, [1])


def flipud(m):
    x = as_value(m, "flipud")
    if x.rank < 1:
        raise ValueError("adjoint.numpy.flipud: input must be >= 1-d")
    return _adj.reverse(x, [0])


def rot90(m, k=1, axes=(0, 1)):
    """m rotated k quarter turns from the first of `axes` to the second."""
    x = as_value(m, "rot90")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("adjoint.numpy.rot90: len(axes) must be 2")
    a0, a1 = (normalize_axis(a, x.rank, "rot90") for a in axes)
    if a0 == a1:
        raise ValueError("adjoint.numpy.rot90: axes must be different")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return _adj.reverse(x, [a0, a1])
    perm = list(range(x.rank))
    perm[a0], perm[a1] = a1, a0
    if k == 1:
        return _adj.transpose(_adj.reverse(x, [a1]), perm)
    return _adj.reverse(_adj.transpose(x, perm), [a1])


def roll(a, shift, axis=None):
    """a's elements shifted along axes (cyclically): two slices joined per
    axis. `shift` and `axis` may be ints or sequences (broadcast against
    each other, shifts of a repeated axis add up); with `axis` None the
    flattened array rolls. A traced scalar shift (JAX allows one) is a
    gather at (i - shift) mod n."""
    x = as_value(a, "roll")
    if axis is None:
        return _adj.reshape(roll(ravel(x), shift, 0), list(x.shape))
    if isinstance(shift, Value):
        return _roll_traced(x, shift, axis)
    shifts = _np.broadcast_arrays(_np.asarray(shift), _np.asarray(axis))
    total = {}
    for s, ax in zip(shifts[0].ravel(), shifts[1].ravel()):
        ax = normalize_axis(int(ax), x.rank, "roll")
        total[ax] = total.get(ax, 0) + int(s)
    for ax, s in total.items():
        n = x.shape[ax]
        s = s % n if n else 0
        if s:
            lo, hi = [0] * x.rank, list(x.shape)
            hi[ax] = n - s
            head = _adj.slice(x, lo, hi)
            lo[ax], hi[ax] = n - s, n
            x = _adj.concat([_adj.slice(x, lo, list(hi)), head], ax)
    return x


def _roll_traced(x, shift, axis):
    if shift.rank or shift.dtype.is_float or not isinstance(
            axis, (int, _np.integer)):
        raise TypeError("adjoint.numpy.roll: a traced shift must be an "
                        "integer scalar with one int axis")
    ax = normalize_axis(axis, x.rank, "roll")
    n = x.shape[ax]
    if n == 0:
        return x
    positions = iota(x.module, [n], 0) - cast_to(shift, DType.i64)
    return _adj.gather(x, remainder(positions, n), ax)


def moveaxis(a, source, destination):
    """a with the axes `source` moved to the positions `destination`."""
    x = as_value(a, "moveaxis")
    src = normalize_axes(source, x.rank, "moveaxis")
    dst = normalize_axes(destination, x.rank, "moveaxis")
    if len(src) != len(dst):
        raise ValueError("adjoint.numpy.moveaxis: `source` and "
                         "`destination` arguments must have the same number "
                         "of elements")
    perm = [d for d in range(x.rank) if d not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return _adj.transpose(x, perm) if perm != list(range(x.rank)) else x


def rollaxis(a, axis, start=0):
    """numpy's rollaxis: `axis` moved to lie before position `start`."""
    x = as_value(a, "rollaxis")
    n = x.rank
    ax = normalize_axis(axis, n, "rollaxis")
    if not -n <= start <= n:
        raise ValueError("adjoint.numpy.rollaxis: start %d is out of bounds "
                         "for an array of dimension %d" % (start, n))
    start = start + n if start < 0 else start
    if ax < start:
        start -= 1
    if ax == start:
        return x
    perm = [d for d in range(n) if d != ax]
    perm.insert(start, ax)
    return _adj.transpose(x, perm)


def swapaxes(a, axis1, axis2):
    x = as_value(a, "swapaxes")
    perm = list(range(x.rank))
    i, j = (normalize_axis(v, x.rank, "swapaxes") for v in (axis1, axis2))
    perm[i], perm[j] = perm[j], perm[i]
    return _adj.transpose(x, perm) if i != j else x


def permute_dims(a, /, axes=None):
    return transpose(a, axes)


def matrix_transpose(x, /):
    """The last two axes swapped (a stack of matrices transposed)."""
    x = as_value(x, "matrix_transpose")
    if x.rank < 2:
        raise ValueError("adjoint.numpy.matrix_transpose: x must be at least "
                         "two-dimensional, got %d dimensions" % x.rank)
    return swapaxes(x, -1, -2)


def copy(a):
    """a itself: arrays are immutable values, a copy is the same value."""
    return as_value(a, "copy")


def astype(x, dtype, /, *, copy=True, device=None):
    if device is not None:
        raise TypeError("adjoint.numpy.astype: device= is not supported in "
                        "jitted code (the jit's device= places the program)")
    x, dtype = as_value(x, "astype"), to_dtype(dtype, "astype")
    # numpy's astype keeps the real part of complex numbers.
    return x if x.dtype == dtype else _adj.cast(x, dtype, keep_real_part=True)


concat = concatenate
