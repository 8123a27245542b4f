"""The cuda device from Python on the fake libcuda.so.1
(test/unit/Runtime/GPU/FakeCuda.cpp: device memory is host memory, kernels
are recorded, not run). ctest's `python-cuda-fake` entry puts the fake on
the library path and sets ADJOINT_TEST_FAKE_CUDA; elsewhere these tests
skip (a real driver, or none)."""

import os

import numpy as np
import pytest

import adjoint as adj

pytestmark = pytest.mark.skipif(
    os.environ.get("ADJOINT_TEST_FAKE_CUDA") != "1",
    reason="needs the fake libcuda.so.1 (ctest entry python-cuda-fake)")


def test_cuda_device_is_listed_with_its_properties():
    d = adj.device("cuda")
    assert d.id == "cuda:0" and d.kind == "cuda" and d.index == 0
    assert adj.devices()[1] == d
    props = d.properties
    assert props["name"] == "Fake NVIDIA H100"
    assert props["vendor"] == "NVIDIA"
    assert props["chip"] == "sm_90"
    assert props["driver_version"] == "CUDA 13.0"
    assert list(props["subgroup_sizes"]) == [32]
    assert props["max_workgroup_size"] == 1024


def test_device_put_round_trips_through_cuda_memory():
    d = adj.device("cuda:0")
    host = np.arange(-5, 7, dtype=np.float32).reshape(3, 4) / 4
    x = adj.device_put(host, d)
    assert x.device == d
    np.testing.assert_array_equal(np.from_dlpack(x.to("cpu")), host)
    # Large enough for the pinned bounce buffers (1 MiB and more).
    big = np.random.default_rng(0).standard_normal(600_000)
    y = adj.device_put(big, d)
    np.testing.assert_array_equal(np.from_dlpack(y.to("cpu")), big)
