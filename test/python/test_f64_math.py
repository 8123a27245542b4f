"""f64 transcendentals in compiled code: -adj-approximate-math's own
approximations of exp, log, tanh, erf (and sigmoid through exp) as the
vectorized loops of jitted functions run them, measured in ulp against
mpmath (100-bit) over sweeps of each function's interesting ranges,
random bit patterns and the special values; the special values must equal
numpy's (the C library's). test/unit/Codegen/F64MathTest.cpp measures the
scalar functions (expm1 and log1p too) over many more points."""

import math

import mpmath
import numpy as np
import pytest

import adjoint as adj

mpmath.mp.prec = 100


def _reference(name, x):
    v = mpmath.mpf(float(x))
    if name == "exp":
        return mpmath.exp(v)
    if name == "log":
        return mpmath.log(v)
    if name == "tanh":
        return mpmath.tanh(v)
    if name == "erf":
        return mpmath.erf(v)
    return 1 / (1 + mpmath.exp(-v))  # sigmoid


def _ulp_errors(name, x, got):
    """|got - exact| in ulp of the exact value rounded to f64 (subnormal
    results: of the smallest subnormal), for finite exact values."""
    errors = []
    for xi, gi in zip(x, got):
        want = _reference(name, xi)
        rounded = float(want)
        if not math.isfinite(rounded):
            continue
        exponent = max(math.frexp(rounded)[1] - 1 if rounded else -1022,
                       -1022)
        ulp = mpmath.ldexp(1, exponent - 52)
        errors.append(float(abs(mpmath.mpf(float(gi)) - want) / ulp))
    return np.array(errors)


def _points(low, high, rng, seed_bits=2000):
    """A dense sweep of [low, high], log-spaced magnitudes and random f64
    bit patterns (finite ones)."""
    dense = np.linspace(low, high, 4001)
    mags = np.exp2(np.linspace(-60, 10, 400))
    bits = rng.integers(0, 2**63, seed_bits, dtype=np.int64).view(np.float64)
    bits = bits * np.where(rng.random(seed_bits) < 0.5, -1, 1)
    bits = bits[np.isfinite(bits)]
    return np.concatenate([dense, mags, -mags, bits])


_SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, 5e-324, -5e-324,
                      2.2250738585072014e-308, 1.7976931348623157e308,
                      -1.7976931348623157e308, 709.782712893384, 709.79,
                      -745.1332191019411, -745.14, -708.4, 1.0, -1.0, 6.0,
                      -6.0, 20.0, -20.0, 400.0, -400.0])

_NUMPY = {"exp": np.exp, "log": np.log, "tanh": np.tanh,
          "erf": np.vectorize(math.erf, otypes=[np.float64]),
          "sigmoid": lambda v: 1 / (1 + np.exp(-v))}

# name: (adj function, sweep range, bound in ulp)
_CASES = {
    "exp": (adj.exp, (-745.2, 709.8), 1.0),
    "log": (adj.log, (0.0, 4.0), 1.0),
    "tanh": (adj.tanh, (-20.0, 20.0), 2.0),
    "erf": (adj.erf, (-6.5, 6.5), 1.0),
    "sigmoid": (adj.sigmoid, (-40.0, 40.0), 2.0),
}


def _domain(name, x):
    """The inputs measured: log's are positive; sigmoid lowers to
    1 / (1 + exp(-x)), which is 0 where exp(-x) overflows (x < -709.78)
    while the exact value is a subnormal or tiny normal number."""
    if name == "log":
        return np.abs(x)
    if name == "sigmoid":
        return x[x > -709.78]
    return x


@pytest.mark.parametrize("name", sorted(_CASES))
def test_f64_accuracy_in_ulp(name, rng):
    fn, (low, high), bound = _CASES[name]
    compiled = adj.jit(lambda v: fn(v))
    x = _domain(name, _points(low, high, rng))
    got = np.asarray(compiled(x))
    assert got.dtype == np.float64
    errors = _ulp_errors(name, x, got)
    worst = errors.max()
    print("f64 %s: max %.3f ulp over %d points" % (name, worst, len(errors)))
    assert worst <= bound
    # Not a trivially exact comparison: most points are off by some ulp.
    assert (errors > 0).any()


@pytest.mark.parametrize("name", sorted(_CASES))
def test_f64_special_values_as_numpy(name):
    fn = _CASES[name][0]
    compiled = adj.jit(lambda v: fn(v))
    x = np.concatenate([_SPECIALS, -_SPECIALS, [np.nan]])
    got = np.asarray(compiled(x))
    with np.errstate(all="ignore"):
        want = _NUMPY[name](x)
    exact = ~np.isfinite(want) | (want == 0) | (np.abs(want) == 1)
    np.testing.assert_array_equal(got[exact], want[exact])
    # Signed zeros and infinities (a NaN's sign is unspecified).
    signed = exact & ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got[signed]),
                                  np.signbit(want[signed]))
    np.testing.assert_allclose(got[~exact], want[~exact], rtol=1e-15,
                               atol=0)
