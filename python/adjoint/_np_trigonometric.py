"""numpy's inverse trigonometric and hyperbolic functions, and the
log1p/expm1/arctan2 primitives they are built from (adjoint.numpy).

Each is a composition of adj ops, so its derivatives (both modes, any
order) and its batching come from theirs. The formulas are chosen for
accuracy near 0 (a relative error of an ulp at 1e-10, where the textbook
log(x + sqrt(x*x + 1)) returns 0) and for JAX's derivatives at the edges of
the domain: arcsin'(1) = inf comes from atan2's rule meeting sqrt'(0) = inf,
not from a special case. Outside a domain the result is NaN, as in numpy.

Functions that meet a large argument (x*x overflows) switch to the
asymptotic form with a select whose other side is fed a harmless stand-in:
a select passes a zero sensitivity to the side it did not pick, and zero
times an infinite derivative would still be NaN.
"""

import math

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_elementwise import float_function
from ._np_support import as_value, binop, float_dtype

# Above this, x*x + 1 is x*x to the last bit in f64 (and f32), so
# asinh(x) = acosh(x) = log(2x) exactly; x*x does not overflow below it.
_LARGE = 2.0 ** 28
_LN2 = math.log(2.0)

log1p = float_function(_adj.log1p, "log1p", complex_ok=True)
expm1 = float_function(_adj.expm1, "expm1", complex_ok=True)


def _in_f32(fn):
    """`fn` on f16 and bf16 through f32, where its intermediates (x*x,
    exp(x)) would overflow or round away the small terms."""
    def wrapped(x):
        if x.dtype in (DType.f16, DType.bf16):
            return _adj.cast(fn(_adj.cast(x, DType.f32)), x.dtype)
        return fn(x)
    return wrapped


def _unary(name, formula, complex_ok=False):
    return float_function(_in_f32(formula), name, complex_ok)


def _const(like, value):
    return _adj.scalar(like.module, value, like.dtype)


def _split(x, cond, stand_in_true, stand_in_false):
    """(x where cond else stand_in_true, x where not cond else
    stand_in_false): the arguments of the two sides of a select on cond."""
    t = _adj.select(cond, x, _const(x, stand_in_true))
    f = _adj.select(cond, _const(x, stand_in_false), x)
    return t, f


def _tan(x):
    return _adj.sin(x) / _adj.cos(x)


def _arctan(x):
    return _adj.atan2(x, _const(x, 1.0))


def _sqrt_one_minus_square(x):
    # 1 - x and 1 + x are exact where 1 - x*x cancels (|x| near 1); one is
    # negative (a NaN root) outside [-1, 1]. Two roots rather than the root
    # of their product: at x = 1 the derivative is then sqrt'(0) = inf
    # times 1 + x, not inf times the 1 - x = 0 that a product's rule
    # brings (NaN), so arcsin'(1) = inf as in JAX.
    return _adj.sqrt(1.0 - x) * _adj.sqrt(1.0 + x)


def _arcsin(x):
    return _adj.atan2(x, _sqrt_one_minus_square(x))


def _arccos(x):
    # atan2(sqrt(1 - x^2), x) is pi at x = -1, where the half-angle form
    # 2 atan2(sqrt(1 - x^2), 1 + x) would give atan2(0, 0) = 0.
    return _adj.atan2(_sqrt_one_minus_square(x), x)


def _sinh(x):
    # Near 0, two expm1 of opposite signs (no cancellation); beyond 1, the
    # halves of e^x and e^-x (_half_exps).
    large = _adj.abs(x) > 1.0
    big, small = _split(x, large, 1.0, 0.0)
    near = 0.5 * _adj.expm1(small) - 0.5 * _adj.expm1(-small)
    h, k = _half_exps(big)
    return _adj.select(large, h - k, near)


def _half_exps(x):
    """(e^x / 2, e^-x / 2) as (e^(x/2) / 2) e^(x/2): finite up to cosh's own
    overflow threshold (e^x alone overflows 0.7 earlier), within 2 ulp
    (e^(x - ln 2) would carry the rounding of x - ln 2, 5e-14 at 710)."""
    h, k = _adj.exp(0.5 * x), _adj.exp(-0.5 * x)
    return (0.5 * h) * h, (0.5 * k) * k


def _cosh(x):
    h, k = _half_exps(x)
    return h + k


def _arcsinh(x):
    # An odd function through its non-negative half. The sign is taken
    # with a select, not abs/sign, whose derivative at 0 is 0.
    negative = x < 0.0
    t = _adj.select(negative, -x, x)
    large = t > _LARGE
    big, small = _split(t, large, _LARGE, 0.0)
    # log1p(t + t^2 / (1 + sqrt(1 + t^2))) = log(t + sqrt(t^2 + 1)), as a
    # product so that -0.0 keeps its sign.
    near = _adj.log1p(small * (1.0 + small /
                               (1.0 + _adj.sqrt(small * small + 1.0))))
    r = _adj.select(large, _adj.log(big) + _LN2, near)
    return _adj.select(negative, -r, r)


def _arccosh(x):
    large = x > _LARGE
    big, small = _split(x, large, _LARGE, 2.0)
    # log1p(t + sqrt(t (t + 2))) with t = x - 1, exact near 1; NaN below 1.
    # Two roots for arccosh'(1) = inf (see _sqrt_one_minus_square).
    t = small - 1.0
    near = _adj.log1p(t + _adj.sqrt(t) * _adj.sqrt(small + 1.0))
    r = _adj.select(large, _adj.log(big) + _LN2, near)
    # Below -1, t + sqrt(t (t + 2)) rounds to -1 for large |x|: -inf, not
    # numpy's NaN.
    return _adj.select(x < 1.0, _const(x, math.nan), r)


