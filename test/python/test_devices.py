"""Devices seen from Python: the registry, explicit transfers, device
tensors that refuse to be read as host memory, DLPack placement."""

import ctypes

import numpy as np
import pytest

import adjoint as adj


def test_devices_lists_the_cpu_first_with_ids_and_properties():
    devices = adj.devices()
    assert devices[0].id == "cpu" and devices[0].kind == "cpu"
    assert devices[0] == adj.device("cpu")
    ids = [d.id for d in devices]
    assert len(set(ids)) == len(ids)
    for d in devices:
        assert adj.device(d.id) == d
        props = d.properties
        assert props["max_workgroup_size"] >= 1
        assert list(props["subgroup_sizes"]) == sorted(props["subgroup_sizes"])


def test_opencl_device_is_listed_with_its_limits(opencl_device):
    d = opencl_device
    assert d in adj.devices()
    assert d.kind == "opencl" and d.index == 0 and d.id == "opencl:0"
    assert adj.device("opencl") == d
    props = d.properties
    assert props["subgroup_sizes"], "a SPIR-V device reports subgroup sizes"
    assert props["max_workgroup_size"] >= 64
    assert "opencl:0" in repr(d)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16,
                                   np.int64, np.int32, np.bool_])
def test_device_put_and_to_numpy_round_trip_every_dtype(dtype, opencl_device):
    d = opencl_device
    host = (np.arange(-7, 17).reshape(4, 6) * 3).astype(dtype)
    x = adj.device_put(host, d)
    # shape and dtype as numpy shows them.
    assert x.device == d and x.shape == (4, 6)
    assert isinstance(x.dtype, np.dtype) and x.dtype == dtype
    back = adj.to_numpy(x)
    assert back.dtype == host.dtype
    np.testing.assert_array_equal(back, host)
    # The device copy is independent of the host array.
    host[0, 0] = 1
    np.testing.assert_array_equal(adj.to_numpy(x)[0, 0], back[0, 0])


def test_transfers_between_devices_and_to_the_same_device(opencl_device):
    d = opencl_device
    host = np.linspace(-1, 1, 35, dtype=np.float32).reshape(5, 7)
    x = adj.device_put(host, "opencl:0")
    assert adj.device_put(x, d) is not None
    y = x.to("cpu")
    assert y.device == adj.device("cpu")
    np.testing.assert_array_equal(np.asarray(y), host)
    z = y.to(d)
    np.testing.assert_array_equal(z.numpy(), host)
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64),
                                  host.astype(np.float64))


def test_device_tensors_are_not_host_buffers(opencl_device):
    d = opencl_device
    x = adj.device_put(np.ones((2, 3), np.float32), d)
    with pytest.raises(BufferError, match="on opencl:0: copy it to the host"):
        memoryview(x)
    # numpy falls back to __array__, which copies.
    np.testing.assert_array_equal(np.asarray(x), np.ones((2, 3)))
    assert "device=opencl:0" in repr(x)


def test_device_memory_comes_from_the_caching_pool(opencl_device):
    d = opencl_device
    before = d.memory_stats()
    x = adj.device_put(np.zeros(1000, np.float32), d)
    during = d.memory_stats()
    assert during["bytes_in_use"] >= before["bytes_in_use"] + 4000
    del x
    after = d.memory_stats()
    assert after["bytes_in_use"] == before["bytes_in_use"]
    assert after["bytes_cached"] >= 4000
    d.empty_cache()
    assert d.memory_stats()["bytes_cached"] == 0


def test_dlpack_says_where_the_memory_is(opencl_device):
    d = opencl_device
    x = adj.device_put(np.ones(4, np.float32), d)
    assert x.__dlpack_device__() == (14, 0)  # kDLOneAPI: USM pointers
    host = x.to("cpu")
    assert host.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(host), np.ones(4))


def _have_library(soname):
    try:
        ctypes.CDLL(soname)
        return True
    except OSError:
        return False


def _have_libcuda():
    return _have_library("libcuda.so.1")


def test_unavailable_and_malformed_devices_say_why():
    with pytest.raises(adj.Error, match="level_zero.*unavailable"):
        adj.device("level_zero:0")
    if not _have_libcuda():
        with pytest.raises(adj.Error,
                           match="cuda.*unavailable: libcuda.so.1 not found"):
            adj.device("cuda:0")
    if not _have_library("libamdhip64.so.6"):
        with pytest.raises(adj.Error,
                           match="hip.*unavailable: libamdhip64.so.6, "
                                 "libamdhip64.so.5 or libamdhip64.so not "
                                 "found"):
            adj.device("hip:0")
    with pytest.raises(adj.Error, match="not int"):
        adj.device(3)
    with pytest.raises(adj.Error):
        adj.device("tpu:0")
