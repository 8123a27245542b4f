"""numpy's indexing and array methods on Values, for jitted code.

``x[1, :, ::2]``, ``x[..., None]``, ``x[-1]`` become one adj.slice and a
reshape; one tensor of integer indices among slices becomes adj.gather
along its axis. Every other form (negative steps, x[i:i + k] with a traced
i, several index arrays, build-time boolean masks) and every x.at[idx]
update is one gather or scatter on a flattened view (_index_plan).
``x.sum(axis=0)``, ``x.reshape(2, -1)``, ``x.T``, ``x.shape``... are the
adjoint functions.

The methods are adjoint.numpy's functions, imported from the family
modules that define them: this module is the translator's (its
expressions), below adjoint.numpy and above the family modules.
"""

import numpy as _np

from . import _adjoint as _adj
from . import _index_plan
from . import _np_reductions as _reductions
from ._adjoint import DType, Value
from ._np_contraction import dot
from ._np_core import ravel, reshaped, std, var
from ._np_diagonals import diagonal, trace
from ._np_elementwise import clip
from ._np_index_functions import choose
from ._np_movement import squeeze, take
from ._np_nonzero import compress, nonzero
from ._np_resizing import repeat
from ._np_shapes import swapaxes
from ._np_sorting import argsort
from ._np_support import empty_part
from ._source import _NP_TO_ADJ
from ._tensor import numpy_dtype


def _simple(idx):
    """Whether slicing then one gather along an axis reads x[idx]: static
    slices of positive step, None, Ellipsis, and either ints or one
    integer tensor (with ints, numpy's placement of the tensor's axes
    differs)."""
    tensors = [i for i in idx if isinstance(i, Value)]
    for i in idx:
        if isinstance(i, (_np.ndarray, list, _index_plan.DynamicSlice)):
            return False
        if isinstance(i, slice) and (
                any(isinstance(p, Value) for p in (i.start, i.stop, i.step))
                or (i.step is not None and i.step < 0)):
            return False
    if not tensors:
        return True
    ints = any(isinstance(i, (int, _np.integer)) and
               not isinstance(i, bool) for i in idx)
    return len(tensors) == 1 and tensors[0].dtype != DType.i1 and not ints


def getitem(x, idx):
    """x[idx] with numpy's semantics; a traced boolean mask is an error
    (its result's shape would depend on the data)."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    if not _simple(idx):
        return _index_plan.gather(x, idx)
    used = sum(1 for i in idx if i is not None and i is not Ellipsis)
    if sum(1 for i in idx if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis")
    if used > x.rank:
        raise IndexError("too many indices for a tensor of rank %d" % x.rank)
    expanded = []
    for i in idx:
        if i is Ellipsis:
            expanded += [slice(None)] * (x.rank - used)
        else:
            expanded.append(i)
    consumed = sum(1 for i in expanded if i is not None)
    expanded += [slice(None)] * (x.rank - consumed)
    shape = list(x.shape)
    start, limit, stride, out_shape = [], [], [], []
    gathers = []   # (axis in the sliced result, index Value)
    dim = 0
    for i in expanded:
        if i is None:
            out_shape.append(1)
            continue
        n = shape[dim]
        if isinstance(i, Value):
            if i.dtype not in (DType.i64, DType.i32):
                raise IndexError("tensor indices must be integers")
            start.append(0), limit.append(n), stride.append(1)
            gathers.append((len(out_shape), i))
            out_shape.append(n)
        elif isinstance(i, slice):
            s, e, st = i.indices(n)
            count = max(0, (e - s + st - 1) // st)
            start.append(s), limit.append(s + (count - 1) * st + 1 if count
                                          else s)
            stride.append(st)
            out_shape.append(count)
        else:
            k = int(i)
            if not -n <= k < n:
                raise IndexError("index %d is out of bounds for axis %d of "
                                 "size %d" % (k, dim, n))
            k %= n
            start.append(k), limit.append(k + 1), stride.append(1)
        dim += 1
    sliced = x
    if any(l == b for b, l in zip(start, limit)):
        sliced = empty_part(x, [l - b for b, l in zip(start, limit)])
    elif start != [0] * len(shape) or limit != shape or \
            any(s != 1 for s in stride):
        sliced = _adj.slice(x, start, limit, stride)
    out = sliced
    if list(out.shape) != out_shape:
        out = _adj.reshape(out, out_shape)
    for axis, index in gathers:
        index = _index_plan.wrap_index(index, out.shape[axis])
        out = _adj.gather(out, index, axis)
    return out


class _AtIndex:
    """x.at[idx]: JAX's functional updates of the elements x[idx]."""

    def __init__(self, x, idx):
        self.x, self.idx = x, idx

    def _mask(self):
        idx = self.idx[0] if isinstance(self.idx, tuple) and \
            len(self.idx) == 1 else self.idx
        if isinstance(idx, Value) and idx.dtype == DType.i1:
            return idx
        return None

    def _update(self, mode, v, kwargs):
        for k in kwargs:
            if k not in ("indices_are_sorted", "unique_indices", "mode"):
                raise TypeError("x.at[...].%s() got an unexpected keyword "
                                "argument '%s'" % (mode, k))
        mask = self._mask()
        if mask is not None:
            return _index_plan.masked(mode, self.x, mask, v)
        return _index_plan.scatter(mode, self.x, self.idx, v)

    def get(self, **kwargs):
        return getitem(self.x, self.idx)

    def set(self, v, **kwargs):
        return self._update("set", v, kwargs)

    def add(self, v, **kwargs):
        return self._update("add", v, kwargs)

    def mul(self, v, **kwargs):
        return self._update("mul", v, kwargs)

    def multiply(self, v, **kwargs):
        return self._update("mul", v, kwargs)

    def min(self, v, **kwargs):
        return self._update("min", v, kwargs)

    def max(self, v, **kwargs):
        return self._update("max", v, kwargs)


