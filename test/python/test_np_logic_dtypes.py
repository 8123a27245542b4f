"""numpy's closeness and equality tests, bitwise functions and dtype
queries in jitted code (issue 26), against jax.numpy and numpy."""

import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp

from numpy_reference import check_like_jax

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 3))
I = np.array([[12, -18, 0], [7, 2 ** 40 + 5, -9]])
J = np.array([[8, 3, 5], [0, 63, 70]])
I32 = np.array([5, -1, 2 ** 31 - 1, -(2 ** 31)], np.int32)


def test_closeness_and_equality_like_jax():
    y = X + np.array([0.0, 1e-9, 1e-3])
    for name, args, kw in [
            ("isclose", (X, y), {}), ("isclose", (X, y), {"rtol": 0.0}),
            ("isclose", (X, y), {"atol": 1e-2, "rtol": 0.0}),
            ("allclose", (X, y), {}), ("allclose", (X, y), {"atol": 1e-2}),
            ("array_equal", (X, X), {}), ("array_equal", (X, y), {}),
            ("array_equal", (X, X[0]), {}), ("array_equiv", (X, X[0]), {}),
            ("array_equiv", (np.stack([X[0]] * 2), X[0]), {}),
            ("isneginf", (X,), {}),
            ("isposinf", (X,), {}), ("isreal", (X,), {}),
            ("iscomplex", (X,), {}), ("isclose", (I, J), {})]:
        check_like_jax(name, *args, order=0, **kw)


def test_special_values_like_numpy():
    inf, nan = np.inf, np.nan
    a = np.array([inf, -inf, nan, 1.0, inf, nan, 0.0])
    b = np.array([inf, inf, nan, inf, 1e308, 1.0, -0.0])

    def f(a, b, i):
        return (np.isclose(a, b), np.isclose(a, b, equal_nan=True),
                np.isclose(a, 1.0), np.isclose(2, i), np.isneginf(a),
                np.isposinf(a), np.isneginf(i), np.array_equal(a, b),
                np.array_equal(a, a, equal_nan=True), np.array_equal(a, a),
                np.array_equal(i, i), np.allclose(a[3:4], 1.0 + 1e-9),
                np.array_equiv(i, i[:1]), np.array_equiv(a, a[:2]))

    got = adj.jit(f)(a, b, np.array([[2, 2], [2, 3]]))
    want = f(a, b, np.array([[2, 2], [2, 3]]))
    for k, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_array_equal(g, w, err_msg=str(k))
        assert np.asarray(g).dtype == np.bool_, k


def test_bitwise_like_jax():
    b1, b2 = I > 0, J > 4
    for name, args in [
            ("bitwise_and", (I, J)), ("bitwise_or", (I, J)),
            ("bitwise_xor", (I, J)), ("bitwise_and", (b1, b2)),
            ("bitwise_or", (b1, True)), ("bitwise_xor", (5, I)),
            ("bitwise_not", (I,)), ("invert", (b1,)),
            ("bitwise_invert", (I32,)), ("left_shift", (I, J)),
            ("right_shift", (I, J)), ("bitwise_left_shift", (I32, 3)),
            ("bitwise_right_shift", (I32, np.int32(31))),
            ("right_shift", (-I, 2)), ("left_shift", (b1, b2)),
            ("right_shift", (I, np.array([64, 65, -1]))),
            ("left_shift", (I, np.array([[64, 63, -1], [1, 100, 2]])))]:
        check_like_jax(name, *args, order=0)


def test_bitwise_count_packbits_unpackbits_like_numpy():
    bits = RNG.integers(0, 2, (3, 10)) > 0

    def f(i, i32, b, u):
        return (np.bitwise_count(i), np.bitwise_count(i32),
                np.bitwise_count(b), np.packbits(b), np.packbits(b, axis=1),
                np.packbits(b, axis=0, bitorder="little"),
                np.packbits(i, axis=-1), np.unpackbits(u),
                np.unpackbits(u, axis=1), np.unpackbits(u, count=5),
                np.unpackbits(u, axis=0, count=-3, bitorder="little"),
                np.unpackbits(u, axis=1, count=20))

    u = np.array([[0, 255, 7], [128, 33, 1]], np.uint8)
    got = adj.jit(f)(I, I32, bits, u.astype(np.int32))
    want = f(I, I32, bits, u)
    for k, (g, w) in enumerate(zip(got, want)):
        # adj has no uint8: the same values as int32.
        assert np.asarray(g).dtype == np.int32, (k, np.asarray(g).dtype)
        np.testing.assert_array_equal(g, w, err_msg=str(k))


def test_bitwise_errors():
    for fn in (lambda x: np.bitwise_and(x, x), lambda x: np.invert(x),
               lambda x: np.left_shift(x, 1), lambda x: np.bitwise_count(x),
               lambda x: np.packbits(x)):
        with pytest.raises(adj.FrontendError, match="not supported for|"
                           "expected an integer"):
            adj.jit(fn)(X)


