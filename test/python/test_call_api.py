"""The call API as JAX users write it: keyword arguments through transforms
and jit, argnums as any sequence of ints, jit's static and donated
arguments by position and by name, block_until_ready on results, and
jit's decorator forms and functools.partial. Each behaviour is compared
with the same call on JAX."""

import functools
import warnings

import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy


def close(a, b):
    """Equal pytrees of arrays (our results against JAX's)."""
    la, ta = jax.tree_util.tree_flatten(a)
    lb, tb = jax.tree_util.tree_flatten(b)
    assert ta == tb, (ta, tb)
    for x, y in zip(la, lb):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6,
                                   atol=1e-9)


def loss(x, y, scale=1.0, power=2):
    return (x * y) ** power * scale


def f(x, y, scale=1.0):
    return anp.sum(anp.tanh(x) * y) * scale


def jf(x, y, scale=1.0):
    return jnp.sum(jnp.tanh(x) * y) * scale


X = np.linspace(-1.0, 1.0, 5)
Y = np.linspace(0.5, 2.0, 5)


# ---------------------------------------------------------------------------
# 1. Keyword arguments: passed through, never differentiated
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("scale", [2.5, np.float64(-1.5), np.array(3.0)])
def test_grad_with_a_keyword_argument(scale):
    close(adj.grad(f)(X, Y, scale=scale), jax.grad(jf)(X, Y, scale=scale))
    close(adj.grad(f, argnums=1)(X, Y, scale=scale),
          jax.grad(jf, argnums=1)(X, Y, scale=scale))


def test_keyword_arrays_are_traced_not_differentiated():
    # y by keyword: the gradient is with respect to x only, and y's value
    # is an input (no rebuild for a new value).
    g = adj.grad(f)
    close(g(X, y=Y), jax.grad(jf)(X, y=Y))
    builds = g.jit_function.builds
    close(g(X, y=2 * Y), jax.grad(jf)(X, y=2 * Y))
    assert g.jit_function.builds == builds
    close(adj.value_and_grad(f, argnums=(0, 1))(X, Y, scale=0.5),
          jax.value_and_grad(jf, argnums=(0, 1))(X, Y, scale=0.5))


def test_static_keyword_values():
    def h(x, mode="sum", k=2):
        if mode == "sum":
            return anp.sum(x ** k)
        return anp.max(x ** k)

    def jh(x, mode="sum", k=2):
        if mode == "sum":
            return jnp.sum(x ** k)
        return jnp.max(x ** k)

    for mode in ("sum", "max"):
        close(adj.grad(h)(X, mode=mode, k=3), jax.grad(jh)(X, mode=mode, k=3))


def test_jit_with_keyword_arguments():
    j = adj.jit(f)
    close(j(X, Y, scale=3.0), jf(X, Y, scale=3.0))
    close(j(X, y=Y), jf(X, y=Y))
    close(j(y=Y, x=X), jf(y=Y, x=X))
    # A keyword array and a positional one are different signatures but
    # the same program.
    close(j(X, Y), jf(X, Y))
    with pytest.raises(adj.FrontendError, match="'zz'"):
        j(X, Y, zz=1.0)


def test_jit_keywords_on_the_quick_path():
    j = adj.jit(f)
    for i in range(3):
        close(j(X, Y, scale=float(i)), jf(X, Y, scale=float(i)))
    assert j.builds == 1
    assert len(j._quick) == 1


def test_vmap_maps_keyword_arguments_over_axis_0():
    a = np.arange(6.0).reshape(2, 3)
    k = np.array([2.0, -1.0])
    close(adj.vmap(lambda a, k: a * k)(a, k=k),
          jax.vmap(lambda a, k: a * k)(a, k=k))
    # in_axes describes the positional arguments only.
    close(adj.vmap(lambda a, b, k: a * b + k, in_axes=(0, None))(
        a, np.ones(3), k=k),
        jax.vmap(lambda a, b, k: a * b + k, in_axes=(0, None))(
        a, np.ones(3), k=k))


