"""The transforms and ops of issue 17 composed with each other and with
grad, jvp, jit and vmap, against JAX's numbers: stop_gradient, custom_vjp,
custom_jvp, checkpoint, has_aux, PRNG keys (one per example under vmap),
x.at[] updates, dynamic slices and multi-array indexing.

The custom rules below are deliberately not the true derivatives (a factor
of 3), so a composition that lost the rule and differentiated f itself
gives a different answer."""

import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp
from adjoint import random as ar

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy
jr = jax.random

rng = np.random.default_rng(17)
XS = rng.standard_normal((5, 4))            # a batch of 5 examples
TS = rng.standard_normal((5, 4))            # tangents / cotangent weights
W = rng.standard_normal(4)                  # shared by every example


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol,
                               atol=tol)


def close_trees(a, b, tol=1e-10):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        close(x, y, tol)


# ---------------------------------------------------------------------------
# stop_gradient
# ---------------------------------------------------------------------------

def sg(x, w):
    return anp.sum(x * adj.stop_gradient(anp.sin(x) * w) * x)


def sg_j(x, w):
    return jnp.sum(x * jax.lax.stop_gradient(jnp.sin(x) * w) * x)


def test_vmap_of_stop_gradient_and_its_derivatives():
    vm = adj.vmap(sg, in_axes=(0, None))
    vmj = jax.vmap(sg_j, in_axes=(0, None))
    close(vm(XS, W), vmj(XS, W))
    # grad of vmap: the batched stop_gradient still blocks.
    loss = lambda x, w: anp.sum(vm(x, w) * anp.arange(5.0))  # noqa: E731
    lossj = lambda x, w: jnp.sum(vmj(x, w) * jnp.arange(5.0))  # noqa: E731
    close_trees(adj.grad(loss, (0, 1))(XS, W), jax.grad(lossj, (0, 1))(XS, W))
    # vmap of grad (per-example gradients) and jvp of vmap.
    close(adj.vmap(adj.grad(sg), in_axes=(0, None))(XS, W),
          jax.vmap(jax.grad(sg_j), in_axes=(0, None))(XS, W))
    close_trees(adj.jvp(vm, (XS, W), (TS, W)), jax.jvp(vmj, (XS, W), (TS, W)))
    close(adj.jit(adj.grad(loss))(XS, W), jax.grad(lossj)(XS, W))


# ---------------------------------------------------------------------------
# custom_vjp
# ---------------------------------------------------------------------------

@adj.custom_vjp
def cv(x, w):
    return anp.sin(x) * w


def _cv_fwd(x, w):
    return anp.sin(x) * w, (anp.cos(x), w, anp.sin(x))


def _cv_bwd(res, g):
    cos, w, sin = res
    return (3.0 * g * cos * w, g * sin)


cv.defvjp(_cv_fwd, _cv_bwd)


@jax.custom_vjp
def cv_j(x, w):
    return jnp.sin(x) * w


cv_j.defvjp(lambda x, w: (jnp.sin(x) * w, (jnp.cos(x), w, jnp.sin(x))),
            lambda res, g: (3.0 * g * res[0] * res[1], g * res[2]))


def cv_loss(x, w):
    return anp.sum(adj.vmap(cv, in_axes=(0, None))(x, w) ** 2)


def cv_loss_j(x, w):
    return jnp.sum(jax.vmap(cv_j, in_axes=(0, None))(x, w) ** 2)


def test_vmap_of_custom_vjp():
    close(adj.vmap(cv, in_axes=(0, None))(XS, W),
          jax.vmap(cv_j, in_axes=(0, None))(XS, W))
    close(adj.vmap(cv)(XS, XS), jax.vmap(cv_j)(XS, XS))


