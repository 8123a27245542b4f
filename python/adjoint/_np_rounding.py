"""numpy's rounding and integer-division functions, composed from adj's
cast, select and arithmetic (adj has no floor or rem op): floor, ceil,
trunc, fix, rint, round/around (half to even, as numpy), floor_divide,
remainder/mod (the sign of the divisor), fmod (the sign of the dividend)
and divmod; also the %, // and divmod operators of Values.

Rounded results carry no derivative (as in JAX: their derivative is zero
almost everywhere), so ``x % y`` has d/dx = 1 and d/dy = -floor(x / y).

Floats round through an i64 cast, which truncates toward zero; magnitudes
at or above 2**mantissa_bits are integers already and pass unchanged (so
do inf and NaN). Integer division by zero gives 0, as numpy's does (and
never traps).
"""

import operator

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_elementwise import float_function
from ._np_support import as_value, binop

# Magnitudes from which every value of the dtype is an integer.
_INTEGRAL_FROM = {DType.f64: 2.0 ** 52, DType.f32: 2.0 ** 23,
                  DType.f16: 2.0 ** 10, DType.bf16: 2.0 ** 7}


def _trunc(x):
    t = _adj.cast(_adj.cast(x, DType.i64), x.dtype)
    return _adj.select(_adj.abs(x) < _INTEGRAL_FROM[x.dtype], t, x)


def _floor(x):
    t = _trunc(x)
    return t - _adj.cast(t > x, x.dtype)


def _rint(x):
    """Round half to even: the floor, plus one above the half and at the
    half when the floor is odd (x - floor(x) is exact)."""
    f = _floor(x)
    frac = x - f
    half = _floor(f * 0.5)
    odd = (f - half * 2.0) != 0.0
    up = _or(frac > 0.5, _and(frac == 0.5, odd))
    return f + _adj.cast(up, x.dtype)


def _and(p, q):
    return _adj.select(p, q, p)


def _or(p, q):
    return _adj.select(p, p, q)


def _differ(p, q):
    return _adj.cast(p, DType.i32) != _adj.cast(q, DType.i32)


def _rounded(fn, name):
    """numpy's rounding function `fn` (integers as floats), with no
    derivative; a zero result has x's sign, as numpy's (ceil(-0.5) is
    -0.0)."""
    def rounding(x):
        r = fn(x)
        zero = _adj.select(_sign_bit(x), -0.0, _adj.abs(r))
        return _adj.stop_gradient(_adj.select(r == 0.0, zero, r))
    return float_function(rounding, name)


def _sign_bit(x):
    """Whether x's sign bit is set (-0.0 too), read from its bits; f16 and
    bf16 through f32, which keeps the sign."""
    if x.dtype == DType.f64:
        return _adj.bitcast(x, DType.i64) < 0.0
    return _adj.bitcast(_adj.cast(x, DType.f32), DType.i32) < 0.0


floor = _rounded(_floor, "floor")
trunc = _rounded(_trunc, "trunc")
fix = _rounded(_trunc, "fix")
_rint_real = _rounded(_rint, "rint")
ceil = _rounded(lambda x: -_floor(-x), "ceil")
floor.__doc__ = "The largest integer <= x (no derivative, as JAX)."
trunc.__doc__ = "x rounded toward zero."
fix.__doc__ = "x rounded toward zero (numpy's fix)."
ceil.__doc__ = "The smallest integer >= x."


def rint(x):
    """x rounded to the nearest integer, halves to even (complex numbers
    part by part, as numpy's)."""
    v = as_value(x, "rint")
    if v.dtype.is_complex:
        return _adj.complex(_rint_real(_adj.real(v)),
                            _rint_real(_adj.imag(v)))
    return _rint_real(v)


def round(a, decimals=0, out=None):
    """numpy's round: x * 10**decimals rounded half to even, scaled back
    (integers are unchanged for decimals >= 0)."""
    _no_out(out, "round")
    x = as_value(a, "round")
    if x.dtype.is_complex:  # each part, as numpy rounds complex numbers
        return _adj.complex(round(_adj.real(x), decimals),
                            round(_adj.imag(x), decimals))
    if not x.dtype.is_float:
        if decimals >= 0:
            return x
        return _adj.cast(round(_adj.cast(x, DType.f64), decimals), x.dtype)
    if decimals >= 0:
        f = 10.0 ** decimals
        return rint(x * f) / f
    f = 10.0 ** -decimals
    return rint(x / f) * f


around = round


def _no_out(out, name):
    if out is not None:
        raise TypeError("adjoint.numpy.%s: out= is not supported (arrays "
                        "are immutable values; use the result)" % name)


# -- integer division -------------------------------------------------------

def _operands(a, b, name):
    """(a, b) as Values of one dtype: the operators get them promoted by the
    front end; a bare number takes the Value's dtype, unless it is a
    fractional float met by an integer Value."""
    if not isinstance(a, Value):
        a = _number_like(a, b, name)
    elif not isinstance(b, Value):
        b = _number_like(b, a, name)
    elif a.dtype != b.dtype:
        dtype = _adj.promote_types(a.dtype, b.dtype)
        a, b = _adj.cast(a, dtype), _adj.cast(b, dtype)
    return a, b


