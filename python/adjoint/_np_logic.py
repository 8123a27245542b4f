"""numpy's tests of values and of arrays, and its bitwise functions, in
jitted code: isclose allclose array_equal array_equiv isneginf isposinf
isreal iscomplex isrealobj iscomplexobj isscalar; bitwise_and/or/xor,
bitwise_not/invert/bitwise_invert, left_shift/bitwise_left_shift,
right_shift/bitwise_right_shift, bitwise_count, packbits, unpackbits.

Bitwise functions take booleans and integers only (a float is a TypeError,
as numpy's); a shift by a negative amount or by the width or more gives 0
(-1 for a negative number shifted right), as numpy and JAX. adj has no
8-bit integers: bitwise_count, packbits and unpackbits give int32 where
numpy gives uint8 (the same values).
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType
from ._np_reductions import all as _all
from ._np_rounding import _and, _no_out, _operands, _or
from ._np_support import (as_value, binop, float_dtype, module_of,
                          normalize_axis, ravel, truth)

_INF = float("inf")


# -- closeness and equality ---------------------------------------------------

def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol |b| (b is the reference); infinities are
    close only to themselves; NaN to NaN when `equal_nan`. Integers and
    booleans compare as floats."""
    def op(x, y):
        x, y = _operands(x, y, "isclose")
        if not x.dtype.is_float:
            x, y = _adj.cast(x, float_dtype()), _adj.cast(y, float_dtype())
        finite = _and(_adj.abs(x) < _INF, _adj.abs(y) < _INF)
        near = _adj.abs(x - y) <= _adj.abs(y) * float(rtol) + float(atol)
        out = _adj.select(finite, near, x == y)
        if equal_nan:
            out = _or(out, _and(x != x, y != y))
        return out
    return binop(op, a, b)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every pair is close (a boolean rank-0 array)."""
    return _all(isclose(a, b, rtol, atol, equal_nan))


def _false(module):
    return _adj.scalar(module, 0.0, DType.i1)


def _module(*xs):
    return module_of("array_equal", *xs)


def array_equal(a1, a2, equal_nan=False):
    """Whether the arrays have one shape and equal elements (a boolean
    rank-0 array; shapes are known while building)."""
    x, y = as_value(a1, "array_equal"), as_value(a2, "array_equal")
    if tuple(x.shape) != tuple(y.shape):
        return _false(_module(x, y))
    return _all(_equal(x, y, equal_nan))


def _equal(x, y, equal_nan):
    same = binop(lambda p, q: p == q, x, y)
    if equal_nan and (x.dtype.is_float or y.dtype.is_float):
        return _or(same, _and(x != x, y != y))
    return same


def array_equiv(a1, a2):
    """Whether the arrays broadcast to one shape and are equal there."""
    x, y = as_value(a1, "array_equiv"), as_value(a2, "array_equiv")
    try:
        _np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
    except ValueError:
        return _false(_module(x, y))
    return _all(_equal(x, y, False))


def _float_test(x, name, test):
    x = as_value(x, name)
    if x.dtype.is_float:
        return test(x)
    return _adj.fill(x.module, 0.0, list(x.shape), DType.i1)


def isposinf(x, out=None):
    _no_out(out, "isposinf")
    return _float_test(x, "isposinf", lambda v: v == _INF)


def isneginf(x, out=None):
    _no_out(out, "isneginf")
    return _float_test(x, "isneginf", lambda v: v == -_INF)


def isreal(x):
    """Where the imaginary part is 0 (everywhere for a real array)."""
    v = as_value(x, "isreal")
    if v.dtype.is_complex:
        return _adj.imag(v) == 0.0
    return _adj.fill(v.module, 1.0, list(v.shape), DType.i1)


def iscomplex(x):
    """Where the imaginary part is not 0 (nowhere for a real array)."""
    v = as_value(x, "iscomplex")
    if v.dtype.is_complex:
        return _adj.imag(v) != 0.0
    return _adj.fill(v.module, 0.0, list(v.shape), DType.i1)


# -- bits ---------------------------------------------------------------------

def _bit_operands(a, b, name):
    a, b = _operands(a, b, name)
    if a.dtype.is_float:
        raise TypeError("adjoint.numpy.%s: not supported for %s operands "
                        "(only integers and booleans, as numpy)"
                        % (name, a.dtype))
    return a, b


def _bitwise(fn, name):
    def function(x1, x2, out=None):
        _no_out(out, name)

        def op(a, b):
            a, b = _bit_operands(a, b, name)
            if a.dtype == DType.i1:
                r = fn(_adj.cast(a, DType.i32), _adj.cast(b, DType.i32))
                return r != 0.0
            return fn(a, b)
        return binop(op, x1, x2)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = "numpy's %s of integers or booleans." % name
    return function


bitwise_and = _bitwise(_adj.bitwise_and, "bitwise_and")
bitwise_or = _bitwise(_adj.bitwise_or, "bitwise_or")
bitwise_xor = _bitwise(_adj.bitwise_xor, "bitwise_xor")


def invert(x, out=None):
    """~x: every bit flipped (logical not for booleans)."""
    _no_out(out, "invert")
    v = as_value(x, "invert")
    if v.dtype.is_float:
        raise TypeError("adjoint.numpy.invert: not supported for %s "
                        "(only integers and booleans, as numpy)" % v.dtype)
    if v.dtype == DType.i1:
        return _adj.cast(v, DType.i32) == 0.0
    return _adj.bitwise_xor(v, _adj.scalar(v.module, -1.0, v.dtype))


bitwise_not = bitwise_invert = invert


def _width(dtype):
    return 64 if dtype == DType.i64 else 32


def _shift(a, b, left):
    """a << b or a >> b (arithmetic: the sign fills), with amounts outside
    [0, width) giving what shifting one bit at a time would (0, or -1
    for a negative number shifted right)."""
    if a.dtype == DType.i1:
        a, b = _adj.cast(a, DType.i32), _adj.cast(b, DType.i32)
    inside = _and(b >= 0.0, b < float(_width(a.dtype)))
    n = _adj.select(inside, b, 0.0)
    if left:
        return _adj.select(inside, _adj.shift_left(a, n), 0.0)
    neg = a < 0.0
    flip = _adj.scalar(a.module, -1.0, a.dtype)
    # ~((~a) >> n) for negative a: a logical shift of the complement.
    pos = _adj.select(neg, _adj.bitwise_xor(a, flip), a)
    r = _adj.shift_right_logical(pos, n)
    r = _adj.select(neg, _adj.bitwise_xor(r, flip), r)
    return _adj.select(inside, r, _adj.select(neg, -1.0, 0.0))


def _shift_function(left, name):
    def function(x1, x2, out=None):
        _no_out(out, name)
        return binop(lambda a, b: _shift(*_bit_operands(a, b, name), left),
                     x1, x2)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = "numpy's %s (integers; booleans as int32)." % name
    return function


left_shift = bitwise_left_shift = _shift_function(True, "left_shift")
right_shift = bitwise_right_shift = _shift_function(False, "right_shift")


def bitwise_count(x, out=None):
    """The number of 1 bits of |x| (int32; numpy's is uint8), by the
    classic sums of bit fields."""
    _no_out(out, "bitwise_count")
    v = as_value(x, "bitwise_count")
    if v.dtype.is_float:
        raise TypeError("adjoint.numpy.bitwise_count: not supported for %s "
                        "(only integers and booleans, as numpy)" % v.dtype)
    if v.dtype == DType.i1:
        return _adj.cast(v, DType.i32)
    width = _width(v.dtype)
    v = _adj.abs(v)

    def c(n):
        return _int_constant(v.module, n, v.dtype)

    def shr(a, n):
        return _adj.shift_right_logical(a, c(n))

    m = (1 << width) - 1
    masks = [_signed(m // 3, width), _signed(m // 5, width),
             _signed(m // 17, width)]
    v = v - _adj.bitwise_and(shr(v, 1), c(masks[0]))
    v = _adj.bitwise_and(v, c(masks[1])) + _adj.bitwise_and(shr(v, 2),
                                                             c(masks[1]))
    v = _adj.bitwise_and(v + shr(v, 4), c(masks[2]))
    # The byte sums add up in the top byte.
    total = v * c(_signed(m // 255, width))
    return _adj.cast(shr(total, width - 8), DType.i32)


def _int_constant(module, n, dtype):
    """The integer n as a rank-0 Value, exactly."""
    return _adj.scalar(module, int(n), dtype)


def _signed(u, width):
    return u - (1 << width) if u >= 1 << (width - 1) else u


def _bit_axis(x, axis, name):
    if axis is None:
        return ravel(x), 0
    return x, normalize_axis(axis, x.rank, name)


def _weights(m, n_axis, rank, order, name):
    if order not in ("big", "little"):
        raise ValueError("adjoint.numpy.%s: bitorder must be 'big' or "
                         "'little', not %r" % (name, order))
    bits = [7 - i for i in range(8)] if order == "big" else list(range(8))
    shape = [1] * rank
    shape[n_axis] = 8
    w = _np.array([1 << b for b in bits], _np.int32).reshape(shape)
    return _adj.constant(m, w.astype(_np.float64), list(shape), DType.i32)


def packbits(a, axis=None, bitorder="big"):
    """Each 8 truth values along `axis` (the flattened array for None) as
    the bits of one number 0..255 (int32), padded with zeros."""
    x = as_value(a, "packbits")
    if x.dtype.is_float:
        raise TypeError("adjoint.numpy.packbits: expected an integer or "
                        "boolean array, not %s" % x.dtype)
    x, axis = _bit_axis(_adj.cast(truth(x), DType.i32), axis, "packbits")
    n = x.shape[axis]
    groups = -(-n // 8)
    if groups * 8 != n:
        pad = [[0, 0] for _ in range(x.rank)]
        pad[axis][1] = groups * 8 - n
        x = _adj.pad(x, [p[0] for p in pad], [p[1] for p in pad], 0.0)
    shape = list(x.shape)
    split = shape[:axis] + [groups, 8] + shape[axis + 1:]
    w = _weights(x.module, axis + 1, len(split), bitorder, "packbits")
    return _adj.sum(_adj.reshape(x, split) * w, [axis + 1], False)


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """Each number's 8 low bits along `axis` (int32 zeros and ones; the
    flattened array for None); `count` keeps that many (a negative count
    drops them from the end; more pads with zeros)."""
    x = as_value(a, "unpackbits")
    if x.dtype.is_float or x.dtype == DType.i1:
        raise TypeError("adjoint.numpy.unpackbits: expected an integer "
                        "array (numpy's uint8), not %s" % x.dtype)
    x, axis = _bit_axis(_adj.cast(x, DType.i32), axis, "unpackbits")
    shape = list(x.shape)
    n = shape[axis] * 8
    split = shape[:axis + 1] + [1] + shape[axis + 1:]
    w = _weights(x.module, axis + 1, len(split), bitorder, "unpackbits")
    bits = _adj.bitwise_and(_adj.reshape(x, split), w) != 0.0
    bits = _adj.reshape(_adj.cast(bits, DType.i32),
                        shape[:axis] + [n] + shape[axis + 1:])
    if count is None:
        return bits
    count = int(count)
    keep = n + count if count < 0 else count
    if keep < 0:
        raise ValueError("adjoint.numpy.unpackbits: count %d is out of "
                         "range for %d bits" % (count, n))
    if keep <= n:
        starts = [0] * bits.rank
        stops = list(bits.shape)
        stops[axis] = keep
        return _adj.slice(bits, starts, stops, [1] * bits.rank)
    pad = [0] * bits.rank
    pad[axis] = keep - n
    return _adj.pad(bits, [0] * bits.rank, pad, 0.0)
