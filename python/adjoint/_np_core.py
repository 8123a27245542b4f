"""adjoint.numpy's functions over adj's own tensor ops, for jitted code:
exp, log, tanh, sqrt, sin, cos, erf and sigmoid (integers computed as
floats), power, var and std, reshape, transpose and ravel, asarray and its
spellings, and the queries shape, ndim and size (numpy's answers for numpy
arrays outside jitted code). With the ops adjoint.numpy takes from the
extension as they are (abs, sign, broadcast_to, ...), they are the family
"core tensor functions" of docs/python.md's table (_np_registry).

numpy.py defined them itself; they are here because modules below
adjoint.numpy use some of them (never adjoint.numpy itself): _np_shapes
(transpose), _np_polynomials (reshape) and the array methods of Values
(_indexing: x.var(), x.ravel(), x.reshape(2, -1)).
"""

import operator

import numpy as _np

from . import _adjoint as _adj
from ._np_elementwise import float_function
from ._np_movement import ravel as _ravel
from ._np_rounding import _no_out
from ._np_support import (_TRANSLATOR, as_value, binop, cast_to,
                          float_dtype, normalize_axes, normalize_axis,
                          size as _size, to_dtype)

exp, log, tanh, sqrt, sin, cos = (
    float_function(getattr(_adj, name), name, complex_ok=True)
    for name in ("exp", "log", "tanh", "sqrt", "sin", "cos"))
erf, sigmoid = (float_function(getattr(_adj, name), name)
                for name in ("erf", "sigmoid"))


def power(x1, x2):
    """x1 ** x2 with the front end's operand rules (either may be a
    number)."""
    return binop(operator.pow, x1, x2)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        correction=None):
    """The mean squared deviation, divided by N - ddof (numpy 2's
    `correction` is another name for ddof)."""
    _no_out(out, "var")
    if correction is not None:
        ddof = correction
    x = cast_to(as_value(a, "var"), to_dtype(dtype, "var"))
    if not x.dtype.is_inexact:
        x = _adj.cast(x, float_dtype())
    n = _size([x.shape[i] for i in normalize_axes(axis, x.rank, "var")])
    d = x - _adj.mean(x, axis, True)
    if d.dtype.is_complex:  # |d|^2, real, as numpy's var of complex data
        d = _adj.abs(d)
    dof = n - ddof if n > ddof else 0  # numpy's max(N - ddof, 0)
    return _adj.sum(d * d, axis, keepdims) / float(dof)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        correction=None):
    """sqrt(var), whose derivative is 0 where the deviation is 0: over a
    size-1 axis std is constant (0) in x, and at equal values 0 is a
    subgradient, where sqrt's infinite slope times a zero deviation would
    give NaN. The square root of 1 stands in where var is 0, so that no
    infinite slope is formed even in the branch not taken."""
    v = var(a, axis, dtype, out, ddof, keepdims, correction=correction)
    nonzero = v != 0.0  # NaN (a NaN input, ddof = N) stays NaN
    return _adj.select(nonzero, sqrt(_adj.select(nonzero, v, 1.0)), 0.0)


def reshaped(x, *shape):
    """The Value x in `shape`, given as ints or as one sequence, one
    dimension of which may be -1: numpy's reshape and the method
    x.reshape(2, -1)."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    shape = list(shape)
    if -1 in shape:
        known = 1
        for d in shape:
            if d != -1:
                known *= d
        total = 1
        for d in x.shape:
            total *= d
        shape[shape.index(-1)] = total // known if known else 0
    return _adj.reshape(x, shape)


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """numpy's reshape (one dimension may be -1); `newshape` is numpy 1's
    name of `shape`."""
    if order != "C":
        raise ValueError("adjoint.numpy.reshape: only order='C' is "
                         "supported")
    shape = newshape if shape is None else shape
    if shape is None:
        raise TypeError("adjoint.numpy.reshape: missing the shape")
    return reshaped(as_value(a, "reshape"), shape)


def transpose(a, axes=None):
    """a's axes permuted (reversed when `axes` is None)."""
    x = as_value(a, "transpose")
    if axes is None:
        return _adj.transpose(x)
    return _adj.transpose(x, [normalize_axis(d, x.rank, "transpose")
                              for d in axes])


def ravel(a, order="C"):
    if order not in ("C", "A", "K"):
        raise ValueError("adjoint.numpy.ravel: only order='C' is supported")
    return _ravel(a)


def asarray(a, dtype=None):
    """A Value as it is (cast to `dtype`); numbers and numpy arrays become
    constants of the program."""
    return cast_to(as_value(a, "asarray"), to_dtype(dtype, "asarray"))


def asanyarray(a, dtype=None, order=None, *, like=None):
    """asarray: a Value has no subclasses, and no memory order to keep."""
    return asarray(a, dtype)


def ascontiguousarray(a, dtype=None, *, like=None):
    """asarray: every Value is contiguous (its layout is the compiler's)."""
    return asarray(a, dtype)


def asfortranarray(a, dtype=None, *, like=None):
    """asarray: the same values; memory order is not a Value's property."""
    return asarray(a, dtype)


def shape(a):
    return tuple(_np.shape(a) if _is_host(a) else as_value(a, "shape").shape)


def ndim(a):
    return _np.ndim(a) if _is_host(a) else as_value(a, "ndim").rank


def size(a, axis=None):
    if _is_host(a):
        return _np.size(a, axis)
    s = as_value(a, "size").shape
    return _size(s) if axis is None else s[axis]


def _is_host(a):
    """An array outside jitted code: its shape is numpy's to say."""
    return isinstance(a, _np.ndarray) and _TRANSLATOR.get() is None