def _number_like(n, v, name):
    if isinstance(n, float) and not v.dtype.is_float and n != int(n):
        raise TypeError("adjoint.numpy.%s: %r with an integer array: use a "
                        "float array (jitted code promotes it)" % (name, n))
    return as_value(n, name, like=v)


def _int_divmod(a, b):
    """numpy's integer floor division and modulo: adj's division truncates,
    so a quotient with a remainder of the divisor's opposite sign steps
    down. A zero divisor gives 0 and 0."""
    zero = b == 0.0
    safe = _adj.select(zero, 1.0, b)
    q = _adj.div(a, safe)
    r = a - q * safe
    step = _and(r != 0.0, _differ(r < 0.0, safe < 0.0))
    q = _adj.select(step, q - 1.0, q)
    r = _adj.select(step, r + safe, r)
    return _adj.select(zero, 0.0, q), _adj.select(zero, 0.0, r)


def _fmod(a, b):
    """a - trunc(a / b) * b, the remainder with the sign of a, computed
    in f64 (exactly for f32 and narrower). The product trunc(a / b) * b
    is taken exactly as a sum of two doubles (Dekker's product), so that
    the remainder is exact as C's fmod (numpy's) while the quotient is
    below 2**53."""
    dtype = a.dtype
    x, y = _adj.cast(a, DType.f64), _adj.cast(b, DType.f64)
    q = _adj.stop_gradient(_trunc(x / y))
    p, e = _exact_product(q, y)
    r = (x - p) - e
    # A quotient rounded up to the next integer leaves a remainder of the
    # wrong sign: one step back fixes it.
    over = _and(r != 0.0, _differ(r < 0.0, x < 0.0))
    r = _adj.select(over, r + _adj.select(_differ(x < 0.0, y < 0.0), -y, y),
                    r)
    # Past 2**53 the quotient is not exact, nor is the product.
    r = _adj.select(_adj.abs(q) < 2.0 ** 53, r, x - q * y)
    return _adj.cast(r, dtype) if dtype != DType.f64 else r


def _split(v):
    """v = hi + lo with 26-bit halves (Veltkamp), so that products of
    halves are exact."""
    c = _adj.stop_gradient(v * 134217729.0)
    hi = _adj.stop_gradient(c - (c - v))
    return hi, v - hi


def _exact_product(q, y):
    """(p, e) with p = fl(q * y) and p + e = q * y exactly."""
    p = q * y
    qh, ql = _split(q)
    yh, yl = _split(y)
    e = ((qh * yh - p) + qh * yl + ql * yh) + ql * yl
    return p, e


def _float_divmod(a, b):
    """numpy's float floor division and modulo (npy_divmod): from fmod, the
    remainder moved to the divisor's sign, the quotient (a - mod) / b
    rounded; a zero divisor gives a / b and NaN."""
    m = _fmod(a, b)
    move = _and(m != 0.0, _differ(b < 0.0, m < 0.0))
    mod = _adj.select(move, m + b, m)
    div = _adj.stop_gradient((a - m) / b)
    div = _adj.stop_gradient(_adj.select(move, div - 1.0, div))
    q = _floor(div)
    q = _adj.stop_gradient(_adj.select(div - q > 0.5, q + 1.0, q))
    q = _adj.select(b == 0.0, _adj.stop_gradient(a / b), q)
    return q, mod


def _divmod_values(a, b, name):
    a, b = _operands(a, b, name)
    if a.dtype.is_float:
        return _float_divmod(a, b)
    return _int_divmod(a, b)


def _value_floordiv(a, b):
    return _divmod_values(a, b, "floor_divide")[0]


def _value_mod(a, b):
    return _divmod_values(a, b, "remainder")[1]


def _value_divmod(a, b):
    return _divmod_values(a, b, "divmod")


def floor_divide(x1, x2, out=None):
    _no_out(out, "floor_divide")
    return binop(operator.floordiv, x1, x2)


def remainder(x1, x2, out=None):
    """The remainder with the divisor's sign (Python's %)."""
    _no_out(out, "remainder")
    return binop(operator.mod, x1, x2)


mod = remainder


def divmod(x1, x2, out1=None, out2=None):
    _no_out(out1 or out2, "divmod")
    return (binop(operator.floordiv, x1, x2), binop(operator.mod, x1, x2))


def fmod(x1, x2, out=None):
    """The remainder with the dividend's sign (C's fmod)."""
    _no_out(out, "fmod")

    def op(a, b):
        a, b = _operands(a, b, "fmod")
        if a.dtype.is_float:
            return _fmod(a, b)
        zero = b == 0.0
        safe = _adj.select(zero, 1.0, b)
        return _adj.select(zero, 0.0, a - _adj.div(a, safe) * safe)
    return binop(op, x1, x2)


def _value_rpow(b, a):
    """number ** Value (the front end materializes the number itself)."""
    return _adj.pow(as_value(a, "power", like=b), b)


def install(value_type):
    """The %, // and divmod operators of Values (the builder's Value has
    none: adj has no such op), and a number's ** a Value."""
    value_type.__rpow__ = _value_rpow
    value_type.__floordiv__ = _value_floordiv
    value_type.__rfloordiv__ = lambda b, a: _value_floordiv(a, b)
    value_type.__mod__ = _value_mod
    value_type.__rmod__ = lambda b, a: _value_mod(a, b)
    value_type.__divmod__ = _value_divmod
    value_type.__rdivmod__ = lambda b, a: _value_divmod(a, b)
