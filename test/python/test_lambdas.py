"""Lambdas passed to jit and the transforms are found by their code object,
not by their line: two on one line, in one call, nested, made by a
comprehension, or on a continuation line of a call."""

import numpy as np
import pytest

import adjoint as adj

double, triple = (lambda x: np.sum(x * 2.0)), (lambda x: np.sum(x * 3.0))
curry = lambda a: lambda x: np.sum(x * a)  # noqa: E731
scales = [lambda x, k=k: np.sum(x * k) for k in (1.0, 2.0, 3.0)]


def pair(f, g):
    return f, g


first, second = pair(lambda x: np.sum(x * x), lambda x: np.sum(x) * 4.0)
continued = pair(np.sum,
                 lambda x: np.sum(x) * 5.0)[1]


@pytest.fixture
def x(rng):
    return rng.standard_normal(4)


def test_two_lambdas_on_one_line(x):
    np.testing.assert_allclose(adj.jit(double)(x), 2 * x.sum(), rtol=1e-12)
    np.testing.assert_allclose(adj.jit(triple)(x), 3 * x.sum(), rtol=1e-12)
    np.testing.assert_allclose(adj.grad(triple)(x), np.full(4, 3.0))


def test_two_lambdas_in_one_call(x):
    np.testing.assert_allclose(adj.jit(first)(x), (x * x).sum(), rtol=1e-12)
    np.testing.assert_allclose(adj.jit(second)(x), 4 * x.sum(), rtol=1e-12)
    np.testing.assert_allclose(adj.grad(first)(x), 2 * x, rtol=1e-12)


def test_nested_lambdas(x):
    np.testing.assert_allclose(adj.jit(curry(3.0))(x), 3 * x.sum(),
                               rtol=1e-12)
    np.testing.assert_allclose(adj.grad(curry(-2.0))(x), np.full(4, -2.0))


def test_lambdas_of_a_comprehension(x):
    for k, f in zip((1.0, 2.0, 3.0), scales):
        np.testing.assert_allclose(adj.jit(f)(x), k * x.sum(), rtol=1e-12)


def test_lambda_on_a_continuation_line(x):
    np.testing.assert_allclose(adj.jit(continued)(x), 5 * x.sum(),
                               rtol=1e-12)


def test_lambdas_inside_jitted_code_call_lambdas_from_outside(x):
    @adj.jit
    def f(x):
        g, h = (lambda y: double(y) + 1.0), (lambda y: triple(y) - 1.0)
        return g(x) * h(x)

    np.testing.assert_allclose(f(x), (2 * x.sum() + 1) * (3 * x.sum() - 1),
                               rtol=1e-12)


def test_a_lambda_without_source_is_a_clear_error(x):
    f = eval("lambda x: x * 2.0")
    with pytest.raises(adj.FrontendError,
                       match="cannot get the source of the lambda"):
        adj.jit(f)(x)
