"""numpy's array creation in jitted code: zeros, ones, full, empty and their
``_like`` forms, eye, identity, arange, linspace.

Shapes and ranges are Python values (a shape must be known while
building); a fill value may be a Value. Without a dtype a float array takes
the program's float dtype (as Python floats do) and an int one i64.
"""

import math

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._trees import _is_integer
from ._np_support import (as_value, cast_to, float_dtype, iota, module_of,
                          to_dtype, translator)


def _shape(shape, name):
    if isinstance(shape, (int, _np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if isinstance(shape, Value) or not all(
            isinstance(d, (int, _np.integer)) for d in shape):
        raise TypeError("adjoint.numpy.%s: the shape must be Python ints "
                        "(known while building), not %r" % (name, shape))
    if any(d < 0 for d in shape):
        raise ValueError("adjoint.numpy.%s: negative dimensions are not "
                         "allowed" % name)
    return [int(d) for d in shape]


def _value_dtype(value):
    """The dtype numpy gives an array filled with the Python `value`."""
    if isinstance(value, Value):
        return value.dtype
    if isinstance(value, (bool, _np.bool_)):
        return DType.i1
    if isinstance(value, (int, _np.integer)):
        return DType.i64
    return float_dtype()


def _filled(shape, value, dtype, name, module=None):
    shape = _shape(shape, name)
    dtype = to_dtype(dtype, name) or _value_dtype(value)
    if isinstance(value, Value):
        if value.rank and list(value.shape) != shape:
            value = _adj.broadcast_to(value, shape)
        elif not value.rank:
            value = _adj.broadcast_to(value, shape) if shape else value
        return cast_to(value, dtype)
    if module is None:
        module = module_of(name)
    if not dtype.is_float and _is_integer(value) and abs(int(value)) > 2 ** 53:
        # adj.fill's value is a double: an integer beyond 2**53 is an exact
        # constant broadcast instead.
        return _adj.broadcast_to(_adj.scalar(module, int(value), dtype),
                                 shape)
    return _adj.fill(module, float(value), shape, dtype)


def zeros(shape, dtype=float):
    return _filled(shape, 0.0, dtype, "zeros")


def ones(shape, dtype=float):
    return _filled(shape, 1.0, dtype, "ones")


def empty(shape, dtype=float):
    """Zeros: numpy leaves the contents undefined."""
    return _filled(shape, 0.0, dtype, "empty")


def full(shape, fill_value, dtype=None):
    return _filled(shape, fill_value, dtype, "full")


def _like(a, value, dtype, shape, name):
    a = as_value(a, name)
    return _filled(a.shape if shape is None else shape, value,
                   dtype or a.dtype, name, a.module)


def zeros_like(a, dtype=None, shape=None):
    return _like(a, 0.0, dtype, shape, "zeros_like")


def ones_like(a, dtype=None, shape=None):
    return _like(a, 1.0, dtype, shape, "ones_like")


def empty_like(prototype, dtype=None, shape=None):
    return _like(prototype, 0.0, dtype, shape, "empty_like")


def full_like(a, fill_value, dtype=None, shape=None):
    return _like(a, fill_value, dtype, shape, "full_like")


def eye(N, M=None, k=0, dtype=float):
    """Ones where column - row == k."""
    shape = _shape((N, N if M is None else M), "eye")
    m = translator("eye").module
    hit = (iota(m, shape, 1) - iota(m, shape, 0)) == float(k)
    return _adj.cast(hit, to_dtype(dtype, "eye"))


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def _number(x, name):
    if isinstance(x, Value) or not isinstance(
            x, (int, float, _np.integer, _np.floating)):
        raise TypeError("adjoint.numpy.%s takes Python numbers (the length "
                        "of the result must be known while building), not "
                        "a %s" % (name, type(x).__name__))
    return x


def arange(start, stop=None, step=1, dtype=None):
    """start + i * step for i < ceil((stop - start) / step), as numpy."""
    if stop is None:
        start, stop = 0, start
    start, stop, step = (_number(v, "arange") for v in (start, stop, step))
    if step == 0:
        raise ZeroDivisionError("adjoint.numpy.arange: step is zero")
    n = max(0, int(math.ceil((stop - start) / step)))
    integral = all(isinstance(v, (int, _np.integer))
                   for v in (start, stop, step))
    dtype = to_dtype(dtype, "arange") or (
        DType.i64 if integral else float_dtype())
    m = translator("arange").module
    if integral and not dtype.is_float:
        return cast_to(iota(m, [n], 0) * float(step) + float(start), dtype)
    # Computed in f64 like numpy, then rounded once to the dtype.
    i = _adj.iota(m, [n], 0, DType.f64)
    return cast_to(i * float(step) + float(start), dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
             axis=0):
    """`num` evenly spaced values from start to stop (included when
    `endpoint`); start and stop are numbers or rank-0 Values."""
    num = int(_number(num, "linspace"))
    if num < 0:
        raise ValueError("adjoint.numpy.linspace: num must be non-negative")
    for v in (start, stop):
        if isinstance(v, Value) and v.rank != 0:
            raise TypeError("adjoint.numpy.linspace: start and stop must "
                            "be scalars")
    if axis not in (0, -1):
        raise ValueError("adjoint.numpy.linspace: axis must be 0 for "
                         "scalar start and stop")
    m = module_of("linspace", start, stop)
    work = float_dtype(start, stop)
    start_v, stop_v = (
        cast_to(v, work) if isinstance(v, Value)
        else _adj.scalar(m, float(v), work) for v in (start, stop))
    div = num - 1 if endpoint else num
    i = _adj.iota(m, [num], 0, work)
    delta = stop_v - start_v
    step = delta / float(div) if div > 0 else delta * float("nan")
    y = i * step + start_v if div > 0 else i * delta + start_v
    if endpoint and num > 1:
        y = _adj.select(iota(m, [num], 0) == float(num - 1),
                        _adj.broadcast_to(stop_v, [num]), y)
    dtype = to_dtype(dtype, "linspace")
    if dtype is not None and not dtype.is_float:
        # numpy floors to integer dtypes (a cast truncates toward zero).
        t = _adj.cast(_adj.cast(y, DType.i64), work)
        y = t - _adj.cast(t > y, work)
    y = cast_to(y, dtype)
    return (y, step) if retstep else y
