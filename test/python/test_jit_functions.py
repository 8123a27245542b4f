"""The front end on functions as values: closures (nested, returned, stored
in tuples, recursive), higher-order functions, recursion, arguments."""

import inspect

import numpy as np
import pytest

import adjoint as adj
from conftest import central_diff, check_grads


# -- closures and higher-order functions ------------------------------------

def make_layer(w, b):
    def layer(x):                       # a closure returned by a function
        return adj.tanh(x @ w + b)
    return layer


def compose(f, g):
    return lambda x: g(f(x))


@adj.jit
def closures(x, w1, b1, w2, b2):
    l1, l2 = make_layer(w1, b1), make_layer(w2, b2)
    layers = (l1, l2, lambda h: h * 2.0)        # closures in a tuple
    net = compose(compose(layers[0], layers[1]), layers[2])
    scale = adj.sum(w1 * w1)

    def loss(y):                                 # a nested closure
        return adj.mean(y * y) * scale
    return loss(net(x))


def test_closures_returned_composed_and_in_tuples(rng):
    x, w1, b1, w2, b2 = (rng.standard_normal(s) for s in
                         [(3, 4), (4, 5), (5,), (5, 2), (2,)])
    h = np.tanh(np.tanh(x @ w1 + b1) @ w2 + b2) * 2
    want = np.mean(h * h) * np.sum(w1 * w1)
    np.testing.assert_allclose(closures(x, w1, b1, w2, b2), want, rtol=1e-12)
    check_grads(closures, [x, w1, b1, w2, b2], [0, 1, 2, 3, 4])


def apply_twice(f, x):
    return f(f(x))


@adj.jit
def higher_order(x, w):
    fs = [adj.sin, lambda v: v * w, adj.tanh]
    y = x
    for f in fs:                        # a loop over functions (unrolled)
        y = apply_twice(f, y)
    total = 0.0
    for f in (adj.exp, lambda v: v * v):
        total = total + adj.sum(f(y))
    return total


def test_higher_order_functions(rng):
    x, w = rng.standard_normal(4), rng.standard_normal(4)
    y = x
    for f in (np.sin, lambda v: v * w, np.tanh):
        y = f(f(y))
    np.testing.assert_allclose(higher_order(x, w),
                               np.exp(y).sum() + (y * y).sum(), rtol=1e-12)
    check_grads(higher_order, [x, w], [0, 1])


def test_closure_argument_and_static_argnums(rng):
    @adj.jit(static_argnums=(1, 2))
    def f(x, act, n, scale=0.5):
        for _ in range(n):               # n is a Python int: unrolled
            x = act(x) * scale
        return x

    x = rng.standard_normal(3)
    np.testing.assert_allclose(f(x, np.tanh, 3), np.tanh(np.tanh(
        np.tanh(x) * .5) * .5) * .5, rtol=1e-12)
    np.testing.assert_allclose(f(x, adj.relu, 1), np.maximum(x, 0) * .5)
    assert f.builds == 2
    f(x, np.tanh, 3)
    assert f.builds == 2


def test_keywords_defaults_and_varargs(rng):
    def combine(*xs, weight=2.0, bias=0.0):
        total = xs[0]
        for v in xs[1:]:
            total = total + v
        return total * weight + bias

    @adj.jit
    def f(a, b, c):
        return combine(a, b, c, bias=1.0) + combine(a, weight=3.0)

    a, b, c = (rng.standard_normal(2) for _ in range(3))
    np.testing.assert_allclose(f(a, b, c), (a + b + c) * 2 + 1 + 3 * a,
                               rtol=1e-12)


def test_pytree_arguments_and_gradients(rng):
    @adj.jit
    def loss(params, batch):
        x, y = batch
        h = adj.tanh(x @ params["w1"] + params["b1"])
        out = h @ params["w2"]
        return adj.mean((out - y) ** 2.0)

    params = {"w1": rng.standard_normal((3, 4)), "b1": np.zeros(4),
              "w2": rng.standard_normal((4, 1))}
    batch = (rng.standard_normal((5, 3)), rng.standard_normal((5, 1)))
    g = adj.grad(loss)(params, batch)
    assert isinstance(g, dict) and set(g) == set(params)
    for k in params:
        def f(p, k=k):
            return loss({**params, k: p}, batch)
        np.testing.assert_allclose(g[k], central_diff(f, [params[k]], 0),
                                   rtol=1e-6, atol=1e-9)
    v, (gp, gb) = adj.value_and_grad(loss, argnums=(0, 1))(params, batch)
    np.testing.assert_allclose(v, loss(params, batch), rtol=1e-12)
    assert isinstance(gb, tuple) and len(gb) == 2
    np.testing.assert_allclose(gp["w2"], g["w2"], rtol=1e-12)


