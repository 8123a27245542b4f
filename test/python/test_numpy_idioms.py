"""numpy and jax.numpy idioms as researchers write them, in jitted code:
%, // and divmod, scalar-first binary ufuncs, rounding, r_/c_, einsum's
sublist form, reductions of booleans and lists, numpy's keyword names,
logsumexp and gelu; values against numpy, derivatives against JAX."""

import operator

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp

jax.config.update("jax_enable_x64", True)

X = np.array([-7.5, -3.5, -1.2, -0.0, 0.7, 2.5, 5.0, 9.25, -2.0, 6.0])
Y = np.array([2.0, -1.5, 0.3, 3.0, -2.0, 2.5, 3.0, -4.0, 2.0, -3.0])


# -- %, //, divmod, mod, remainder, fmod ------------------------------------

@pytest.mark.parametrize("name,fn", [
    ("%", lambda a, b: a % b),
    ("//", lambda a, b: a // b),
    ("divmod", lambda a, b: divmod(a, b)),
    ("np.mod", lambda a, b: np.mod(a, b)),
    ("np.remainder", lambda a, b: np.remainder(a, b)),
    ("np.fmod", lambda a, b: np.fmod(a, b)),
    ("np.floor_divide", lambda a, b: np.floor_divide(a, b)),
    ("np.divmod", lambda a, b: np.divmod(a, b)),
])
def test_integer_division_family_follows_numpy(name, fn, rng):
    floats = (X, Y)
    ints = (np.array([7, -7, 7, -7, 0, 5, -9, 12]),
            np.array([2, 2, -2, -2, 3, 0, 4, -5]))
    f32 = tuple(a.astype(np.float32) for a in floats)
    wide = (rng.uniform(-50, 50, 64), rng.uniform(-9, 9, 64))
    for a, b in (floats, ints, f32, wide):
        with np.errstate(divide="ignore"):   # 5 // 0 is 0 with a warning
            want = fn(a, b)
        got = adj.jit(fn)(a, b)
        for g, w in zip(*((got, want) if isinstance(want, tuple)
                          else ((got,), (want,)))):
            g = np.asarray(g)
            assert g.dtype == w.dtype, (name, g.dtype, w.dtype)
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6,
                                       err_msg=name)


