"""numpy's indexing, array methods and 1-D matmul in jitted code."""

import numpy as np

import adjoint as adj

from conftest import check_grads


def test_indexing_like_numpy(rng):
    @adj.jit
    def f(x):
        return (x[1], x[-1, 2:], x[:, ::2], x[..., 1], x[None, 0, 1:3],
                x[1:, None, :2])

    x = rng.standard_normal((3, 5))
    for got, want in zip(f(x), (x[1], x[-1, 2:], x[:, ::2], x[..., 1],
                                x[None, 0, 1:3], x[1:, None, :2])):
        np.testing.assert_array_equal(got, want)

    @adj.jit
    def take(table, idx):
        return table[idx] * 2.0, table[:, idx]

    idx = np.array([2, 0, 2], np.int64)
    a, b = take(x, idx)
    np.testing.assert_array_equal(a, x[idx] * 2)
    np.testing.assert_array_equal(b, x[:, idx])


def test_gradients_through_indexing(rng):
    @adj.jit
    def f(x):
        return adj.sum(adj.sin(x[1:, ::2]) * x[0, :3]) + adj.sum(x[-1] ** 2.0)

    check_grads(f, [rng.standard_normal((3, 5))], [0])


def test_array_methods_and_matmul_of_vectors(rng):
    @adj.jit
    def f(m, v, w):
        y = m @ v                       # matrix-vector
        z = v @ m.T                     # vector-matrix
        s = v @ w                       # inner product
        return (y.sum(), z.mean(axis=0), m.max(axis=1, keepdims=True),
                m.reshape(-1, 2), m.transpose(1, 0).reshape(6), s,
                m.astype(np.float32), len(m) + m.ndim + m.size)

    m = rng.standard_normal((3, 2))
    v, w = rng.standard_normal(2), rng.standard_normal(2)
    got = f(m, v, w)
    want = ((m @ v).sum(), (v @ m.T).mean(axis=0), m.max(1, keepdims=True),
            m.reshape(-1, 2), m.T.reshape(6), v @ w, m.astype(np.float32),
            3 + 2 + 6)
    for g, w_ in zip(got, want):
        np.testing.assert_allclose(g, w_, rtol=1e-6)
    assert got[6].dtype == np.float32


def test_numpy_namespace_functions(rng):
    import adjoint.numpy as anp

    @adj.jit
    def f(x, y):
        return (np.stack([x, y], axis=1), anp.stack((x, y)), np.zeros_like(x),
                anp.ones_like(x) * 3.0, np.square(x), np.log1p(x * x),
                np.clip(x, -0.5, 0.5), np.expand_dims(x, 0),
                np.squeeze(np.expand_dims(x, -1)), np.var(x), np.std(x),
                anp.var(anp.stack([x, y]), axis=0, keepdims=True),
                anp.full_like(x, 2.0))

    x, y = rng.standard_normal(4), rng.standard_normal(4)
    want = (np.stack([x, y], 1), np.stack((x, y)), np.zeros_like(x),
            np.ones_like(x) * 3, x * x, np.log1p(x * x), np.clip(x, -.5, .5),
            x[None], x, np.var(x), np.std(x),
            np.var(np.stack([x, y]), axis=0, keepdims=True), np.full(4, 2.0))
    got = f(x, y)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-15)


def test_for_over_the_rows_of_a_tensor(rng):
    @adj.jit
    def f(xs, w):
        h = w * 0.0
        for x in xs:                     # an adj.for over the rows
            h = adj.tanh(h * w + x)
        return adj.sum(h)

    xs, w = rng.standard_normal((5, 3)), rng.standard_normal(3)
    h = np.zeros(3)
    for x in xs:
        h = np.tanh(h * w + x)
    np.testing.assert_allclose(f(xs, w), h.sum(), rtol=1e-12)
    assert "adj.for" in str(f.lower(xs, w))
    check_grads(f, [xs, w], [0, 1])
