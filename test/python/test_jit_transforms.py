"""grad, value_and_grad, jvp, vjp and hessian from Python and inside jitted
code: nesting, higher derivatives, closures, recursion and loops."""

import numpy as np
import pytest

import adjoint as adj

from conftest import central_diff
from test_jit_functions import power


def f_scalar(x):
    return adj.sin(x) * x ** 3.0


def test_higher_derivatives_of_a_scalar_function():
    # f = sin(x) x^3; derivatives by hand.
    def d(k, x):
        s, c = np.sin(x), np.cos(x)
        return [s * x**3,
                c * x**3 + 3 * s * x**2,
                -s * x**3 + 6 * c * x**2 + 6 * s * x,
                -c * x**3 - 9 * s * x**2 + 18 * c * x + 6 * s,
                s * x**3 - 12 * c * x**2 - 36 * s * x + 24 * c][k]

    f = adj.jit(f_scalar)
    df = adj.grad(f)
    for x in (0.3, -1.7, 2.2):
        x = np.float64(x)
        fk = f
        for k in range(5):
            np.testing.assert_allclose(fk(x), d(k, x), rtol=1e-10)
            fk = adj.grad(fk)
        np.testing.assert_allclose(adj.grad(adj.grad(f))(x), d(2, x),
                                   rtol=1e-10)
        v, g = adj.value_and_grad(df)(x)
        np.testing.assert_allclose((v, g), (d(1, x), d(2, x)), rtol=1e-10)


