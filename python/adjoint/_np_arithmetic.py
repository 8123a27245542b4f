"""numpy's exponent, logarithm, power and sign functions in jitted code,
composed from adj ops so that derivatives and batching come from theirs:
exp2 log2 log10 cbrt hypot logaddexp logaddexp2 float_power pow positive
fabs copysign signbit heaviside sinc gcd lcm fmax fmin deg2rad rad2deg
degrees radians nan_to_num and the parts of complex numbers
(real imag conj conjugate angle). The float-layout functions (frexp,
ldexp, modf, nextafter, spacing) are in _np_float_layout.py.

Operands follow the front end's rules (a number takes the array's dtype);
integers and booleans compute as the program's float dtype, as numpy
computes them in float64. Derivatives are JAX's: where a function is a
selection (copysign, heaviside, fmax, nan_to_num) the derivative flows
through the selected operand; booleans and integers have none.
"""

import math
import operator

from . import _adjoint as _adj
from ._adjoint import DType
from . import _np_float_bits as _bits
from ._np_elementwise import float_function
from ._np_rounding import _no_out, _operands, _or, _sign_bit
from ._np_support import as_value, binop, float_dtype
from ._np_trigonometric import log1p

_INF = float("inf")


def _const(like, value):
    return _adj.scalar(like.module, value, like.dtype)


def _floats(a, b, name):
    a, b = _operands(a, b, name)
    if not a.dtype.is_float:
        a, b = _adj.cast(a, float_dtype()), _adj.cast(b, float_dtype())
    return a, b


def _binary(fn, name, doc):
    """numpy's binary float function `fn(a, b)` of two Values of one float
    dtype, with numbers on either side and integers as floats."""
    def function(x1, x2, out=None):
        _no_out(out, name)
        return binop(lambda a, b: fn(*_floats(a, b, name)), x1, x2)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    return function


def _unary(fn, name, doc, complex_ok=False):
    f = float_function(fn, name, complex_ok)
    f.__doc__ = doc
    return f


# -- exponents and logarithms ------------------------------------------------

exp2 = _unary(lambda x: _adj.pow(_const(x, 2.0), x), "exp2",
              "2**x (exact at integers: pow, not exp(x * ln 2)).", True)
log2 = _unary(lambda x: _adj.log(x) / math.log(2.0), "log2",
              "log(x) / log(2), as JAX computes it.", True)
log10 = _unary(lambda x: _adj.log(x) / math.log(10.0), "log10",
               "log(x) / log(10), as JAX computes it.", True)


#: Magnitudes below which cbrt's Newton step is taken on x * 2**(3k)
#: (p**3 would lose bits as a subnormal), and that k.
_CBRT_SCALE = {DType.f64: (2.0 ** -900, 100), DType.f32: (2.0 ** -100, 33)}


def _cbrt(x):
    """sign(x) |x|**(1/3), its derivative from the power; the value is
    refined by one Newton step (a power's 1/3 is not exact in binary, so
    cbrt(27) would be 3 - ulp). f16 and bf16 are computed in f32."""
    if x.dtype in (DType.f16, DType.bf16):
        return _adj.cast(_cbrt(_adj.cast(x, DType.f32)), x.dtype)
    a = _adj.abs(x)
    p = _adj.pow(a, 1.0 / 3.0)
    below, k = _CBRT_SCALE[x.dtype]
    small = a < below
    an = _adj.stop_gradient(_adj.select(small, a * 2.0 ** (3 * k), a))
    pn = _adj.pow(an, 1.0 / 3.0)
    safe = _adj.select(pn == 0.0, 1.0, pn)
    newton = pn - (pn * pn * pn - an) / (safe * safe * 3.0)
    newton = _adj.select(small, newton * 2.0 ** -k, newton)
    exact = _or(_or(p == 0.0, p == _INF), p != p)
    r = _adj.select(exact, p, p + _adj.stop_gradient(
        _adj.select(exact, p, newton) - p))
    return _adj.select(_sign_bit(x), -r, r)


cbrt = _unary(_cbrt, "cbrt", "The real cube root (negative for x < 0).")


def _hypot(x, y):
    """sqrt(x**2 + y**2) scaled by the larger magnitude (no overflow); an
    infinite leg gives inf even beside a NaN, as numpy. The larger and
    smaller legs are chosen by one comparison, so that at a tie each leg
    gets half of the derivative's weight, as JAX's."""
    a, b = _adj.abs(x), _adj.abs(y)
    first = a >= b
    big, small = _adj.select(first, a, b), _adj.select(first, b, a)
    r = small / _adj.select(big == 0.0, 1.0, big)
    h = _adj.select(big == 0.0, big, big * _adj.sqrt(r * r + 1.0))
    h = _adj.select(_or(a != a, b != b), a + b, h)
    return _adj.select(_or(a == _INF, b == _INF), _INF, h)