def test_jacobians_and_hessian_with_keywords():
    def g(a, s, b=1.0):
        return anp.sin(a) * s + b

    def jg(a, s, b=1.0):
        return jnp.sin(a) * s + b

    close(adj.jacrev(g)(X, s=3.0, b=2.0), jax.jacrev(jg)(X, s=3.0, b=2.0))
    close(adj.jacfwd(g)(X, 3.0, b=Y), jax.jacfwd(jg)(X, 3.0, b=Y))

    def e(a, s):
        return anp.sum(a ** 3) * s

    def je(a, s):
        return jnp.sum(a ** 3) * s

    close(adj.hessian(e)(X, s=3.0), jax.hessian(je)(X, s=3.0))


def test_keywords_inside_jitted_code():
    @adj.jit
    def inner(x, y):
        g = adj.grad(f)(x, y, scale=y[0])
        v, gy = adj.value_and_grad(f, argnums=(0,))(x, y=y)
        b = adj.vmap(lambda a, k: a * k)(anp.outer(x, y), k=y)
        h = adj.hessian(lambda a, s: anp.sum(a ** 3) * s)(x, s=2.0)
        return g, v, gy, b, h

    def jinner(x, y):
        g = jax.grad(jf)(x, y, scale=y[0])
        v, gy = jax.value_and_grad(jf, argnums=(0,))(x, y=y)
        b = jax.vmap(lambda a, k: a * k)(jnp.outer(x, y), k=y)
        h = jax.hessian(lambda a, s: jnp.sum(a ** 3) * s)(x, s=2.0)
        return g, v, gy, b, h

    close(inner(X, Y), jinner(X, Y))


def test_keywords_of_custom_derivative_functions():
    @adj.custom_vjp
    def sq(x, s=1.0):
        return x * x * s

    sq.defvjp(lambda x, s: (sq(x, s), (x, s)),
              lambda res, ct: (2.0 * res[0] * res[1] * ct, None))

    @jax.custom_vjp
    def jsq(x, s=1.0):
        return x * x * s

    jsq.defvjp(lambda x, s: (jsq(x, s), (x, s)),
               lambda res, ct: (2.0 * res[0] * res[1] * ct, None))

    close(adj.grad(lambda x: anp.sum(sq(x, s=3.0)))(X),
          jax.grad(lambda x: jnp.sum(jsq(x, s=3.0)))(X))
    close(sq(X, s=2.0), jsq(X, s=2.0))


# ---------------------------------------------------------------------------
# 2. argnums
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("argnums", [[0], [0, 1], [1, 0], -1, (-1, 0),
                                     range(2)])
def test_argnums_any_sequence_or_negative(argnums):
    close(adj.grad(f, argnums=argnums)(X, Y),
          jax.grad(jf, argnums=argnums)(X, Y))
    close(adj.jacrev(f, argnums=argnums)(X, Y),
          jax.jacrev(jf, argnums=argnums)(X, Y))
    close(adj.hessian(f, argnums=argnums)(X, Y),
          jax.hessian(jf, argnums=argnums)(X, Y))


def test_argnums_numpy_int():
    # An integer of any type names one argument (one gradient).
    close(adj.grad(f, argnums=np.int64(1))(X, Y),
          jax.grad(jf, argnums=np.int64(1))(X, Y))


def test_argnums_inside_jitted_code():
    @adj.jit
    def g(x, y):
        return adj.grad(f, argnums=[1, -2])(x, y)

    close(g(X, Y), jax.grad(jf, argnums=[1, -2])(X, Y))


def test_argnums_errors():
    # Past the positional arguments: JAX's TypeError (keywords do not
    # count); before the first: ValueError.
    with pytest.raises(TypeError, match="at least 3 positional"):
        adj.grad(f, argnums=2)(X, Y)
    with pytest.raises(TypeError):
        jax.grad(jf, argnums=2)(X, Y)
    with pytest.raises(TypeError, match="at least 2 positional"):
        adj.value_and_grad(f, argnums=(0, 1))(X, y=Y)
    with pytest.raises(TypeError):
        jax.value_and_grad(jf, argnums=(0, 1))(X, y=Y)
    with pytest.raises(ValueError, match="-2"):
        adj.grad(f, argnums=-3)(X, Y)
    with pytest.raises(ValueError):
        jax.grad(jf, argnums=-3)(X, Y)
    with pytest.raises(TypeError, match="at least 1 positional"):
        adj.jacrev(f)(x=X, y=Y)
    with pytest.raises(ValueError, match="empty"):
        adj.grad(f, argnums=())(X, Y)
    with pytest.raises(ValueError, match="twice"):
        adj.grad(f, argnums=(0, -2))(X, Y)
    # Not ints: refused when the transform is made.
    for bad in (1.0, "a", [0, 1.5], None):
        with pytest.raises(TypeError, match="argnums"):
            adj.grad(f, argnums=bad)
        with pytest.raises(TypeError, match="argnums"):
            adj.hessian(f, argnums=bad)


