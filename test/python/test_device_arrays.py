"""Device arrays (adjoint.Tensor) as values: byte order on the way in, truth
values and comparisons of results, numpy's copy protocol, shape and dtype,
and numpy's own exceptions when an input cannot convert. Run on opencl:0
(Intel's CPU OpenCL runtime: the binding's path, not the device runtime's,
is under test) and on the CPU's tensors."""

import numpy as np
import pytest

import adjoint as adj

SWAPPED = [">f4", ">f8", ">i4", ">i8", ">f2"]


def _swapped_host(code):
    native = np.dtype(code).newbyteorder("=")
    values = (np.arange(-5, 7).reshape(3, 4) * 3).astype(native)
    return values, values.astype(code)


@pytest.mark.parametrize("code", SWAPPED)
def test_device_put_reads_swapped_bytes_as_values(code, opencl_device):
    values, swapped = _swapped_host(code)
    for device in ("cpu", opencl_device):
        x = adj.device_put(swapped, device)
        assert x.dtype == values.dtype and x.dtype.isnative
        np.testing.assert_array_equal(adj.to_numpy(x), values)


@pytest.mark.parametrize("code", SWAPPED)
def test_jit_and_executable_take_swapped_bytes(code):
    values, swapped = _swapped_host(code)

    @adj.jit
    def f(x):
        return x * 2

    np.testing.assert_array_equal(f(swapped), values * 2)
    np.testing.assert_array_equal(f(swapped), values * 2)  # quick path
    m = adj.Module()
    m.function("g", [adj.tensor_type(adj.f32, [3, 4])],
               lambda x: adj.exp(x * 0.0) + x)
    exe = adj.compile(m, "g")
    np.testing.assert_array_equal(exe(swapped), values.astype(np.float32) + 1)


def _device_loss(device):
    @adj.jit
    def step(x):
        return (x * x).sum(), x.sum() > 0, x * 0.5

    return adj.jit(step, device=device)


def test_one_element_results_are_values(opencl_device):
    step = _device_loss(opencl_device)
    loss, positive, half = step(np.array([1.0, -3.0], np.float32))
    assert isinstance(loss, adj.Tensor) and loss.device == opencl_device
    assert float(loss) == 10.0 and int(loss) == 10
    assert bool(positive) is False
    assert loss == 10.0 and not (loss != 10.0) and loss > 9.5
    taken = "yes" if positive else "no"
    assert taken == "no"
    assert (half == np.array([0.5, -1.5], np.float32)).all()
    with pytest.raises(ValueError, match="ambiguous"):
        bool(half)
    with pytest.raises(TypeError, match="one-element"):
        float(half)
    with pytest.raises(TypeError, match="integer"):
        [0, 1, 2][loss]
    assert len(half) == 2 and half.ndim == 1 and half.size == 2


def test_a_while_loop_on_device_results_stops(opencl_device):
    @adj.jit
    def shrink(x):
        y = x * 0.5
        return y, np.abs(y).max() < 0.01

    shrink = adj.jit(shrink, device=opencl_device)
    x, converged, steps = np.ones(3, np.float32), False, 0
    while not converged:
        x, converged = shrink(x)
        steps += 1
    assert steps == 7  # 0.5**7 < 0.01 <= 0.5**6


def test_device_tensors_are_unhashable_as_arrays_are(opencl_device):
    t = adj.device_put(np.zeros(2, np.float32), opencl_device)
    with pytest.raises(TypeError):
        hash(t)


def test_array_copy_false_never_hands_out_a_copy(opencl_device):
    t = adj.device_put(np.arange(4, dtype=np.float32), opencl_device)
    with pytest.raises(ValueError, match="copy"):
        np.array(t, copy=False)
    a = np.array(t)  # a copy is fine when allowed
    a[0] = 7
    np.testing.assert_array_equal(adj.to_numpy(t), [0, 1, 2, 3])
    host = adj.device_put(np.arange(4, dtype=np.float32), "cpu")
    view = np.array(host, copy=False)
    view[1] = 9  # the tensor's own memory: the write is kept
    np.testing.assert_array_equal(adj.to_numpy(host), [0, 9, 2, 3])
    with pytest.raises(ValueError, match="copy"):
        np.asarray(host, dtype=np.float64, copy=False)
    assert not np.shares_memory(np.array(host, copy=True), view)


def test_tensor_shape_and_dtype_are_numpy_s(opencl_device):
    t = adj.device_put(np.zeros((2, 3), np.int32), opencl_device)
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert t.dtype == np.int32 and isinstance(t.dtype, np.dtype)
    assert t.itemsize == 4 and t.nbytes == 24
    assert t.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert t.block_until_ready() is t


def test_device_equality_with_other_objects(opencl_device):
    assert opencl_device == adj.device("opencl:0")
    assert opencl_device != adj.device("cpu")
    assert not (opencl_device == "opencl:0")
    assert opencl_device != None  # noqa: E711
    assert opencl_device in [None, "cpu", opencl_device]


def test_jit_of_a_jitted_function_on_a_device(opencl_device):
    @adj.jit
    def f(x):
        return x + 1.0

    g = adj.jit(f, device="opencl:0")
    assert g is not f and g.device == opencl_device
    np.testing.assert_array_equal(adj.to_numpy(g(np.zeros(2, np.float32))),
                                  [1, 1])
    assert adj.jit(g, device=opencl_device) is g


class _Refuses:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("the file is closed")


@pytest.mark.parametrize("device", ["cpu", "opencl:0"])
def test_device_put_keeps_numpy_s_exception(device, opencl_device):
    with pytest.raises(ValueError, match="inhomogeneous"):
        adj.device_put([[1.0, 2.0], [3.0]], device)
    huge = np.broadcast_to(np.zeros(1, np.float64), (1 << 33,))  # 64 GiB
    with pytest.raises(MemoryError):
        adj.device_put(huge, device)
    with pytest.raises(RuntimeError, match="the file is closed"):
        adj.device_put(_Refuses(), device)


def test_executable_keeps_numpy_s_exception():
    m = adj.Module()
    m.function("g", [adj.tensor_type(adj.f32, [2])], lambda x: x * 2.0)
    exe = adj.compile(m, "g")
    with pytest.raises(RuntimeError, match="the file is closed"):
        exe(_Refuses())
    with pytest.raises(RuntimeError, match="the file is closed"):
        adj.interpret(m, "g", _Refuses())