def test_grad_of_vmap_of_custom_vjp_uses_bwd():
    g = adj.grad(cv_loss, (0, 1))(XS, W)
    gj = jax.grad(cv_loss_j, (0, 1))(XS, W)
    close_trees(g, gj)
    # The true derivative differs: the rule was kept, not f differentiated.
    plain = jax.grad(lambda x, w: jnp.sum((jnp.sin(x) * w) ** 2))(XS, W)
    assert not np.allclose(np.asarray(g[0]), np.asarray(plain))
    close_trees(adj.jit(adj.grad(cv_loss, (0, 1)))(XS, W), gj)


def test_vmap_of_grad_of_custom_vjp():
    per = adj.vmap(adj.grad(lambda x, w: anp.sum(cv(x, w) ** 2)),
                   in_axes=(0, None))
    perj = jax.vmap(jax.grad(lambda x, w: jnp.sum(cv_j(x, w) ** 2)),
                    in_axes=(0, None))
    close(per(XS, W), perj(XS, W))
    close(adj.jit(per)(XS, W), perj(XS, W))


def test_vmap_of_custom_vjp_closing_over_batched_values():
    # bwd closes over a value of the vmapped code (s, one per example).
    def outer(x, s):
        @adj.custom_vjp
        def f(y):
            return y * 2.0

        f.defvjp(lambda y: (y * 2.0, ()), lambda res, g: (g * s,))
        return adj.grad(lambda z: anp.sum(f(z) * z))(x)

    def outer_j(x, s):
        @jax.custom_vjp
        def f(y):
            return y * 2.0

        f.defvjp(lambda y: (y * 2.0, ()), lambda res, g: (g * s,))
        return jax.grad(lambda z: jnp.sum(f(z) * z))(x)

    close(adj.vmap(outer)(XS, TS), jax.vmap(outer_j)(XS, TS))

    # grad of the vmap: JAX refuses a bwd closing over a batched value (a
    # leaked tracer); the rule gives d/dx sum(sin x) = cos(x) * s.
    def per(x, s):
        @adj.custom_vjp
        def f(y):
            return anp.sin(y)

        f.defvjp(lambda y: (anp.sin(y), anp.cos(y)),
                 lambda c, g: (g * c * s,))
        return anp.sum(f(x))

    g = adj.grad(lambda x, s: anp.sum(adj.vmap(per)(x, s)))(XS, TS)
    close(g, np.cos(XS) * TS)


def test_jvp_of_vmap_of_custom_vjp_is_refused():
    with pytest.raises(adj.Error, match="forward mode"):
        adj.jvp(adj.vmap(lambda x: cv(x, W)), (XS,), (TS,))


# ---------------------------------------------------------------------------
# custom_jvp
# ---------------------------------------------------------------------------

@adj.custom_jvp
def cj(x):
    return anp.sin(x) * x


@cj.defjvp
def _cj_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return cj(x), 3.0 * t * anp.cos(x)


@jax.custom_jvp
def cj_j(x):
    return jnp.sin(x) * x


@cj_j.defjvp
def _cj_jvp_j(primals, tangents):
    (x,), (t,) = primals, tangents
    return cj_j(x), 3.0 * t * jnp.cos(x)


def test_jvp_of_vmap_of_custom_jvp_uses_the_rule():
    y, t = adj.jvp(adj.vmap(cj), (XS,), (TS,))
    yj, tj = jax.jvp(jax.vmap(cj_j), (XS,), (TS,))
    close(y, yj)
    close(t, tj)
    close(t, 3.0 * TS * np.cos(XS))


def test_vmap_of_jvp_and_grad_of_vmap_of_custom_jvp():
    close_trees(adj.vmap(lambda x, t: adj.jvp(cj, (x,), (t,)))(XS, TS),
                jax.vmap(lambda x, t: jax.jvp(cj_j, (x,), (t,)))(XS, TS))
    loss = lambda x: anp.sum(adj.vmap(cj)(x) * TS)  # noqa: E731
    lossj = lambda x: jnp.sum(jax.vmap(cj_j)(x) * TS)  # noqa: E731
    close(adj.grad(loss)(XS), jax.grad(lossj)(XS))
    close(adj.jit(adj.grad(loss))(XS), jax.grad(lossj)(XS))