def test_second_derivatives_through_control_flow_and_recursion(rng):
    @adj.jit
    def f(x, n):
        y = power(x, n)                          # recursion
        for _ in range(2):                       # a loop
            y = adj.tanh(y) + x
        return adj.sum(y * y) if adj.sum(x) > 0 else adj.sum(adj.exp(y))

    g = adj.jit(adj.grad(f))
    for x in (rng.uniform(0.2, 1.0, 3), -rng.uniform(0.2, 1.0, 3)):
        n = np.int64(3)
        h = adj.hessian(f)(x, n)
        assert h.shape == (3, 3)
        num = np.stack([central_diff(lambda x: g(x, n)[j], [x], 0)
                        for j in range(3)])
        np.testing.assert_allclose(h, num, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(h, h.T, rtol=1e-12, atol=1e-12)


def test_grad_of_a_closure_inside_jitted_code(rng):
    @adj.jit
    def outer(x, w):
        def inner(v):                  # closes over w
            return adj.sum(adj.tanh(v * w) ** 2.0)
        gx = adj.grad(inner)(x)        # an AD request in the program
        return adj.sum(gx * x)

    x, w = rng.standard_normal(3), rng.standard_normal(3)

    def ref(x, w):
        t = np.tanh(x * w)
        return np.sum(2 * t * (1 - t * t) * w * x)
    np.testing.assert_allclose(outer(x, w), ref(x, w), rtol=1e-12)
    gx, gw = adj.grad(outer, argnums=(0, 1))(x, w)    # grad of grad
    np.testing.assert_allclose(gx, central_diff(ref, [x, w], 0), rtol=1e-6,
                               atol=1e-9)
    np.testing.assert_allclose(gw, central_diff(ref, [x, w], 1), rtol=1e-6,
                               atol=1e-9)


def test_jvp_and_vjp(rng):
    def f(x, w):
        return adj.tanh(x @ w), adj.sum(x * x)

    x, w = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    dx, dw = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    (y, s), (dy, ds) = adj.jvp(f, (x, w), (dx, dw))
    np.testing.assert_allclose(y, np.tanh(x @ w), rtol=1e-12)
    np.testing.assert_allclose(s, np.sum(x * x), rtol=1e-12)
    eps = 1e-6
    yp, sp = (np.tanh((x + eps * dx) @ (w + eps * dw)),
              np.sum((x + eps * dx) ** 2))
    ym, sm = (np.tanh((x - eps * dx) @ (w - eps * dw)),
              np.sum((x - eps * dx) ** 2))
    np.testing.assert_allclose(dy, (yp - ym) / (2 * eps), rtol=1e-6,
                               atol=1e-9)
    np.testing.assert_allclose(ds, (sp - sm) / (2 * eps), rtol=1e-6)

    (y2, s2), pullback = adj.vjp(f, x, w)
    np.testing.assert_allclose(y2, y, rtol=1e-12)
    cy = rng.standard_normal(y.shape)
    gx, gw = pullback((cy, 2.0))
    t = np.tanh(x @ w)
    d = cy * (1 - t * t)
    np.testing.assert_allclose(gx, d @ w.T + 2.0 * 2 * x, rtol=1e-12)
    np.testing.assert_allclose(gw, x.T @ d, rtol=1e-12)
    # <vjp(ct), tangent> == <ct, jvp(tangent)>
    gx, gw = pullback((cy, 0.0))
    np.testing.assert_allclose(np.sum(gx * dx) + np.sum(gw * dw),
                               np.sum(cy * dy), rtol=1e-10)


def test_jvp_vjp_and_hessian_inside_jitted_code(rng):
    def energy(x):
        return adj.sum(adj.sin(x) * x) + adj.sum(x) ** 2.0

    @adj.jit
    def f(x, v):
        _, hv = adj.jvp(adj.grad(energy), (x,), (v,))   # Hessian-vector
        e, pull = adj.vjp(energy, x)
        (gx,) = pull(1.0)
        return hv, adj.hessian(energy)(x) @ v, gx, e

    x, v = rng.standard_normal(4), rng.standard_normal(4)
    hv, hv2, gx, e = f(x, v)
    h = np.diag(2 * np.cos(x) - x * np.sin(x)) + 2.0
    np.testing.assert_allclose(hv, h @ v, rtol=1e-12)
    np.testing.assert_allclose(hv2, h @ v, rtol=1e-12)
    np.testing.assert_allclose(gx, np.sin(x) + x * np.cos(x) + 2 * x.sum(),
                               rtol=1e-12)
    np.testing.assert_allclose(e, np.sum(np.sin(x) * x) + x.sum() ** 2,
                               rtol=1e-12)
    np.testing.assert_allclose(adj.hessian(energy)(x), h, rtol=1e-12)


def test_hessian_of_a_matrix_argument(rng):
    def f(a, b):
        return adj.sum(adj.tanh(a @ b) ** 2.0)

    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 2))
    h = adj.hessian(f)(a, b)
    assert h.shape == (2, 3, 2, 3)
    gfun = adj.jit(adj.grad(f))
    num = np.zeros((2, 3, 2, 3))
    for idx in np.ndindex(2, 3):
        num[idx] = central_diff(lambda a: gfun(a, b)[idx], [a], 0)
    np.testing.assert_allclose(h, num, rtol=1e-6, atol=1e-8)


def test_transform_errors():
    with pytest.raises(adj.FrontendError, match="one floating point scalar"):
        adj.grad(lambda x: x * 2.0)(np.ones(3))
    # From Python, JAX's TypeError before anything is built (test_call_api
    # has the others).
    with pytest.raises(TypeError, match="at least 3 positional arguments"):
        adj.grad(lambda x: adj.sum(x), argnums=2)(np.ones(3))


def test_transforms_are_cached(rng):
    x = rng.standard_normal(3)
    for _ in range(3):
        adj.grad(f_scalar)(np.float64(0.5))
        adj.grad(adj.grad(f_scalar))(np.float64(0.5))
    assert adj.grad(f_scalar).jit_function.builds == 1
    assert adj.grad(adj.grad(f_scalar)).jit_function.builds == 1
    assert adj.grad(adj.grad(f_scalar)).jit_function is \
        adj.grad(adj.grad(f_scalar)).jit_function
    del x