hypot = _binary(_hypot, "hypot", "The hypotenuse sqrt(x1**2 + x2**2).")


def _logaddexp(x, y):
    """log(exp(x) + exp(y)) around m = max(x, y): m + log1p(s) with s the
    smaller term, written so that each operand's derivative is its softmax
    weight (exact at ties and for large differences). The larger term is
    exp(0) - 1 = 0 in value but keeps its derivative; an infinite m shifts
    by 0 instead (-inf and -inf give -inf, not NaN)."""
    first = x >= y
    m = _adj.select(first, x, y)
    m = _adj.stop_gradient(_adj.select(_adj.abs(m) < _INF, m, 0.0))
    ex, ey = _adj.exp(x - m), _adj.exp(y - m)
    s = _adj.select(first, (ex - 1.0) + ey, ex + (ey - 1.0))
    return m + log1p(s)   # _np_trigonometric's: the best one adj has


logaddexp = _binary(_logaddexp, "logaddexp",
                    "log(exp(x1) + exp(x2)), without overflow.")
logaddexp2 = _binary(
    lambda x, y: _logaddexp(x * math.log(2.0), y * math.log(2.0))
    / math.log(2.0), "logaddexp2", "log2(2**x1 + 2**x2), without overflow.")
float_power = _binary(_adj.pow, "float_power",
                      "x1 ** x2 in floats (integers become the program's "
                      "float dtype; a float dtype is kept, as JAX).")


def pow(x1, x2):
    """numpy 2's name of power: x1 ** x2 with the front end's rules."""
    return binop(operator.pow, x1, x2)


def positive(x, out=None):
    """+x (a copy, which a value is); booleans are a TypeError, as in
    numpy."""
    _no_out(out, "positive")
    x = as_value(x, "positive")
    if x.dtype == DType.i1:
        raise TypeError("adjoint.numpy.positive: not defined for booleans "
                        "(as numpy's)")
    return x


fabs = _unary(_adj.abs, "fabs", "|x| as a float.")


# -- signs -------------------------------------------------------------------

def _copysign(x, y):
    a = _adj.abs(x)
    return _adj.select(_sign_bit(y), -a, a)


copysign = _binary(_copysign, "copysign",
                   "|x1| with x2's sign bit (so -0.0 counts as negative).")


def signbit(x, out=None):
    """Whether the sign bit is set: -0.0 and -nan too; x < 0 for integers,
    False for booleans. Boolean, so without a derivative."""
    _no_out(out, "signbit")
    x = as_value(x, "signbit")
    if x.dtype.is_float:
        return _sign_bit(x)
    if x.dtype == DType.i1:
        return _adj.fill(x.module, 0.0, list(x.shape), DType.i1)
    return x < 0.0


def _heaviside(x, h0):
    """0 below 0, 1 above, h0 at 0 (the derivative with respect to h0
    flows there), NaN at NaN."""
    at = _adj.select(x != x, x, h0)
    return _adj.select(x < 0.0, _const(x, 0.0),
                       _adj.select(x > 0.0, _const(x, 1.0), at))


heaviside = _binary(_heaviside, "heaviside", "The Heaviside step function.")


def _sinc(x):
    """sin(pi x) / (pi x); at 0 its Maclaurin polynomial (to the 8th power,
    evaluated at 0), so that derivatives at 0 are the function's, as JAX
    defines them (0, -pi**2/3, ...)."""
    t = x * math.pi
    zero = x == 0.0
    safe = _adj.select(zero, 1.0, t)
    t2 = t * t
    series = 1.0 + t2 * (-1.0 / 6.0 + t2 * (1.0 / 120.0 + t2 * (
        -1.0 / 5040.0 + t2 * (1.0 / 362880.0))))
    return _adj.select(zero, series, _adj.sin(safe) / safe)


sinc = _unary(_sinc, "sinc", "The normalized sinc, sin(pi x) / (pi x).")
deg2rad = _unary(lambda x: x * (math.pi / 180.0), "deg2rad",
                 "Degrees to radians.")
rad2deg = _unary(lambda x: x * (180.0 / math.pi), "rad2deg",
                 "Radians to degrees.")
radians = _unary(lambda x: x * (math.pi / 180.0), "radians",
                 "Degrees to radians (deg2rad).")
degrees = _unary(lambda x: x * (180.0 / math.pi), "degrees",
                 "Radians to degrees (rad2deg).")


