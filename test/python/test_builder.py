"""Building adj programs from Python: types, operators, control flow."""

import numpy as np
import pytest

import adjoint as adj
from conftest import tensor


def test_types():
    t = adj.Type.tensor(adj.f32, [2, 3])
    assert str(t) == "tensor<2x3xf32>"
    assert t.shape == (2, 3) and t.dtype == adj.f32 and t.numel == 6
    assert t == adj.Type.tensor(adj.DType.f32, [2, 3])
    fn = adj.Type.fn([t], [adj.Type.scalar(adj.f32)])
    assert fn.is_fn and str(fn.inputs[0]) == "tensor<2x3xf32>"
    assert adj.f64.name == "f64" and not adj.i64.is_float


def test_operators_build_ops_and_interpret():
    m = adj.Module()
    x3 = tensor([3])
    m.function("f", [x3, x3], lambda a, b: (
        -a + 2.0 * b - a / 4.0,          # neg, mul, sub, div, reflected mul
        a ** 2.0,
        adj.select(a < b, a, b),         # comparisons build adj.cmp
    ))
    text = str(m)
    for op in ("adj.neg", "adj.mul", "adj.sub", "adj.div", "adj.pow",
               "adj.cmp", "adj.select"):
        assert op in text, op
    m.verify()
    a = np.array([1.0, -2.0, 0.5], np.float32)
    b = np.array([0.5, 3.0, 0.5], np.float32)
    r0, r1, r2 = adj.interpret(m, "f", a, b)
    np.testing.assert_allclose(r0, -a + 2 * b - a / 4, rtol=1e-6)
    np.testing.assert_allclose(r1, a ** 2, rtol=1e-6)
    np.testing.assert_allclose(r2, np.minimum(a, b))


def test_matmul_and_reductions(rng):
    m = adj.Module()
    m.function("f", [tensor([2, 3]), tensor([3, 4])], lambda a, b: (
        adj.sum(a @ b, axis=1),
        adj.mean(a, axis=[0, 1]),
        adj.max(adj.transpose(a), axis=0, keepdims=True),
        adj.reshape(adj.broadcast_to(adj.tanh(b), [2, 3, 4]), [6, -1]),
    ))
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((3, 4)).astype(np.float32)
    s, mean, mx, r = adj.interpret(m, "f", a, b)
    np.testing.assert_allclose(s, (a @ b).sum(1), rtol=1e-5)
    np.testing.assert_allclose(mean, a.mean(), rtol=1e-6)
    np.testing.assert_allclose(mx, a.T.max(0, keepdims=True))
    np.testing.assert_allclose(
        r, np.broadcast_to(np.tanh(b), (2, 3, 4)).reshape(6, 4), rtol=1e-6)


def test_closures_tuples_and_calls():
    m = adj.Module()
    s = tensor([])

    def body(x, w):
        scale = adj.lambda_(m, [s], lambda v: v * w)   # w is captured
        pair = adj.make_tuple(scale(x), x)
        return adj.get(pair, 0) + adj.get(pair, -1)

    m.function("f", [s, s], body)
    assert "adj.lambda" in str(m)
    r = adj.interpret(m, "f", np.float32(3.0), np.float32(5.0))
    assert float(r) == 18.0


def test_control_flow():
    m = adj.Module()
    s = tensor([])
    # if_: |x|
    m.function("absval", [s], lambda x: adj.if_(
        x < 0.0, lambda: -x, lambda: x))
    # for_: x * 2^5 with constant bounds
    m.function("double5", [s], lambda x: adj.for_(
        0, 5, 1, [x], lambda i, acc: acc * 2.0))
    # while_: halve until below 1
    m.function("halve", [s], lambda x: adj.while_(
        [x], lambda v: v >= 1.0, lambda v: v / 2.0))
    m.verify()
    assert float(adj.interpret(m, "absval", np.float32(-2.5))) == 2.5
    assert float(adj.interpret(m, "absval", np.float32(4.0))) == 4.0
    assert float(adj.interpret(m, "double5", np.float32(1.5))) == 48.0
    assert float(adj.interpret(m, "halve", np.float32(12.0))) == 0.75


def test_recursion_with_declare_define():
    m = adj.Module()
    s = tensor([])
    fact = m.declare("fact", [s], [s])
    fact.define(lambda n: adj.if_(
        n <= 1.0, lambda: n * 0.0 + 1.0, lambda: n * fact(n - 1.0)))
    assert fact.is_defined
    m.verify()
    assert float(adj.interpret(m, "fact", np.float32(5.0))) == 120.0


def test_value_has_no_truth_value():
    m = adj.Module()
    with pytest.raises(adj.Error, match="no truth value"):
        m.function("f", [tensor([])], lambda x: x if x else x)
    # The failed function was erased: the name can be defined again.
    m.function("f", [tensor([])], lambda x: x * 2.0)
    m.verify()


def test_values_keep_their_module_alive():
    import gc
    m = adj.Module()
    kept = []
    m.function("f", [tensor([3])], lambda x: kept.append(x) or x * 2.0)
    f = m.lookup("f")
    del m
    gc.collect()
    assert kept[0].shape == (3,) and str(kept[0].type) == "tensor<3xf32>"
    assert f.name == "f" and f.is_defined


def test_equality_builds_cmp_so_values_are_unhashable():
    m = adj.Module()
    m.function("f", [tensor([2]), tensor([2])],
               lambda a, b: adj.select(a == b, a, 0.0))
    assert "adj.cmp eq" in str(m) or "eq" in str(m)
    r = adj.interpret(m, "f", np.array([1, 2], np.float32),
                      np.array([1, 3], np.float32))
    np.testing.assert_array_equal(r, [1.0, 0.0])
    with pytest.raises(TypeError):
        m.function("g", [tensor([])], lambda x: {x: 1} and x)