# ---------------------------------------------------------------------------
# checkpoint
# ---------------------------------------------------------------------------

def block(x, w):
    return anp.tanh(anp.sin(x * w) * x)


def block_j(x, w):
    return jnp.tanh(jnp.sin(x * w) * x)


def test_vmap_of_checkpoint_and_its_derivatives():
    ck = adj.checkpoint(block)
    ckj = jax.checkpoint(block_j)
    vm = adj.vmap(ck, in_axes=(0, None))
    vmj = jax.vmap(ckj, in_axes=(0, None))
    close(vm(XS, W), vmj(XS, W))
    loss = lambda x, w: anp.sum(vm(x, w) ** 2)  # noqa: E731
    lossj = lambda x, w: jnp.sum(vmj(x, w) ** 2)  # noqa: E731
    close_trees(adj.grad(loss, (0, 1))(XS, W), jax.grad(lossj, (0, 1))(XS, W))
    close_trees(adj.jit(adj.grad(loss, (0, 1)))(XS, W),
                jax.grad(lossj, (0, 1))(XS, W))
    close(adj.vmap(adj.grad(lambda x, w: anp.sum(ck(x, w))),
                   in_axes=(0, None))(XS, W),
          jax.vmap(jax.grad(lambda x, w: jnp.sum(ckj(x, w))),
                   in_axes=(0, None))(XS, W))
    close_trees(adj.jvp(vm, (XS, W), (TS, W)), jax.jvp(vmj, (XS, W), (TS, W)))


def test_checkpoint_of_a_closure_over_a_batched_value():
    def f(x):
        return anp.sum(adj.checkpoint(lambda y: anp.sin(y * x))(x))

    def f_j(x):
        return jnp.sum(jax.checkpoint(lambda y: jnp.sin(y * x))(x))

    close(adj.vmap(adj.grad(f))(XS), jax.vmap(jax.grad(f_j))(XS))
    close(adj.grad(lambda x: anp.sum(adj.vmap(f)(x)))(XS),
          jax.grad(lambda x: jnp.sum(jax.vmap(f_j)(x)))(XS))


# ---------------------------------------------------------------------------
# has_aux
# ---------------------------------------------------------------------------

def aux_loss(x, w):
    y = anp.sin(x) * w
    return anp.sum(y * y), {"y": y, "m": anp.max(y)}


def aux_loss_j(x, w):
    y = jnp.sin(x) * w
    return jnp.sum(y * y), {"y": y, "m": jnp.max(y)}


def test_vmap_of_grad_with_aux():
    per = adj.vmap(adj.grad(aux_loss, has_aux=True), in_axes=(0, None))
    perj = jax.vmap(jax.grad(aux_loss_j, has_aux=True), in_axes=(0, None))
    close_trees(per(XS, W), perj(XS, W))
    close_trees(adj.jit(per)(XS, W), perj(XS, W))
    vg = adj.vmap(adj.value_and_grad(aux_loss, has_aux=True),
                  in_axes=(0, None))
    vgj = jax.vmap(jax.value_and_grad(aux_loss_j, has_aux=True),
                   in_axes=(0, None))
    close_trees(vg(XS, W), vgj(XS, W))


def test_grad_with_aux_of_a_vmapped_loss():
    def loss(w, x):
        out = adj.vmap(aux_loss, in_axes=(0, None))(x, w)
        return anp.sum(out[0]), out[1]

    def loss_j(w, x):
        out = jax.vmap(aux_loss_j, in_axes=(0, None))(x, w)
        return jnp.sum(out[0]), out[1]

    close_trees(adj.grad(loss, has_aux=True)(W, XS),
                jax.grad(loss_j, has_aux=True)(W, XS))


# ---------------------------------------------------------------------------
# PRNG keys: one per example under vmap
# ---------------------------------------------------------------------------

@pytest.fixture
def jax32():
    """JAX's default 32-bit mode, whose random numbers these compare with."""
    with jax.enable_x64(False):
        yield


