"""vmap against jax.vmap: in_axes/out_axes, pytrees, nesting, closures,
conditionals, loops, recursion, and its compositions with grad, jvp, vjp
and jit (per-example gradients, batched Hessian-vector products)."""

import numpy as np
import pytest

import adjoint as adj

jax = pytest.importorskip("jax")
jnp = jax.numpy
jax.config.update("jax_enable_x64", True)

anp = adj.numpy
rng = np.random.default_rng(7)


def randn(*shape):
    return rng.standard_normal(shape)


def close(a, b, rtol=1e-9, atol=1e-11):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol,
                               atol=atol)


def test_elementwise_reductions_and_matmul():
    def f(w, x):
        return anp.sum(anp.tanh(x @ w) * anp.exp(-x[0, 0]), axis=0) - x.max()

    def fj(w, x):
        return jnp.sum(jnp.tanh(x @ w) * jnp.exp(-x[0, 0]), axis=0) - x.max()

    w, x = randn(3, 4), randn(6, 2, 3)
    close(adj.vmap(f, in_axes=(None, 0))(w, x),
          jax.vmap(fj, in_axes=(None, 0))(w, x))
    ws = randn(6, 3, 4)
    close(adj.vmap(f)(ws, x), jax.vmap(fj)(ws, x))


@pytest.mark.parametrize("in_axes,out_axes", [(1, 0), ((0, 1), 1),
                                              ((None, 1), -1), (0, 2)])
def test_in_and_out_axes(in_axes, out_axes):
    def f(a, b):
        return anp.sin(a) @ b + 1.0

    def fj(a, b):
        return jnp.sin(a) @ b + 1.0

    a = randn(2, 3) if in_axes == (None, 1) else np.moveaxis(randn(5, 2, 3), 0, 1 if in_axes == 1 else 0)
    b = np.moveaxis(randn(5, 3, 4), 0, 1) if in_axes in (1, (0, 1), (None, 1)) else randn(5, 3, 4)
    close(adj.vmap(f, in_axes, out_axes)(a, b),
          jax.vmap(fj, in_axes, out_axes)(a, b))


def test_pytrees():
    def f(params, batch):
        h = anp.tanh(batch["x"] @ params[0] + params[1])
        return {"out": h * batch["s"], "n": (anp.sum(h), h[0])}

    def fj(params, batch):
        h = jnp.tanh(batch["x"] @ params[0] + params[1])
        return {"out": h * batch["s"], "n": (jnp.sum(h), h[0])}

    params = (randn(3, 4), randn(4))
    batch = {"x": randn(5, 2, 3), "s": randn(5)}
    in_axes = (None, {"x": 0, "s": 0})
    out_axes = {"out": 1, "n": 0}
    got = adj.vmap(f, in_axes, out_axes)(params, batch)
    want = jax.vmap(fj, in_axes, out_axes)(params, batch)
    close(got["out"], want["out"])
    close(got["n"][0], want["n"][0])
    close(got["n"][1], want["n"][1])


def test_nested_vmap():
    def f(a, b):
        return anp.sum(a * b) + anp.max(a)

    def fj(a, b):
        return jnp.sum(a * b) + jnp.max(a)

    a, b = randn(4, 5, 3), randn(5, 3)
    got = adj.vmap(adj.vmap(f, (0, 0)), (0, None))(a, b)
    want = jax.vmap(jax.vmap(fj, (0, 0)), (0, None))(a, b)
    close(got, want)


def test_closure_over_a_batched_value_inside_jit():
    @adj.jit
    def g(xs, w):
        def per_example(x):
            scale = anp.sum(x)

            def inner(v):
                return anp.sin(v * scale) @ w
            return inner(x) + inner(x * 2.0)
        return adj.vmap(per_example)(xs)

    def gj(xs, w):
        def per_example(x):
            scale = jnp.sum(x)

            def inner(v):
                return jnp.sin(v * scale) @ w
            return inner(x) + inner(x * 2.0)
        return jax.vmap(per_example)(xs)

    xs, w = randn(6, 3), randn(3, 2)
    close(g(xs, w), gj(xs, w))


def test_if_with_batched_and_shared_predicates():
    def f(x, t):
        y = x * 2.0
        if anp.sum(x) > 0.0:          # depends on the example: a select
            y = anp.exp(x) - y
        else:
            y = -y
        if t > 0.0:                    # shared: stays an if
            y = y + t
        return y

    def fj(x, t):
        y = jnp.where(jnp.sum(x) > 0, jnp.exp(x) - 2 * x, -2 * x)
        return jnp.where(t > 0, y + t, y)

    x = randn(8, 3)
    for t in (0.5, -0.5):
        close(adj.vmap(f, (0, None))(x, np.float64(t)),
              jax.vmap(fj, (0, None))(x, t))