def test_dtype_queries_in_jitted_code():
    @adj.jit
    def f(x, i, b):
        checks = (np.can_cast(i, np.float64), not np.can_cast(x, np.int32),
                  np.can_cast(x, np.float16, casting="same_kind"),
                  # numpy's answer (adjoint's x + i is f32, as JAX's).
                  np.result_type(x, i) == np.float64,
                  np.result_type(i, 1.5) == np.float64,
                  np.promote_types(i.dtype, np.float32) == np.float64,
                  np.issubdtype(x.dtype, np.floating),
                  np.issubdtype(i.dtype, np.integer),
                  np.isdtype(b.dtype, "bool"),
                  np.isdtype(x.dtype, ("real floating", "integral")),
                  np.iterable(x), not np.iterable(x[0, 0]),
                  np.isscalar(x[0, 0]), not np.isscalar(x),
                  np.isrealobj(x), not np.iscomplexobj(x),
                  np.finfo(x).eps == np.finfo(np.float32).eps,
                  np.iinfo(i).max == 2 ** 63 - 1)
        assert all(isinstance(c, (bool, np.bool_)) for c in checks)
        # The answers are known while building: Python control flow.
        return x * 2.0 if all(checks) else x

    x = np.ones((2, 2), np.float32)
    np.testing.assert_array_equal(f(x, np.ones(2, np.int64),
                                    np.ones(2, bool)), 2.0 * x)
    # Outside jitted code they answer for numpy arrays, without compiling.
    assert anp.can_cast(np.ones(2, np.int32), np.float64)
    assert anp.finfo(adj.bf16).bits == 16 and anp.iinfo(adj.i32).bits == 32
    assert anp.isscalar(3.0) and not anp.isscalar(np.ones(2))
    assert anp.iterable([1]) and anp.result_type(
        np.ones(2, np.float32), 2.0) == np.float32


def test_on_opencl(opencl_device):
    y = X + np.array([0.0, 1e-9, 1e-3])
    for name, args in [("isclose", (X, y)), ("bitwise_xor", (I, J)),
                       ("right_shift", (-I, 2)), ("left_shift", (I, J)),
                       ("isposinf", (X,)), ("bitwise_count", (I,))]:
        if name == "bitwise_count":
            got = adj.jit(lambda i: np.bitwise_count(i),
                          device=opencl_device)(I)
            np.testing.assert_array_equal(adj.to_numpy(got),
                                          np.bitwise_count(I))
            continue
        check_like_jax(name, *args, order=0, devices=[opencl_device])


# -- vectorize ---------------------------------------------------------------

@np.vectorize
def numpy_poly(a, b):
    return a * b + a * a * b if a > -100.0 else a


def test_vectorize_like_numpy_and_jax():
    import jax.numpy as jnp

    def f(x, y, w):
        h = np.vectorize(lambda a, b: np.sin(a) * b)
        d = np.vectorize(lambda u, v: np.dot(u, v), signature="(n),(n)->()")
        s = np.vectorize(lambda a, k: a * k, excluded=(1,))
        two = np.vectorize(lambda u: (np.sum(u), u * 2.0),
                           signature="(n)->(),(n)")
        return (h(x, y), d(w, w[0]), s(x, 3.0), h(x, 2.0), two(w)[0],
                two(w)[1])

    x, y = RNG.standard_normal((2, 3)), RNG.standard_normal(3)
    w = RNG.standard_normal((4, 5))
    got = adj.jit(f)(x, y, w)
    for k, (g, e) in enumerate(zip(got, f(x, y, w))):
        np.testing.assert_allclose(g, e, rtol=1e-13, err_msg=str(k))

    def poly(a, b):
        return a * b + a * a * b

    check_like_jax(lambda a, b: np.vectorize(poly)(a, b), x, y,
                   jax_name=lambda a, b: jnp.vectorize(poly)(a, b))
    # numpy's own vectorize object, made outside jitted code.
    got = adj.jit(lambda a, b: numpy_poly(a, b))(x, y)
    np.testing.assert_allclose(got, poly(x, y), rtol=1e-13)
    # From Python on numpy arrays, through adjoint.vmap.
    np.testing.assert_allclose(anp.vectorize(poly)(x, y), poly(x, y))
    with pytest.raises(adj.FrontendError, match="dimension 'n' is 5 and 3"):
        adj.jit(lambda w, y: np.vectorize(
            lambda u, v: np.dot(u, v), signature="(n),(n)->()")(w, y))(w, y)
    with pytest.raises(ValueError, match="not a valid gufunc signature"):
        anp.vectorize(poly, signature="(n)->")
