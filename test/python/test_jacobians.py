"""jacfwd, jacrev and hessian over pytrees against JAX: structures (tuples,
lists, dicts, several argnums), has_aux, use inside jitted code, and their
compositions with grad, jvp, vmap and jit. Each is one vmap over basis
vectors in the IR, never a loop."""

import numpy as np
import pytest

import adjoint as adj

jax = pytest.importorskip("jax")
jnp = jax.numpy
jax.config.update("jax_enable_x64", True)

anp = adj.numpy
rng = np.random.default_rng(11)


def randn(*shape):
    return rng.standard_normal(shape)


def same_tree(a, b, rtol=1e-10, atol=1e-12):
    la, ta = jax.tree_util.tree_flatten(a)
    lb, tb = jax.tree_util.tree_flatten(b)
    assert ta == tb
    for x, y in zip(la, lb):
        assert np.shape(x) == np.shape(y)
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=rtol,
                                   atol=atol)


def mlp(p, x):
    h = anp.tanh(x @ p["w1"] + p["b1"])
    return anp.sum((h @ p["w2"]) ** 2)


def mlp_ref(p, x):
    h = jnp.tanh(x @ p["w1"] + p["b1"])
    return jnp.sum((h @ p["w2"]) ** 2)


def params():
    return {"w1": randn(3, 4), "b1": randn(4), "w2": randn(4, 2)}


def outputs(x, y):
    return {"s": anp.sin(x) * y[0], "t": [x[:2] * 2.0, (y @ y)]}


def outputs_ref(x, y):
    return {"s": jnp.sin(x) * y[0], "t": [x[:2] * 2.0, (y @ y)]}


@pytest.mark.parametrize("name", ["jacfwd", "jacrev"])
def test_jacobians_of_tree_outputs_and_several_argnums(name):
    x, y = randn(3), randn(2)
    ours, ref = getattr(adj, name), getattr(jax, name)
    same_tree(ours(outputs, argnums=(0, 1))(x, y),
              ref(outputs_ref, argnums=(0, 1))(x, y))
    same_tree(ours(outputs, argnums=1)(x, y),
              ref(outputs_ref, argnums=1)(x, y))


@pytest.mark.parametrize("name", ["jacfwd", "jacrev"])
def test_jacobians_with_respect_to_a_dict_and_a_list(name):
    p, x = params(), randn(5, 3)
    ours, ref = getattr(adj, name), getattr(jax, name)

    def f(p, xs):
        return anp.tanh(xs[0] @ p["w1"] + p["b1"]) * xs[1]

    def f_ref(p, xs):
        return jnp.tanh(xs[0] @ p["w1"] + p["b1"]) * xs[1]

    q = {"w1": p["w1"], "b1": p["b1"]}
    xs = [x, randn(5, 4)]
    same_tree(ours(f, argnums=(0, 1))(q, xs),
              ref(f_ref, argnums=(0, 1))(q, xs))


def test_hessian_over_a_dict_of_parameters():
    p, x = params(), randn(5, 3)
    same_tree(adj.hessian(mlp)(p, x), jax.hessian(mlp_ref)(p, x))


def test_hessian_of_several_arguments():
    def f(a, b):
        return anp.sum(anp.sin(a) * anp.exp(b)) + anp.sum(a * a * b)

    def f_ref(a, b):
        return jnp.sum(jnp.sin(a) * jnp.exp(b)) + jnp.sum(a * a * b)

    a, b = randn(2, 2), randn(2, 2)
    same_tree(adj.hessian(f, argnums=(0, 1))(a, b),
              jax.hessian(f_ref, argnums=(0, 1))(a, b))


@pytest.mark.parametrize("name", ["jacfwd", "jacrev", "hessian"])
def test_has_aux(name):
    def f(x):
        return anp.sum(anp.sin(x) ** 3), {"norm": anp.sum(x * x), "x": x}

    def f_ref(x):
        return jnp.sum(jnp.sin(x) ** 3), {"norm": jnp.sum(x * x), "x": x}

    x = randn(3)
    jac, aux = getattr(adj, name)(f, has_aux=True)(x)
    jac_ref, aux_ref = getattr(jax, name)(f_ref, has_aux=True)(x)
    same_tree(jac, jac_ref)
    same_tree(aux, aux_ref)


