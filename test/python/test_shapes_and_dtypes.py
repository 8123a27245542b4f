"""shape and dtype as numpy and JAX show them, inside jitted code and on
device arrays: a tuple of ints and a numpy dtype, so that comparisons and
arithmetic on them mean what they say (no silent wrong branch)."""

import numpy as np
import pytest

import adjoint as adj
import adjoint.numpy as anp


def test_shape_is_a_tuple_of_ints_inside_jit():
    @adj.jit
    def f(x):
        assert isinstance(x.shape, tuple)
        assert all(type(d) is int for d in x.shape)
        return 1.0 if x.shape == (8, 4) else 2.0

    assert float(f(np.zeros((8, 4), np.float32))) == 1.0
    assert float(f(np.zeros((4, 8), np.float32))) == 2.0


def test_shape_arithmetic_as_numpy():
    @adj.jit
    def f(x):
        y = x.reshape(x.shape[:-1] + (2, 2))
        z = np.zeros(x.shape[::-1], x.dtype)
        return y, z, x.shape + (1,), len(x.shape)

    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    y, z, s, n = f(x)
    np.testing.assert_array_equal(y, x.reshape(6, 2, 2))
    assert z.shape == (4, 6) and z.dtype == np.float32
    np.testing.assert_array_equal(s, [6, 4, 1])
    assert int(n) == 2


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16,
                                   np.int64, np.int32, np.bool_])
def test_dtype_is_a_numpy_dtype_inside_jit(dtype):
    @adj.jit
    def f(x):
        assert isinstance(x.dtype, np.dtype)
        same = x.dtype == dtype and x.dtype == np.dtype(dtype)
        other = x.dtype == (np.int8 if dtype is np.float64 else np.float64)
        return (1 if same else 0) + (10 if other else 0), x.dtype.itemsize

    flag, size = f(np.zeros(3, dtype))
    assert int(flag) == 1
    assert int(size) == np.dtype(dtype).itemsize


def test_dtype_drives_numpy_calls_inside_jit():
    @adj.jit
    def f(x, i):
        info = np.finfo(x.dtype)
        y = x.astype(i.dtype) + i
        ones = np.ones_like(x, dtype=x.dtype)
        return y, ones * info.eps, x.nbytes, x.ndim, x.size

    x = np.array([1.5, 2.5], np.float32)
    y, e, nbytes, ndim, size = f(x, np.array([1, 2], np.int32))
    assert y.dtype == np.int32
    np.testing.assert_array_equal(y, [2, 4])
    np.testing.assert_allclose(e, np.finfo(np.float32).eps)
    assert (int(nbytes), int(ndim), int(size)) == (8, 1, 2)


def test_adjoint_dtypes_are_numpy_dtypes_outside():
    assert np.dtype(adj.f32) == np.float32
    assert np.zeros(2, adj.f64).dtype == np.float64
    assert adj.f32 == np.float32 and adj.i64 == np.dtype("int64")
    assert adj.f32 != np.float64 and adj.f32 != "int32"
    assert adj.i1 == np.bool_
    assert adj.f32.dtype == np.float32
    assert {adj.f32: 1}[adj.DType.f32] == 1

    @adj.jit
    def f(x):
        return 1 if x.dtype == adj.f16 else 0

    assert int(f(np.zeros(2, np.float16))) == 1
    assert int(f(np.zeros(2, np.float32))) == 0