def test_python_numbers_as_arguments(rng):
    @adj.jit
    def f(x, lr):
        return x - lr * x

    x = rng.standard_normal(3).astype(np.float32)
    out = f(x, 0.25)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, x * 0.75, rtol=1e-6)
    f(x, 0.5)
    assert f.builds == 1                 # a Python float is not static


def test_numpy_constants_from_globals_and_closures(rng):
    table = rng.standard_normal((3, 3))

    @adj.jit
    def f(x):
        return adj.sum(adj.tanh(x @ table) * WEIGHTS)

    x = rng.standard_normal((2, 3))
    np.testing.assert_allclose(f(x), np.sum(np.tanh(x @ table) * WEIGHTS),
                               rtol=1e-12)
    check_grads(f, [x], [0])


WEIGHTS = np.array([1.0, -2.0, 0.5])


# -- recursion ---------------------------------------------------------------

def power(x, n):
    """x ** n by recursion on the tensor n."""
    if n <= 0:
        return x * 0.0 + 1.0
    return x * power(x, n - 1)


def test_recursion_on_tensors(rng):
    f = adj.jit(lambda x, n: adj.sum(power(x, n)))
    x = rng.uniform(0.5, 1.5, 3)
    for n in (0, 1, 4):
        n = np.int64(n)
        np.testing.assert_allclose(f(x, n), np.sum(x ** n), rtol=1e-12)
        np.testing.assert_allclose(adj.grad(f)(x, n), n * x ** (n - 1.0),
                                   rtol=1e-12)
    assert f.builds == 1                 # one program for every n
    m = f.lower(x, np.int64(3))
    assert "power_rec1" in str(m)


def test_recursive_closure_capturing_values(rng):
    @adj.jit
    def f(x, w, n):
        def rec(y, k):                   # captures w, calls itself
            if k > 0:
                return rec(adj.tanh(y * w) + y, k - 1)
            return y
        return adj.sum(rec(x, n) * w)

    x, w = rng.standard_normal(3), rng.standard_normal(3)
    n = np.int64(3)
    y = x
    for _ in range(3):
        y = np.tanh(y * w) + y
    np.testing.assert_allclose(f(x, w, n), np.sum(y * w), rtol=1e-12)
    check_grads(lambda x, w: f(x, w, n), [x, w], [0, 1])


def is_even(n, acc):
    return acc if n <= 0 else is_odd(n - 1, acc * 2.0)


def is_odd(n, acc):
    return -acc if n <= 0 else is_even(n - 1, adj.sin(acc))


def test_mutual_recursion(rng):
    f = adj.jit(lambda n, x: adj.sum(is_even(n, x)))
    x = rng.standard_normal(2)

    def ref(n, acc, even=True):
        if n <= 0:
            return acc if even else -acc
        return ref(n - 1, acc * 2.0 if even else np.sin(acc), not even)

    for n in range(5):
        np.testing.assert_allclose(f(np.int64(n), x), ref(n, x).sum(),
                                   rtol=1e-12)
        g = adj.grad(f, argnums=1)(np.int64(n), x)
        np.testing.assert_allclose(
            g, central_diff(lambda x: f(np.int64(n), x), [x], 0),
            rtol=1e-6, atol=1e-9)


def tree_sum(x, depth):
    """Recursion on a Python int: unrolled while building."""
    if depth == 0:
        return adj.sin(x)
    return tree_sum(x * 0.5, depth - 1) + tree_sum(x + 1.0, depth - 1)


def test_recursion_on_python_values_unrolls(rng):
    f = adj.jit(lambda x: adj.sum(tree_sum(x, 3)))
    x = rng.standard_normal(2)

    def ref(x, d):
        return np.sin(x) if d == 0 else ref(x * .5, d - 1) + ref(x + 1, d - 1)
    np.testing.assert_allclose(f(x), ref(x, 3).sum(), rtol=1e-12)
    assert "_rec" not in str(f.lower(x))
    check_grads(f, [x], [0])


def test_recursion_with_a_higher_order_argument(rng):
    def iterate(f, x, n):
        return x if n <= 0 else iterate(f, f(x), n - 1)

    @adj.jit
    def g(x, w, n):
        return adj.sum(iterate(lambda v: adj.sin(v) * w, x, n))

    x, w = rng.standard_normal(3), rng.standard_normal(3)
    y = x
    for _ in range(4):
        y = np.sin(y) * w
    np.testing.assert_allclose(g(x, w, np.int64(4)), y.sum(), rtol=1e-12)
    check_grads(lambda x, w: g(x, w, np.int64(4)), [x, w], [0, 1])


# -- errors ------------------------------------------------------------------

def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, l in enumerate(lines) if text in l)


def no_base_case(x):
    return no_base_case(x * 2.0)  # never stops


def carried(x):
    f = adj.tanh
    while adj.sum(x) < 10.0:
        x = f(x) + 1.0
        f = adj.sin  # a function carried by a loop
    return x