def test_numbers_on_either_side_of_mod_and_floordiv():
    cases = [lambda x: x % 3.0, lambda x: 7.0 % x, lambda x: x // 2.5,
             lambda x: -9.0 // x, lambda x: divmod(x, 4.0)[1],
             lambda x: divmod(10.0, x)[0], lambda x: np.mod(2.0, x),
             lambda x: np.fmod(x, 2.0), lambda x: np.floor_divide(x, -2)]
    for fn in cases:
        np.testing.assert_allclose(adj.jit(fn)(Y), fn(Y), rtol=1e-12)
    i = np.array([7, -7, 9, -2])
    for fn in (lambda n: n % 3, lambda n: 10 // n, lambda n: n // -2):
        got, want = np.asarray(adj.jit(fn)(i)), fn(i)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    # An integer array and a float: floats of the program's float dtype.
    np.testing.assert_array_equal(adj.jit(lambda n: n % 2.5)(i), i % 2.5)


def test_division_by_zero_as_numpy():
    with np.errstate(all="ignore"):
        a, b = np.array([3.0, -3.0, 0.0]), np.zeros(3)
        for fn in (lambda a, b: a % b, lambda a, b: a // b,
                   lambda a, b: np.fmod(a, b)):
            np.testing.assert_array_equal(adj.jit(fn)(a, b), fn(a, b))
        i, z = np.array([3, -3, 0]), np.zeros(3, np.int64)
        for fn in (lambda a, b: a % b, lambda a, b: a // b):
            np.testing.assert_array_equal(adj.jit(fn)(i, z), fn(i, z))


@pytest.mark.parametrize("fn,jfn", [
    (lambda a, b: a % b, lambda a, b: a % b),
    (lambda a, b: np.fmod(a, b), jnp.fmod),
    (lambda a, b: divmod(a, b)[1] + a // b, lambda a, b: a % b + a // b),
])
def test_mod_gradients_are_jax(fn, jfn):
    def f(a, b):
        return np.sum(fn(a, b) * np.sin(a))

    def jf(a, b):
        return jnp.sum(jfn(a, b) * jnp.sin(a))

    for argnum in (0, 1):
        got = adj.grad(adj.jit(f), argnum)(X, Y)
        want = jax.grad(jf, argnum)(X, Y)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_operators_and_rounding_on_builder_values():
    m = adj.Module()
    t = adj.tensor_type(adj.f64, [len(X)])
    m.function("f", [t, t], lambda a, b: adj.make_tuple(
        a % b, a // b, 2.0 % b, divmod(a, 3.0)[0], 2.0 ** b,
        np.power(2.0, b), np.floor(a), np.round(a, 1), np.fmod(a, b)))
    got = adj.compile(m, "f")(X, Y)
    for g, w in zip(got, (X % Y, X // Y, 2.0 % Y, X // 3.0, 2.0 ** Y,
                          2.0 ** Y, np.floor(X), np.round(X, 1),
                          np.fmod(X, Y))):
        np.testing.assert_allclose(g, w, rtol=1e-12)


# -- scalar-first binary ufuncs and powers ---------------------------------

def test_every_binary_ufunc_takes_a_number_first():
    x = np.array([0.5, 1.5, -2.0, 3.0])
    for name in ("add", "subtract", "multiply", "divide", "true_divide",
                 "power", "maximum", "minimum", "equal", "not_equal", "less",
                 "less_equal", "greater", "greater_equal", "floor_divide",
                 "remainder", "mod", "fmod", "logical_and", "logical_or",
                 "logical_xor"):
        u = getattr(np, name)
        with np.errstate(all="ignore"):
            want = u(2.0, x)
        got = adj.jit(lambda v: u(2.0, v))(x)
        np.testing.assert_allclose(np.asarray(got), want, err_msg=name)
        assert np.asarray(got).dtype == want.dtype, name


def test_powers_with_a_scalar_base_and_their_gradients():
    x = np.array([-1.0, 0.0, 0.5, 3.0])
    for fn in (lambda v: np.power(2.0, v), lambda v: 2.0 ** v,
               lambda v: np.float32(2) ** v, lambda v: np.power(v, 3)):
        np.testing.assert_allclose(adj.jit(fn)(x), fn(x), rtol=1e-12)
    got = adj.grad(adj.jit(lambda v: np.sum(np.power(2.0, v))))(x)
    np.testing.assert_allclose(got, jax.grad(
        lambda v: jnp.sum(jnp.power(2.0, v)))(x), rtol=1e-12)


# -- rounding -----------------------------------------------------------------

def test_rounding_functions_follow_numpy():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, -3.7, 2.3, 1e17,
                  -0.0, 0.0, -0.3, -1e-300,
                  -1e300, np.inf, -np.inf, 0.49999999999999994,
                  4503599627370497.0])
    for name in ("floor", "ceil", "trunc", "fix", "rint", "round", "around"):
        fn = getattr(np, name)
        for a in (x, x.astype(np.float32), x.astype(np.float16)):
            got = adj.jit(fn)(a)
            np.testing.assert_array_equal(got, fn(a), err_msg=name)
            # Zeros keep x's sign, as numpy's (ceil(-0.5) is -0.0).
            np.testing.assert_array_equal(np.signbit(got),
                                          np.signbit(fn(a)), err_msg=name)
    nan = np.array([np.nan])
    assert np.isnan(adj.jit(np.floor)(nan)).all()


def test_round_with_decimals_is_numpy():
    x = np.array([1.2345, -2.675, 0.125, 1234.5678, -0.0051, 2.5e-3])
    for d in (0, 1, 2, 3, -1, -2):
        np.testing.assert_array_equal(
            adj.jit(lambda v: np.round(v, decimals=d))(x), np.round(x, d))
        np.testing.assert_array_equal(
            adj.jit(lambda v: np.around(v, d))(x), np.around(x, d))
    i = np.array([1234, -1250, 1350])
    np.testing.assert_array_equal(adj.jit(lambda v: np.round(v, -2))(i),
                                  np.round(i, -2))


def test_rounding_has_zero_gradient_and_straight_through_one():
    x = np.array([-1.7, 0.2, 2.5, 3.9])
    for fn in (np.round, np.floor, np.ceil, np.trunc, np.rint):
        g = adj.grad(adj.jit(lambda v: np.sum(fn(v) * v)))(x)
        np.testing.assert_array_equal(g, fn(x))

    def ste(v):
        return np.sum((v + adj.stop_gradient(np.round(v) - v)) * 3.0)

    np.testing.assert_array_equal(adj.grad(adj.jit(ste))(x), np.full(4, 3.0))


# -- r_, c_, einsum's sublists, reductions, keywords --------------------------

def test_r_and_c_concatenate_as_numpy():
    x, y = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    cases = [
        lambda a, b: np.r_[a, 0.0, b], lambda a, b: np.r_[a, 0:3, 1.5],
        lambda a, b: np.r_[2:8:2, a], lambda a, b: np.r_['0,2', a, b],
        lambda a, b: np.r_['0,2,0', a, b], lambda a, b: np.r_['1,2,0', a, b],
        lambda a, b: np.r_['-1', np.stack([a, b]), np.stack([b, a])],
        lambda a, b: np.c_[a, b], lambda a, b: np.c_[a, 0:3],
        lambda a, b: np.c_[np.stack([a, b]), np.stack([b, a])],
        lambda a, b: anp.r_[a, b], lambda a, b: anp.c_[a, b]]
    for fn in cases:
        want = np.r_[x, y] if fn is cases[-2] else (
            np.c_[x, y] if fn is cases[-1] else fn(x, y))
        got = np.asarray(adj.jit(fn)(x, y))
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    i = np.array([1, 2])
    got = np.asarray(adj.jit(lambda n: np.r_[n, 7])(i))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, [1, 2, 7])


