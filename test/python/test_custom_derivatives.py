"""stop_gradient, custom_vjp, custom_jvp, checkpoint and has_aux against
JAX's numbers: straight-through estimators, a numerically stable rule,
rules closing over values, higher derivatives through the rules, and the
pairwise compositions with grad, jvp, vjp and jit."""

import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy

X = np.array([0.3, -1.2, 2.5, 0.7])
W = np.array([0.5, -0.25, 1.5, 2.0])


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol,
                               atol=tol)


# ---------------------------------------------------------------------------
# stop_gradient
# ---------------------------------------------------------------------------

def sg_f(x):
    return anp.sum(x * adj.stop_gradient(x) * anp.sin(x))


def sg_fj(x):
    return jnp.sum(x * jax.lax.stop_gradient(x) * jnp.sin(x))


def test_stop_gradient_grad_and_grad_of_grad():
    close(adj.grad(sg_f)(X), jax.grad(sg_fj)(X))
    # The op stays in the first derivative's code: the second derivative
    # also treats it as a constant.
    h = adj.grad(lambda x: adj.grad(sg_f)(x)[1])(X)
    close(h, jax.grad(lambda x: jax.grad(sg_fj)(x)[1])(X))


def test_stop_gradient_jvp_and_jit():
    t = np.ones(4)
    y, ty = adj.jvp(sg_f, (X,), (t,))
    yj, tyj = jax.jvp(sg_fj, (X,), (t,))
    close(y, yj)
    close(ty, tyj)
    close(adj.jit(adj.grad(sg_f))(X), jax.grad(sg_fj)(X))


def test_stop_gradient_on_a_pytree():
    def f(p):
        q = adj.stop_gradient({"a": p["a"], "b": (p["b"], 2.0)})
        return anp.sum(p["a"] * q["a"] + p["b"] * q["b"][0] * q["b"][1])

    def fj(p):
        q = jax.lax.stop_gradient({"a": p["a"], "b": (p["b"], 2.0)})
        return jnp.sum(p["a"] * q["a"] + p["b"] * q["b"][0] * q["b"][1])

    p = {"a": X, "b": W}
    g, gj = adj.grad(f)(p), jax.grad(fj)(p)
    close(g["a"], gj["a"])
    close(g["b"], gj["b"])
    # Outside jitted code it is the identity.
    assert adj.stop_gradient(p) is p


def test_straight_through_estimator_with_stop_gradient():
    # sign forward, identity backward.
    def f(x):
        return anp.sum((x + adj.stop_gradient(anp.sign(x) - x)) * W)

    def fj(x):
        return jnp.sum((x + jax.lax.stop_gradient(jnp.sign(x) - x)) * W)

    close(adj.jit(f)(X), fj(X))
    close(adj.grad(f)(X), jax.grad(fj)(X))
    close(adj.grad(f)(X), W)


# ---------------------------------------------------------------------------
# custom_vjp
# ---------------------------------------------------------------------------

@adj.custom_vjp
def ste_sign(x):
    return anp.sign(x)


def _ste_fwd(x):
    return anp.sign(x), ()


def _ste_bwd(res, g):
    return (g,)


ste_sign.defvjp(_ste_fwd, _ste_bwd)


@jax.custom_vjp
def ste_sign_j(x):
    return jnp.sign(x)


ste_sign_j.defvjp(lambda x: (jnp.sign(x), ()), lambda res, g: (g,))


def test_straight_through_estimator_with_custom_vjp():
    def f(x):
        return anp.sum(ste_sign(x) * x * W)

    def fj(x):
        return jnp.sum(ste_sign_j(x) * x * W)

    close(ste_sign(X), np.sign(X))
    close(adj.grad(f)(X), jax.grad(fj)(X))
    close(adj.jit(adj.grad(f))(X), jax.grad(fj)(X))


# A rule whose bwd is not the derivative of f, with residuals and closures:
# f(x, y) = sin(x) * y, bwd scales by a closed-over constant.
def make_scaled(c):
    @adj.custom_vjp
    def f(x, y):
        return anp.sin(x) * y

    def fwd(x, y):
        return anp.sin(x) * y, (anp.cos(x), y, anp.sin(x))

    def bwd(res, g):
        cos, y, sin = res
        return (c * g * cos * y * y, g * sin)

    f.defvjp(fwd, bwd)

    @jax.custom_vjp
    def fj(x, y):
        return jnp.sin(x) * y

    def fwdj(x, y):
        return jnp.sin(x) * y, (jnp.cos(x), y, jnp.sin(x))

    def bwdj(res, g):
        cos, y, sin = res
        return (c * g * cos * y * y, g * sin)

    fj.defvjp(fwdj, bwdj)
    return f, fj