def test_argnums_errors_inside_jitted_code_have_a_location():
    @adj.jit
    def g(x, y):
        return adj.grad(f, argnums=5)(x, y)

    with pytest.raises(adj.FrontendError, match="at least 6 positional") \
            as err:
        g(X, Y)
    assert err.value.lineno is not None and \
        err.value.filename.endswith("test_call_api.py")


# ---------------------------------------------------------------------------
# 3. static_argnames, donate_argnums, donate_argnames
# ---------------------------------------------------------------------------

def power_sum(x, n, scale=1.0):
    acc = x * 0.0
    for _ in range(n):  # n must be a Python int: static
        acc = acc + x
    return anp.sum(acc) * scale


def jpower_sum(x, n, scale=1.0):
    acc = x * 0.0
    for _ in range(n):
        acc = acc + x
    return jnp.sum(acc) * scale


@pytest.mark.parametrize("options", [dict(static_argnames="n"),
                                     dict(static_argnames=("n",)),
                                     dict(static_argnums=1),
                                     dict(static_argnums=(1,),
                                          static_argnames="n")])
def test_static_argument_by_position_or_keyword(options):
    ours = adj.jit(power_sum, **options)
    theirs = jax.jit(jpower_sum, **options)
    close(ours(X, 3), theirs(X, 3))
    close(ours(X, n=3), theirs(X, n=3))
    close(ours(X, n=4, scale=2.0), theirs(X, n=4, scale=2.0))
    assert ours.static_argnums == (1,) and ours.static_argnames == ("n",)
    builds = ours.builds
    ours(X, n=4, scale=5.0)
    assert ours.builds == builds  # scale is traced, n=4 known


def test_negative_static_argnums_count_from_the_call_end():
    ours = adj.jit(power_sum, static_argnums=-1)
    theirs = jax.jit(jpower_sum, static_argnums=-1)
    close(ours(X, 3), theirs(X, 3))
    close(ours(X, 4), theirs(X, 4))
    assert ours.builds == 2  # one per value of n
    assert ours.static_argnums == (-1,) and ours.static_argnames == ()


def test_static_keyword_only_argument():
    def g(x, *, n):
        return x * n

    j = adj.jit(g, static_argnames="n")
    close(j(X, n=3), X * 3)
    assert j.static_argnums == ()


def test_static_arguments_errors():
    with pytest.raises(ValueError, match="'q'"):
        adj.jit(power_sum, static_argnames="q")
    with pytest.raises(ValueError):
        jax.jit(jpower_sum, static_argnames="q")
    with pytest.raises(ValueError, match="static_argnums"):
        adj.jit(power_sum, static_argnums=5)
    with pytest.raises(ValueError):
        jax.jit(jpower_sum, static_argnums=5)(X, 3)
    with pytest.raises(TypeError, match="static_argnames"):
        adj.jit(power_sum, static_argnames=[1])
    with pytest.raises(ValueError, match="both static and donated"):
        adj.jit(power_sum, static_argnums=1, donate_argnames="n")


def add(x, y):
    return x + y


@pytest.mark.parametrize("options", [dict(donate_argnums=0),
                                     dict(donate_argnames="x"),
                                     dict(donate_argnums=(0,),
                                          donate_argnames=("x",))])
