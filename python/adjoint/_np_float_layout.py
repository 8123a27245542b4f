"""numpy's functions of the float layout in jitted code: frexp, ldexp,
modf, nextafter, spacing. Exponents and powers of two come from the bits
(_np_float_bits), so results are exact on every target, subnormals, f16
and bf16 included. Derivatives are JAX's: frexp's mantissa has 2**-e,
ldexp's result 2**x2, modf's fractional part 1; exponents, integral parts,
nextafter and spacing have none.
"""

from . import _adjoint as _adj
from ._adjoint import DType
from . import _np_float_bits as _bits
from ._np_rounding import _and, _differ, _no_out, _or, _sign_bit, trunc
from ._np_support import as_value, float_dtype
from ._np_arithmetic import _INF, _binary, _const, _unary


def _frexp(x):
    """(m, e), x = m * 2**e with 0.5 <= |m| < 1; (x, 0) for 0, inf, NaN.
    m is x times the exact power 2**-e, so its derivative is 2**-e (JAX's)."""
    w = _bits.working(x.dtype)
    v = _adj.cast(x, w)
    special = _or(_or(v == 0.0, _adj.abs(v) == _INF), v != v)
    e = _adj.select(special, 0.0, _bits.exponent(
        _adj.select(special, 1.0, v)))
    m = _bits.scale(v, -e)
    return _adj.cast(m, x.dtype), _adj.cast(e, DType.i32)


def frexp(x, out=None):
    """numpy's frexp: (mantissa, int32 exponent)."""
    _no_out(out, "frexp")
    x = as_value(x, "frexp")
    if not x.dtype.is_float:
        x = _adj.cast(x, float_dtype())
    return _frexp(x)


def ldexp(x1, x2, out=None):
    """x1 * 2**x2 for an integer x2, rounded once: x1's mantissa times the
    total power of two, taken as two exact factors (no intermediate
    overflow or underflow)."""
    _no_out(out, "ldexp")
    n = as_value(x2, "ldexp")
    if n.dtype.is_float:
        raise TypeError("adjoint.numpy.ldexp: the exponent must be an "
                        "integer (as numpy's ldexp)")
    x = as_value(float(x1) if isinstance(x1, int) else x1, "ldexp")
    if not x.dtype.is_float:
        x = _adj.cast(x, float_dtype())
    m, e = _frexp(x)
    w = _bits.working(x.dtype)
    digits, low, high = _bits.FRAC[x.dtype]
    k = _adj.cast(e, DType.i64) + _adj.cast(n, DType.i64)
    # Beyond these the result is 0 or inf for any mantissa.
    k = _adj.maximum(_adj.minimum(k, float(high + 2)),
                     float(low - digits - 2))
    return _adj.cast(_bits.scale(_adj.cast(m, w), k), x.dtype)


def modf(x, out=None):
    """(fractional part, integral part), both with x's sign (-0.0 for
    negative integers); inf gives (+-0, inf) as numpy. The fractional part
    has derivative 1, the integral part none."""
    _no_out(out, "modf")
    x = as_value(x, "modf")
    if not x.dtype.is_float:
        x = _adj.cast(x, float_dtype())
    whole = trunc(x)
    neg = _sign_bit(x)
    # -((-x) - (-whole)) keeps -0.0 for negative integers, where x - whole
    # would give +0.0.
    frac = _adj.select(neg, -((-x) - (-whole)), x - whole)
    frac = _adj.select(_adj.abs(x) == _INF, _adj.select(
        neg, _const(x, -0.0), _const(x, 0.0)), frac)
    return frac, whole


def _ulp(a, dtype):
    """The spacing above |a| (finite, non-zero) in `dtype`, computed in the
    working dtype: 2**(max(e, emin) - digits)."""
    digits, low, _ = _bits.FRAC[dtype]
    w = _bits.working(dtype)
    e = _bits.exponent(a)
    return _bits.pow2(_adj.maximum(e, float(low)) - float(digits), w), e


def _nextafter(x, y):
    """The next float after x toward y, from the spacing at x: moving
    toward 0 from a power of two (mantissa 0.5) the step halves."""
    dtype = x.dtype
    w = _bits.working(dtype)
    v, t = _adj.cast(x, w), _adj.cast(y, w)
    digits, low, _ = _bits.FRAC[dtype]
    a = _adj.abs(v)
    finite = _and(a < _INF, a > 0.0)
    safe = _adj.select(finite, a, 1.0)
    ulp, e = _ulp(safe, dtype)
    power = _and(safe == _bits.pow2(e - 1.0, w), e > float(low))
    up = _differ(t > v, v < 0.0)      # away from zero
    step = _adj.select(up, ulp, _adj.select(power, ulp * 0.5, ulp))
    mag = _adj.select(up, safe + step, safe - step)
    moved = _adj.select(v < 0.0, -mag, mag)
    tiny = _bits.pow2(_adj.scalar(x.module, float(low - digits), DType.i64),
                      w)
    big = _const(v, _bits.largest(dtype))
    moved = _adj.select(a == 0.0, _adj.select(t > v, tiny, -tiny), moved)
    moved = _adj.select(a == _INF, _adj.select(v > 0.0, big, -big), moved)
    r = _adj.select(v == t, t, _adj.select(_or(v != v, t != t), v + t,
                                           moved))
    return _adj.stop_gradient(_adj.cast(r, dtype))


nextafter = _binary(_nextafter, "nextafter",
                    "The next representable value after x1 toward x2 "
                    "(no derivative).")


def _spacing(x):
    """nextafter(x, +-inf) - x: the gap to the next float away from zero
    (negative for x < 0; positive for -0.0 and for every f16, as
    numpy)."""
    if x.dtype == DType.f16:   # numpy's half spacing is always upward
        away = _const(x, _INF)
    else:
        away = _adj.select(x < 0.0, _const(x, -_INF), _const(x, _INF))
    return _adj.stop_gradient(_nextafter(x, away) - x)


spacing = _unary(_spacing, "spacing",
                 "The distance to the next float away from zero.")