def test_custom_vjp_residuals_two_arguments_and_grad_of_grad():
    f, fj = make_scaled(3.0)

    def loss(x, y):
        return anp.sum(f(x, y) ** 2)

    def lossj(x, y):
        return jnp.sum(fj(x, y) ** 2)

    for a, b in zip(adj.grad(loss, (0, 1))(X, W),
                    jax.grad(lossj, (0, 1))(X, W)):
        close(a, b)
    # grad of grad differentiates bwd (adj IR like any other).
    def g1(x, y):
        return anp.sum(adj.grad(loss)(x, y) * W)

    def g1j(x, y):
        return jnp.sum(jax.grad(lossj)(x, y) * W)

    close(adj.grad(g1)(X, W), jax.grad(g1j)(X, W))
    close(adj.grad(g1, 1)(X, W), jax.grad(g1j, 1)(X, W))


def test_custom_vjp_closing_over_a_traced_value():
    # bwd closes over a Value of the enclosing jitted code (scale).
    def outer(x, scale):
        @adj.custom_vjp
        def f(x):
            return x * 2.0

        def fwd(x):
            return x * 2.0, ()

        def bwd(res, g):
            return (g * scale,)

        f.defvjp(fwd, bwd)
        return adj.grad(lambda z: anp.sum(f(z) * z))(x)

    def outerj(x, scale):
        @jax.custom_vjp
        def f(x):
            return x * 2.0

        f.defvjp(lambda x: (x * 2.0, ()), lambda res, g: (g * scale,))
        return jax.grad(lambda z: jnp.sum(f(z) * z))(x)

    s = np.array([1.5, 0.5, -2.0, 4.0])
    close(adj.jit(outer)(X, s), outerj(X, s))


def test_custom_vjp_pytree_arguments_and_none_cotangent():
    @adj.custom_vjp
    def f(p):
        return {"s": anp.sum(p["a"] * p["b"])}

    def fwd(p):
        return f(p), p["b"]

    def bwd(b, g):
        return ({"a": g["s"] * b, "b": None},)

    f.defvjp(fwd, bwd)

    @jax.custom_vjp
    def fj(p):
        return {"s": jnp.sum(p["a"] * p["b"])}

    fj.defvjp(lambda p: (fj(p), p["b"]),
              lambda b, g: ({"a": g["s"] * b, "b": jnp.zeros_like(b)},))
    p = {"a": X, "b": W}
    g = adj.grad(lambda p: f(p)["s"])(p)
    gj = jax.grad(lambda p: fj(p)["s"])(p)
    close(g["a"], gj["a"])
    close(g["b"], gj["b"])
    close(adj.jit(lambda p: f(p)["s"])(p), fj(p)["s"])


def test_jvp_of_custom_vjp_is_refused_but_jvp_of_its_grad_works():
    def loss(x):
        return anp.sum(ste_sign(x) * x * x)

    def lossj(x):
        return jnp.sum(ste_sign_j(x) * x * x)

    with pytest.raises(adj.Error, match="forward mode"):
        adj.jvp(loss, (X,), (np.ones(4),))
    # Forward over reverse: the gradient's code calls bwd as plain code.
    y, t = adj.jvp(adj.grad(loss), (X,), (W,))
    yj, tj = jax.jvp(jax.grad(lossj), (X,), (W,))
    close(y, yj)
    close(t, tj)


# ---------------------------------------------------------------------------
# custom_jvp
# ---------------------------------------------------------------------------

@adj.custom_jvp
def log1pexp(x):
    return anp.log(1.0 + anp.exp(x))


@log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * (1.0 - 1.0 / (1.0 + anp.exp(x)))


@jax.custom_jvp
def log1pexp_j(x):
    return jnp.log(1.0 + jnp.exp(x))


