"""numpy's inverse trigonometric and hyperbolic functions, log1p, expm1 and
arctan2 in jitted code, held to jax.numpy (values, both modes, second
order), to numpy's domains and poles, and to numpy's accuracy at tiny
arguments."""

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import adjoint as adj
import adjoint.numpy as anp
from numpy_reference import check_like_jax

RNG = np.random.default_rng(26)


def uniform(low, high, shape=(2, 3)):
    return RNG.uniform(low, high, shape)


# Inside each function's domain, away from its poles.
DOMAINS = {
    "log1p": (-0.9, 3.0), "expm1": (-3.0, 3.0), "tan": (-1.2, 1.2),
    "arctan": (-4.0, 4.0), "arcsin": (-0.95, 0.95),
    "arccos": (-0.95, 0.95), "sinh": (-3.0, 3.0), "cosh": (-3.0, 3.0),
    "arcsinh": (-4.0, 4.0), "arccosh": (1.05, 5.0),
    "arctanh": (-0.9, 0.9),
}


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_like_jax(name):
    check_like_jax(name, uniform(*DOMAINS[name]))


def test_arctan2_like_jax_in_every_quadrant_and_broadcast():
    check_like_jax("arctan2", uniform(-2, 2), uniform(-2, 2))
    check_like_jax("arctan2", uniform(-2, 2, (3,)), uniform(-2, 2, (2, 3)))


def test_large_arguments_take_the_asymptotic_form():
    # x*x overflows past 1e154; the derivatives there are 1/x.
    x = np.array([3e4, 1e9, 1e200, 7e307])
    check_like_jax("arcsinh", np.concatenate([x, -x]), order=1)
    check_like_jax("arccosh", x, order=1)


def test_numpy_spellings():
    names = ["atan", "asin", "acos", "asinh", "acosh", "atanh", "atan2"]
    assert set(names) <= set(anp.NAMES)
    x = uniform(-0.9, 0.9)
    check_like_jax("atanh", x, jax_name="arctanh")
    check_like_jax("atan2", x, x[::-1], jax_name="arctan2", order=1)
    # adjoint.numpy's own spellings, eagerly on numpy arrays.
    for short in names:
        args = ((x, x[::-1]) if short == "atan2" else
                (x + 1.5,) if short == "acosh" else (x,))
        np.testing.assert_allclose(getattr(anp, short)(*args),
                                   getattr(np, "arc" + short[1:])(*args),
                                   rtol=1e-12, err_msg=short)


def test_domains_and_poles_match_numpy():
    cases = {
        "log1p": [-2.0, -1.0, -0.0, np.inf, np.nan],
        "expm1": [-np.inf, -800.0, -0.0, 800.0, np.inf],
        "arcsin": [-1.5, -1.0, -0.0, 1.0, 1.5, np.nan],
        "arccos": [-1.5, -1.0, 0.0, 1.0, 1.5],
        "arctan": [-np.inf, -0.0, np.inf],
        "tan": [-0.0, 0.0, 1.5],
        "sinh": [-np.inf, -800.0, -710.0, -0.0, 1.0, 710.0, np.inf],
        "cosh": [-np.inf, -710.0, 0.0, 710.0, 800.0],
        "arcsinh": [-np.inf, -1e300, -0.0, 1e300, np.inf, np.nan],
        "arccosh": [-np.inf, -1e300, -2.0, 0.0, 1.0, 1e300, np.inf],
        "arctanh": [-2.0, -1.0, -0.0, 1.0, 2.0],
    }
    fns = sorted(cases)

    @adj.jit
    def all_of(*xs):
        return tuple(getattr(np, f)(x) for f, x in zip(fns, xs))

    with np.errstate(all="ignore"):
        inputs = [np.array(cases[f]) for f in fns]
        for f, got, x in zip(fns, all_of(*inputs), inputs):
            want = getattr(np, f)(x)
            np.testing.assert_allclose(got, want, rtol=1e-14, err_msg=f)
            # Signed zeros and the sign of infinities too.
            number = ~np.isnan(want)
            np.testing.assert_array_equal(np.signbit(got)[number],
                                          np.signbit(want)[number],
                                          err_msg=f)


def test_arctan2_signed_zeros_and_infinities_match_numpy():
    y = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.inf])
    x = np.array([0.0, 0.0, -0.0, -0.0, np.inf, -np.inf, 1.0, np.inf,
                  -np.inf])
    got = adj.jit(np.arctan2)(y, x)
    np.testing.assert_array_equal(got, np.arctan2(y, x))
    np.testing.assert_array_equal(np.signbit(got),
                                  np.signbit(np.arctan2(y, x)))


def test_derivatives_at_the_domain_edges_match_jax():
    """JAX's infinities at the poles and NaN at arctan2's origin."""
    edges = {"arcsin": [-1.0, 1.0], "arccos": [-1.0, 1.0],
             "arctanh": [-1.0, 1.0], "arccosh": [1.0], "log1p": [-1.0]}
    fns = sorted(edges)

    def grads(numpy, grad):
        return [grad(lambda x, f=f: numpy.sum(getattr(numpy, f)(x)))(
            np.array(edges[f])) for f in fns]

    for f, got, want in zip(fns, grads(np, adj.grad),
                            grads(jnp, jax.grad)):
        np.testing.assert_array_equal(got, want, err_msg=f)
    origin = (np.array([0.0]), np.array([0.0]))
    got = adj.grad(lambda y, x: np.sum(np.arctan2(y, x)), argnums=(0, 1))(
        *origin)
    want = jax.grad(lambda y, x: jnp.sum(jnp.arctan2(y, x)),
                    argnums=(0, 1))(*origin)
    np.testing.assert_array_equal(got, want)


