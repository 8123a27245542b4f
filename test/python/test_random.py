"""adjoint.random against jax.random (default threefry implementation), on
every target, and inside differentiated and compiled code."""

import numpy as np
import pytest

import adjoint as adj
from adjoint import random as ar

jax = pytest.importorskip("jax")
jr = jax.random


@pytest.fixture(autouse=True)
def _jax_defaults():
    """JAX's default 32-bit mode, whose numbers these tests compare with
    (test_reference.py turns on jax_enable_x64 for the whole session)."""
    with jax.enable_x64(False):
        yield


def _words(jax_key):
    """JAX's raw uint32 key data as our int32 words."""
    return np.asarray(jr.key_data(jax_key) if hasattr(jr, "key_data") and
                      jax.dtypes.issubdtype(jax_key.dtype,
                                            jax.dtypes.prng_key)
                      else jax_key).view(np.int32)


def _ulps(a, b):
    """The distance of float32 arrays in units in the last place."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return np.abs(a.astype(np.float64) - b) / np.spacing(np.abs(b))


@pytest.mark.parametrize("seed", [0, 42, 2**31 - 1, -1, -123456])
def test_keys_splits_fold_ins_and_bits_are_jax_bit_for_bit(seed):
    k = ar.key(seed)
    jk = jr.PRNGKey(seed)
    np.testing.assert_array_equal(k, _words(jk))
    np.testing.assert_array_equal(ar.split(k), _words(jr.split(jk)))
    np.testing.assert_array_equal(ar.split(k, 5), _words(jr.split(jk, 5)))
    np.testing.assert_array_equal(ar.fold_in(k, 7), _words(jr.fold_in(jk, 7)))
    np.testing.assert_array_equal(
        ar.bits(k, (3, 4)), np.asarray(jr.bits(jk, (3, 4))).view(np.int32))
    np.testing.assert_array_equal(
        ar.bits(k, ()), np.asarray(jr.bits(jk, ())).view(np.int32))


def test_a_64_bit_seed_gives_its_two_words():
    # JAX with jax_enable_x64: the high and the low word of the seed.
    np.testing.assert_array_equal(ar.key(2**40 + 5), [256, 5])
    np.testing.assert_array_equal(ar.key(-2**40), [-256, 0])


def test_uniform_and_bernoulli_are_jax_bit_for_bit():
    jk = jr.PRNGKey(3)
    k = _words(jk)
    for shape in [(), (7,), (3, 5), (1000,)]:
        np.testing.assert_array_equal(ar.uniform(k, shape),
                                      np.asarray(jr.uniform(jk, shape)))
    np.testing.assert_array_equal(
        ar.uniform(k, (64,), minval=-2.0, maxval=3.0),
        np.asarray(jr.uniform(jk, (64,), minval=-2.0, maxval=3.0)))
    np.testing.assert_array_equal(ar.bernoulli(k, 0.3, (500,)),
                                  np.asarray(jr.bernoulli(jk, 0.3, (500,))))
    p = np.linspace(0.05, 0.95, 12, dtype=np.float32)
    np.testing.assert_array_equal(ar.bernoulli(k, p),
                                  np.asarray(jr.bernoulli(jk, p)))


def _half_uniform(jax_key, shape, minval, maxval):
    """jax.random.uniform's float16 numbers from their definition, on any
    CPU: JAX's 16-bit random words (integer arithmetic, exact everywhere),
    their top 10 bits as the mantissa of a float in [1, 2), minus 1, then
    u * (maxval - minval) + minval in float16, each operation rounded to
    float16 (numpy's float16 arithmetic rounds each one correctly). XLA is
    not the reference: on a CPU with native float16 (AVX-512 FP16) it fuses
    the product and the sum into one FMA, rounded once."""
    words = np.asarray(jr.bits(jax_key, shape, np.uint16)).astype(np.int64)
    unit = ((words >> 6) / 1024.0).astype(np.float16)
    low, high = np.float16(minval), np.float16(maxval)
    return np.maximum(low, unit * (high - low) + low)


def test_half_and_double_uniforms_are_jax_bit_for_bit():
    for seed, shape, low, high in ((7, (500,), -3.0, 2.0),
                                   (1, (40, 3), 0.0, 1.0),
                                   (123, (257,), -0.1, 7.3)):
        jk = jr.PRNGKey(seed)
        got = ar.uniform(_words(jk), shape, adj.f16, low, high)
        assert got.dtype == np.float16
        np.testing.assert_array_equal(got, _half_uniform(jk, shape, low,
                                                         high))
    k = _words(jr.PRNGKey(7))
    with jax.enable_x64(True):
        np.testing.assert_array_equal(
            ar.uniform(k, (500,), adj.f64),
            np.asarray(jr.uniform(jr.PRNGKey(7), (500,), np.float64)))


def test_normal_is_jax_to_a_few_ulp():
    jk = jr.PRNGKey(11)
    ours = ar.normal(_words(jk), (20000,))
    theirs = np.asarray(jr.normal(jk, (20000,)))
    assert ours.dtype == np.float32
    assert _ulps(ours, theirs).max() <= 4


def test_categorical_is_jax():
    jk = jr.PRNGKey(5)
    logits = np.log(np.array([[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1]],
                             np.float32))
    np.testing.assert_array_equal(ar.categorical(_words(jk), logits),
                                  np.asarray(jr.categorical(jk, logits)))
    np.testing.assert_array_equal(
        ar.categorical(_words(jk), logits, shape=(50, 2)),
        np.asarray(jr.categorical(jk, logits, shape=(50, 2))))
    np.testing.assert_array_equal(
        ar.categorical(_words(jk), logits.T, axis=0),
        np.asarray(jr.categorical(jk, logits.T, axis=0)))


def test_f64_normal_is_accurate():
    # Not JAX's f64 algorithm (jax_enable_x64 uses another erfinv), but
    # the same uniforms through an erfinv accurate to about an ulp.
    k = ar.key(9)
    u = ar.uniform(k, (4000,), adj.f64, -1.0 + 2.0**-53, 1.0)
    z = ar.normal(k, (4000,), adj.f64)
    from math import erf
    back = np.array([erf(v / np.sqrt(2.0)) for v in z])
    np.testing.assert_allclose(back, u, rtol=0, atol=1e-14)


def _sampler(m):
    key_t = adj.Type.tensor(adj.i32, [2])

    def body(key):
        k1, k2 = [adj.reshape(adj.slice(ar.split(key), [i, 0], [i + 1, 2]),
                              [2]) for i in range(2)]
        logits = adj.constant(m, [0.5, -1.0, 2.0], [3])
        return (ar.bits(key, [9]), ar.uniform(k1, [4, 5]),
                adj.cast(ar.bernoulli(k2, 0.25, [33]), adj.i32),
                ar.categorical(k1, logits, shape=[6]), ar.normal(k2, [300]),
                ar.dropout(k1, ar.uniform(k2, [17]), 0.4))

    m.function("sample", [key_t], body)


def test_every_target_draws_the_same_numbers(opencl_device):
    m = adj.Module()
    _sampler(m)
    key = ar.key(1234)
    interp = [np.asarray(r) for r in adj.interpret(m, "sample", key)]
    for target in ["cpu", "opencl"]:
        got = [np.asarray(r) for r in adj.compile(m, "sample",
                                                  target=target)(key)]
        for i, (a, b) in enumerate(zip(interp, got)):
            if i == 4:  # normal: log and sqrt may differ in the last ulp
                assert _ulps(b, a).max() <= 2, target
            else:
                np.testing.assert_array_equal(a, b, err_msg=target)


def test_moments_of_a_million_samples():
    k = ar.key(2024)
    z = ar.normal(k, (10**6,))
    assert abs(z.mean()) < 5e-3 and abs(z.var() - 1) < 1e-2
    u = ar.uniform(ar.fold_in(k, 1), (10**6,))
    assert u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 2e-3 and abs(u.var() - 1 / 12) < 1e-3
    b = ar.bernoulli(k, 0.3, (10**6,))
    assert abs(b.mean() - 0.3) < 3e-3


def test_keys_split_in_jitted_code_and_on_opencl(opencl_device):
    def sample(key):
        k1, k2 = ar.split(key)
        return ar.normal(k1, (3, 4)), ar.uniform(k2, (5,))

    jk = jr.PRNGKey(8)
    j1, j2 = jr.split(jk)
    for device in [None, "opencl:0"]:
        z, u = adj.jit(sample, device=device)(_words(jk))
        assert _ulps(np.asarray(z), np.asarray(jr.normal(j1, (3, 4)))).max() \
            <= 4
        np.testing.assert_array_equal(np.asarray(u),
                                      np.asarray(jr.uniform(j2, (5,))))


def _dropout_loss(w, x, key):
    h = ar.dropout(key, adj.numpy.tanh(x @ w), 0.5)
    return adj.numpy.sum(h * h)


def test_grad_through_random_numbers_matches_jax():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    x = rng.standard_normal((6, 4)).astype(np.float32)
    jk = jr.PRNGKey(17)

    @adj.jit
    def loss(w, x, key):
        k1, k2 = ar.split(key)
        h = adj.numpy.tanh(x @ w) * ar.normal(k1, (6, 3))
        keep = ar.bernoulli(k2, 0.7, (6, 3))
        return adj.numpy.sum(adj.numpy.where(keep, h / 0.7, 0.0) ** 2)

    def jax_loss(w, x, key):
        import jax.numpy as jnp
        k1, k2 = jr.split(key)
        h = jnp.tanh(x @ w) * jr.normal(k1, (6, 3))
        keep = jr.bernoulli(k2, 0.7, (6, 3))
        return jnp.sum(jnp.where(keep, h / 0.7, 0.0) ** 2)

    g = adj.grad(loss)(w, x, _words(jk))
    gj = jax.grad(jax_loss)(w, x, jk)
    np.testing.assert_allclose(np.asarray(g), np.asarray(gj), rtol=1e-5,
                               atol=1e-6)


def test_dropout_training_is_reproducible_in_the_interpreter_and_compiled():
    """Three SGD steps with dropout, the key split at each step: the
    interpreter and compiled CPU code take the same steps."""
    m = adj.Module()
    w_t = adj.Type.tensor(adj.f32, [4, 3])
    x_t = adj.Type.tensor(adj.f32, [6, 4])
    key_t = adj.Type.tensor(adj.i32, [2])

    def loss(w, x, key):
        h = ar.dropout(key, adj.tanh(adj.matmul(x, w)), 0.5)
        return adj.sum(h * h)

    f = m.function("loss", [w_t, x_t, key_t], loss)

    def train(w, x, key):
        for _ in range(3):
            keys = ar.split(key)
            key = adj.reshape(adj.slice(keys, [0, 0], [1, 2]), [2])
            sub = adj.reshape(adj.slice(keys, [1, 0], [2, 2]), [2])
            g = adj.grad(f, wrt=[0])(w, x, sub)
            w = w - g * 0.1
        return w, key

    m.function("train", [w_t, x_t, key_t], train)
    rng = np.random.default_rng(1)
    w = rng.standard_normal((4, 3)).astype(np.float32)
    x = rng.standard_normal((6, 4)).astype(np.float32)
    key = ar.key(99)
    wc, kc = adj.compile(m, "train")(w, x, key)
    adj.run_passes(m, "adj-grad")
    wi, ki = adj.interpret(m, "train", w, x, key)
    np.testing.assert_array_equal(np.asarray(ki), np.asarray(kc))
    np.testing.assert_allclose(np.asarray(wc), np.asarray(wi), rtol=1e-6,
                               atol=1e-6)
    # The steps did something, and not the same thing twice.
    assert not np.allclose(np.asarray(wi), w)


def test_keys_and_shapes_are_checked():
    with pytest.raises(adj.Error, match="expected a key"):
        ar.normal(np.zeros(3, np.int32), (2,))
    with pytest.raises(adj.Error, match="expected a key"):
        ar.split(ar.split(ar.key(0)), 2)
    with pytest.raises(adj.Error, match="0 <= rate < 1"):
        ar.dropout(ar.key(0), np.ones(3, np.float32), 1.0)
    with pytest.raises(adj.Error, match="shape must end with"):
        ar.categorical(ar.key(0), np.zeros((2, 3), np.float32), shape=(4, 5))
    with pytest.raises(TypeError, match="seed must be an int"):
        ar.key(1.5)


@pytest.mark.parametrize("seed", [0, 3, 42, -7])
def test_randint_is_jax_bit_for_bit(seed):
    jk = jr.PRNGKey(seed)
    k = _words(jk)
    for shape, low, high in (((10,), 0, 10), ((3, 4), -5, 1000),
                             ((64,), 0, 100000), ((5,), 7, 7),
                             ((20,), -2**31, 2**31 - 1),
                             ((33,), 0, 2**31 - 1), ((), -3, 3)):
        got = ar.randint(k, shape, low, high)
        want = np.asarray(jr.randint(jk, shape, low, high))
        assert got.dtype == want.dtype == np.int32
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("seed", [1, 9, 2**31 - 1])
def test_permutation_shuffle_and_choice_are_jax_bit_for_bit(seed):
    jk = jr.PRNGKey(seed)
    k = _words(jk)
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4) * 1.5
    n = np.arange(40, dtype=np.int32)
    p = np.array([0.1, 0.2, 0.3, 0.1, 0.3], np.float32)
    pairs = [
        (ar.permutation(k, 10), jr.permutation(jk, 10)),
        (ar.permutation(k, 3000), jr.permutation(jk, 3000)),   # 2 rounds
        (ar.permutation(k, x), jr.permutation(jk, x)),
        (ar.permutation(k, x, axis=1), jr.permutation(jk, x, axis=1)),
        (ar.permutation(k, x, 1, True), jr.permutation(jk, x, 1, True)),
        (ar.shuffle(k, n), jr.permutation(jk, n, independent=True)),
        (ar.choice(k, 10, (4,)), jr.choice(jk, 10, (4,))),
        (ar.choice(k, x, (2, 2), axis=1), jr.choice(jk, x, (2, 2), axis=1)),
        (ar.choice(k, n, (7,), replace=False),
         jr.choice(jk, n, (7,), replace=False)),
        (ar.choice(k, x, (2,), replace=False, axis=1),
         jr.choice(jk, x, (2,), replace=False, axis=1)),
        (ar.choice(k, 5, (50,), p=p), jr.choice(jk, 5, (50,), p=p)),
        (ar.choice(k, 5, (3,), replace=False, p=p),
         jr.choice(jk, 5, (3,), replace=False, p=p)),
        (ar.choice(k, x, (2,), replace=False, p=p[:4] / p[:4].sum(),
                   axis=1),
         jr.choice(jk, x, (2,), replace=False, p=p[:4] / p[:4].sum(),
                   axis=1)),
    ]
    for i, (got, want) in enumerate(pairs):
        want = np.asarray(want)
        assert got.dtype == want.dtype, i
        np.testing.assert_array_equal(got, want, err_msg=str(i))


def test_sampling_in_jitted_code():
    jk = jr.PRNGKey(5)

    @adj.jit
    def f(key, x):
        k1, k2 = ar.split(key)
        return (ar.randint(k1, (6,), 0, 50), ar.permutation(k2, x),
                ar.choice(k2, x, (3,), replace=False))

    x = np.arange(8.0, dtype=np.float32)
    got = f(_words(jk), x)
    j1, j2 = jr.split(jk)
    for g, w in zip(got, (jr.randint(j1, (6,), 0, 50), jr.permutation(j2, x),
                          jr.choice(j2, x, (3,), replace=False))):
        np.testing.assert_array_equal(g, np.asarray(w))