def test_r_directive_errors_are_located():
    with pytest.raises(adj.FrontendError, match="matrix"):
        adj.jit(lambda a: np.r_['r', a, a])(np.ones(2))


def test_einsum_sublist_form():
    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal(s) for s in ((2, 3), (3, 4), (4,)))
    for fn in (lambda a, b, c: np.einsum(a, [0, 1], b, [1, 2], [0, 2]),
               lambda a, b, c: np.einsum(a, [0, 1], b, [1, 2], c, [2]),
               lambda a, b, c: np.einsum(b, [Ellipsis, 1], c, [1]),
               lambda a, b, c: np.einsum(a, [1, 0])):
        np.testing.assert_allclose(adj.jit(fn)(a, b, c), fn(a, b, c),
                                   rtol=1e-12)


def test_reductions_of_booleans_have_numpy_dtypes():
    x = np.array([[0.5, -1.0, 2.0], [-3.0, 4.0, 0.0]])
    for fn in (lambda v: np.sum(v > 0), lambda v: np.sum(v > 0, axis=0),
               lambda v: np.mean(v > 0), lambda v: np.mean(v > 0, axis=1),
               lambda v: (v > 0).sum(),
               lambda v: np.sum(v != 0, keepdims=True),
               lambda v: np.prod(v > -5, axis=1),
               lambda v: np.cumsum(v > 0)):
        got, want = np.asarray(adj.jit(fn)(x)), fn(x)
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_allclose(got, want)