TINY = ["log1p", "expm1", "tan", "arctan", "arcsin", "sinh", "arcsinh",
        "arctanh"]


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 4e-16),
                                         (np.float32, 2e-7)])
def test_tiny_arguments_keep_their_precision(dtype, rtol):
    """f(x) = x(1 + O(x)) at 1e-10 (and 1e-300 in f64): a composite such as
    log(1 + x) would give 0 or 1.00000008e-10."""
    tiny = [1e-10, -3e-10, 2e-20] + ([1e-300] if dtype == np.float64 else [])
    x = np.array(tiny, dtype)

    @adj.jit
    def all_of(x):
        return tuple(getattr(np, f)(x) for f in TINY) + (
            np.arccos(1.0 - x), np.arccosh(1.0 + np.abs(x)),
            np.cosh(x) - 1.0, np.arctan2(x, np.ones_like(x)))

    got = all_of(x)
    for f, g in zip(TINY, got):
        if f == "tan" and dtype == np.float32:
            # tan is sin / cos, and the CPU's f32 sin (MLIR's polynomial)
            # gives 6e-8 for sin(-3e-10): a bug of np.sin itself.
            continue
        np.testing.assert_allclose(g, getattr(np, f)(x.astype(np.float64)),
                                   rtol=rtol, err_msg=f)
        assert g.dtype == dtype, f
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(got[-1], np.arctan2(x64, 1.0), rtol=rtol)
    # 1 - x rounds in the input itself: compare with numpy on that input.
    np.testing.assert_allclose(got[-4], np.arccos((1.0 - x).astype(
        np.float64)), rtol=rtol)


def test_integers_and_numbers_are_promoted_like_numpy():
    i = np.array([[0, 1, 2], [3, -4, 5]], np.int32)

    @adj.jit
    def f(i, x):
        return (np.arcsinh(i), np.arctan2(i, 2), np.arctan2(1.5, x),
                np.arctan2(x, [1.0, -2.0, 3.0]), np.expm1(i), np.log1p(True))

    x = uniform(-1, 1)
    got = f(i, x)
    want = (np.arcsinh(i), np.arctan2(i, 2), np.arctan2(1.5, x),
            np.arctan2(x, [1.0, -2.0, 3.0]), np.expm1(i), np.log1p(True))
    for g, w in zip(got, want):
        assert np.asarray(g).dtype.kind == "f"
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_half_precision_goes_through_f32():
    # In f16, x*x overflows at 256 and e^x at 11.
    x = np.array([1e-3, -0.5, 300.0, 2000.0], np.float16)

    @adj.jit
    def f(x):
        return np.arcsinh(x), np.cosh(x / 200.0), np.arctan2(x, x[::-1])

    got = f(x)
    want = (np.arcsinh(x), np.cosh(x / 200.0), np.arctan2(x, x[::-1]))
    for g, w in zip(got, want):
        assert g.dtype == np.float16
        np.testing.assert_allclose(g, w, rtol=2e-3)


def test_vmap_and_eager():
    x, y = uniform(-2, 2, (4, 3)), uniform(-2, 2, (3,))
    got = adj.jit(adj.vmap(lambda a: np.arctan2(a, y) + np.arcsinh(a)))(x)
    np.testing.assert_allclose(got, np.arctan2(x, y) + np.arcsinh(x),
                               rtol=1e-12)
    # adjoint.numpy on numpy arrays runs compiled.
    np.testing.assert_allclose(anp.log1p(x[0] + 2.0), np.log1p(x[0] + 2.0),
                               rtol=1e-14)


def test_on_opencl(opencl_device):
    for name in ("log1p", "expm1", "arcsin", "arcsinh", "arccosh",
                 "arctanh"):
        check_like_jax(name, uniform(*DOMAINS[name]), order=0,
                       devices=[opencl_device])
    check_like_jax("arctan2", uniform(-2, 2), uniform(-2, 2), order=0,
                   devices=[opencl_device])


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 1e-15),
                                         (np.float32, 4e-7)])
def test_on_opencl_tiny_arguments_and_special_values(opencl_device, dtype,
                                                      rtol):
    """The SPIR-V conversion's own log1p/expm1 (log(1 + x), exp(x) - 1)
    would give 0 here in f32; -adj-intel-precise-math keeps them."""
    names = ["log1p", "expm1", "sinh", "arcsinh", "arctanh"]

    def all_of(x):
        return tuple(getattr(np, f)(x) for f in names)

    x = np.array([1e-10, -3e-10, 0.25, -1.0, np.inf, -np.inf], dtype)
    got = adj.jit(all_of, device=opencl_device)(x)
    with np.errstate(all="ignore"):
        for f, g in zip(names, got):
            np.testing.assert_allclose(adj.to_numpy(g),
                                       getattr(np, f)(x.astype(np.float64)),
                                       rtol=rtol, err_msg=f)


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_ties_split_the_derivative_evenly_like_jax(name):
    x = uniform(-1, 1)
    y = np.where(RNG.uniform(size=x.shape) < 0.5, x, uniform(-1, 1))
    check_like_jax(name, x, y)
    # d max(x, x) = 1: both halves arrive.
    g = adj.grad(lambda x: np.sum(getattr(np, name)(x, x)))(x)
    np.testing.assert_array_equal(g, np.ones_like(x))
