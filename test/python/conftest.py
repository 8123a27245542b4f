"""Shared fixtures: the package comes from the build tree (PYTHONPATH)."""

import os

import numpy as np
import pytest

import adjoint as adj


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def tensor(shape, dtype=adj.f32):
    return adj.Type.tensor(dtype, list(shape))


def central_diff(f, args, i, eps=1e-6):
    """d f(*args) / d args[i] by central differences, in f64."""
    args = [np.array(a, np.float64) for a in args]
    g = np.zeros_like(args[i])
    for idx in np.ndindex(g.shape):
        plus = [a.copy() for a in args]
        minus = [a.copy() for a in args]
        plus[i][idx] += eps
        minus[i][idx] -= eps
        g[idx] = (float(f(*plus)) - float(f(*minus))) / (2 * eps)
    return g


def check_grads(f, args, argnums, rtol=1e-6, atol=1e-9):
    """adjoint.grad of f with respect to args[argnums] against
    central_diff; returns the gradients."""
    grads = adj.grad(f, argnums=tuple(argnums))(*args)
    for g, i in zip(grads, argnums):
        np.testing.assert_allclose(g, central_diff(f, args, i), rtol=rtol,
                                   atol=atol)
    return grads


@pytest.fixture
def opencl_device():
    """opencl:0, or a skip with the reason; where OCL_ICD_VENDORS is set
    (ctest, CI) the device must be there: a failure, not a skip."""
    try:
        return adj.device("opencl:0")
    except adj.Error as e:
        if os.environ.get("OCL_ICD_VENDORS"):
            raise
        pytest.skip(str(e))


def required_devices():
    """Device ids a test run must find (ctest's runs on fake drivers, the
    on-device script): ADJOINT_TEST_REQUIRE_DEVICES, comma-separated."""
    return [d for d in
            os.environ.get("ADJOINT_TEST_REQUIRE_DEVICES", "").split(",") if d]


def device_or_skip(device_id):
    """The device, or a skip with the reason; a failure when the run
    requires it (required_devices(), or OCL_ICD_VENDORS for opencl)."""
    try:
        return adj.device(device_id)
    except adj.Error as e:
        if device_id in required_devices() or (
                device_id.startswith("opencl")
                and os.environ.get("OCL_ICD_VENDORS")):
            raise
        pytest.skip(str(e))


@pytest.fixture(params=os.environ.get("ADJOINT_TEST_GPUS",
                                      "opencl:0").split(","))
def gpu_device(request):
    """Each GPU of ADJOINT_TEST_GPUS (default opencl:0; the on-device
    script sets cuda:0), or a skip where it is absent and not required."""
    return device_or_skip(request.param)
