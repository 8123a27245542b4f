"""numpy's functions on traced arrays in jitted code: each maps to adj IR
(values against numpy itself, gradients against central differences) or
is an error naming numpy.<name> at the user's line."""

import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp

from conftest import check_grads


def assert_tree(got, want, rtol=1e-12, atol=1e-12, where="result"):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_tree(g, w, rtol, atol, "%s[%d]" % (where, i))
        return
    g, w = np.asarray(got), np.asarray(want)
    assert g.shape == w.shape, (where, g.shape, w.shape)
    if w.dtype.kind in "biu":
        assert g.dtype == w.dtype, (where, g.dtype, w.dtype)
        np.testing.assert_array_equal(g, w, err_msg=where)
    else:
        assert g.dtype.kind == "f", (where, g.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=where)


def same_as_numpy(fn, *args, rtol=1e-12):
    """`fn` compiled by adjoint.jit gives what numpy gives running it."""
    got = adj.jit(fn)(*args)
    assert_tree(got, fn(*args), rtol=rtol)
    return got


# -- reductions ---------------------------------------------------------------

def test_argmax_argmin_like_numpy_with_ties_nan_and_axes(rng):
    def f(x):
        return (np.argmax(x), np.argmin(x), np.argmax(x, axis=0),
                np.argmax(x, axis=-1), np.argmin(x, 1, keepdims=True),
                np.argmax(x, keepdims=True), x.argmax(axis=1), x.argmin(),
                np.argmin(x, axis=-2))

    # Small integers as floats: many ties, the first index wins.
    same_as_numpy(f, rng.integers(0, 3, (4, 5)).astype(np.float64))
    y = rng.standard_normal((4, 5))
    y[1, 2] = y[3, 0] = y[2, 4] = np.nan      # the first NaN wins
    same_as_numpy(f, y)
    big = np.iinfo(np.int64)
    same_as_numpy(f, np.array([[3, big.min, 3], [big.max, -1, big.min]]))
    same_as_numpy(f, rng.integers(0, 2, (3, 4)) > 0)


def test_min_max_any_all(rng):
    def f(x, b):
        return (np.min(x), np.max(x, axis=0), np.amin(x, axis=-1,
                                                      keepdims=True),
                x.min(axis=(0, 1)), np.any(x > 1.0), np.all(x > -3.0, 0),
                np.any(b, axis=1), np.all(b, axis=-1, keepdims=True),
                b.any(), np.max(b), np.min(b, axis=0), np.any(x),
                np.all(x * 0.0, axis=1))

    x = rng.standard_normal((3, 4))
    b = np.array([[True, False, False], [False, False, False]])
    same_as_numpy(f, x, b)
    x[1, 2] = np.nan            # numpy's max and min propagate NaN
    got = same_as_numpy(f, x, b)
    assert np.isnan(got[0]) and np.isnan(got[1][2]) and np.isnan(got[2][1])


def test_cumsum_cumprod_prod(rng):
    def f(x, i):
        return (np.cumsum(x), np.cumsum(x, axis=0), np.cumsum(x, -1),
                x.cumsum(axis=1), np.cumprod(x, axis=1), np.prod(x),
                np.prod(x, axis=0, keepdims=True), np.cumsum(i, axis=1),
                np.cumsum(i > 0), x.prod(axis=(0, 1)))

    same_as_numpy(f, rng.standard_normal((5, 7)),
                  rng.integers(-10, 10, (5, 7)), rtol=1e-10)


def test_gradients_of_reductions_and_scans(rng):
    @adj.jit
    def f(x):
        return (np.sum(np.cumsum(x, axis=1) ** 2.0) + np.sum(np.max(x, 0))
                + np.sum(np.min(x, axis=1)) + np.prod(x[0])
                + np.sum(np.cumprod(x, axis=0)))

    check_grads(f, [rng.standard_normal((3, 4))], [0], rtol=1e-5)