class _At:
    """x.at, indexed to give an _AtIndex."""

    def __init__(self, x):
        self.x = x

    def __getitem__(self, idx):
        return _AtIndex(self.x, idx)


def _transpose(x, *axes):
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    return _adj.transpose(x, list(axes)) if axes else _adj.transpose(x)


def _astype(x, dtype):
    if not isinstance(dtype, DType):
        dtype = _NP_TO_ADJ[_np.dtype(dtype)]
    # numpy's astype keeps the real part of complex numbers.
    return _adj.cast(x, dtype, keep_real_part=True)


def _size(x):
    n = 1
    for d in x.shape:
        n *= d
    return n


def _method(fn):
    """x.name(...) as adjoint.numpy.name(x, ...), `fn` being that
    function."""
    def bind(x):
        return lambda *args, **kwargs: fn(x, *args, **kwargs)
    return bind


def _sort_in_place(x):
    raise TypeError("x.sort() sorts in place, which jitted code cannot "
                    "do: use y = numpy.sort(x)")


_METHODS = {
    "reshape": lambda x: lambda *shape: reshaped(x, *shape),
    "transpose": lambda x: lambda *axes: _transpose(x, *axes),
    "astype": lambda x: lambda dtype: _astype(x, dtype),
    "flatten": _method(ravel),
    "copy": lambda x: lambda: x,
    "sort": _sort_in_place,
    "T": lambda x: _adj.transpose(x),
    "at": _At,
    "ndim": lambda x: x.rank,
    "size": _size,
    # numpy's dtype, as JAX shows it (the builder's Value has a DType), so
    # that `x.dtype == np.float32` and `np.finfo(x.dtype)` mean what they
    # say; `shape` is the Value's own, a tuple.
    "dtype": lambda x: numpy_dtype(x.dtype),
    "itemsize": lambda x: numpy_dtype(x.dtype).itemsize,
    "nbytes": lambda x: _size(x) * numpy_dtype(x.dtype).itemsize,
}
for _name, _fn in (
        ("sum", _reductions.sum), ("mean", _reductions.mean),
        ("max", _reductions.amax), ("min", _reductions.amin),
        ("prod", _reductions.prod), ("any", _reductions.any),
        ("all", _reductions.all), ("argmax", _reductions.argmax),
        ("argmin", _reductions.argmin), ("cumsum", _reductions.cumsum),
        ("cumprod", _reductions.cumprod), ("clip", clip), ("var", var),
        ("std", std), ("take", take), ("ravel", ravel), ("squeeze", squeeze),
        ("argsort", argsort), ("dot", dot), ("swapaxes", swapaxes),
        ("repeat", repeat), ("diagonal", diagonal), ("trace", trace),
        ("nonzero", nonzero), ("choose", choose)):
    _METHODS.setdefault(_name, _method(_fn))


def _compress(x):
    """x.compress(condition, axis): x is numpy.compress's second argument."""
    def bound(condition, *args, **kwargs):
        return compress(condition, x, *args, **kwargs)
    return bound


_METHODS.setdefault("compress", _compress)

#: The Value's own attributes (the builder's).
_OWN = ("type", "shape", "rank", "module", "is_")


def attribute(x, name):
    """The numpy-named attribute `name` of the Value `x`."""
    fn = _METHODS.get(name)
    if fn is not None:
        return fn(x)
    if name in _OWN or name.startswith("__"):
        return getattr(x, name)
    raise AttributeError("the array attribute or method '%s' is not "
                         "supported in jitted code (docs/python.md lists "
                         "those that are)" % name)