def test_loops_with_shared_trip_counts():
    def f(x, w):
        acc = x * 0.0
        for i in range(4):
            acc = anp.tanh(acc @ w + x)
        k = 0.0
        while k < 3.0:
            acc = acc * 0.5 + 1.0
            k = k + 1.0
        return acc

    def fj(x, w):
        acc = x * 0.0
        for _ in range(4):
            acc = jnp.tanh(acc @ w + x)
        for _ in range(3):
            acc = acc * 0.5 + 1.0
        return acc

    x, w = randn(5, 3), randn(3, 3)
    close(adj.vmap(f, (0, None))(x, w), jax.vmap(fj, (0, None))(x, w))


def test_while_with_a_per_example_trip_count():
    # Each example iterates until its own condition fails and then keeps
    # its values (JAX's batching of while_loop); a carried value that the
    # condition does not read (the count) is frozen too.
    def newton(a):
        x, count = a, 0.0
        while anp.abs(x * x - a) > 1e-12 * a:
            x = 0.5 * (x + a / x)
            count = count + 1.0
        return x, count

    def newton_jax(a):
        def cond(state):
            return jnp.abs(state[0] * state[0] - a) > 1e-12 * a

        def body(state):
            return 0.5 * (state[0] + a / state[0]), state[1] + 1.0
        return jax.lax.while_loop(cond, body, (a, 0.0))

    a = np.array([0.5, 2.0, 9.0, 1e6, 1.0])
    x, count = adj.jit(adj.vmap(newton))(a)
    want_x, want_count = jax.vmap(newton_jax)(a)
    close(x, want_x)
    np.testing.assert_array_equal(count, want_count)
    assert len(set(np.asarray(count).tolist())) > 2
    # Forward mode through it, per example.
    tangents = adj.jit(adj.vmap(
        lambda a: adj.jvp(lambda b: newton(b)[0], (a,), (1.0,))[1]))(a)
    close(tangents, jax.vmap(lambda a: jax.jvp(
        lambda b: newton_jax(b)[0], (a,), (1.0,))[1])(a))


def power(x, n):
    """Recursion on a tensor with a shared depth n."""
    if n <= 0.0:
        return x * 0.0 + 1.0
    return x * power(x, n - 1.0)


def test_recursion_with_a_shared_depth():
    x = randn(6, 2)
    got = adj.vmap(power, (0, None))(x, np.float64(3.0))
    close(got, x ** 3)
    close(adj.vmap(adj.grad(lambda x, n: anp.sum(power(x, n))), (0, None))(
        x, np.float64(3.0)), 3 * x ** 2)


def mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = anp.tanh(x @ w1 + b1)
    out = h @ w2 + b2
    return anp.sum((out - y) ** 2)


def mlp_loss_j(params, x, y):
    w1, b1, w2, b2 = params
    h = jnp.tanh(x @ w1 + b1)
    out = h @ w2 + b2
    return jnp.sum((out - y) ** 2)


def mlp_data(n=8):
    params = (randn(5, 7), randn(7), randn(7, 2), randn(2))
    return params, randn(n, 5), randn(n, 2)


def test_per_example_gradients_of_an_mlp():
    params, x, y = mlp_data()
    got = adj.vmap(adj.grad(mlp_loss), in_axes=(None, 0, 0))(params, x, y)
    want = jax.vmap(jax.grad(mlp_loss_j), in_axes=(None, 0, 0))(params, x, y)
    for g, w in zip(got, want):
        close(g, w)


def test_grad_of_vmap():
    params, x, y = mlp_data()

    def total(params, x, y):
        return anp.sum(adj.vmap(mlp_loss, (None, 0, 0))(params, x, y))

    def total_j(params, x, y):
        return jnp.sum(jax.vmap(mlp_loss_j, (None, 0, 0))(params, x, y))

    for g, w in zip(adj.grad(total)(params, x, y),
                    jax.grad(total_j)(params, x, y)):
        close(g, w)


def test_batched_hessian_vector_products():
    def f(x):
        return anp.sum(anp.sin(x) * x ** 3.0)

    def fj(x):
        return jnp.sum(jnp.sin(x) * x ** 3.0)

    x, vs = randn(4), randn(6, 4)

    def hvp(x, v):
        return adj.jvp(adj.grad(f), (x,), (v,))[1]

    def hvp_j(x, v):
        return jax.jvp(jax.grad(fj), (x,), (v,))[1]

    close(adj.vmap(hvp, (None, 0))(x, vs), jax.vmap(hvp_j, (None, 0))(x, vs))


