"""numpy's diagonal, index-construction, selection and nonzero functions in
jitted code (_np_diagonals, _np_index_functions, _np_nonzero) against
jax.numpy in float64: values, reverse and forward mode, second order where
the function is not linear, and on OpenCL; integer results are compared
as values (they have no derivative)."""

import numpy as np
import jax.numpy as jnp
import pytest

import adjoint as adj
import adjoint.numpy as anp

from numpy_reference import check_like_jax


def both(make, *args, **kwargs):
    return check_like_jax(make(np), *args, jax_name=make(jnp), **kwargs)


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    return (rng.standard_normal((3, 4)), rng.standard_normal((2, 3, 4)),
            rng.integers(0, 3, (3, 4)), rng.integers(-3, 3, (3, 2)))


def test_diagonals_traces_and_kron(data, opencl_device):
    a, t = data[0], data[1]
    both(lambda m: lambda a, t: (
        m.diagonal(a), m.diagonal(a, 1), m.diagonal(a, -2),
        m.diagonal(a, 7), m.diagonal(t, 1, 2, 0), m.diagonal(t, 0, -1, -2),
        m.diagonal(t, axis1=1, axis2=2), m.diag(a[0]), m.diag(a[0], -2),
        m.diag(a, 1), m.diag(a, k=-1), m.diagflat(a[:2, :2], 1),
        m.diagflat(a[0]), m.trace(a), m.trace(t, -1, 1, 2),
        m.trace(a, offset=2), m.fill_diagonal(a, 5.0, inplace=False),
        m.fill_diagonal(m.concatenate([a, a]), a[0, :3], inplace=False),
        m.fill_diagonal(t[:, :2, :2], t[0, 0, 0], inplace=False),
        m.tri(3, 4, 1) * a[:, :1], m.tri(2, k=-1) * a[0, 0]),
        a, t, order=1, devices=[opencl_device])
    # kron is bilinear: second order too.
    both(lambda m: lambda a, t: (m.kron(a, t), m.kron(a[0], a[:2, :2]),
                                 m.kron(a[0, 0], a[0])), a, t)


def test_fill_diagonal_wrap_and_integer_traces():
    """numpy's wrap=True (a tall matrix's diagonal restarts every n + 1
    rows), which jax.numpy lacks, against numpy itself."""
    a = np.arange(36.0).reshape(9, 4)
    got = adj.jit(lambda x: np.fill_diagonal(x, x[0, :2], wrap=True,
                                             inplace=False))(a)
    want = a.copy()
    np.fill_diagonal(want, a[0, :2], wrap=True)
    np.testing.assert_array_equal(got, want)
    i = np.arange(12, dtype=np.int32).reshape(3, 4)
    got = adj.jit(lambda x: (np.trace(x), np.trace(x > 5),
                             np.trace(x, dtype=np.float64)))(i)
    for g, w in zip(got, (np.trace(i), np.trace(i > 5),
                          np.trace(i, dtype=np.float64))):
        assert g == w and g.dtype == w.dtype


def test_selection_and_updates(data, opencl_device):
    a, _, i, j = data
    b = a[::-1] * 2.0 + 1.0
    both(lambda m: lambda a, b, i, j: (
        m.choose(i, [a, b, a * b], mode="clip"),
        m.choose(i + 2, [a[0], 2.0, b], mode="wrap"),
        m.select([a > 0, b > 0], [a, b], 1.5),
        m.select([a > b], [a * 2]), m.select([a > 0, a < -1], [b, 3.0]),
        m.put_along_axis(a, j, b[:, :2], 1, inplace=False),
        m.put_along_axis(a, j[:1, :1] + 1, 7.0, 0, inplace=False),
        m.put_along_axis(a, j[:1, :1] + 3, 7.0, 0, inplace=False),
        m.put(a, i[0], b[0, :4], inplace=False),
        m.put(a, j[:, 0], b[1, :3], mode="wrap", inplace=False),
        m.put(a, j[:, 1] * 5, b[1, :3], mode="clip", inplace=False),
        m.place(a, a > 0, b[0, :3], inplace=False),
        m.place(a, b < a, b[1], inplace=False)),
        a, b, i, j, devices=[opencl_device])


def test_index_construction(data):
    a, _, i, j = data
    both(lambda m: lambda a: (
        m.meshgrid(a[0], a[:, 0]),
        m.meshgrid(a[0], a[:, 0], a[1, :2], indexing="ij"),
        m.meshgrid(a[0], a[:, 0], sparse=True),
        a[m.tril_indices_from(a)], a[m.triu_indices_from(a, 1)],
        a[:3, :3][m.diag_indices_from(a[:3, :3])],
        a[m.tril_indices(3, -1, 4)], a[m.triu_indices(3, m=4)],
        a[m.diag_indices(3)]), a, order=1)
    both(lambda m: lambda i, j: (
        m.ix_(i[0], j[:, 0]), m.ix_(i[0], i[1], j[0]),
        m.unravel_index(i * 3 + 1, (3, 5)), m.unravel_index(j, (2, 3)),
        m.unravel_index(j[0, 0] + 40, (4, 5)),
        m.ravel_multi_index((i, j[:, :1]), (3, 4), mode="clip"),
        m.ravel_multi_index((i, i), (3, 2), mode="wrap", order="F"),
        m.indices((2, 3)), m.indices((2, 3), sparse=True),
        m.indices((2, 1, 3), dtype=m.int32)), i, j, order=0)
    # numpy's mode per dimension (jax.numpy takes one).
    got = adj.jit(lambda i, j: np.ravel_multi_index(
        (i * 2, j), (3, 4), mode=("clip", "wrap")))(i, j[:, :1])
    np.testing.assert_array_equal(got, np.ravel_multi_index(
        (i * 2, np.broadcast_to(j[:, :1], i.shape)), (3, 4),
        mode=("clip", "wrap")))