def test_gradients_of_the_other_differentiable_functions(rng):
    @adj.jit
    def f(x, t):
        lo, hi = np.sum(x[0]), np.sum(x[1])
        return (np.sum(np.tril(x, -1) ** 2.0)
                + np.sum(np.full((3,), lo) * t[0, 0])
                + np.sum(np.linspace(lo, hi, 5) ** 2.0)
                + np.sum(np.dot(t, x[:, :2]) ** 2.0) + np.var(x, ddof=1)
                + np.std(x, axis=0, ddof=1)[1]
                + np.sum(np.cumsum(t) * t.ravel())
                + np.sum(np.full_like(x, 2.0) * x))

    check_grads(f, [rng.standard_normal((3, 3)),
                    rng.standard_normal((2, 4, 3))], [0, 1], rtol=1e-5)


# -- creation -----------------------------------------------------------------

def test_creation_functions(rng):
    def f(x):
        return (np.zeros((2, 3)), np.ones(4, dtype=np.int32), np.full((2,), 7),
                np.full((2, 2), 1.5), np.zeros_like(x), np.ones_like(x),
                np.full_like(x, 3.0), np.full_like(x, 2, dtype=np.int64),
                np.eye(3), np.eye(3, 4, k=1), np.eye(4, k=-2, dtype=np.int32),
                np.identity(2), np.arange(5), np.arange(2, 11, 3),
                np.arange(1.0, 2.0, 0.25), np.arange(5, 0, -2),
                np.linspace(0.0, 1.0, 5), np.linspace(-1, 2, 4,
                                                      endpoint=False),
                np.linspace(-2.0, 3.0, 6, dtype=np.int64), np.empty((1, 2)) *
                0.0, np.full((3,), np.sum(x)), x + np.zeros(3),
                np.ones((2, 1)) + np.arange(3.0))

    x = rng.standard_normal(3)
    same_as_numpy(f, x)
    # Floats take the program's float dtype; the arrays are built, not
    # constants.
    assert adj.jit(f)(x.astype(np.float32))[0].dtype == np.float32
    assert "adj.iota" in str(adj.jit(f).lower(x))


def test_triu_tril(rng):
    def f(x, b):
        return (np.triu(x), np.tril(x), np.triu(x, 1), np.tril(x, k=-1),
                np.triu(b, -1), np.tril(b, 2))

    same_as_numpy(f, rng.standard_normal((4, 5)),
                  rng.standard_normal((2, 3, 3)))
    check_grads(adj.jit(lambda x: np.sum(np.sin(np.triu(x, 1)))),
                [rng.standard_normal((3, 3))], [0])


# -- elementwise --------------------------------------------------------------

def test_where_clip_maximum_minimum_and_ufuncs(rng):
    def f(x, y, i):
        return (np.where(x > 0, x, y), np.where(x > 0, 1.0, 0.0),
                np.where(x > 0, x, 0.0), np.where(x > 0, -1.0, y),
                np.where(i, x, y), np.where(x > 0, i, 2),
                np.clip(x, -0.5, 0.5), np.clip(x, None, 0.1),
                np.clip(x, y, 0.3), x.clip(0.0), np.maximum(x, 0.2),
                np.maximum(0.2, x), np.minimum(x, y), np.minimum(-0.1, x),
                np.add(x, 1.0), np.multiply(2.0, y), np.subtract(x, y),
                np.divide(x, 2.0), np.less(x, y), np.greater_equal(x, 0.0),
                np.logical_and(x > 0, y > 0), np.logical_or(x > 0, y > 0),
                np.logical_not(x > 0), np.logical_xor(x > 0, y > 0),
                np.isnan(x), np.isfinite(x / y), np.square(x),
                np.reciprocal(y))

    x, y = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    same_as_numpy(f, x, y, rng.integers(0, 2, (3, 4)))

    @adj.jit
    def loss(x, y):
        return np.sum(np.where(x > 0, x * y, y * y) + np.clip(x, -.5, .5) *
                      np.maximum(y, 0.1) + np.minimum(x, y))

    check_grads(loss, [x, y], [0, 1])


# -- joining, splitting, indexing ---------------------------------------------