def _words(jax_keys):
    return np.asarray(jax_keys).view(np.int32)


def _ulps(a, b):
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return np.abs(a.astype(np.float64) - b) / np.spacing(np.abs(b))


SAMPLERS = {
    "bits": (lambda k: ar.bits(k, (3, 2)), lambda k: jr.bits(k, (3, 2))),
    "uniform": (lambda k: ar.uniform(k, (7,)), lambda k: jr.uniform(k, (7,))),
    "split": (lambda k: ar.split(k, 3), lambda k: jr.split(k, 3)),
    "fold_in": (lambda k: ar.fold_in(k, 11), lambda k: jr.fold_in(k, 11)),
    "bernoulli": (lambda k: ar.bernoulli(k, 0.3, (6,)),
                  lambda k: jr.bernoulli(k, 0.3, (6,))),
}


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_vmap_over_keys_is_bit_identical_to_per_key_and_jax(name, jax32):
    fn, fj = SAMPLERS[name]
    keys = ar.split(ar.key(42), 4)
    jkeys = jr.split(jr.PRNGKey(42), 4)
    np.testing.assert_array_equal(keys, _words(jkeys))
    got = np.asarray(adj.vmap(fn)(keys))
    np.testing.assert_array_equal(got, np.stack([np.asarray(fn(k))
                                                 for k in keys]))
    want = np.asarray(jax.vmap(fj)(jkeys))
    np.testing.assert_array_equal(got.view(want.dtype) if want.dtype
                                  .kind == "u" else got, want)
    np.testing.assert_array_equal(np.asarray(adj.jit(adj.vmap(fn))(keys)),
                                  got)


def test_vmap_of_normal_over_keys(jax32):
    keys = ar.split(ar.key(0), 4)
    got = np.asarray(adj.vmap(lambda k: ar.normal(k, (3,)))(keys))
    per_key = np.stack([np.asarray(ar.normal(k, (3,))) for k in keys])
    assert _ulps(got, per_key).max() <= 2
    want = jax.vmap(lambda k: jr.normal(k, (3,)))(jr.split(jr.PRNGKey(0), 4))
    assert _ulps(got, want).max() <= 4


def test_keys_split_inside_the_vmapped_code_and_nested_vmap(jax32):
    def sample(k):
        k1, k2 = ar.split(k)
        return (ar.normal(k1, (2,)), ar.uniform(k2, (3,)),
                ar.categorical(k2, anp.array([0.5, -1.0, 2.0]), shape=(4,)))

    def sample_j(k):
        k1, k2 = jr.split(k)
        return (jr.normal(k1, (2,)), jr.uniform(k2, (3,)),
                jr.categorical(k2, jnp.array([0.5, -1.0, 2.0]), shape=(4,)))

    got = adj.vmap(sample)(ar.split(ar.key(5), 3))
    want = jax.vmap(sample_j)(jr.split(jr.PRNGKey(5), 3))
    assert _ulps(got[0], want[0]).max() <= 4
    np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]))
    np.testing.assert_array_equal(np.asarray(got[2]), np.asarray(want[2]))

    grid = np.asarray(ar.split(ar.key(0), 6)).reshape(2, 3, 2)
    jgrid = jr.split(jr.PRNGKey(0), 6).reshape(2, 3, 2)
    np.testing.assert_array_equal(
        np.asarray(adj.vmap(adj.vmap(lambda k: ar.uniform(k, (2,))))(grid)),
        np.asarray(jax.vmap(jax.vmap(lambda k: jr.uniform(k, (2,))))(jgrid)))


def test_fold_in_of_batched_data(jax32):
    d = np.arange(3, dtype=np.int32)
    got = adj.vmap(lambda d: ar.fold_in(ar.key(1), d))(d)
    want = jax.vmap(lambda d: jr.fold_in(jr.PRNGKey(1), d))(d)
    np.testing.assert_array_equal(np.asarray(got), _words(want))


