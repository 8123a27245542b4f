"""Shared fixtures: the package comes from the build tree (PYTHONPATH)."""

import numpy as np
import pytest

import adjoint as adj


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def tensor(shape, dtype=adj.f32):
    return adj.Type.tensor(dtype, list(shape))