def test_concatenate_stack_split(rng):
    def f(x, y):
        return (np.concatenate([x, y]), np.concatenate((x, y), axis=-1),
                np.concatenate([x, y], axis=None), np.stack([x, y], -1),
                np.stack((x, y), axis=1), np.split(x, 2),
                np.split(y, [1, 3], axis=1), np.split(y, [-2], axis=-1),
                np.array_split(y, 3, axis=1))

    x, y = rng.standard_normal((2, 4)), rng.standard_normal((2, 4))
    same_as_numpy(f, x, y)

    def empty_parts(x):
        # Empty slices and pieces (the lowering rejects empty slices at a
        # dimension's end: they are fills).
        return (np.split(x, [0, 4], axis=1), x[:, 4:], x[:0], x[1:1, ::2],
                np.cumsum(x[:, :0], axis=1), np.concatenate([x[:0], x]))

    same_as_numpy(empty_parts, x)

    @adj.jit
    def loss(x, y):
        a, b = np.split(np.concatenate([x, y], axis=1), [3], axis=1)
        return np.sum(np.stack([a[:, :2], b[:, 1:3]]) ** 2.0 * a[0, 0])

    check_grads(loss, [x, y], [0, 1])
    with pytest.raises(adj.FrontendError, match="equal division"):
        adj.jit(lambda x: np.split(x, 3, axis=1))(x)


def test_take_and_take_along_axis(rng):
    def f(x, idx, rows, order):
        return (np.take(x, idx), np.take(x, idx, axis=1),
                np.take(x, [0, -1], axis=-1), np.take(x, -2, axis=0),
                x.take(rows, axis=0), np.take_along_axis(x, order, axis=1),
                np.take_along_axis(x, order[:, :2], axis=-1),
                np.take_along_axis(x, np.argsort(x, axis=0), axis=0),
                np.take_along_axis(x, rows[None, :] - 3, axis=0),
                np.take_along_axis(x[:1], order, axis=1))

    x = rng.standard_normal((3, 4))
    idx = np.array([2, 0, -1, 2])
    order = np.argsort(rng.standard_normal((3, 4)), axis=1)
    same_as_numpy(f, x, idx, np.array([2, 0, 1, 1]), order)

    @adj.jit
    def loss(x):   # idx and order: constants of the closure
        return np.sum(np.take(x, idx, axis=1) ** 2.0) + np.sum(
            np.sin(np.take_along_axis(x, order, axis=1)) *
            np.arange(4.0))

    check_grads(loss, [x], [0])


# -- products -----------------------------------------------------------------

def test_outer_dot_einsum(rng):
    def f(a, b, c, v, t):
        return (np.outer(v, v), np.outer(a, v), np.dot(a, b), np.dot(v, v),
                np.dot(t, b), np.dot(t, v), np.dot(2.0, v),
                np.einsum("ij,jk->ik", a, b),
                np.einsum("ij,jk", a, b), np.einsum("ij->ji", a),
                np.einsum("ii->i", c), np.einsum("ii", c),
                np.einsum("ij,ij->i", a, a), np.einsum("bij,jk->bik", t, b),
                np.einsum("i,j->ij", v, v), np.einsum("...j,jk->...k", t, b),
                np.einsum("ij,jk,kl->il", a, b, c),
                np.einsum("bij,bkj->bik", t, t), np.einsum("ij->", a),
                np.einsum("iji->j", np.stack([c, c], -1)[:2]),
                np.einsum("...ij,...ij->...", t, a))

    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    c, v = rng.standard_normal((4, 4)), rng.standard_normal(3)
    t = rng.standard_normal((5, 2, 3))
    same_as_numpy(f, a, b, c, v, t, rtol=1e-10)

    @adj.jit
    def loss(a, b, t):
        return np.sum(np.einsum("bij,jk->bik", t, b) ** 2.0) + np.sum(
            np.outer(a, a[0]) * np.einsum("ij,ij->i", a, a)[:, None, None])

    check_grads(loss, [a, b, t], [0, 1, 2], rtol=1e-5)


# -- sorting ------------------------------------------------------------------

@pytest.fixture(params=["ranks", "network"])
def sorting(request, monkeypatch):
    """Each of the two compositions of sort (chosen by size)."""
    from adjoint import _np_sorting
    if request.param == "network":
        monkeypatch.setattr(_np_sorting, "RANK_PAIRS", 0)
    return request.param