def test_shared_key_with_batched_data(jax32):
    """A key passed with in_axes None draws the same numbers per example."""
    x = rng.standard_normal((3, 5)).astype(np.float32)
    k, jk = ar.key(7), jr.PRNGKey(7)
    got = adj.vmap(lambda k, x: x + ar.uniform(k, (5,)), in_axes=(None, 0))(
        k, x)
    want = jax.vmap(lambda k, x: x + jr.uniform(k, (5,)), in_axes=(None, 0))(
        jk, x)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def _dropout_j(key, x, rate):
    keep = jr.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def test_vmap_of_dropout_with_per_example_keys_and_its_gradient(jax32):
    x = rng.standard_normal((4, 6)).astype(np.float32)
    w = rng.standard_normal((6, 6)).astype(np.float32)
    keys = ar.split(ar.key(3), 4)
    jkeys = jr.split(jr.PRNGKey(3), 4)

    def loss(w, x, keys):
        h = adj.vmap(lambda k, x: ar.dropout(k, anp.tanh(x @ w), 0.5))(
            keys, x)
        return anp.sum(h * h)

    def loss_j(w, x, keys):
        h = jax.vmap(lambda k, x: _dropout_j(k, jnp.tanh(x @ w), 0.5))(
            jkeys, x)
        return jnp.sum(h * h)

    per = adj.vmap(lambda k, x: ar.dropout(k, x, 0.5))(keys, x)
    np.testing.assert_array_equal(
        np.asarray(per), np.asarray(jax.vmap(
            lambda k, x: _dropout_j(k, x, 0.5))(jkeys, x)))
    # Different keys drop different units.
    masks = np.asarray(per) == 0
    assert not all((masks[0] == m).all() for m in masks[1:])
    np.testing.assert_allclose(np.asarray(adj.grad(loss)(w, x, keys)),
                               np.asarray(jax.grad(loss_j)(w, x, jkeys)),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(adj.jit(adj.grad(loss))(w, x,
                                                                  keys)),
                               np.asarray(jax.grad(loss_j)(w, x, jkeys)),
                               rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------
# x.at[] updates, dynamic slices, multi-array indexing
# ---------------------------------------------------------------------------

ROWS = np.array([2, 0, 3])
COLS = np.array([1, 3, 0])


def at_updates(x, v, i):
    y = x.at[i].set(v * 2.0)
    z = x.at[1:3].mul(v)
    u = x.at[i].max(v)
    return anp.sum(y * y) + anp.sum(z * x) + anp.sum(u ** 3.0)


def at_updates_j(x, v, i):
    x = jnp.asarray(x)
    y = x.at[i].set(v * 2.0)
    z = x.at[1:3].mul(v)
    u = x.at[i].max(v)
    return jnp.sum(y * y) + jnp.sum(z * x) + jnp.sum(u ** 3.0)


def test_vmap_of_at_updates_with_batched_values_and_indices():
    vs = rng.standard_normal(5)
    idx = np.array([0, 3, 1, 1, 2])
    for axes in [(0, 0, 0), (0, None, 0), (0, 0, None), (None, 0, 0)]:
        x = XS if axes[0] == 0 else W
        v = vs if axes[1] == 0 else vs[0]
        i = idx if axes[2] == 0 else idx[1]
        got = adj.vmap(at_updates, in_axes=axes)(x, v, i)
        want = jax.vmap(at_updates_j, in_axes=axes)(x, v, i)
        close(got, want)
        close(adj.jit(adj.vmap(at_updates, in_axes=axes))(x, v, i), want)


def test_grad_of_vmap_and_vmap_of_grad_of_at_updates():
    vs = rng.standard_normal(5)
    idx = np.array([0, 3, 1, 1, 2])

    def loss(x, v):
        return anp.sum(adj.vmap(at_updates)(x, v, idx))

    def loss_j(x, v):
        return jnp.sum(jax.vmap(at_updates_j)(x, v, idx))

    close_trees(adj.grad(loss, (0, 1))(XS, vs),
                jax.grad(loss_j, (0, 1))(XS, vs))
    close_trees(adj.vmap(adj.grad(at_updates, (0, 1)))(XS, vs, idx),
                jax.vmap(jax.grad(at_updates_j, (0, 1)))(XS, vs, idx))


def window(x, i):
    return x[i:i + 2] * x[i + 1:i + 3]


def window_j(x, i):
    return (jax.lax.dynamic_slice(x, (i,), (2,))
            * jax.lax.dynamic_slice(x, (i + 1,), (2,)))


def test_vmap_of_a_dynamic_slice_with_a_batched_start():
    starts = np.array([0, 2, 1, 5, 1])     # 5 is clamped, as in JAX
    close(adj.vmap(window)(XS, starts), jax.vmap(window_j)(XS, starts))
    close(adj.vmap(window, in_axes=(None, 0))(W, starts),
          jax.vmap(window_j, in_axes=(None, 0))(W, starts))
    loss = lambda x: anp.sum(adj.vmap(window)(x, starts) ** 2)  # noqa: E731
    lossj = lambda x: jnp.sum(jax.vmap(window_j)(x, starts) ** 2)  # noqa
    close(adj.grad(loss)(XS), jax.grad(lossj)(XS))
    close(adj.jit(adj.grad(loss))(XS), jax.grad(lossj)(XS))
    close(adj.vmap(adj.grad(lambda x, i: anp.sum(window(x, i))))(XS, starts),
          jax.vmap(jax.grad(lambda x, i: jnp.sum(window_j(x, i))))(XS,
                                                                    starts))


def pick(m, r, c):
    return m[r, c] * 2.0 + m[r[:, None], c].sum(axis=0)


def pick_j(m, r, c):
    m = jnp.asarray(m)
    return m[r, c] * 2.0 + m[r[:, None], c].sum(axis=0)


def test_vmap_of_multi_array_indexing():
    ms = rng.standard_normal((5, 4, 4))
    rs = np.stack([np.roll(ROWS, k) for k in range(5)])
    for axes, args in [((0, None, None), (ms, ROWS, COLS)),
                       ((0, 0, None), (ms, rs, COLS)),
                       ((None, 0, 0), (ms[0], rs, rs[::-1]))]:
        close(adj.vmap(pick, in_axes=axes)(*args),
              jax.vmap(pick_j, in_axes=axes)(*args))
    loss = lambda m: anp.sum(adj.vmap(pick, in_axes=(0, 0, None))(  # noqa
        m, rs, COLS) ** 2)
    lossj = lambda m: jnp.sum(jax.vmap(pick_j, in_axes=(0, 0, None))(  # noqa
        m, rs, COLS) ** 2)
    close(adj.grad(loss)(ms), jax.grad(lossj)(ms))
    close(adj.jit(adj.grad(loss))(ms), jax.grad(lossj)(ms))


def test_vmap_of_jitted_code_with_the_new_ops(jax32):
    ck = adj.checkpoint(lambda x: anp.sin(x) * 2.0)
    xs = XS.astype(np.float32)
    got = adj.vmap(adj.jit(lambda x: ck(x) + adj.stop_gradient(x)))(xs)
    want = jax.vmap(jax.jit(lambda x: jax.checkpoint(
        lambda y: jnp.sin(y) * 2.0)(x) + jax.lax.stop_gradient(x)))(xs)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    keys = ar.split(ar.key(9), 3)
    np.testing.assert_array_equal(
        np.asarray(adj.vmap(adj.jit(lambda k: ar.uniform(k, (2,))))(keys)),
        np.asarray(jax.vmap(jax.jit(lambda k: jr.uniform(k, (2,))))(
            jr.split(jr.PRNGKey(9), 3))))
    idx = np.array([0, 1, 3, 2, 0])
    close(adj.vmap(adj.jit(lambda x, i: x.at[i].set(0.0)))(XS, idx),
          jax.vmap(jax.jit(lambda x, i: x.at[i].set(0.0)))(XS, idx), 1e-6)
