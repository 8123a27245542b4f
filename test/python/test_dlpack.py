"""DLPack between adjoint and other frameworks, on the host and on GPUs.

The capsules are read and written here with ctypes against the DLPack ABI
(dlpack.h 1.x), so the tests see exactly what a consumer or producer sees:
the device type and id, the data pointer, the byte offset, the flags and
when the deleter runs. The GPU tests run on every device of
ADJOINT_TEST_DLPACK_DEVICES (default: opencl:0 and cuda:0, skipped where
absent); ctest runs them again on the fake Level Zero loader (and the fake
libcuda) with those devices required. The torch tests at the end need a
CUDA GPU and skip elsewhere."""

import ctypes
import gc
import os

import re

import numpy as np
import pytest

import adjoint as adj
from conftest import device_or_skip

KDLCPU, KDLCUDA, KDLONEAPI = 1, 2, 14
FLAG_READ_ONLY, FLAG_IS_COPIED = 1, 2


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
    ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER),
    ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                               ctypes.c_void_p]


def read_capsule(capsule):
    """The DLManagedTensorVersioned of an unconsumed versioned capsule (a
    view: valid while the capsule lives, which it holds a reference to)."""
    ptr = _api.PyCapsule_GetPointer(capsule, b"dltensor_versioned")
    m = ctypes.cast(ptr, ctypes.POINTER(DLManagedTensorVersioned))[0]
    m._capsule = capsule
    return m


class ForeignProducer:
    """A producer written against the ABI alone (as torch's is): a managed
    tensor over memory it keeps in `keep`, whose deleter counts its calls.
    It records the stream each __dlpack__ call was given."""

    def __init__(self, data, device, shape, dtype=(2, 32), byte_offset=0,
                 strides=None, flags=0, keep=None):
        self.deleted = 0
        self.streams = []
        self._device = device
        self._keep = keep
        self._shape = (ctypes.c_int64 * len(shape))(*shape)
        self._strides = (ctypes.c_int64 * len(strides))(*strides) \
            if strides else None
        self._deleter = DELETER(self._delete)
        m = self._managed = DLManagedTensorVersioned()
        m.major, m.minor, m.flags = 1, 0, flags
        m.deleter = self._deleter
        t = m.dl_tensor
        t.data, t.device = data, DLDevice(*device)
        t.ndim, t.dtype = len(shape), DLDataType(dtype[0], dtype[1], 1)
        t.shape = self._shape
        if self._strides is not None:
            t.strides = self._strides
        t.byte_offset = byte_offset

    def _delete(self, _):
        self.deleted += 1

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, stream=None, max_version=None, **_):
        self.streams.append(stream)
        assert max_version == (1, 0)
        return _api.PyCapsule_New(ctypes.addressof(self._managed),
                                  b"dltensor_versioned", None)


# --------------------------------------------------------------------------
# Host memory
# --------------------------------------------------------------------------

def test_export_describes_host_memory_and_frees_on_delete():
    x = adj.from_dlpack(np.arange(6, dtype=np.float32).reshape(2, 3))
    capsule = x.__dlpack__(max_version=(1, 0))
    m = read_capsule(capsule)
    assert (m.major, m.minor) == (1, 0) and m.flags == 0
    t = m.dl_tensor
    assert (t.device.device_type, t.device.device_id) == (KDLCPU, 0)
    assert t.data == x.data_ptr and t.byte_offset == 0
    assert [t.shape[i] for i in range(t.ndim)] == [2, 3]
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (2, 32, 1)
    # Consumers of DLPack 0.x get the unversioned capsule.
    assert "\"dltensor\"" in repr(x.__dlpack__())
    with pytest.raises(ValueError, match="stream must be None"):
        x.__dlpack__(stream=5)
    with pytest.raises(TypeError, match="stream must be an int"):
        x.__dlpack__(stream="default")


def test_import_honours_byte_offset_and_calls_the_deleter_once():
    base = np.arange(8, dtype=np.float32)
    p = ForeignProducer(base.ctypes.data, (KDLCPU, 0), [3], byte_offset=8,
                        keep=base)
    t = adj.from_dlpack(p)
    assert t.data_ptr == base.ctypes.data + 8
    np.testing.assert_array_equal(adj.to_numpy(t), [2, 3, 4])
    assert p.deleted == 0
    del t
    gc.collect()
    assert p.deleted == 1


