"""torch tensors in and out through DLPack, without copies."""

import numpy as np
import pytest

import adjoint as adj
from conftest import tensor

torch = pytest.importorskip(
    "torch", reason="PyTorch is not installed (pip install torch==2.13.0)")


def test_torch_tensor_in_and_out_without_copies():
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    a = adj.from_dlpack(t)                    # borrows torch's memory
    assert a.data_ptr == t.data_ptr() and a.shape == (2, 3)
    back = torch.from_dlpack(a)               # and gives it back
    assert back.data_ptr() == t.data_ptr()
    t[0, 0] = 42.0
    assert back[0, 0].item() == 42.0

    m = adj.Module()
    m.function("f", [tensor([2, 3])], lambda x: adj.tanh(x) * 2.0)
    out = adj.compile(m, "f")(a)
    out_t = torch.from_dlpack(out)            # the runtime's buffer
    assert out_t.data_ptr() == out.ctypes.data
    torch.testing.assert_close(out_t, torch.tanh(t) * 2.0)


def test_jit_takes_torch_tensors(rng):
    @adj.jit
    def f(x, w):
        return adj.sum(adj.tanh(x @ w))

    x = torch.tensor(rng.standard_normal((4, 3)))
    w = torch.tensor(rng.standard_normal((3, 2)))
    np.testing.assert_allclose(f(x, w), torch.tanh(x @ w).sum().item(),
                               rtol=1e-12)
    gw = torch.from_dlpack(adj.grad(f, argnums=1)(x, w))
    wt = w.clone().requires_grad_()
    torch.tanh(x @ wt).sum().backward()
    torch.testing.assert_close(gw, wt.grad, rtol=1e-12, atol=1e-12)
