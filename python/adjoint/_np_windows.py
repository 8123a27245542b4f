"""numpy's window functions (bartlett, blackman, hamming, hanning, kaiser)
and its creation functions of spaced and computed values (geomspace,
logspace, fromfunction), built into the program (adj.iota and
elementwise ops), in the program's float dtype. Sizes are Python values;
kaiser's beta and the ends of geomspace and logspace may be traced arrays
(differentiable).
"""

import math

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_bessel import i0
from ._np_support import (_TRANSLATOR, as_value, cast_to, float_dtype,
                          module_of, normalize_axis, to_dtype)
from ._trees import _InlineFn


def _length(M, name):
    if isinstance(M, Value) or isinstance(M, bool) or not isinstance(
            M, (int, float, _np.integer, _np.floating)):
        raise TypeError("adjoint.numpy.%s: M must be a number known while "
                        "building (the window's length), not %s"
                        % (name, type(M).__name__))
    return max(int(M), 0)


def _window(M, name, fn, *operands):
    """fn(n / (M - 1) as a float Value over n = 0..M-1); [1] for M = 1 and
    an empty window for M < 1, as numpy."""
    m = _length(M, name)
    module = module_of(name, *operands)
    dtype = float_dtype(*operands)
    if m <= 1:
        return _adj.fill(module, 1.0, [m], dtype)
    t = _adj.iota(module, [m], 0, dtype) * (1.0 / (m - 1))
    return fn(t)


def bartlett(M):
    """The triangular window, 0 at both ends and 1 in the middle."""
    return _window(M, "bartlett",
                   lambda t: 1.0 - _adj.abs(t * 2.0 - 1.0))


def hanning(M):
    """0.5 - 0.5 cos(2 pi n / (M - 1))."""
    return _window(M, "hanning", lambda t: 0.5 - 0.5 * _adj.cos(
        t * (2.0 * math.pi)))


def hamming(M):
    """0.54 - 0.46 cos(2 pi n / (M - 1))."""
    return _window(M, "hamming", lambda t: 0.54 - 0.46 * _adj.cos(
        t * (2.0 * math.pi)))


def blackman(M):
    """0.42 - 0.5 cos(2 pi n / (M - 1)) + 0.08 cos(4 pi n / (M - 1))."""
    return _window(M, "blackman", lambda t: (
        0.42 - 0.5 * _adj.cos(t * (2.0 * math.pi)))
        + 0.08 * _adj.cos(t * (4.0 * math.pi)))


def kaiser(M, beta):
    """i0(beta sqrt(1 - (2n / (M - 1) - 1)**2)) / i0(beta); beta may be a
    traced scalar."""
    b = beta if isinstance(beta, Value) else None

    def fn(t):
        bv = as_value(beta, "kaiser", like=t)
        if bv.dtype != t.dtype:
            bv = _adj.cast(bv, t.dtype)
        u = t * 2.0 - 1.0
        # 1 - u*u is exactly 0 at the ends; the clamp keeps rounding from
        # making it negative.
        r = _adj.sqrt(_adj.maximum(1.0 - u * u, 0.0))
        return i0(bv * r) / i0(bv)
    return _window(M, "kaiser", fn, *([b] if b is not None else []))


# -- spaced values -----------------------------------------------------------

def _ends(start, stop, name):
    """start and stop as float Values of one dtype, broadcast together."""
    traced = [v for v in (start, stop) if isinstance(v, Value)]
    like = traced[0] if traced else None
    s, e = (as_value(v, name, like=like) for v in (start, stop))
    dtype = float_dtype(*traced)
    if s.dtype.is_float and e.dtype.is_float and s.dtype == e.dtype:
        dtype = s.dtype
    s, e = _adj.cast(s, dtype) if s.dtype != dtype else s, \
        _adj.cast(e, dtype) if e.dtype != dtype else e
    shape = list(_np.broadcast_shapes(tuple(s.shape), tuple(e.shape)))
    return _adj.broadcast_to(s, shape), _adj.broadcast_to(e, shape)