def test_import_refuses_bad_layouts_and_devices_and_still_frees():
    base = np.zeros(8, np.float32)
    cases = [
        (dict(byte_offset=2), "not a multiple of the element size 4"),
        (dict(strides=[2], shape=[3]), "not row-major contiguous"),
        (dict(device=(7, 0)), "unsupported DLPack device type 7"),
        (dict(dtype=(5, 32)), "unsupported DLPack dtype"),
        (dict(device=(KDLONEAPI, 0)), "no OpenCL or Level Zero device"),
    ]
    for kwargs, message in cases:
        kwargs.setdefault("shape", [2])
        kwargs.setdefault("device", (KDLCPU, 0))
        p = ForeignProducer(base.ctypes.data, keep=base, **kwargs)
        with pytest.raises(adj.Error, match=message):
            adj.from_dlpack(p)
        gc.collect()
        assert p.deleted == 1, message


def test_cuda_memory_without_a_driver_says_why():
    try:
        adj.device("cuda:0")
        pytest.skip("a CUDA device is present")
    except adj.Error:
        pass
    base = np.zeros(4, np.float32)
    p = ForeignProducer(base.ctypes.data, (KDLCUDA, 0), [4], keep=base)
    with pytest.raises(adj.Error, match="CUDA memory of cuda:0, which is "
                       "unusable here"):
        adj.from_dlpack(p)
    assert p.streams == [1]  # the legacy default stream (see Tensor.cpp)
    gc.collect()
    assert p.deleted == 1


def test_read_only_memory_stays_read_only():
    a = np.arange(4, dtype=np.float64)
    a.setflags(write=False)
    t = adj.from_dlpack(a)
    assert t.readonly and t.data_ptr == a.ctypes.data
    assert not np.asarray(t).flags.writeable
    assert read_capsule(t.__dlpack__(max_version=(1, 0))).flags == \
        FLAG_READ_ONLY
    # Compiled code never writes its inputs: a read-only tensor is an input.
    out = adj.jit(lambda x: x * 2)(t)
    np.testing.assert_array_equal(out, a * 2)
    assert out.flags.writeable
    # device_put to where it is already is the same memory: still read-only.
    assert adj.device_put(t, "cpu").readonly
    assert adj.Tensor.from_numpy(a).readonly
    assert not adj.Tensor.from_numpy(np.ones(2)).readonly


def test_cuda_is_unavailable_without_its_driver_everywhere():
    try:
        adj.device("cuda")
        pytest.skip("a CUDA device is present")
    except adj.Error as e:
        message = str(e)
    assert "unavailable: libcuda.so.1 not found" in message
    with pytest.raises(adj.Error, match="unavailable: libcuda.so.1 not found"):
        adj.device_put(np.ones(2, np.float32), "cuda")
    with pytest.raises(adj.Error, match="unavailable: libcuda.so.1 not found"):
        adj.jit(lambda x: x + 1, device="cuda")(np.ones(2, np.float32))


def test_hip_is_unavailable_without_its_runtime_everywhere():
    try:
        adj.device("hip")
        pytest.skip("a HIP device is present")
    except adj.Error as e:
        message = str(e)
    # Without the library, or with one that finds no AMD GPU (a CUDA
    # machine may carry a HIP runtime): either way the target says why.
    reason = (r"unavailable: (libamdhip64\.so\.6, libamdhip64\.so\.5 or "
              r"libamdhip64\.so not found|the HIP runtime has no usable GPU)")
    assert re.search(reason, message), message
    with pytest.raises(adj.Error, match=reason):
        adj.device_put(np.ones(2, np.float32), "hip")
    with pytest.raises(adj.Error, match=reason):
        adj.jit(lambda x: x + 1, device="hip")(np.ones(2, np.float32))


# --------------------------------------------------------------------------
# Device memory
# --------------------------------------------------------------------------

DEVICES = os.environ.get("ADJOINT_TEST_DLPACK_DEVICES",
                         "opencl:0,cuda:0").split(",")
#: Set by ctest's run on fake drivers, which keep device memory in host
#: memory but record kernel launches without running them.
FAKE_DRIVERS = os.environ.get("ADJOINT_TEST_FAKE_DRIVERS") == "1"
DL_TYPES = {"cuda": KDLCUDA, "opencl": KDLONEAPI, "level_zero": KDLONEAPI}


@pytest.fixture(params=DEVICES)
def device(request):
    return device_or_skip(request.param)


