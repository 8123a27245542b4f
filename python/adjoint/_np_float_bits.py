"""The binary layout of floats, for numpy's functions that work on it
(frexp, ldexp, nextafter, spacing): exact powers of two and exponents,
from adj's bitcast and integer ops, so that every target computes them
bit for bit. f16 and bf16 are handled in f32, which holds each of their
values (and each power of two they need) exactly.
"""

from . import _adjoint as _adj
from ._adjoint import DType

#: (the integer dtype of the same width, mantissa bits, exponent bias,
#: the exponent field's mask).
_LAYOUT = {DType.f64: (DType.i64, 52, 1023, 2047),
           DType.f32: (DType.i32, 23, 127, 255)}

#: numpy's finfo in frexp's convention (x = m * 2**e, 0.5 <= |m| < 1):
#: (digits, smallest normal exponent, largest exponent) per dtype.
FRAC = {DType.f64: (53, -1021, 1024), DType.f32: (24, -125, 128),
        DType.f16: (11, -13, 16), DType.bf16: (8, -125, 128)}


def working(dtype):
    """The dtype the bit functions compute `dtype` in."""
    return dtype if dtype in _LAYOUT else DType.f32


def _normal_pow2(k, dtype):
    """2**k for an integer Value k in the dtype's normal exponent range,
    built from its bits."""
    idt, mant, bias, _ = _LAYOUT[dtype]
    e = _adj.cast(k, idt) + float(bias)
    return _adj.bitcast(_adj.shift_left(e, _adj.scalar(k.module, mant, idt)),
                        dtype)


def pow2(k, dtype):
    """2**k exactly for an integer Value k from the smallest subnormal's
    exponent to the largest (the product of two normal powers)."""
    half = _adj.div(k, _adj.scalar(k.module, 2.0, k.dtype))
    return _normal_pow2(half, dtype) * _normal_pow2(k - half, dtype)


def scale(x, k):
    """x * 2**k rounded once, for |k| up to twice the exponent range: two
    exact normal factors, the first of which cannot leave x's range when
    |x| is in [0.5, 1) or k moves it toward 1."""
    half = _adj.div(k, _adj.scalar(k.module, 2.0, k.dtype))
    return (x * _normal_pow2(half, x.dtype)) * _normal_pow2(k - half,
                                                             x.dtype)


def exponent(x):
    """frexp's exponent of a finite non-zero x of a dtype of _LAYOUT, as an
    i64 Value (0 elsewhere is the caller's to choose): from the biased
    exponent field, subnormals scaled up by 2**mant first."""
    idt, mant, bias, mask = _LAYOUT[x.dtype]
    tiny = 2.0 ** (1 - bias)
    sub = _adj.abs(x) < tiny
    scaled = _adj.select(sub, x * 2.0 ** mant, x)
    bits = _adj.bitcast(scaled, idt)
    field = _adj.bitwise_and(
        _adj.shift_right_logical(bits, _adj.scalar(x.module, mant, idt)),
        _adj.scalar(x.module, mask, idt))
    e = _adj.cast(field, DType.i64) - float(bias - 1)
    return e - _adj.cast(sub, DType.i64) * float(mant)


def largest(dtype):
    """The dtype's largest finite value."""
    digits, _, high = FRAC[dtype]
    return (2.0 - 2.0 ** (1 - digits)) * 2.0 ** (high - 1)