def test_reductions_of_lists_of_values():
    x = np.array([1.5, -2.0, 4.0])
    for fn in (lambda v: np.mean([v[0], v[1], 2.0]),
               lambda v: np.sum((v[0], v[2] * 2.0)),
               lambda v: np.max([v[0], v[1]]),
               lambda v: np.mean([v, v * 2.0], axis=0),
               lambda v: np.std([v[0], v[1], v[2]])):
        np.testing.assert_allclose(adj.jit(fn)(x), fn(x), rtol=1e-12)
    g = adj.grad(adj.jit(lambda v: np.mean([v[0] * v[1], v[2]])))(x)
    np.testing.assert_allclose(g, [x[1] / 2, x[0] / 2, 0.5])


def test_numpy_keyword_names_are_accepted():
    x = np.arange(24.0).reshape(2, 3, 4) - 7.0
    cases = [
        lambda v: np.transpose(v, axes=(2, 0, 1)),
        lambda v: np.transpose(v, (1, 0, 2)),
        lambda v: np.sum(v, axis=1, keepdims=True),
        lambda v: np.sum(v, 1, None, None, True),
        lambda v: np.sum(v, axis=(0, 2), dtype=np.float32),
        lambda v: np.sum(v, initial=5.0),
        lambda v: np.mean(v, axis=-1, keepdims=True),
        lambda v: np.max(v, axis=0, keepdims=True),
        lambda v: np.max(v, 1, None, True),
        lambda v: np.min(v, axis=2, initial=-100.0),
        lambda v: np.prod(v[0, :2], axis=1, keepdims=True),
        lambda v: np.prod(v[0], 0, None, None, True),
        lambda v: np.var(v, axis=1, ddof=1),
        lambda v: np.std(v, 2, None, None, 1, True),
        lambda v: np.var(v, correction=1),
        lambda v: np.reshape(v, shape=(4, 6)),
        lambda v: np.reshape(v, (6, -1)),
        lambda v: np.ravel(v, order="C"),
        lambda v: np.argmax(v, axis=1, keepdims=True),
        lambda v: np.argmin(v, 2, None),
        lambda v: np.any(v > 10, axis=0, keepdims=True),
        lambda v: np.all(v > -10, 1, None, True),
        lambda v: np.cumsum(v, axis=2, dtype=np.float64),
        lambda v: np.concatenate([v, v], axis=1, dtype=np.float32),
        lambda v: np.stack((v, v), axis=-1),
        lambda v: np.take(v, np.array([0, 2]), axis=1),
        lambda v: np.empty_like(prototype=v).shape,
        lambda v: np.expand_dims(v, axis=0),
        lambda v: np.squeeze(v[:1], axis=0),
        lambda v: np.clip(v, a_min=-1.0, a_max=3.0),
        lambda v: np.where(v > 0, v, 0.0),
        lambda v: np.round(v / 3.0, decimals=1),
    ]
    for i, fn in enumerate(cases):
        got, want = adj.jit(fn)(x), fn(x)
        if isinstance(want, tuple):
            assert tuple(got) == want
            continue
        got = np.asarray(got)
        assert got.shape == np.shape(want), i
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=str(i))


def test_out_is_refused_clearly():
    with pytest.raises(adj.FrontendError, match="out= is not supported"):
        adj.jit(lambda v: np.sum(v, out=v))(np.ones(3))


# -- logsumexp and gelu --------------------------------------------------------

def test_logsumexp_is_scipy_and_stable():
    from jax.scipy.special import logsumexp as jlse
    x = np.array([[1000.0, 999.0, -2.0], [-np.inf, -np.inf, -np.inf]])
    b = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(adj.jit(anp.logsumexp)(x[0]), jlse(x[0]),
                               rtol=1e-14)
    got = adj.jit(lambda v: anp.logsumexp(v, axis=1, keepdims=True))(x)
    np.testing.assert_allclose(got, jlse(x, axis=1, keepdims=True))
    v, s = adj.jit(lambda v, w: anp.logsumexp(v, b=w, return_sign=True))(
        x[0] - 1000.0, b)
    jv, js = jlse(x[0] - 1000.0, b=b, return_sign=True)
    np.testing.assert_allclose(v, jv, rtol=1e-13)
    np.testing.assert_array_equal(s, js)
    assert adj.nn.logsumexp is anp.logsumexp


