"""The Python front end: @adjoint.jit, grad and value_and_grad."""

import inspect

import numpy as np
import pytest

import adjoint
import adjoint as adj
import adjoint.numpy as anp
from conftest import central_diff


def mlp(x, w1, b1, w2, b2):
    h = adj.tanh(x @ w1 + b1)
    return h @ w2 + b2


def loss(x, w1, b1, w2, b2):
    y = mlp(x, w1, b1, w2, b2)          # a plain Python function, inlined
    return adj.mean(y * y)


@adj.jit
def branchy(x):
    s = adj.sum(x)
    if s > 0.0:
        y = x * 2.0
    elif s > -1.0:
        y = -x
    else:
        y = x * 0.0 + 1
    return y


@adj.jit
def early_return(x):
    if adj.sum(x) < 0:
        return anp.exp(x)
    z = x + 1
    return z * z if adj.max(x) > 2.0 else z


@adj.jit
def loops(x):
    acc = x
    for i in range(4):
        acc = acc * 0.5 + x
    n = adj.sum(x * 0.0)
    while adj.sum(acc) < 100.0:
        acc = acc * 2.0
        n = n + 1
    return acc, n


@adj.jit
def pair(x, y):
    a, b = x + y, x - y
    a, b = b, a
    return (a * b, adj.sum(a)), 3 * b


def params(rng, dtype=np.float32):
    def r(*s):
        return rng.standard_normal(s).astype(dtype)
    return r(4, 3), r(3, 5), r(5), r(5, 2), r(2)


def mlp_np(x, w1, b1, w2, b2):
    return np.tanh(x @ w1 + b1) @ w2 + b2


def test_mlp_forward(rng):
    args = params(rng)
    f = adj.jit(mlp)
    np.testing.assert_allclose(f(*args), mlp_np(*args), rtol=1e-5, atol=1e-6)
    out = adj.jit(loss)(*args)
    np.testing.assert_allclose(out, np.mean(mlp_np(*args) ** 2), rtol=1e-5)


def test_if_elif_else_on_tensor_comparison():
    for x in ([1.0, 2.0], [-0.25, 0.0], [-3.0, 1.0]):
        x = np.array(x, np.float32)
        s = x.sum()
        want = x * 2 if s > 0 else (-x if s > -1 else np.ones_like(x))
        np.testing.assert_allclose(branchy(x), want)


def test_return_in_branch_and_conditional_expression():
    for x in ([-1.0, -2.0], [0.5, 1.0], [0.5, 3.0]):
        x = np.array(x, np.float64)
        if x.sum() < 0:
            want = np.exp(x)
        else:
            want = (x + 1) ** 2 if x.max() > 2 else x + 1
        np.testing.assert_allclose(early_return(x), want, rtol=1e-12)


def test_for_range_and_while():
    x = np.array([1.0, 2.0, 3.0], np.float32)
    acc = x.copy()
    for _ in range(4):
        acc = acc * 0.5 + x
    n = 0
    while acc.sum() < 100:
        acc, n = acc * 2, n + 1
    got_acc, got_n = loops(x)
    np.testing.assert_allclose(got_acc, acc, rtol=1e-6)
    assert float(got_n) == n


def test_tuple_returns_and_unpacking():
    x = np.array([1.0, 2.0], np.float32)
    y = np.array([0.5, -1.0], np.float32)
    (p, s), t = pair(x, y)
    a, b = x - y, x + y
    np.testing.assert_allclose(p, a * b)
    np.testing.assert_allclose(s, a.sum())
    np.testing.assert_allclose(t, 3 * b)


def test_nested_def_lambda_and_numpy_names():
    @adj.jit
    def f(x, k):
        scale = lambda v: v * k          # noqa: E731
        def g(v):
            return np.tanh(scale(v)) + anp.sum(v, axis=0)
        return g(x) ** 2

    x = np.arange(6, dtype=np.float64).reshape(2, 3) / 10
    k = np.float64(1.5)
    want = (np.tanh(x * k) + x.sum(0)) ** 2
    np.testing.assert_allclose(f(x, k), want, rtol=1e-12)