def test_export_from_a_device_names_its_memory(device):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = adj.device_put(host, device)
    dl_type = DL_TYPES[device.kind]
    assert x.__dlpack_device__() == (dl_type, device.index)
    m = read_capsule(x.__dlpack__(stream=-1, max_version=(1, 0)))
    t = m.dl_tensor
    assert (t.device.device_type, t.device.device_id) == \
        (dl_type, device.index)
    assert t.data == x.data_ptr and m.flags == 0
    assert [t.shape[i] for i in range(t.ndim)] == [3, 4]
    # A consumer that wants host memory gets a copy, flagged as one.
    m = read_capsule(x.__dlpack__(max_version=(1, 0), dl_device=(KDLCPU, 0)))
    assert m.flags == FLAG_IS_COPIED and m.dl_tensor.data != x.data_ptr
    assert m.dl_tensor.device.device_type == KDLCPU
    host_copy = np.ctypeslib.as_array(
        ctypes.cast(m.dl_tensor.data, ctypes.POINTER(ctypes.c_float)), (3, 4))
    np.testing.assert_array_equal(host_copy, host)
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), host)
    with pytest.raises(BufferError, match="copied to the CPU"):
        x.__dlpack__(max_version=(1, 0), dl_device=(KDLCPU, 0), copy=False)
    with pytest.raises(BufferError, match=r"not to \(7, 0\)"):
        x.__dlpack__(max_version=(1, 0), dl_device=(7, 0))
    m = read_capsule(x.__dlpack__(max_version=(1, 0), copy=True))
    assert m.flags == FLAG_IS_COPIED and m.dl_tensor.data != x.data_ptr
    assert m.dl_tensor.device.device_type == dl_type


def test_import_from_a_device_is_zero_copy_and_keeps_the_producer(device):
    host = np.linspace(-2, 2, 20, dtype=np.float32).reshape(4, 5)
    x = adj.device_put(host, device)
    pointer = x.data_ptr
    y = adj.from_dlpack(x)
    assert y.device == device and y.data_ptr == pointer
    in_use = device.memory_stats()["bytes_in_use"]
    del x
    gc.collect()
    # y holds the producer's block: nothing went back to the pool.
    assert device.memory_stats()["bytes_in_use"] == in_use
    np.testing.assert_array_equal(adj.to_numpy(y), host)
    del y
    gc.collect()
    assert device.memory_stats()["bytes_in_use"] < in_use


def test_foreign_device_memory_at_an_offset_computes_there(device):
    host = np.arange(10, dtype=np.float32)
    x = adj.device_put(host, device)
    p = ForeignProducer(x.data_ptr, x.__dlpack_device__(), [4],
                        byte_offset=4 * 3, keep=x)
    y = adj.from_dlpack(p)
    assert y.device == device and y.data_ptr == x.data_ptr + 12
    np.testing.assert_array_equal(adj.to_numpy(y), host[3:7])
    # CUDA producers are given our stream (not the legacy default stream,
    # 1, which our non-blocking stream does not wait for) to order their
    # work before ours.
    if device.kind == "cuda":
        assert len(p.streams) == 1 and p.streams[0] > 2
    else:
        assert p.streams == [None]
    # The computation follows a GPU array that is not an adjoint.Tensor
    # (the view is unaligned: the runtime copies it on the device first).
    out = adj.jit(lambda a: a * 2 + 1)(p)
    assert isinstance(out, adj.Tensor) and out.device == device
    if not FAKE_DRIVERS:  # fakes record launches instead of running them
        np.testing.assert_array_equal(adj.to_numpy(out), host[3:7] * 2 + 1)
    del y, out
    gc.collect()
    assert p.deleted == 2


# --------------------------------------------------------------------------
# torch on a CUDA GPU (the on-device run)
# --------------------------------------------------------------------------

def _torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch.cuda.is_available() is False: these tests are "
                    "for a CUDA GPU")
    return torch


def test_torch_cuda_tensors_round_trip_without_copies():
    torch = _torch_cuda()
    t = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    a = adj.from_dlpack(t)
    assert a.device == adj.device("cuda:%d" % t.device.index)
    assert a.data_ptr == t.data_ptr()
    back = torch.from_dlpack(a)
    assert back.device == t.device and back.data_ptr() == t.data_ptr()
    out = adj.jit(lambda x: x * 3 - 1)(t)
    assert out.device == a.device
    torch.testing.assert_close(torch.from_dlpack(out), t * 3 - 1)


def test_torch_work_on_its_stream_is_seen_by_adjoint():
    torch = _torch_cuda()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        t = torch.ones(1 << 22, device="cuda")
        for _ in range(20):
            t = t * 1.0001 + 0.5
        ref = t.double().cpu()
        a = adj.from_dlpack(t)  # torch makes the consumer's stream wait
        out = adj.jit(lambda x: x + 1)(a)
    np.testing.assert_allclose(adj.to_numpy(out), ref.numpy() + 1, rtol=1e-6)