def test_logsumexp_gradient_is_softmax():
    x = np.array([[3.0, 1.0, 0.2], [700.0, 701.0, 699.0]])
    g = adj.grad(adj.jit(lambda v: np.sum(anp.logsumexp(v, axis=1) *
                                          np.array([1.0, 2.0]))))(x)
    want = jax.grad(lambda v: jnp.sum(jax.nn.logsumexp(v, axis=1) *
                                      jnp.array([1.0, 2.0])))(x)
    np.testing.assert_allclose(g, want, rtol=1e-12)


def test_gelu_defaults_as_jax():
    x = np.linspace(-5.0, 5.0, 41)
    for approximate in (True, False):
        got = adj.jit(lambda v: adj.nn.gelu(v, approximate=approximate))(x)
        np.testing.assert_allclose(
            got, jax.nn.gelu(x, approximate=approximate), rtol=1e-12,
            atol=1e-15)
        g = adj.grad(adj.jit(lambda v: np.sum(
            adj.nn.gelu(v, approximate=approximate))))(x)
        np.testing.assert_allclose(g, jax.grad(lambda v: jnp.sum(
            jax.nn.gelu(v, approximate=approximate)))(x), rtol=1e-10,
            atol=1e-14)
    np.testing.assert_allclose(adj.jit(adj.nn.gelu)(x), jax.nn.gelu(x),
                               rtol=1e-12, atol=1e-15)


# -- eager calls on numpy arrays ------------------------------------------------

def test_functions_run_eagerly_on_numpy_arrays():
    a = np.array([[-1.5, 2.0, 0.25], [3.0, -4.0, 0.5]])
    b = np.array([1.0, -2.0, 0.5])
    checks = [
        (adj.relu(a), np.maximum(a, 0.0)),
        (adj.tanh(a), np.tanh(a)),
        (adj.sum(a, [1]), a.sum(1)),
        (adj.matmul(a, a.T), a @ a.T),
        (adj.nn.gelu(a), jax.nn.gelu(a)),
        (adj.nn.softmax(a), jax.nn.softmax(a)),
        (anp.tanh(a), np.tanh(a)),
        (anp.sum(a > 0, axis=0), np.sum(a > 0, axis=0)),
        (anp.mean(a, 1, keepdims=True), np.mean(a, 1, keepdims=True)),
        (anp.where(a > 0, a, 0.0), np.where(a > 0, a, 0.0)),
        (anp.einsum("ij,j->i", a, b), np.einsum("ij,j->i", a, b)),
        (anp.mod(a, 0.75), np.mod(a, 0.75)),
        (anp.round(a, 1), np.round(a, 1)),
        (anp.logsumexp(a, axis=1, b=b[:2, None] * np.ones((1, 3))),
         jax.scipy.special.logsumexp(a, axis=1,
                                     b=b[:2, None] * np.ones((1, 3)))),
        (anp.concatenate([a, a], axis=0), np.concatenate([a, a], axis=0)),
        (anp.reshape(a, (3, 2)), a.reshape(3, 2)),
        (anp.zeros((2, 3)), np.zeros((2, 3))),
        (anp.arange(5), np.arange(5)),
        (anp.sort(b), np.sort(b)),
    ]
    for i, (got, want) in enumerate(checks):
        assert isinstance(got, np.ndarray), i
        assert got.shape == np.shape(want), i
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15,
                                   err_msg=str(i))
    assert anp.shape(a) == (2, 3) and anp.ndim(a) == 2 and anp.size(a) == 6


def test_eager_calls_compile_once_per_signature():
    from adjoint import _eager
    a = np.linspace(-1.0, 1.0, 7)
    for _ in range(4):
        anp.cos(a * 2.0)
        adj.exp(a)
    for fn in (anp.cos, adj.exp):
        jf = next(j for (f, *_), j in _eager._JITS.items()
                  if f is fn.__wrapped__)
        assert jf.builds == 1
