"""compile() and interpret() on an MLP loss and its gradients."""

import numpy as np

import adjoint as adj
from conftest import tensor

N, D, H, C = 8, 5, 16, 3


def mlp_module():
    m = adj.Module()
    types = [tensor([N, D]), tensor([N, C]), tensor([D, H]), tensor([H]),
             tensor([H, C]), tensor([C])]

    def loss(x, y, w1, b1, w2, b2):
        h = adj.tanh(adj.linear(x, w1, b1))
        return adj.cross_entropy(adj.linear(h, w2, b2), y)

    f = m.function("loss", types, loss)
    m.function("train", types,
               lambda *args: adj.value_and_grad(f, wrt=[2, 3, 4, 5])(*args))
    return m


def numpy_mlp(x, y, w1, b1, w2, b2):
    """The loss and the gradients, by hand, in float64."""
    h = np.tanh(x @ w1 + b1)
    z = h @ w2 + b2
    z = z - z.max(1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    loss = -(y * np.log(p)).sum(1).mean()
    dz = (p - y) / x.shape[0]
    dh = dz @ w2.T * (1 - h ** 2)
    return loss, (x.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0))


def inputs(rng):
    x = rng.standard_normal((N, D)).astype(np.float32)
    y = np.eye(C, dtype=np.float32)[rng.integers(0, C, N)]
    w1 = (rng.standard_normal((D, H)) * 0.5).astype(np.float32)
    b1 = (rng.standard_normal(H) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((H, C)) * 0.5).astype(np.float32)
    b2 = (rng.standard_normal(C) * 0.1).astype(np.float32)
    return [x, y, w1, b1, w2, b2]


def test_mlp_value_and_grad_compiled_numpy_interpreter(rng):
    m = mlp_module()
    args = inputs(rng)
    exe = adj.compile(m, "train")
    assert exe.inputs[0] == "tensor<8x5xf32>"
    assert exe.outputs == ["tensor<f32>", "tensor<5x16xf32>", "tensor<16xf32>",
                           "tensor<16x3xf32>", "tensor<3xf32>"]
    loss, *grads = exe(*args)
    assert loss.dtype == np.float32 and loss.shape == ()

    ref_loss, ref_grads = numpy_mlp(*[a.astype(np.float64) for a in args])
    np.testing.assert_allclose(loss, ref_loss, rtol=1e-5)
    for g, r in zip(grads, ref_grads):
        np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-6)

    # The reference interpreter agrees (after expanding the AD request).
    adj.run_passes(m, "adj-grad")
    iloss, igrads = adj.interpret(m, "train", *args)[0], \
        adj.interpret(m, "train", *args)[1:]
    np.testing.assert_allclose(iloss, loss, rtol=1e-5)
    for g, i in zip(grads, igrads):
        np.testing.assert_allclose(i, g, rtol=1e-4, atol=1e-6)


def test_training_loop_reduces_loss(rng):
    m = mlp_module()
    exe = adj.compile(m, "train")
    x, y, *params = inputs(rng)
    first = None
    for _ in range(50):
        loss, *grads = exe(x, y, *params)
        first = float(loss) if first is None else first
        params = [p - 0.5 * g for p, g in zip(params, grads)]
    assert float(loss) < 0.5 * first


def test_vjp_and_jvp():
    m = adj.Module()
    x3 = tensor([3])
    f = m.function("f", [x3], lambda x: adj.exp(x) * x)
    m.function("pullback", [x3, x3],
               lambda x, dy: adj.call(adj.vjp(f)(x)[1], dy))
    m.function("push", [x3, x3], lambda x, dx: adj.jvp(f)(x, dx))
    x = np.array([0.0, 1.0, -1.0], np.float32)
    d = np.array([1.0, 2.0, 3.0], np.float32)
    expected = (np.exp(x) * (1 + x)) * d
    np.testing.assert_allclose(adj.compile(m, "pullback")(x, d), expected,
                               rtol=1e-5)
    y, dy = adj.compile(m, "push")(x, d)
    np.testing.assert_allclose(y, np.exp(x) * x, rtol=1e-6)
    np.testing.assert_allclose(dy, expected, rtol=1e-5)


def test_conv_and_pool(rng):
    m = adj.Module()
    m.function("f", [tensor([1, 1, 4, 4]), tensor([1, 1, 3, 3])],
               lambda x, w: adj.max_pool2d(
                   adj.relu(adj.conv2d(x, w, padding=[1, 1, 1, 1])), [2, 2]))
    x = rng.standard_normal((1, 1, 4, 4)).astype(np.float32)
    w = rng.standard_normal((1, 1, 3, 3)).astype(np.float32)
    xp = np.pad(x[0, 0], 1)
    conv = np.array([[(xp[i:i + 3, j:j + 3] * w[0, 0]).sum()
                      for j in range(4)] for i in range(4)])
    ref = np.maximum(conv, 0).reshape(2, 2, 2, 2).max(axis=(1, 3))
    out = adj.compile(m, "f")(x, w)
    assert out.shape == (1, 1, 2, 2)
    np.testing.assert_allclose(out[0, 0], ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(adj.interpret(m, "f", x, w), out, rtol=1e-5)