def test_donated_tensors_are_deleted(options):
    j = adj.jit(add, **options)
    assert j.donate_argnums == (0,) and j.donate_argnames == ("x",)
    a = adj.device_put(np.ones(3, np.float32), adj.device("cpu"))
    b = np.arange(3, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # donation is honoured: no warning
        out = j(a, b) if "donate_argnums" in options else j(x=a, y=b)
    np.testing.assert_array_equal(out, np.ones(3) + b)
    assert a.is_deleted()
    for use in (lambda: j(a, b), lambda: a.numpy(), lambda: adj.to_numpy(a),
                lambda: a.to("cpu"), lambda: a.tolist(),
                lambda: adj.jit(add)(a, b)):
        with pytest.raises(RuntimeError, match="deleted"):
            use()
    # The undonated argument and the result are alive.
    c = adj.device_put(b, adj.device("cpu"))
    out2 = j(adj.device_put(np.ones(3, np.float32), adj.device("cpu")), c)
    assert not c.is_deleted()
    np.testing.assert_array_equal(out2, out)


def test_donated_numpy_arrays_stay_usable():
    # numpy arrays belong to the caller (JAX copies them to the device and
    # ignores their donation): they are read, never invalidated.
    a = np.ones(3)
    out = adj.jit(add, donate_argnums=(0, 1))(a, a)
    np.testing.assert_array_equal(out, 2 * a)
    np.testing.assert_array_equal(a, np.ones(3))


def sgd(params, grads, lr):
    # The loss reads the parameters after their update is written in the
    # program: the compiler orders the update last so that it can still
    # be computed in place.
    new = {k: params[k] - lr * grads[k] for k in params}
    loss = sum(anp.sum(params[k] * params[k]) for k in params)
    return new, loss


def expected_sgd(params, grads, lr):
    return ({k: params[k] - lr * grads[k] for k in params},
            sum(np.sum(params[k] * params[k]) for k in params))


def address(x):
    if isinstance(x, adj.Tensor):
        return x.data_ptr
    return x.__array_interface__["data"][0]


@pytest.mark.parametrize("where", ["cpu", "opencl"])
def test_donated_buffers_hold_the_outputs(where, request):
    device = adj.device("cpu") if where == "cpu" else \
        request.getfixturevalue("opencl_device")
    rng = np.random.default_rng(0)
    host = {"w": rng.standard_normal((64, 32)).astype(np.float32),
            "b": rng.standard_normal(32).astype(np.float32)}
    grads = {k: rng.standard_normal(v.shape).astype(np.float32)
             for k, v in host.items()}
    step = adj.jit(sgd, donate_argnums=0)
    params = {k: adj.device_put(v, device) for k, v in host.items()}
    before = {k: address(v) for k, v in params.items()}
    new, loss = step(params, grads, 0.5)
    want, want_loss = expected_sgd(host, grads, 0.5)
    # Each new parameter is the memory of the old one of its shape.
    assert {k: address(v) for k, v in new.items()} == before
    assert all(v.is_deleted() for v in params.values())
    np.testing.assert_allclose(adj.to_numpy(loss), want_loss, rtol=1e-5)
    for k in host:
        np.testing.assert_allclose(adj.to_numpy(new[k]), want[k], rtol=1e-6)
    if where == "opencl":
        # Device results are Tensors: the next step donates them again.
        newer, _ = step(new, grads, 0.5)
        assert {k: address(v) for k, v in newer.items()} == before
        want, _ = expected_sgd(want, grads, 0.5)
        for k in host:
            np.testing.assert_allclose(adj.to_numpy(newer[k]), want[k],
                                       rtol=1e-6)


def test_donation_is_part_of_the_compiled_signature():
    j = adj.jit(add, donate_argnums=0)
    x = np.arange(4, dtype=np.float32)
    t = adj.device_put(x, adj.device("cpu"))
    ptr = address(t)
    out = j(t, x)
    assert address(out) == ptr
    # numpy arguments at the donated position are not donated: another
    # executable, which leaves the caller's array alone.
    out2 = j(x, x)
    np.testing.assert_array_equal(x, np.arange(4))
    np.testing.assert_array_equal(out2, 2 * x)
    assert j.builds == 2
    # CPU results (adjoint.Array) are numpy's: read, never overwritten.
    out3 = j(out2, x)
    np.testing.assert_array_equal(out2, 2 * x)
    np.testing.assert_array_equal(out3, 3 * x)


def test_a_donated_tensor_also_passed_undonated_is_copied_first():
    j = adj.jit(lambda x, y: x * 2.0 + y, donate_argnums=0)
    x = np.arange(5, dtype=np.float32)
    t = adj.device_put(x, adj.device("cpu"))
    out = j(t, t)
    np.testing.assert_array_equal(out, 3 * x)
    assert t.is_deleted()


# ---------------------------------------------------------------------------
# 4. block_until_ready and adjoint.Array
# ---------------------------------------------------------------------------

def test_results_have_block_until_ready():
    j = adj.jit(lambda p, x: {"w": p["w"] * x, "n": anp.sum(x)})
    out = j({"w": Y}, X)
    for leaf in out.values():
        assert isinstance(leaf, adj.Array) and isinstance(leaf, np.ndarray)
        assert leaf.block_until_ready() is leaf
    assert adj.block_until_ready(out) is out
    close(out, {"w": Y * X, "n": np.sum(X)})
    g = adj.grad(f)(X, Y)
    assert g.block_until_ready() is g
    v, gr = adj.value_and_grad(f)(X, Y)
    assert v.shape == () and v.block_until_ready() is v
    assert adj.vmap(anp.sin)(X).block_until_ready() is not None


def test_block_until_ready_on_trees_of_anything():
    tree = {"a": jnp.ones(2), "b": (1, "s", None),
            "c": [np.ones(2), adj.jit(anp.cos)(X)]}
    assert adj.block_until_ready(tree) is tree
    t = adj.device_put(X, adj.device("cpu"))
    assert t.block_until_ready() is t
    assert adj.block_until_ready([t])[0] is t
    for d in adj.devices():
        if d.kind != "cpu":
            on = adj.jit(anp.sin, device=d)(X.astype(np.float32))
            assert isinstance(on, adj.Tensor)
            assert adj.block_until_ready(on) is on
            np.testing.assert_allclose(adj.to_numpy(on), np.sin(X),
                                       rtol=1e-6)


def test_derived_results_are_plain_arrays():
    r = adj.jit(anp.exp)(X)
    assert type(r) is adj.Array
    for derived in (r + 1, np.exp(r), r * r, -r, np.asarray(r),
                    np.sum(r, keepdims=True)):
        assert type(derived) is np.ndarray
    assert type(np.sum(r)) is np.float64
    assert float(adj.jit(anp.sum)(X)) == pytest.approx(np.sum(X))
    with pytest.raises(TypeError):
        adj.Array((3,))


def test_results_passed_back_take_the_quick_path():
    step = adj.jit(lambda p, lr: {k: v - lr * v for k, v in p.items()})
    p = {"a": np.ones(3), "b": np.ones((2, 2))}
    for _ in range(4):
        p = step(p, 0.5)
    assert type(p["a"]) is adj.Array
    close(p, {"a": np.full(3, 0.5 ** 4), "b": np.full((2, 2), 0.5 ** 4)})
    assert step.builds == 1
    # numpy inputs and Array inputs share one quick entry.
    assert len(step._quick) == 1


# ---------------------------------------------------------------------------
# 5. jit's decorator forms and functools.partial
# ---------------------------------------------------------------------------

def test_jit_decorator_forms():
    @adj.jit
    def a(x):
        return x * 2.0

    @adj.jit()
    def b(x):
        return x * 2.0

    @functools.partial(adj.jit, static_argnums=1)
    def c(x, n):
        return power_sum(x, n)

    @functools.partial(adj.jit, static_argnames=("n",))
    def d(x, n):
        return power_sum(x, n)

    close(a(X), 2 * X)
    close(b(X), 2 * X)
    close(c(X, 3), jpower_sum(X, 3))
    close(d(X, n=2), jpower_sum(X, 2))
    assert adj.jit(a) is a
    assert isinstance(adj.jit(a, static_argnames="x"), adj.JitFunction)


def test_lower():
    m = adj.jit(f).lower(X, Y, scale=2.0)
    assert isinstance(m, adj.Module)
    m.verify()
    assert "func" in str(m)


def test_partial_objects_as_functions():
    p = functools.partial(f, scale=2.0)
    jp = functools.partial(jf, scale=2.0)
    close(adj.jit(p)(X, Y), jax.jit(jp)(X, Y))
    close(adj.grad(p)(X, Y), jax.grad(jp)(X, Y))
    close(adj.grad(p, argnums=[0, 1])(X, Y),
          jax.grad(jp, argnums=[0, 1])(X, Y))
    close(adj.vmap(functools.partial(f, Y[0]))(np.outer(X, Y)),
          jax.vmap(functools.partial(jf, Y[0]))(np.outer(X, Y)))
    pos = functools.partial(power_sum, X)
    assert adj.jit(pos, static_argnums=0)(3) == pytest.approx(
        jpower_sum(X, 3))
    assert adj.jit(pos, static_argnames="n")(n=2) == pytest.approx(
        jpower_sum(X, 2))
