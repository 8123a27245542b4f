"""numpy and DLPack exchange: no copies where the layout allows."""

import gc

import numpy as np
import pytest

import adjoint as adj
from conftest import tensor


def test_borrow_numpy_without_copy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = adj.Tensor.from_numpy(a)
    assert t.is_borrowed and t.data_ptr == a.ctypes.data
    assert t.shape == (2, 3) and t.dtype == np.float32
    view = np.asarray(t)                      # buffer protocol
    assert np.shares_memory(view, a)
    assert np.shares_memory(t.numpy(), a)
    a[0, 0] = 42.0
    assert view[0, 0] == 42.0


def test_non_contiguous_is_refused_by_borrow_and_copied_by_call():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    with pytest.raises(adj.Error, match="C-contiguous"):
        adj.Tensor.from_numpy(a[:, ::2])
    m = adj.Module()
    m.function("f", [tensor([3, 2])], lambda x: x * 2.0)
    np.testing.assert_array_equal(adj.compile(m, "f")(a[:, ::2]),
                                  a[:, ::2] * 2)


def test_outputs_adopt_runtime_buffers():
    m = adj.Module()
    m.function("f", [tensor([4])], lambda x: (x + 1.0, x * 3.0))
    exe = adj.compile(m, "f")
    x = np.arange(4, dtype=np.float32)
    r1, r2 = exe(x)
    # Not copied into numpy-owned memory: the base keeps the runtime buffer.
    assert not r1.flags.owndata and r1.base is not None
    assert r1.flags.c_contiguous and r1.flags.writeable
    del exe, m
    gc.collect()
    np.testing.assert_array_equal(r1, x + 1)
    np.testing.assert_array_equal(r2, x * 3)


def test_input_dtype_conversion_and_scalars():
    m = adj.Module()
    m.function("f", [tensor([2], adj.f64), tensor([])],
               lambda x, s: x * adj.cast(s, adj.f64))
    out = adj.compile(m, "f")([1, 2], 2.5)    # lists and Python floats
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [2.5, 5.0])


def test_int_and_bool_dtypes():
    m = adj.Module()
    m.function("f", [tensor([3], adj.i32)],
               lambda x: (x + x, x > adj.cast(adj.scalar(m, 1.0), adj.i32)))
    x = np.array([0, 1, 5], np.int32)
    s, gt = adj.compile(m, "f")(x)
    assert s.dtype == np.int32 and gt.dtype == np.bool_
    np.testing.assert_array_equal(s, [0, 2, 10])
    np.testing.assert_array_equal(gt, [False, False, True])


def test_dlpack_round_trip_with_numpy():
    a = np.arange(6, dtype=np.float64).reshape(3, 2)
    t = adj.from_dlpack(a)
    assert t.data_ptr == a.ctypes.data and t.shape == (3, 2)
    assert t.__dlpack_device__() == (1, 0)
    back = np.from_dlpack(t)
    assert np.shares_memory(back, a)
    np.testing.assert_array_equal(back, a)
    del a, t
    gc.collect()
    np.testing.assert_array_equal(back, np.arange(6.0).reshape(3, 2))


def test_dlpack_refuses_strided():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1:3]
    with pytest.raises(adj.Error, match="contiguous"):
        adj.from_dlpack(a)


def test_adjoint_tensors_as_inputs():
    m = adj.Module()
    m.function("f", [tensor([2])], lambda x: adj.exp(x))
    a = np.array([0.0, 1.0], np.float32)
    out = adj.compile(m, "f")(adj.Tensor.from_numpy(a))
    np.testing.assert_allclose(out, np.exp(a), rtol=1e-6)
    np.testing.assert_allclose(adj.interpret(m, "f", adj.from_dlpack(a)),
                               np.exp(a), rtol=1e-6)
