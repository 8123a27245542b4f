"""adjoint.Error carries the C++ messages; pass pipelines run by name."""

import numpy as np
import pytest

import adjoint as adj
from conftest import tensor


def test_shape_error_is_adjoint_error():
    m = adj.Module()
    with pytest.raises(adj.Error) as info:
        m.function("f", [tensor([2, 3]), tensor([4, 5])], lambda a, b: a @ b)
    assert "adj.matmul" in str(info.value)
    assert "tensor<2x3xf32>" in str(info.value)
    assert isinstance(info.value, RuntimeError)
    assert m.is_valid


def test_python_exception_in_body_propagates():
    m = adj.Module()

    def body(x):
        raise KeyError("mine")

    with pytest.raises(KeyError, match="mine"):
        m.function("f", [tensor([3])], body)
    assert "adj.func" not in str(m)


def test_bad_body_result():
    m = adj.Module()
    with pytest.raises(adj.Error, match="must return a Value"):
        m.function("f", [tensor([3])], lambda x: 3)


def test_run_wrong_inputs():
    m = adj.Module()
    m.function("f", [tensor([3])], lambda x: x * 2.0)
    exe = adj.compile(m, "f")
    with pytest.raises(adj.Error, match="takes 1 inputs, got 2"):
        exe(np.zeros(3, np.float32), np.zeros(3, np.float32))
    with pytest.raises(adj.Error, match="tensor<3xf32>"):
        exe(np.zeros(4, np.float32))


def test_unknown_pass():
    m = adj.Module()
    with pytest.raises(adj.Error, match="no-such-pass"):
        adj.run_passes(m, "no-such-pass")


def test_interpret_unknown_function():
    m = adj.Module()
    m.function("f", [tensor([])], lambda x: x)
    with pytest.raises(adj.Error, match="nope"):
        adj.interpret(m, "nope", np.float32(1))


def grad_module():
    m = adj.Module()
    x3 = tensor([3])
    f = m.function("f", [x3], lambda x: adj.sum(adj.sin(x) * x))
    m.function("df", [x3], lambda x: adj.grad(f)(x))
    return m


def test_pipeline_by_name_and_ir_at_each_stage():
    m = grad_module()
    assert "adj.grad" in str(m)
    snapshots = adj.run_passes(m, "adj-grad,adj-optimize",
                               print_after_each=True)
    names = [name for name, _ in snapshots]
    # adj-optimize is a named pipeline: its passes are listed one by one.
    assert names[0] == "adj-grad" and "adj-infer" in names
    assert len(names) > 3
    # After adj-grad, there is no AD request left but a backpropagator.
    assert "adj.grad %" not in snapshots[0][1]
    assert snapshots[-1][1] == str(m)
    x = np.array([0.1, 0.5, 2.0], np.float32)
    np.testing.assert_allclose(adj.interpret(m, "df", x),
                               np.sin(x) + x * np.cos(x), rtol=1e-5)


def test_explicit_builtin_module_pipeline():
    m = grad_module()
    assert adj.run_passes(m, "builtin.module(adj-grad)") is None
    assert "adj.grad %" not in str(m)


def test_interpreter_refuses_unexpanded_grad():
    m = grad_module()
    with pytest.raises(adj.Error):
        adj.interpret(m, "df", np.ones(3, np.float32))