def test_hessian_is_one_vmap_over_basis_vectors_not_a_loop():
    p, x = params(), randn(5, 3)

    @adj.jit
    def h(p, x):
        return adj.hessian(mlp)(p, x)

    ir = str(h.lower(p, x))
    assert ir.count("adj.vmap") == 2  # jacfwd's and jacrev's
    assert "adj.for" not in ir and "adj.while" not in ir
    same_tree(h(p, x), jax.hessian(mlp_ref)(p, x))


def test_inside_jit_with_other_transforms():
    p, x = params(), randn(5, 3)
    v = {k: randn(*a.shape) for k, a in p.items()}

    @adj.jit
    def f(p, x, v):
        jr = adj.jacrev(mlp)(p, x)
        # A Hessian-vector product over the tree as jvp of grad.
        _, hvp = adj.jvp(adj.grad(mlp), (p, x), (v, anp.zeros_like(x)))
        return jr, hvp

    def f_ref(p, x, v):
        _, hvp = jax.jvp(jax.grad(mlp_ref), (p, x), (v, jnp.zeros_like(x)))
        return jax.jacrev(mlp_ref)(p, x), hvp

    same_tree(f(p, x, v), f_ref(p, x, v))


def test_grad_of_a_jacobian_and_jacobian_of_a_grad():
    def f(x):
        return anp.sin(x) * anp.sum(x * x)

    def f_ref(x):
        return jnp.sin(x) * jnp.sum(x * x)

    x = randn(3)

    def trace(x):
        return anp.sum(adj.jacfwd(f)(x) * anp.eye(3))

    def trace_ref(x):
        return jnp.sum(jax.jacfwd(f_ref)(x) * jnp.eye(3))

    same_tree(adj.grad(trace)(x), jax.grad(trace_ref)(x))
    same_tree(adj.jacrev(adj.grad(lambda x: anp.sum(f(x))))(x),
              jax.jacrev(jax.grad(lambda x: jnp.sum(f_ref(x))))(x))


def test_jvp_of_jacrev_and_vmap_of_hessian():
    def f(x):
        return anp.sum(anp.exp(x) * x[0])

    def f_ref(x):
        return jnp.sum(jnp.exp(x) * x[0])

    x, t, xs = randn(3), randn(3), randn(4, 3)
    same_tree(adj.jvp(adj.jacrev(f), (x,), (t,)),
              jax.jvp(jax.jacrev(f_ref), (x,), (t,)))
    same_tree(adj.vmap(adj.hessian(f))(xs), jax.vmap(jax.hessian(f_ref))(xs))


def test_errors():
    with pytest.raises(Exception, match="requires floating-point inputs"):
        adj.jacrev(lambda i: i * 2)(np.arange(3))
    with pytest.raises(Exception, match="pair"):
        adj.jacfwd(lambda x: x * 2, has_aux=True)(randn(3))


def test_builder_jacobians_and_hessian():
    m = adj.Module()
    v3 = adj.tensor_type(adj.f64, [3])
    f = m.function("f", [v3, v3],
                   lambda x, y: (anp.sin(x) * y, anp.sum(x * y)))
    g = m.function("g", [v3], lambda x: anp.sum(x * x * x))
    m.function("jr", [v3, v3],
               lambda x, y: tuple(adj.jacrev(f, wrt=[0])(x, y)))
    m.function("jf", [v3, v3], lambda x, y: tuple(adj.jacfwd(f)(x, y)))
    m.function("h", [v3], lambda x: adj.hessian(g)(x))
    adj.run_passes(m, "adj-grad")
    x, y = randn(3), randn(3)

    def f_ref(x, y):
        return jnp.sin(x) * y, jnp.sum(x * y)

    ref = jax.jacrev(f_ref, argnums=(0, 1))(x, y)
    jr = adj.interpret(m, "jr", x, y)
    same_tree(list(jr), [ref[0][0], ref[1][0]])
    jf = adj.interpret(m, "jf", x, y)
    same_tree(list(jf), [ref[0][0], ref[0][1], ref[1][0], ref[1][1]])
    same_tree(adj.interpret(m, "h", x), np.diag(6 * x))
    with pytest.raises(TypeError, match="wrt only"):
        adj.jacrev(f, argnums=1)