def test_nonzero_forms_with_size(data):
    a, t = data[0], data[1]
    b = a[::-1] + 0.5
    both(lambda m: lambda a, b: (
        m.compress(a[:, 0] > 0, b, axis=0, size=3),
        m.compress(a[0] > 0, b, axis=1, size=2, fill_value=9.0),
        m.compress(a.ravel() > 0.5, b, size=11),
        m.extract(a > 0, b, size=8, fill_value=-1.0)), a, b, order=1)
    both(lambda m: lambda a, t: (
        m.nonzero(a > 0, size=9), m.nonzero(a > 0, size=3, fill_value=(7, 8)),
        m.nonzero(t, size=4), m.flatnonzero(a > 0.3, size=6, fill_value=-1),
        m.argwhere(a > 0, size=10), m.argwhere(a[0] > 0, size=2,
                                               fill_value=5),
        m.nonzero(a > 9, size=2)), a, t, order=0)
    # numpy flattens meshgrid's inputs (jax.numpy refuses them).
    got = adj.jit(lambda x: np.meshgrid(x[:2, :2], x[0]))(a)
    for g, w in zip(got, np.meshgrid(a[:2, :2], a[0])):
        np.testing.assert_array_equal(g, w)
    # A condition known while building needs no size (numpy's result).
    got = adj.jit(lambda x: np.compress([True, False, True], x, axis=0))(a)
    np.testing.assert_array_equal(got, a[[0, 2]])


def test_methods(data):
    a, t, i, _ = data
    both(lambda m: lambda a, t, i: (
        t.swapaxes(0, 2), a.repeat(2, axis=1), t.diagonal(1, 1, 2),
        a.trace(), a.trace(1),
        m.asarray(i).choose([a, 2.0 * a, a * a], mode="clip"),
        a.compress(a[:, 1] > 0, axis=0, size=2),
        a[(a > 0).nonzero(size=4)]), a, t, i, order=1)


@pytest.mark.parametrize("call, words", [
    (lambda a: np.nonzero(a > 0), "nonzero: the result's shape depends"),
    (lambda a: np.argwhere(a), "argwhere: the result's shape depends"),
    (lambda a: np.flatnonzero(a), "flatnonzero: the result's shape"),
    (lambda a: np.extract(a > 0, a), "compress: the result's shape"),
    (lambda a: np.compress(a[:, 0] > 0, a, axis=0), "size="),
    (lambda a: np.fill_diagonal(a, 0.0), "inplace=False"),
    (lambda a: np.put(a, [0], 1.0), "inplace=False"),
    (lambda a: np.place(a, a > 0, 1.0), "inplace=False"),
    (lambda a: np.put_along_axis(a, np.argmax(a, 1, keepdims=True), 0.0,
                                 1), "inplace=False"),
    (lambda a: np.choose(np.argmax(a, 0), [a, a]), "mode='raise'"),
    (lambda a: np.ravel_multi_index((np.argmax(a, 0),), (3,)),
     "mode='raise'"),
    (lambda a: np.select([a], [a]), "should be boolean"),
    (lambda a: np.select([a > 0], [a, a]), "same length"),
    (lambda a: np.ix_(a[0] > 0), "boolean"),
    (lambda a: np.diagonal(a, 0, 1, 1), "cannot be the same"),
    (lambda a: np.diag(a[None]), "1- or 2-d"),
    (lambda a: np.fill_diagonal(a[None], 1.0, inplace=False),
     "equal length"),
    (lambda a: np.take(a, np.nonzero(a[0] > 0, size=2)[0].astype(
        np.float64)), "integers"),
])
def test_errors_name_the_function(call, words):
    with pytest.raises(adj.FrontendError) as info:
        adj.jit(call)(np.ones((2, 4)))
    assert words in str(info.value), str(info.value)


def test_shape_only_functions_answer_with_numpy_arrays():
    """Index arrays of shapes are numpy's, known while building (a static
    index), also outside jitted code."""
    for got, want in ((anp.tril_indices(3, 1), np.tril_indices(3, 1)),
                      (anp.triu_indices_from(np.ones((2, 5)), -1),
                       np.triu_indices_from(np.ones((2, 5)), -1)),
                      (anp.diag_indices(2, 3), np.diag_indices(2, 3)),
                      (anp.mask_indices(3, np.tril), np.mask_indices(
                          3, np.tril))):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