def _arctanh(x):
    # Both log1p terms are exact near 0, and their poles give +-inf at
    # +-1 with the derivative 1 / (1 - x^2) = inf there, as JAX's.
    if x.dtype.is_complex:
        # Halved part by part: 0.5 as a complex factor would multiply the
        # infinite real part of a pole into a NaN imaginary part.
        d = _adj.log1p(x) - _adj.log1p(-x)
        return _adj.complex(0.5 * _adj.real(d), 0.5 * _adj.imag(d))
    return 0.5 * _adj.log1p(x) - 0.5 * _adj.log1p(-x)


# -- complex arguments --------------------------------------------------------
#
# Kahan's formulas ("Branch cuts for complex elementary functions", 1987):
# the real and imaginary parts from real atan2 and asinh of products of
# principal square roots, accurate near the branch points and on the cuts
# the side numpy's (C99's) takes for a signed zero imaginary part. 1 - z is
# built as (1 - x) - i y, not 1 - z, whose imaginary part 0 - y would lose
# the sign of a zero y.


def _cx(re, im):
    return _adj.complex(re, im)


def _sqrt_parts(re, im):
    s = _adj.sqrt(_cx(re, im))
    return _adj.real(s), _adj.imag(s)


def _complex_arcsin(z):
    x, y = _adj.real(z), _adj.imag(z)
    ar, ai = _sqrt_parts(1.0 - x, -y)                     # sqrt(1 - z)
    br, bi = _sqrt_parts(1.0 + x, y)                      # sqrt(1 + z)
    return _cx(_adj.atan2(x, ar * br - ai * bi),
               _arcsinh(ar * bi - ai * br))


def _complex_arccos(z):
    x, y = _adj.real(z), _adj.imag(z)
    ar, ai = _sqrt_parts(1.0 - x, -y)                     # sqrt(1 - z)
    br, bi = _sqrt_parts(1.0 + x, y)                      # sqrt(1 + z)
    return _cx(2.0 * _adj.atan2(ar, br), _arcsinh(br * ai - bi * ar))


def _complex_arccosh(z):
    x, y = _adj.real(z), _adj.imag(z)
    ar, ai = _sqrt_parts(x - 1.0, y)                      # sqrt(z - 1)
    br, bi = _sqrt_parts(x + 1.0, y)                      # sqrt(z + 1)
    return _cx(_arcsinh(ar * br + ai * bi), 2.0 * _adj.atan2(ai, br))


def _times_i(z):
    return _cx(-_adj.imag(z), _adj.real(z))


def _times_minus_i(z):
    return _cx(_adj.imag(z), -_adj.real(z))


def _complex_arcsinh(z):
    # asinh(z) = -i asin(i z), C99's definition.
    return _times_minus_i(_complex_arcsin(_times_i(z)))


def _complex_arctan(z):
    # atan(z) = -i atanh(i z), C99's definition.
    return _times_minus_i(_arctanh(_times_i(z)))


def _by_type(real, complex_):
    """`real` on real arrays, `complex_` on complex ones."""
    return lambda x: complex_(x) if x.dtype.is_complex else real(x)


tan = _unary("tan", _tan, complex_ok=True)
arctan = _unary("arctan", _by_type(_arctan, _complex_arctan),
                complex_ok=True)
arcsin = _unary("arcsin", _by_type(_arcsin, _complex_arcsin),
                complex_ok=True)
arccos = _unary("arccos", _by_type(_arccos, _complex_arccos),
                complex_ok=True)
sinh = _unary("sinh", _sinh, complex_ok=True)
cosh = _unary("cosh", _cosh, complex_ok=True)
arcsinh = _unary("arcsinh", _by_type(_arcsinh, _complex_arcsinh),
                 complex_ok=True)
arccosh = _unary("arccosh", _by_type(_arccosh, _complex_arccosh),
                 complex_ok=True)
arctanh = _unary("arctanh", _arctanh, complex_ok=True)


def _atan2_values(a, b):
    """atan2 of two operands after the front end's promotion: a number
    becomes a tensor of the other's dtype, integers become floats."""
    if not isinstance(a, Value):
        a = as_value(a, "arctan2", like=b if isinstance(b, Value) else None)
    if not isinstance(b, Value):
        b = as_value(b, "arctan2", like=a)
    if not a.dtype.is_float and not b.dtype.is_float:
        a, b = (_adj.cast(v, float_dtype()) for v in (a, b))
    if a.dtype in (DType.f16, DType.bf16) and a.dtype == b.dtype:
        return _adj.cast(_adj.atan2(_adj.cast(a, DType.f32),
                                    _adj.cast(b, DType.f32)), a.dtype)
    return _adj.atan2(a, b)


def arctan2(x1, x2):
    """numpy's arctan2: the angle of the point (x2, x1), in [-pi, pi],
    with numpy's signed zeros and infinities; integers as floats."""
    return binop(_atan2_values, x1, x2)


atan, asin, acos = arctan, arcsin, arccos
asinh, acosh, atanh = arcsinh, arccosh, arctanh
atan2 = arctan2