def _fmax(x, y):
    return _adj.select(_or(x > y, y != y), x, y)


def _fmin(x, y):
    return _adj.select(_or(x < y, y != y), x, y)


def _extreme(fn, name):
    def function(x1, x2, out=None):
        _no_out(out, name)

        def op(a, b):
            a, b = _operands(a, b, name)
            return fn(a, b) if a.dtype.is_float else \
                _adj.maximum(a, b) if fn is _fmax else _adj.minimum(a, b)
        return binop(op, x1, x2)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = ("numpy's %s: a NaN operand is ignored (NaN only "
                        "when both are); at a tie x2 is taken, as JAX"
                        % name)
    return function


fmax = _extreme(_fmax, "fmax")
fmin = _extreme(_fmin, "fmin")


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN as `nan`, +-inf as `posinf`/`neginf` (the dtype's largest finite
    magnitudes by default); integers and booleans are unchanged."""
    x = as_value(x, "nan_to_num")
    if not x.dtype.is_float:
        return x
    big = _bits.largest(x.dtype)
    posinf = big if posinf is None else float(posinf)
    neginf = -big if neginf is None else float(neginf)
    out = _adj.select(x != x, float(nan), x)
    out = _adj.select(out == _INF, posinf, out)
    return _adj.select(out == -_INF, neginf, out)


# -- integers ----------------------------------------------------------------

def _integers(a, b, name):
    a, b = _operands(a, b, name)
    if a.dtype.is_float or a.dtype == DType.i1:
        raise TypeError("adjoint.numpy.%s: the arguments must be "
                        "integers (as numpy's %s)" % (name, name))
    return a, b


#: Euclid's steps suffice for any pair below 2**63 (2**31): the pair that
#: needs k steps is at least Fibonacci's (F(k + 2), F(k + 1)), and F(93)
#: (F(47)) is past the range (Lame's theorem).
_EUCLID_STEPS = {DType.i64: 92, DType.i32: 46}


def _gcd(a, b):
    """Euclid's algorithm on |a|, |b| for the worst case's number of steps
    (an adj.for of fixed length, which batches, where an adj.while with a
    data-dependent test would not); gcd(0, 0) = 0."""
    a, b = _adj.abs(a), _adj.abs(b)
    shape = list((a + b).shape)
    a, b = _adj.broadcast_to(a, shape), _adj.broadcast_to(b, shape)

    def step(i, a, b):
        done = b == 0.0
        safe = _adj.select(done, 1.0, b)
        r = a - _adj.div(a, safe) * safe
        return [_adj.select(done, a, b), _adj.select(done, b, r)]

    return _adj.for_(0, _EUCLID_STEPS[a.dtype], 1, [a, b], step)[0]


def gcd(x1, x2, out=None):
    """The greatest common divisor of |x1| and |x2| (integers)."""
    _no_out(out, "gcd")
    return binop(lambda a, b: _gcd(*_integers(a, b, "gcd")), x1, x2)


def lcm(x1, x2, out=None):
    """The least common multiple of |x1| and |x2|; 0 if either is 0."""
    _no_out(out, "lcm")

    def op(a, b):
        a, b = _integers(a, b, "lcm")
        a, b = _adj.abs(a), _adj.abs(b)
        d = _gcd(a, b)
        zero = d == 0.0
        return _adj.select(zero, 0.0, a * _adj.div(b, _adj.select(
            zero, 1.0, d)))
    return binop(op, x1, x2)


# -- complex-number parts ------------------------------------------------------

def real(val):
    """The real part; a real array is its own."""
    return _adj.real(as_value(val, "real"))


def imag(val):
    """The imaginary part; zeros of a real array's dtype."""
    return _adj.imag(as_value(val, "imag"))


def conjugate(x, out=None):
    """The complex conjugate; a real array is its own."""
    _no_out(out, "conjugate")
    return _adj.conj(as_value(x, "conjugate"))


conj = conjugate


def angle(z, deg=False):
    """The argument, atan2(imag, real): for a real number pi for negative
    values and -0.0, 0 otherwise (no derivative: arctan2(0, x)'s is 0);
    NaN stays NaN."""
    x = as_value(z, "angle")
    half = 180.0 if deg else math.pi
    if x.dtype.is_complex:
        a = _adj.angle(x)
        return a * (half / math.pi) if deg else a
    if not x.dtype.is_float:
        x = _adj.cast(x, float_dtype())
    out = _adj.select(_sign_bit(x), _const(x, half), _const(x, 0.0))
    return _adj.stop_gradient(_adj.select(x != x, x, out))