def test_sort_argsort_stable_with_ties_and_nan(rng, sorting):
    def f(x):
        return (np.sort(x), np.sort(x, axis=0), np.argsort(x, kind="stable"),
                np.argsort(x, axis=0, kind="stable"),
                np.argsort(x, axis=None, kind="stable"),
                np.sort(x, axis=None), x.argsort(axis=-1, kind="stable"))

    x = rng.integers(0, 4, (5, 6)).astype(np.float64)   # ties
    x[2, 3] = x[4, 0] = x[4, 5] = np.nan
    same_as_numpy(f, x)
    # Rows that are not a power of two, with the largest integers (the
    # network pads integer rows with their maximum).
    i = rng.integers(-5, 5, (4, 7))
    i[1, 2] = i[1, 5] = np.iinfo(np.int64).max
    same_as_numpy(f, i)
    same_as_numpy(f, rng.standard_normal((3, 17)) > 0)
    same_as_numpy(f, rng.standard_normal(33).astype(np.float32))

    @adj.jit
    def loss(x, w):
        return np.sum(np.sort(x, axis=1) * w)

    x = rng.standard_normal((3, 5))
    w = rng.standard_normal((3, 5))
    gx = check_grads(loss, [x, w], [0])[0]
    # The gradient of sort is w put back in x's order.
    want = np.zeros_like(x)
    np.put_along_axis(want, np.argsort(x, axis=1), w, axis=1)
    np.testing.assert_allclose(gx, want, rtol=1e-12)


# -- everything else: an error naming the function and the line --------------

@pytest.mark.parametrize("call", [
    lambda x: np.polynomial.polynomial.polyval(x, [1.0, 2.0]),
    lambda x: np.polynomial.hermite.hermval(x, [1.0]),
    lambda x: np.add.reduce(x),
    lambda x: np.random.permutation(x),
    lambda x: np.poly1d([1.0, 2.0])(x),
    lambda x: np.ndarray.sum(x),
])
def test_unmapped_numpy_functions_are_errors_naming_them(call):
    import inspect
    name = inspect.getsource(call).split("np.", 1)[1].split("(")[0]

    @adj.jit
    def f(x):
        y = x * 2.0
        return call(y)

    with pytest.raises(adj.FrontendError) as err:
        f(np.eye(3))
    e = err.value
    assert "numpy.%s is not supported" % name in e.message
    assert e.filename == __file__
    # The line of the call, inside the lambda of the parameter list.
    assert "np.%s(" % name in e.source_line


def test_unmapped_array_methods_are_errors():
    @adj.jit
    def f(x):
        return x.byteswap()

    with pytest.raises(adj.FrontendError, match="'byteswap' is not supported"):
        f(np.ones(3))

    @adj.jit
    def g(x):
        x.sort()
        return x

    with pytest.raises(adj.FrontendError, match="numpy.sort"):
        g(np.ones(3))


def test_numpy_on_python_values_runs_while_building(rng):
    @adj.jit
    def f(x):
        # numpy on Python values is folded; its array is a constant.
        return x * np.sqrt(4.0) + np.array([1.0, 2.0, 3.0]) + np.float32(
            np.pi)

    x = rng.standard_normal(3)
    np.testing.assert_allclose(f(x), x * 2 + [1, 2, 3] + np.float32(np.pi),
                               rtol=1e-12)


def test_arrays_of_tensors_stack_them(rng):
    def f(x):
        return (np.array([x[0], x[1] * 2.0]), np.asarray([[x[0], 1.0],
                                                          [2.0, x[2]]]),
                np.concatenate([x, [5.0, 6.0]]))

    same_as_numpy(f, rng.standard_normal(3))


def test_numpy_scalar_types_cast_traced_values():
    @adj.jit
    def f(x):
        return np.float32(x), np.int64(x), np.asarray(x, dtype=np.float32)

    a, b, c = f(np.array([1.5, -2.5]))
    assert a.dtype == np.float32 and b.dtype == np.int64
    np.testing.assert_array_equal(b, [1, -2])
    np.testing.assert_array_equal(c, np.float32([1.5, -2.5]))