def test_recursion_and_function_value_errors():
    with pytest.raises(adj.FrontendError) as info:
        adj.jit(no_base_case)(np.ones(2))
    assert info.value.lineno == _line_of(no_base_case, "never stops")
    assert "every path" in str(info.value)

    with pytest.raises(adj.FrontendError) as info:
        adj.jit(carried)(np.ones(2))
    assert info.value.lineno == _line_of(carried, "while adj.sum")
    assert "function" in str(info.value)


def test_loop_reassigning_a_function_unrolls(rng):
    @adj.jit
    def f(x, w):
        g = lambda v: v                  # noqa: E731
        for i in range(3):
            g = compose(g, lambda v, i=i: adj.sin(v) * w + i)
        return adj.sum(g(x))

    x, w = rng.standard_normal(3), rng.standard_normal(3)
    y = x
    for i in range(3):
        y = np.sin(y) * w + i
    np.testing.assert_allclose(f(x, w), y.sum(), rtol=1e-12)
    check_grads(f, [x, w], [0, 1])


def checked(x):
    assert x.ndim == 2, "x must be a matrix"
    if x.shape[0] != x.shape[1]:
        raise ValueError("x must be square")  # raised while building
    return adj.sum(x)


def test_assert_and_raise_on_python_values():
    np.testing.assert_allclose(adj.jit(checked)(np.ones((2, 2))), 4.0)
    with pytest.raises(adj.FrontendError, match="x must be a matrix") as info:
        adj.jit(checked)(np.ones(3))
    assert info.value.lineno == _line_of(checked, "assert x.ndim")
    with pytest.raises(adj.FrontendError, match="ValueError.*square") as info:
        adj.jit(checked)(np.ones((2, 3)))
    assert info.value.lineno == _line_of(checked, "raised while building")


def test_functions_chosen_by_a_tensor_condition(rng):
    def make(w, k):
        def f(v):                            # captures branch-local values
            return adj.sin(v * w) * k
        return f

    @adj.jit
    def g(x, w):
        act = adj.tanh                       # defined before: passes through
        if adj.sum(x) > 0:
            k = adj.sum(w * w)
            f = make(w, k)
        else:
            f = lambda v: v * w + 1.0        # noqa: E731
        h = (lambda v: v * 2.0) if adj.max(x) > 1.0 else act
        return adj.sum(h(f(x)))

    w = rng.standard_normal(3)
    for x in (rng.uniform(0.1, 0.5, 3), -rng.uniform(0.1, 0.5, 3),
              np.array([2.0, -0.5, 0.1])):
        y = np.sin(x * w) * np.sum(w * w) if x.sum() > 0 else x * w + 1
        want = np.sum(y * 2 if x.max() > 1 else np.tanh(y))
        np.testing.assert_allclose(g(x, w), want, rtol=1e-12)
        check_grads(g, [x, w], [0, 1])


class Dense:
    """A layer object: its weights are numpy attributes (constants)."""

    def __init__(self, w, b):
        self.w, self.b = w, b

    def __call__(self, x):
        return self.activate(x @ self.w + self.b)

    def activate(self, h):
        return adj.tanh(h) if self.b.shape[0] > 1 else h


def test_methods_and_callable_objects(rng):
    l1 = Dense(rng.standard_normal((3, 4)), rng.standard_normal(4))
    l2 = Dense(rng.standard_normal((4, 1)), rng.standard_normal(1))

    @adj.jit
    def f(x):
        return adj.sum(l2(l1(x)) ** 2.0)

    x = rng.standard_normal((2, 3))
    want = np.sum((np.tanh(x @ l1.w + l1.b) @ l2.w + l2.b) ** 2)
    np.testing.assert_allclose(f(x), want, rtol=1e-12)
    check_grads(f, [x], [0])


def test_comprehensions_and_dicts(rng):
    @adj.jit
    def sgd(params, grads, lr):
        new = {k: params[k] - lr * grads[k] for k in params}
        norms = [adj.sum(g * g) for g in grads.values()]
        rows = tuple(adj.sum(r) for r in params["w"] if True)
        pairs = [a * b for a, b in zip(norms, (1.0, 2.0))]
        return new, sum(pairs), rows, {"n": len(norms)}

    p = {"w": rng.standard_normal((2, 3)), "b": rng.standard_normal(3)}
    g = {"w": rng.standard_normal((2, 3)), "b": rng.standard_normal(3)}
    new, total, rows, n = sgd(p, g, 0.1)
    for k in p:
        np.testing.assert_allclose(new[k], p[k] - 0.1 * g[k], rtol=1e-12)
    # dict order of the pytree is sorted: b, w
    np.testing.assert_allclose(total, np.sum(g["b"] ** 2)
                               + 2 * np.sum(g["w"] ** 2), rtol=1e-12)
    np.testing.assert_allclose(rows, p["w"].sum(1), rtol=1e-12)
    assert int(n["n"]) == 2
