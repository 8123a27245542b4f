"""numpy's r_ and c_ on traced arrays: ``np.r_[x, 0.0, 1:4]`` concatenates
arrays, numbers and slices (aranges; a complex step ``a:b:5j`` is a
linspace) along an axis, after numpy's string directive ('0,2,0': axis,
minimum rank, where an array's own axes go). The matrix directives 'r' and
'c' make numpy.matrix objects and are not supported.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value
from ._np_creation import arange, linspace
from ._np_support import as_value, cast_to, float_dtype, normalize_axis
from ._trees import _flatten


class _Concatenator:
    def __init__(self, axis, ndmin, trans1d, name):
        self.axis, self.ndmin, self.trans1d, self.name = (axis, ndmin,
                                                          trans1d, name)

    def __getitem__(self, key):
        return _concatenate(key if isinstance(key, tuple) else (key,),
                            self.axis, self.ndmin, self.trans1d, self.name)


r_ = _Concatenator(0, 1, -1, "r_")
c_ = _Concatenator(-1, 2, 0, "c_")

_NUMPY = {type(_np.r_): r_, type(_np.c_): c_}


def for_numpy(obj, key):
    """adjoint's r_/c_ for numpy's object `obj` when its `key` holds a
    traced array (numpy's would make an object array of it), else None."""
    mine = _NUMPY.get(type(obj))
    if mine is None:
        return None
    leaves = []
    _flatten(key, leaves)
    if not any(isinstance(l, Value) for l in leaves):
        return None
    return mine


def _directive(item, axis, ndmin, trans1d, name):
    if item in ("r", "c"):
        raise ValueError("adjoint.numpy.%s: the matrix directives 'r' and "
                         "'c' are not supported (they make numpy.matrix)"
                         % name)
    try:
        parts = [int(p) for p in item.split(",")]
    except ValueError:
        raise ValueError("adjoint.numpy.%s: unknown special directive %r"
                         % (name, item)) from None
    if len(parts) > 3:
        raise ValueError("adjoint.numpy.%s: unknown special directive %r"
                         % (name, item))
    return tuple(parts + [ndmin, trans1d][len(parts) - 1:])


def _range(item):
    start = 0 if item.start is None else item.start
    step = 1 if item.step is None else item.step
    if isinstance(step, complex):
        return linspace(start, item.stop, num=int(abs(step)))
    return arange(start, item.stop, step)


def _lift(x, ndmin, trans1d, was_range):
    """x with ones prepended up to `ndmin` axes, its own axes moved to
    `trans1d` as numpy does (a range's single axis is swapped there)."""
    rank = x.rank
    if rank >= ndmin:
        return x
    x = _adj.reshape(x, [1] * (ndmin - rank) + list(x.shape))
    if trans1d == -1:
        return x
    if was_range:
        perm = list(range(ndmin))
        t = trans1d % ndmin
        perm[-1], perm[t] = perm[t], perm[-1]
        return _adj.transpose(x, perm)
    k2, k1 = ndmin - rank, trans1d
    if k1 < 0:
        k1 += k2 + 1
    axes = list(range(ndmin))
    return _adj.transpose(x, axes[:k1] + axes[k2:] + axes[k1:k2])


def _concatenate(key, axis, ndmin, trans1d, name):
    parts = []   # (Value or number, is_scalar)
    for k, item in enumerate(key):
        if isinstance(item, str):
            if k:
                raise ValueError("adjoint.numpy.%s: special directives must "
                                 "be the first entry" % name)
            axis, ndmin, trans1d = _directive(item, axis, ndmin, trans1d,
                                              name)
        elif isinstance(item, slice):
            parts.append((_lift(_range(item), ndmin, trans1d, True), False))
        elif isinstance(item, (bool, int, float, _np.number, _np.bool_)):
            parts.append((item, True))
        else:
            x = as_value(item, name)
            parts.append((_lift(x, ndmin, trans1d, False), False))
    if not parts:
        raise ValueError("adjoint.numpy.%s: nothing to concatenate" % name)
    dtype = _common_dtype(parts)
    values = []
    for x, scalar in parts:
        if scalar:
            x = _scalar(x, dtype, ndmin, name)
        values.append(cast_to(x, dtype))
    rank = values[0].rank
    return _adj.concat(values, normalize_axis(axis, rank, name))


def _scalar(x, dtype, ndmin, name):
    v = cast_to(as_value(x, name), dtype)
    return _adj.reshape(v, [1] * max(ndmin, 1))


def _common_dtype(parts):
    """numpy's result type: the arrays' promoted dtype, unless a number is
    of a higher kind (a float among integer arrays is the float dtype)."""
    arrays = [x.dtype for x, scalar in parts if not scalar]
    dtype = None
    for d in arrays:
        dtype = d if dtype is None else _adj.promote_types(dtype, d)
    numbers = [x for x, scalar in parts if scalar]
    if dtype is None or (not dtype.is_float and any(
            isinstance(n, (float, _np.floating)) for n in numbers)):
        kinds = [as_value(n, "r_").dtype for n in numbers]
        for d in kinds:
            dtype = d if dtype is None or (d.is_float and not dtype.is_float) \
                else dtype
        if dtype is not None and dtype.is_float:
            dtype = float_dtype()
    return dtype