def _spaced(s, e, num, endpoint, axis, name):
    """s + (e - s) * n / div along a new axis `axis` (n = 0..num-1),
    ending exactly at e when `endpoint`."""
    num = int(num)
    if num < 0:
        raise ValueError("adjoint.numpy.%s: num must be non-negative, not "
                         "%d" % (name, num))
    rank = s.rank + 1
    axis = normalize_axis(axis, rank, name)
    shape = list(s.shape)
    out_shape = shape[:axis] + [num] + shape[axis:]
    one = shape[:axis] + [1] + shape[axis:]
    s1, e1 = _adj.reshape(s, one), _adj.reshape(e, one)
    div = num - 1 if endpoint else num
    n = _adj.iota(s.module, out_shape, axis, s.dtype)
    if div > 0:
        y = s1 + (e1 - s1) * (n * (1.0 / div))
    else:
        y = _adj.broadcast_to(s1, out_shape) + n * 0.0
    if endpoint and num > 1:
        last = _adj.iota(s.module, out_shape, axis, DType.i64) == float(
            num - 1)
        y = _adj.select(last, _adj.broadcast_to(e1, out_shape), y)
    return y


def _finish(y, dtype, name):
    dtype = to_dtype(dtype, name)
    return cast_to(y, dtype)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None,
             axis=0):
    """base ** linspace(start, stop, num); `base` may be an array, which
    broadcasts with start and stop (as numpy 2)."""
    s, e = _ends(start, stop, "logspace")
    if isinstance(base, (int, float, _np.number)) and not isinstance(
            base, bool):
        y = _spaced(s, e, num, endpoint, axis, "logspace")
        out = _adj.pow(_adj.scalar(y.module, float(base), y.dtype), y)
        return _finish(out, dtype, "logspace")
    b = as_value(base, "logspace", like=s)
    b = _adj.cast(b, s.dtype) if b.dtype != s.dtype else b
    shape = list(_np.broadcast_shapes(tuple(s.shape), tuple(b.shape)))
    s, e, b = (_adj.broadcast_to(v, shape) for v in (s, e, b))
    y = _spaced(s, e, num, endpoint, axis, "logspace")
    rank = len(shape) + 1
    ax = normalize_axis(axis, rank, "logspace")
    b = _adj.reshape(b, shape[:ax] + [1] + shape[ax:])
    return _finish(_adj.pow(b, y), dtype, "logspace")


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale from start to stop (both of one
    sign; the ends are exact, as numpy's). A zero end is a ValueError when
    known while building (NaN when traced)."""
    for v in (start, stop):
        if not isinstance(v, Value) and _np.any(_np.asarray(v) == 0):
            raise ValueError("adjoint.numpy.geomspace: a geometric sequence "
                             "cannot include zero")
    s, e = _ends(start, stop, "geomspace")
    # Negative ends are the positive sequence negated.
    neg = s < 0.0
    sign = _adj.select(neg, _adj.scalar(s.module, -1.0, s.dtype),
                       _adj.scalar(s.module, 1.0, s.dtype))
    y = _spaced(_adj.log(s * sign), _adj.log(e * sign), num,
                        endpoint, axis, "geomspace")
    out_shape = list(y.shape)
    ax = normalize_axis(axis, s.rank + 1, "geomspace")
    shape1 = list(s.shape[:ax]) + [1] + list(s.shape[ax:])
    out = _adj.exp(y) * _adj.reshape(sign, shape1)
    n = _adj.iota(s.module, out_shape, ax, DType.i64)
    num = int(num)
    if num > 0:
        out = _adj.select(n == 0.0, _adj.broadcast_to(
            _adj.reshape(s, shape1), out_shape), out)
    if endpoint and num > 1:
        out = _adj.select(n == float(num - 1), _adj.broadcast_to(
            _adj.reshape(e, shape1), out_shape), out)
    return _finish(out, dtype, "geomspace")


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """function(*indices, **kwargs) called once, as numpy's, with one
    array of coordinates per dimension (of `dtype`, the program's float
    dtype by default)."""
    shape = [int(d) for d in (shape if isinstance(shape, (tuple, list))
                              else (shape,))]
    dt = to_dtype(dtype, "fromfunction")
    module = module_of("fromfunction", *kwargs.values())
    grids = [_adj.iota(module, shape, d, dt if dt is not None else
                       float_dtype()) for d in range(len(shape))]
    return _call(function, grids, kwargs)


def _call(function, args, kwargs):
    """A function of the jitted code (a def or lambda, an _InlineFn) is
    translated, its errors reported at its definition; any other callable
    runs as Python on the Values."""
    tr = _TRANSLATOR.get()
    if tr is not None and isinstance(function, _InlineFn):
        return tr.call(function, list(args), kwargs, function.node,
                       function.frame)
    return function(*args, **kwargs)
