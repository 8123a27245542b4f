"""Derivatives of reductions at degenerate sizes and values: a size-1 axis,
an empty axis, equal values, zeros in a product. Where the reduction is
constant in its input (std over one element) the derivative is 0, not
0/0; elsewhere adjoint agrees with JAX in float64."""

import numpy as np
import pytest

import adjoint as adj

jax = pytest.importorskip("jax")
jnp = jax.numpy
jax.config.update("jax_enable_x64", True)

#: (name, adjoint's function, JAX's); each reduces over the axis given.
REDUCTIONS = [
    ("sum", lambda x, a: np.sum(x, axis=a), lambda x, a: jnp.sum(x, axis=a)),
    ("mean", lambda x, a: np.mean(x, axis=a),
     lambda x, a: jnp.mean(x, axis=a)),
    ("max", lambda x, a: np.max(x, axis=a), lambda x, a: jnp.max(x, axis=a)),
    ("min", lambda x, a: np.min(x, axis=a), lambda x, a: jnp.min(x, axis=a)),
    ("prod", lambda x, a: np.prod(x, axis=a),
     lambda x, a: jnp.prod(x, axis=a)),
    ("var", lambda x, a: np.var(x, axis=a), lambda x, a: jnp.var(x, axis=a)),
    ("std", lambda x, a: np.std(x, axis=a), lambda x, a: jnp.std(x, axis=a)),
    ("cumsum", lambda x, a: np.cumsum(x, axis=a),
     lambda x, a: jnp.cumsum(x, axis=a)),
    ("cumprod", lambda x, a: np.cumprod(x, axis=a),
     lambda x, a: jnp.cumprod(x, axis=a)),
    ("softmax", lambda x, a: adj.softmax(x, a),
     lambda x, a: jax.nn.softmax(x, axis=a)),
    ("log_softmax", lambda x, a: adj.log_softmax(x, a),
     lambda x, a: jax.nn.log_softmax(x, axis=a)),
]


def _weights(shape):
    # A weighted sum makes every output's sensitivity different.
    return np.linspace(0.5, 2.0, max(int(np.prod(shape)), 1))[
        :int(np.prod(shape))].reshape(shape)


def _grads(fn, jfn, x, axis):
    out_shape = np.asarray(jfn(x, axis)).shape
    w = _weights(out_shape)
    ours = adj.grad(lambda x: np.sum(fn(x, axis) * w))(x)
    theirs = jax.grad(lambda x: jnp.sum(jfn(x, axis) * w))(x)
    return np.asarray(ours), np.asarray(theirs)


@pytest.mark.parametrize("name,fn,jfn", REDUCTIONS,
                         ids=[r[0] for r in REDUCTIONS])
@pytest.mark.parametrize("shape,axis", [((1, 4), 0), ((3, 1), 1),
                                        ((1, 1), 0), ((3, 4), 1)])
def test_gradients_over_size_one_axes_are_jax_s_and_finite(
        name, fn, jfn, shape, axis):
    x = np.random.default_rng(1).normal(size=shape)
    ours, theirs = _grads(fn, jfn, x, axis)
    assert np.all(np.isfinite(ours)), (name, ours)
    if name == "std" and shape[axis] == 1:
        # std over one element is 0 whatever x is: its derivative is 0
        # (JAX 0.10 gives NaN, the infinite slope of sqrt at 0 times 0).
        np.testing.assert_array_equal(ours, np.zeros(shape))
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name,fn,jfn", [r for r in REDUCTIONS
                                         if r[0] not in ("max", "min")],
                         ids=[r[0] for r in REDUCTIONS
                              if r[0] not in ("max", "min")])
def test_gradients_over_empty_axes_are_empty(name, fn, jfn):
    x = np.zeros((0, 3))
    ours = adj.grad(lambda x: np.sum(fn(x, 0)))(x)
    assert ours.shape == (0, 3)


def test_std_of_equal_values_has_a_zero_subgradient():
    x = np.full((2, 5), 3.0)
    g = adj.grad(lambda x: np.sum(np.std(x, axis=1)))(x)
    np.testing.assert_array_equal(g, np.zeros((2, 5)))
    # A row of equal values next to a varied one: only the constant row's
    # derivative is replaced, the other is JAX's.
    x[1] = np.arange(5.0)
    g = adj.grad(lambda x: np.sum(np.std(x, axis=1)))(x)
    jg = jax.grad(lambda x: jnp.sum(jnp.std(x, axis=1)))(x)
    np.testing.assert_array_equal(g[0], np.zeros(5))
    np.testing.assert_allclose(g[1], jg[1], rtol=1e-12)


def test_std_keeps_nan_and_numpy_s_ddof():
    @adj.jit
    def f(x):
        return np.std(x), np.std(x, ddof=1), np.var(x, ddof=3)

    s, s1, v3 = f(np.array([1.0, np.nan]))
    assert np.isnan(s) and np.isnan(s1)
    s, s1, v3 = f(np.array([1.0, 2.0]))
    np.testing.assert_allclose(s, np.std([1.0, 2.0]))
    np.testing.assert_allclose(s1, np.std([1.0, 2.0], ddof=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.isinf(v3) and np.isinf(np.var([1.0, 2.0], ddof=3))


def test_prod_with_zeros_is_jax_s():
    for x in ([0.0, 0.0, 2.0], [0.0, 3.0, 2.0], [1.5, -2.0, 4.0]):
        x = np.array(x)
        np.testing.assert_allclose(
            adj.grad(lambda x: np.prod(x))(x),
            jax.grad(lambda x: jnp.prod(x))(x), rtol=1e-12)


def test_max_ties_share_the_sensitivity_as_jax():
    x = np.array([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0]])
    np.testing.assert_allclose(
        adj.grad(lambda x: np.sum(np.max(x, axis=1)))(x),
        jax.grad(lambda x: jnp.sum(jnp.max(x, axis=1)))(x))