def test_grad_vs_finite_differences_and_hand_gradient(rng):
    args = params(rng, np.float64)
    f = adj.jit(loss)
    g = adj.grad(f, argnums=(1, 4))(*args)
    for k, i in enumerate((1, 4)):
        np.testing.assert_allclose(g[k], central_diff(f, args, i),
                                   rtol=1e-5, atol=1e-8)
    # By hand: d/db2 mean(y^2) = 2 * mean over rows of y / n_out.
    y = mlp_np(*args)
    np.testing.assert_allclose(g[1], 2 * y.sum(0) / y.size, rtol=1e-10)

    gx = adj.grad(loss)(*args)            # plain function, argnums=0
    np.testing.assert_allclose(gx, central_diff(f, args, 0), rtol=1e-5,
                               atol=1e-8)


def test_value_and_grad_with_control_flow():
    @adj.jit
    def h(x):
        y = x
        for i in range(3):
            y = adj.sin(y) * x
        return adj.sum(y) if adj.sum(x) > 0 else adj.sum(x * x)

    for x in ([0.3, 0.7], [-0.3, -0.2]):
        x = np.array(x, np.float64)
        v, g = adj.value_and_grad(h, argnums=0)(x)
        np.testing.assert_allclose(v, h(x), rtol=1e-12)
        np.testing.assert_allclose(g, central_diff(h, [x], 0), rtol=1e-6,
                                   atol=1e-9)
    x = np.array([-0.3, -0.2])
    np.testing.assert_allclose(adj.grad(h)(x), 2 * x, rtol=1e-12)


def test_cache_per_signature():
    @adj.jit
    def f(x):
        return x * 2.0 + 1

    a = np.ones(3, np.float32)
    f(a)
    f(a + 1)
    assert f.builds == 1
    f(np.ones(4, np.float32))
    f(np.ones(3, np.float64))
    assert f.builds == 3
    f(np.zeros(4, np.float32))
    assert f.builds == 3
    df = adj.grad(lambda x: adj.sum(x * x))
    df(a)
    df(a)
    assert df.jit_function.builds == 1


def test_builder_grad_still_works():
    m = adj.Module()
    x3 = adj.Type.tensor(adj.f32, [3])
    f = m.function("f", [x3], lambda x: adj.sum(adj.exp(x) * 2.0))
    m.function("df", [x3], lambda x: adj.grad(f)(x))
    np.testing.assert_allclose(adj.compile(m, "df")(np.zeros(3, np.float32)),
                               [2.0, 2.0, 2.0])


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, l in enumerate(lines) if text in l)


def bad_shapes(x, w):
    y = adj.tanh(x)
    z = y @ w  # shape error here
    return z


def bad_syntax(x):
    with open("f") as f:  # unsupported
        pass
    return x


def test_errors_name_file_and_line():
    with pytest.raises(adj.FrontendError) as info:
        adj.jit(bad_shapes)(np.ones((2, 3), np.float32),
                            np.ones((4, 5), np.float32))
    err = info.value
    assert err.lineno == _line_of(bad_shapes, "shape error here")
    assert err.filename == __file__
    assert "z = y @ w" in str(err) and ":%d:" % err.lineno in str(err)

    with pytest.raises(adj.FrontendError) as info:
        adj.jit(bad_syntax)(np.ones(2))
    assert info.value.lineno == _line_of(bad_syntax, "unsupported")
    assert "unsupported statement: With" in str(info.value)


_TABLE = {"k": np.array([1.0, 2.0, 3.0]), "rows": [np.array([0.5, 0.25])]}


def test_numpy_arrays_reached_through_containers_are_constants():
    # D["k"] used to stay a raw numpy array, and Value * array recursed
    # between numpy's ufunc and Value.__mul__ until the C stack overflowed.
    x = np.array([0.1, 0.2, 0.3])
    f = adj.jit(lambda x: np.sum(x * _TABLE["k"]) + _TABLE["rows"][0][1])
    assert float(f(x)) == pytest.approx(0.1 + 0.4 + 0.9 + 0.25)