@log1pexp_j.defjvp
def _log1pexp_jvp_j(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp_j(x), t * (1.0 - 1.0 / (1.0 + jnp.exp(x)))


def naive(x):
    return anp.sum(anp.log(1.0 + anp.exp(x)))


def test_stable_rule_gives_finite_gradients_where_the_naive_one_does_not():
    x = np.array([1.0, 10.0, 800.0])
    assert np.isnan(adj.grad(naive)(x)[2])
    g = adj.grad(lambda x: anp.sum(log1pexp(x)))(x)
    assert np.all(np.isfinite(g))
    close(g, jax.grad(lambda x: jnp.sum(log1pexp_j(x)))(x))
    close(adj.jit(adj.grad(lambda x: anp.sum(log1pexp(x))))(x), g)


def test_jvp_of_custom_jvp_uses_the_rule():
    x = np.array([1.0, -2.0, 800.0])
    t = np.array([0.5, 2.0, 1.0])
    y, ty = adj.jvp(log1pexp, (x,), (t,))
    yj, tyj = jax.jvp(log1pexp_j, (x,), (t,))
    close(y, yj)
    close(ty, tyj)


def test_higher_derivatives_through_custom_jvp():
    def d1(x):
        return adj.grad(lambda z: anp.sum(log1pexp(z) * W))(x)

    def d1j(x):
        return jax.grad(lambda z: jnp.sum(log1pexp_j(z) * W))(x)

    # grad of grad (reverse over the transposed rule).
    close(adj.grad(lambda x: anp.sum(d1(x)))(X),
          jax.grad(lambda x: jnp.sum(d1j(x)))(X))
    # jvp of grad and jvp of jvp.
    y, t = adj.jvp(d1, (X,), (W,))
    yj, tj = jax.jvp(d1j, (X,), (W,))
    close(t, tj)

    def tangent(x):
        return adj.jvp(log1pexp, (x,), (W,))[1]

    def tangentj(x):
        return jax.jvp(log1pexp_j, (x,), (W,))[1]

    close(adj.jvp(tangent, (X,), (W,))[1], jax.jvp(tangentj, (X,), (W,))[1])


def test_custom_jvp_closing_over_values_and_two_arguments():
    def outer(x, y, c):
        @adj.custom_jvp
        def f(a, b):
            return a * b * c

        @f.defjvp
        def f_jvp(p, t):
            return f(*p), c * (t[0] * p[1] + p[0] * t[1]) * 0.5

        return adj.grad(lambda a, b: anp.sum(f(a, b)), (0, 1))(x, y)

    def outerj(x, y, c):
        @jax.custom_jvp
        def f(a, b):
            return a * b * c

        @f.defjvp
        def f_jvp(p, t):
            return f(*p), c * (t[0] * p[1] + p[0] * t[1]) * 0.5

        return jax.grad(lambda a, b: jnp.sum(f(a, b)), (0, 1))(x, y)

    c = np.array([2.0, -1.0, 0.5, 3.0])
    for a, b in zip(adj.jit(outer)(X, W, c), outerj(X, W, c)):
        close(a, b)


# ---------------------------------------------------------------------------
# has_aux
# ---------------------------------------------------------------------------

def aux_f(x, y):
    loss = anp.sum(anp.sin(x) * y)
    return loss, {"y2": y * 2.0, "n": anp.sum(x)}


def aux_fj(x, y):
    loss = jnp.sum(jnp.sin(x) * y)
    return loss, {"y2": y * 2.0, "n": jnp.sum(x)}


def check_aux(a, b):
    close(a["y2"], b["y2"])
    close(a["n"], b["n"])


def test_has_aux_grad_value_and_grad_vjp():
    g, aux = adj.grad(aux_f, (0, 1), has_aux=True)(X, W)
    gj, auxj = jax.grad(aux_fj, (0, 1), has_aux=True)(X, W)
    close(g[0], gj[0])
    close(g[1], gj[1])
    check_aux(aux, auxj)

    (v, aux), g = adj.value_and_grad(aux_f, has_aux=True)(X, W)
    (vj, auxj), gj = jax.value_and_grad(aux_fj, has_aux=True)(X, W)
    close(v, vj)
    close(g, gj)
    check_aux(aux, auxj)

    out, pullback, aux = adj.vjp(aux_f, X, W, has_aux=True)
    outj, pullbackj, auxj = jax.vjp(aux_fj, X, W, has_aux=True)
    close(out, outj)
    check_aux(aux, auxj)
    for a, b in zip(pullback(2.0), pullbackj(2.0)):
        close(a, b)


def test_has_aux_inside_jit_and_nested():
    @adj.jit
    def step(x, y):
        g, aux = adj.grad(aux_f, has_aux=True)(x, y)
        out, pb, aux2 = adj.vjp(aux_f, x, y, has_aux=True)
        return g, aux["n"], pb(1.0)[1], aux2["y2"]

    g, n, gy, y2 = step(X, W)
    close(g, jax.grad(aux_fj, has_aux=True)(X, W)[0])
    close(n, np.sum(X))
    close(gy, jax.grad(aux_fj, 1, has_aux=True)(X, W)[0])
    close(y2, W * 2.0)
    # grad of a function that itself uses has_aux.
    h = adj.grad(lambda x: anp.sum(adj.grad(aux_f, has_aux=True)(x, W)[0]))
    hj = jax.grad(lambda x: jnp.sum(jax.grad(aux_fj, has_aux=True)(x, W)[0]))
    close(h(X), hj(X))


def test_has_aux_needs_a_pair():
    with pytest.raises(adj.FrontendError, match="pair"):
        adj.grad(lambda x: anp.sum(x), has_aux=True)(X)


# ---------------------------------------------------------------------------
# checkpoint
# ---------------------------------------------------------------------------

def block(h, w):
    return anp.tanh(h * w + anp.sin(h))


def test_checkpoint_matches_plain_and_jax():
    def loss(w, x, remat):
        b = adj.checkpoint(block) if remat else block
        h = x
        for _ in range(3):
            h = b(h, w)
        return anp.sum(h * h)

    def lossj(w, x):
        h = x
        for _ in range(3):
            h = jax.checkpoint(lambda h, w: jnp.tanh(h * w + jnp.sin(h)))(h, w)
        return jnp.sum(h * h)

    plain = adj.value_and_grad(lambda w, x: loss(w, x, False))(W, X)
    remat = adj.value_and_grad(lambda w, x: loss(w, x, True))(W, X)
    ref = jax.value_and_grad(lossj)(W, X)
    for a, b in zip(remat, ref):
        close(a, b)
    for a, b in zip(remat, plain):
        close(a, b)
    # grad of grad and jvp through the checkpoint.
    close(adj.grad(lambda w: anp.sum(adj.grad(lambda v: loss(v, X, True))(w)))(W),
          jax.grad(lambda w: jnp.sum(jax.grad(lossj)(w, X)))(W))
    close(adj.jvp(lambda w: loss(w, X, True), (W,), (X,))[1],
          jax.jvp(lambda w: lossj(w, X), (W,), (X,))[1])


def test_checkpoint_as_decorator_and_closure_gradients():
    @adj.jit
    def step(w, x):
        @adj.checkpoint
        def f(h):
            # Closes over w: its gradient comes back through the
            # recomputed backpropagator's environment.
            return anp.sin(h * w) * w

        return adj.grad(lambda w2, h: anp.sum(f(h) * w2), (0, 1))(w, x)

    def stepj(w, x):
        f = jax.checkpoint(lambda h: jnp.sin(h * w) * w)
        return jax.grad(lambda w2, h: jnp.sum(f(h) * w2), (0, 1))(w, x)

    for a, b in zip(step(W, X), stepj(W, X)):
        close(a, b)

    def full(w):
        f = adj.checkpoint(lambda h: anp.sin(h * w) * w)
        return anp.sum(f(X))

    def fullj(w):
        f = jax.checkpoint(lambda h: jnp.sin(h * w) * w)
        return jnp.sum(f(X))

    close(adj.grad(full)(W), jax.grad(fullj)(W))


def test_llama_step_with_checkpointed_blocks_matches_the_plain_one():
    # The llama workload at its tiny size: the same loss and gradients with
    # each decoder block checkpointed (benchmarks/ad/remat_llama.py measures
    # the memory).
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                    "benchmarks"))
    from adjoint_bench.workloads.llama import Llama

    wl = Llama()
    size = Llama.sizes["tiny"]
    problem = wl.problem(size)
    batch = problem.batches[0]
    plain = adj.value_and_grad(wl.loss_adjoint(size))(problem.params, batch)
    remat = adj.value_and_grad(wl.loss_adjoint(size, remat=True))(
        problem.params, batch)
    np.testing.assert_allclose(remat[0], plain[0], rtol=1e-5)
    assert set(remat[1]) == set(problem.params)
    for k, g in plain[1].items():
        g = np.asarray(g)
        np.testing.assert_allclose(np.asarray(remat[1][k]), g, rtol=1e-4,
                                   atol=1e-6 * np.abs(g).max())


def test_checkpoint_on_the_opencl_device(opencl_device):
    # The GPU pipelines lower the barrier's copy to a device memcpy.
    w32, x32 = W.astype(np.float32), X.astype(np.float32)

    def loss(w, x, remat):
        b = adj.checkpoint(block) if remat else block
        h = x
        for _ in range(3):
            h = b(h, w)
        return anp.sum(h * h)

    plain = adj.grad(lambda w, x: loss(w, x, False))(w32, x32)
    g = adj.jit(adj.grad(lambda w, x: loss(w, x, True)))
    out = g(adj.device_put(w32, opencl_device),
            adj.device_put(x32, opencl_device))
    np.testing.assert_allclose(adj.to_numpy(out), plain, rtol=1e-5,
                               atol=1e-6)