def test_every_numpy_name_of_the_namespace_maps_to_a_numpy_function():
    # The names docs/python.md lists are the namespace's; each one that
    # numpy has is mapped (its numpy function resolves to adjoint's).
    from adjoint._numpy_calls import _mapped
    for name in anp.NAMES:
        fn = getattr(np, name, None)
        if fn is not None and not isinstance(fn, type):
            # numpy binds some names to one function (divide, true_divide).
            same = [getattr(anp, n) for n in anp.NAMES
                    if getattr(np, n, None) is fn]
            assert _mapped(fn) in same, name


def test_numpy_on_values_of_the_builder_api(rng):
    # Outside the front end numpy dispatches to Values too (it made an
    # object array: np.argmax(v) was 0).
    m = adj.Module()
    x3 = adj.Type.tensor(adj.f64, [3])
    m.function("f", [x3], lambda v: (np.argmax(v), np.tanh(v), np.sort(v),
                                     np.ones(3) * 2.0 + v, v - np.arange(3.0),
                                     np.maximum(v, 1.5), np.float64(2.0) * v,
                                     np.float32(1.5) < v))
    x = np.array([3.0, 1.0, 2.0])
    got = adj.compile(m, "f")(x)
    assert_tree(got, (np.argmax(x), np.tanh(x), np.sort(x), 2.0 + x,
                      x - np.arange(3.0), np.maximum(x, 1.5), 2.0 * x,
                      1.5 < x))
    for call, name in ((lambda v: np.lib.stride_tricks.sliding_window_view(
                            v, 2),
                        "numpy.lib.stride_tricks.sliding_window_view"),
                       (lambda v: np.add.reduce(v), "numpy.add.reduce")):
        with pytest.raises(TypeError, match=name + " is not supported"):
            m.function("g", [x3], call)


def test_float_functions_of_integers_and_mixed_number_branches():
    # Found by fuzz/frontend: np.tanh of an integer (a Python int joined by
    # a tensor-conditioned if) was "adj.tanh: expected a floating-point
    # tensor", and np.where(c, 2, 1.15) was "1.15 is not a valid i64 value".
    # numpy computes both in floats.
    @adj.jit
    def f(x):
        v = 2 if np.sum(x) > 0 else 3
        n = np.arange(3)
        return (np.tanh(v), np.exp(n), np.sqrt(n), np.sin(n > 0),
                np.where(np.sum(x) > 0, 2, 1.15),
                np.where(np.sum(x) < 0, True, 0.5))

    x = np.ones(3)
    got = f(x)
    want = (np.tanh(2), np.exp(np.arange(3)), np.sqrt(np.arange(3)),
            # numpy's sin of booleans is float16; adjoint's is the
            # program's float dtype.
            np.sin(np.array([0.0, 1.0, 1.0])), 2.0, 0.5)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype.kind == "f"
        np.testing.assert_allclose(g, w, rtol=1e-12)
    # The gradient through a branch of numbers is zero there, the other
    # factor's elsewhere.
    dg = adj.jit(adj.grad(lambda x: np.sum(
        np.tanh(2 * x) * np.where(np.sum(x) > 0, 2, 1.15))))(x)
    np.testing.assert_allclose(dg, 2 * 2 * (1 - np.tanh(2.0) ** 2),
                               rtol=1e-12)


def test_numbers_meet_integer_tensors_as_in_arithmetic():
    # Found by fuzz/frontend: in a loop that carries a Python int, np.where
    # and np.maximum of that int tensor with a float number were
    # "-1.63 is not a valid i64 value"; they follow a + b's rules now.
    @adj.jit
    def f(x):
        v = 2
        n = np.sum(x) * 0.0
        while n < 2.0:
            v = np.sin(v) + np.where(v < 0.0, -1.63, v) * 0.5 + \
                np.maximum(np.minimum(0, v), 2.28)
            n = n + 1.0
        return v

    def reference():
        v = 2
        for _ in range(2):
            v = np.sin(v) + np.where(v < 0.0, -1.63, v) * 0.5 + \
                np.maximum(np.minimum(0, v), 2.28)
        return v

    np.testing.assert_allclose(f(np.ones(3)), reference(), rtol=1e-12)