def test_jvp_of_vmap_and_vmap_of_vjp():
    def f(x):
        return anp.exp(x) * anp.sum(x)

    def fj(x):
        return jnp.exp(x) * jnp.sum(x)

    xs, ts = randn(5, 3), randn(5, 3)
    got = adj.jvp(adj.vmap(f), (xs,), (ts,))
    want = jax.jvp(jax.vmap(fj), (xs,), (ts,))
    close(got[0], want[0])
    close(got[1], want[1])

    # vmap of a pullback over cotangents: the rows of a Jacobian.
    x, cts = randn(3), np.eye(3)

    def row(ct):
        return adj.vjp(f, x)[1](ct)[0]

    close(adj.vmap(row)(cts), jax.jacrev(fj)(x))


def test_jit_of_vmap_and_vmap_of_jit():
    jf = adj.jit(mlp_loss)
    params, x, y = mlp_data()

    @adj.jit
    def batched(params, x, y):
        return adj.vmap(jf, (None, 0, 0))(params, x, y)

    want = jax.vmap(mlp_loss_j, (None, 0, 0))(params, x, y)
    close(batched(params, x, y), want)
    close(adj.vmap(jf, (None, 0, 0))(params, x, y), want)


def test_errors():
    def f(x):
        return x * 2.0
    with pytest.raises(Exception, match="inconsistent sizes"):
        adj.vmap(lambda a, b: a + b)(randn(3, 2), randn(4, 2))
    with pytest.raises(Exception, match="no argument is mapped"):
        adj.vmap(f, None)(randn(3))
    with pytest.raises(Exception, match="out of range"):
        adj.vmap(f, 2)(randn(3, 2))
    with pytest.raises(Exception, match="single array"):
        adj.vmap(lambda a, b: a + b, ((0, 0), 0))(randn(3), randn(3))


def test_out_axes_none():
    # The second result depends only on the shared w: out_axes None returns
    # it once, without the batch, as jax.vmap does.
    def f(x, w):
        return anp.tanh(x * w), anp.sum(anp.sin(w))

    def fj(x, w):
        return jnp.tanh(x * w), jnp.sum(jnp.sin(w))

    xs, w = randn(5, 3), randn(3)
    got = adj.vmap(f, (0, None), (0, None))(xs, w)
    want = jax.vmap(fj, (0, None), (0, None))(xs, w)
    assert np.shape(got[1]) == ()
    close(got[0], want[0])
    close(got[1], want[1])
    # None for every result, and inside a tree prefix.
    close(adj.vmap(lambda x, w: f(x, w)[1], (0, None), None)(xs, w),
          jax.vmap(lambda x, w: fj(x, w)[1], (0, None), None)(xs, w))

    def g(x, w):
        return {"y": x * w, "s": (w * 2.0, anp.sum(x))}

    def gj(x, w):
        return {"y": x * w, "s": (w * 2.0, jnp.sum(x))}

    out_axes = {"y": 1, "s": (None, 0)}
    got = adj.vmap(g, (0, None), out_axes)(xs, w)
    want = jax.vmap(gj, (0, None), out_axes)(xs, w)
    assert np.shape(got["s"][0]) == (3,)
    for a, b in zip(jax.tree_util.tree_leaves(got),
                    jax.tree_util.tree_leaves(want)):
        close(a, b)


def test_out_axes_none_with_grad():
    def f(x, w):
        return anp.tanh(x @ w), anp.sum(w * w)

    def fj(x, w):
        return jnp.tanh(x @ w), jnp.sum(w * w)

    xs, w = randn(4, 3), randn(3, 2)

    # grad of the vmap: the shared result enters the loss once.
    def loss(w):
        h, r = adj.vmap(f, (0, None), (0, None))(xs, w)
        return anp.sum(h * h) + r

    def loss_j(w):
        h, r = jax.vmap(fj, (0, None), (0, None))(xs, w)
        return jnp.sum(h * h) + r

    close(adj.grad(loss)(w), jax.grad(loss_j)(w))
    close(adj.jit(adj.grad(loss))(w), jax.grad(loss_j)(w))

    # vmap of a grad: per-example gradients next to a shared result.
    def both(x, w):
        return adj.grad(lambda w: anp.sum(f(x, w)[0]))(w), f(x, w)[1] * w

    def both_j(x, w):
        return jax.grad(lambda w: jnp.sum(fj(x, w)[0]))(w), fj(x, w)[1] * w

    got = adj.vmap(both, (0, None), (0, None))(xs, w)
    want = jax.vmap(both_j, (0, None), (0, None))(xs, w)
    assert np.shape(got[1]) == (3, 2)
    close(got[0], want[0])
    close(got[1], want[1])


def test_out_axes_none_of_a_mapped_result():
    # jax.vmap raises a ValueError here too ("output was batched").
    with pytest.raises(Exception,
                       match="vmap has mapped output but out_axes is None"):
        adj.vmap(lambda x, w: (x * w, w), (0, None), (None, 0))(
            randn(4, 3), randn(3))
