"""The matmul precision switch: "highest" (exact f32) or "tf32", global or
for a block, carried into the cuda targets that jit and compile() use and
into jit's cache key."""

import types

import numpy as np
import pytest

import adjoint as adj
from adjoint import _precision


@pytest.fixture(autouse=True)
def highest_after():
    yield
    adj.set_matmul_precision("highest")


def matmul_module():
    m = adj.Module()
    t = adj.Type.tensor(adj.f32, [4, 4])
    m.function("f", [t, t], lambda a, b: adj.matmul(a, b))
    return m


def test_default_is_exact_f32_and_the_setting_sticks():
    assert adj.get_matmul_precision() == "highest"
    adj.set_matmul_precision("tf32")
    assert adj.get_matmul_precision() == "tf32"
    adj.set_matmul_precision("highest")
    assert adj.get_matmul_precision() == "highest"


def test_a_block_sets_it_and_restores_the_one_before():
    adj.set_matmul_precision("tf32")
    with adj.matmul_precision("highest"):
        assert adj.get_matmul_precision() == "highest"
        with adj.matmul_precision("tf32"):
            assert adj.get_matmul_precision() == "tf32"
        assert adj.get_matmul_precision() == "highest"
    assert adj.get_matmul_precision() == "tf32"


def test_unknown_precisions_are_refused():
    with pytest.raises(ValueError, match="'high'.*'highest', 'tf32'"):
        adj.set_matmul_precision("high")
    with pytest.raises(ValueError, match="'fp16'"):
        with adj.matmul_precision("fp16"):
            pass
    assert adj.get_matmul_precision() == "highest"


def test_only_cuda_targets_get_tf32():
    with adj.matmul_precision("tf32"):
        assert _precision.target_for("cuda") == "cuda,+tf32"
        assert _precision.target_for("cuda:sm_90") == "cuda:sm_90,+tf32"
        assert _precision.target_for("cuda,-tf32") == "cuda,-tf32"
        assert _precision.target_for("cpu") == "cpu"
        assert _precision.target_for("opencl") == "opencl"
    assert _precision.target_for("cuda") == "cuda"


def test_compiled_targets_say_the_precision():
    m = matmul_module()
    assert adj.compile(m, "f", cache=False).target.startswith("cpu:")
    with adj.matmul_precision("tf32"):
        # f32 stays f32 on the CPU.
        assert "+tf32" not in adj.compile(m, "f", cache=False).target.split(",")
        try:
            exe = adj.compile(m, "f", target="cuda", cache=False)
        except adj.Error as e:
            if "ptxas" not in str(e):
                raise
            pytest.skip("no CUDA toolkit in this build: %s" % e)
    assert exe.target == "cuda,+tf32"
    assert adj.compile(m, "f", target="cuda", cache=False).target == "cuda"


def test_the_precision_is_part_of_the_jit_cache_key():
    f = adj.jit(lambda a, b: a @ b)
    a = np.ones((4, 4), np.float32)
    # On the CPU it changes nothing: one build for both precisions.
    f(a, a)
    with adj.matmul_precision("tf32"):
        np.testing.assert_array_equal(f(a, a), a @ a)
    assert f.builds == 1
    # On cuda each precision has its own code.
    f.device = types.SimpleNamespace(kind="cuda", id="cuda:0")
    exact = f._signature((a, a))[0]
    with adj.matmul_precision("tf32"):
        tf32 = f._signature((a, a))[0]
    assert exact != tf32
    assert "cuda,+tf32" in tf32 and "cuda,+tf32" not in exact
