"""Adjoint against the reference peers: PyTorch (torch.autograd) and JAX
(jax.grad), both on the CPU.

Three models are written once with adjoint's front end (``@adjoint.jit``):
an MLP, a convolutional net and a transformer block. Each is written again
in torch and in jax, with the same weights and data (seeded numpy), and the
loss and the gradient with respect to every weight (and the input) must
agree: to 1e-9 in f64 and 1e-4 in f32, relative to the largest magnitude of
the reference array (``rel_err`` below).

Conventions checked on the way: conv2d is NCHW input, OIHW filter, padding
[top, bottom, left, right] of zeros; pooling pads max with -inf and average
with zeros, dividing by the whole window (torch's count_include_pad=True);
layer_norm uses the biased variance and eps 1e-5 (torch's default);
cross_entropy on integer labels is the mean over the batch; gelu is exact
(erf).

The peers are optional: tests against one that is not installed are
skipped (``pip install torch==2.13.0 jax``). Run as a script, this file
prints the measured differences per model, peer and dtype.
"""

import numpy as np
import pytest

import adjoint as adj

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # pragma: no cover - depends on the machine
    torch = None

try:
    import jax
    import jax.numpy as jnp
    from jax import lax
    jax.config.update("jax_enable_x64", True)
except ImportError:  # pragma: no cover - depends on the machine
    jax = None

PEERS = [
    pytest.param("torch", marks=pytest.mark.skipif(
        torch is None, reason="PyTorch is not installed "
        "(pip install torch==2.13.0, the CPU build)")),
    pytest.param("jax", marks=pytest.mark.skipif(
        jax is None, reason="JAX is not installed (pip install jax)")),
]

#: The tolerance on rel_err per dtype.
TOL = {np.float64: 1e-9, np.float32: 1e-4}
DTYPES = [pytest.param(np.float64, id="f64"),
          pytest.param(np.float32, id="f32")]


def rel_err(got, want):
    """max |got - want| / max |want|: a relative error that stays meaningful
    for gradients with entries near zero."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


# ---------------------------------------------------------------------------
# The models, with adjoint's front end
# ---------------------------------------------------------------------------

@adj.jit
def mlp_loss(x, labels, w1, b1, w2, b2, w3, b3):
    """Two hidden layers (tanh, relu), softmax cross-entropy on labels."""
    h = adj.tanh(x @ w1 + b1)
    h = adj.relu(h @ w2 + b2)
    return adj.cross_entropy(h @ w3 + b3, labels)


@adj.jit
def mlp_mse(x, target, w1, b1, w2, b2, w3, b3):
    """The same MLP regressing `target` (mean squared error)."""
    h = adj.tanh(x @ w1 + b1)
    h = adj.relu(h @ w2 + b2)
    y = h @ w3 + b3
    return adj.mean((y - target) ** 2)


@adj.jit
def convnet_loss(x, labels, k1, c1, k2, c2, w, b):
    """conv (stride 2, uneven padding) -> relu -> max pool (3x3, stride 2,
    padding 1) -> grouped conv (padding 1) -> relu -> average pool (2x2)
    -> linear head -> cross-entropy."""
    n = x.shape[0]
    h = adj.conv2d(x, k1, stride=[2, 2], padding=[1, 0, 2, 1])
    h = adj.relu(h + adj.reshape(c1, [1, -1, 1, 1]))
    h = adj.max_pool2d(h, [3, 3], stride=[2, 2], padding=[1, 1, 1, 1])
    h = adj.conv2d(h, k2, padding=[1, 1, 1, 1], groups=2)
    h = adj.relu(h + adj.reshape(c2, [1, -1, 1, 1]))
    h = adj.avg_pool2d(h, [2, 2])
    logits = adj.reshape(h, [n, -1]) @ w + b
    return adj.cross_entropy(logits, labels)


HEADS = 2


@adj.jit
def attention_loss(x, target, mask, g1, be1, wq, wk, wv, wo, g2, be2,
                   w1, b1, w2, b2):
    """A pre-norm transformer block: multi-head causal self-attention with
    a residual, then a GELU MLP with a residual; mean squared error."""
    bsz, t, d = x.shape
    dh = d // HEADS

    def heads(z):                      # [B, T, D] -> [B, H, T, Dh]
        return adj.transpose(adj.reshape(z, [bsz, t, HEADS, dh]),
                             [0, 2, 1, 3])

    h = adj.layer_norm(x, g1, be1)
    q, k, v = heads(h @ wq), heads(h @ wk), heads(h @ wv)
    scores = q @ adj.transpose(k, [0, 1, 3, 2]) / dh ** 0.5 + mask
    o = adj.softmax(scores) @ v                     # [B, H, T, Dh]
    o = adj.reshape(adj.transpose(o, [0, 2, 1, 3]), [bsz, t, d])
    x = x + o @ wo
    h = adj.layer_norm(x, g2, be2)
    y = x + adj.gelu(h @ w1 + b1) @ w2 + b2
    return adj.mean((y - target) ** 2)


# ---------------------------------------------------------------------------
# The same models in torch and jax
# ---------------------------------------------------------------------------

def mlp_torch(x, labels, w1, b1, w2, b2, w3, b3):
    h = torch.tanh(x @ w1 + b1)
    h = torch.relu(h @ w2 + b2)
    return F.cross_entropy(h @ w3 + b3, labels)


def mlp_mse_torch(x, target, w1, b1, w2, b2, w3, b3):
    h = torch.relu(torch.tanh(x @ w1 + b1) @ w2 + b2)
    return torch.mean((h @ w3 + b3 - target) ** 2)


def convnet_torch(x, labels, k1, c1, k2, c2, w, b):
    # F.pad takes (left, right, top, bottom).
    h = F.conv2d(F.pad(x, (2, 1, 1, 0)), k1, stride=2)
    h = torch.relu(h + c1.reshape(1, -1, 1, 1))
    h = F.max_pool2d(h, 3, stride=2, padding=1)
    h = F.conv2d(h, k2, padding=1, groups=2)
    h = torch.relu(h + c2.reshape(1, -1, 1, 1))
    h = F.avg_pool2d(h, 2)
    return F.cross_entropy(h.reshape(x.shape[0], -1) @ w + b, labels)


def attention_torch(x, target, mask, g1, be1, wq, wk, wv, wo, g2, be2,
                    w1, b1, w2, b2):
    bsz, t, d = x.shape
    dh = d // HEADS

    def heads(z):
        return z.reshape(bsz, t, HEADS, dh).permute(0, 2, 1, 3)

    h = F.layer_norm(x, (d,), g1, be1, eps=1e-5)
    q, k, v = heads(h @ wq), heads(h @ wk), heads(h @ wv)
    scores = q @ k.transpose(-1, -2) / dh ** 0.5 + mask
    o = torch.softmax(scores, dim=-1) @ v
    x = x + o.permute(0, 2, 1, 3).reshape(bsz, t, d) @ wo
    h = F.layer_norm(x, (d,), g2, be2, eps=1e-5)
    y = x + F.gelu(h @ w1 + b1) @ w2 + b2
    return torch.mean((y - target) ** 2)


def _jax_cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))


def mlp_jax(x, labels, w1, b1, w2, b2, w3, b3):
    h = jnp.tanh(x @ w1 + b1)
    h = jax.nn.relu(h @ w2 + b2)
    return _jax_cross_entropy(h @ w3 + b3, labels)


def mlp_mse_jax(x, target, w1, b1, w2, b2, w3, b3):
    h = jax.nn.relu(jnp.tanh(x @ w1 + b1) @ w2 + b2)
    return jnp.mean((h @ w3 + b3 - target) ** 2)


def _jax_conv(x, k, stride, padding, groups=1):
    top, bottom, left, right = padding
    return lax.conv_general_dilated(
        x, k, window_strides=stride, padding=[(top, bottom), (left, right)],
        dimension_numbers=("NCHW", "OIHW", "NCHW"),
        feature_group_count=groups)


def _jax_pool(x, init, op, kernel, stride, padding):
    return lax.reduce_window(x, init, op, (1, 1) + tuple(kernel),
                             (1, 1) + tuple(stride),
                             [(0, 0), (0, 0), padding[:2], padding[2:]])


def convnet_jax(x, labels, k1, c1, k2, c2, w, b):
    h = _jax_conv(x, k1, (2, 2), (1, 0, 2, 1))
    h = jax.nn.relu(h + c1.reshape(1, -1, 1, 1))
    h = _jax_pool(h, -jnp.inf, lax.max, (3, 3), (2, 2), (1, 1, 1, 1))
    h = _jax_conv(h, k2, (1, 1), (1, 1, 1, 1), groups=2)
    h = jax.nn.relu(h + c2.reshape(1, -1, 1, 1))
    h = _jax_pool(h, 0.0, lax.add, (2, 2), (2, 2), (0, 0, 0, 0)) / 4.0
    return _jax_cross_entropy(h.reshape(x.shape[0], -1) @ w + b, labels)


def _jax_layer_norm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + eps) * g + b


def attention_jax(x, target, mask, g1, be1, wq, wk, wv, wo, g2, be2,
                  w1, b1, w2, b2):
    bsz, t, d = x.shape
    dh = d // HEADS

    def heads(z):
        return z.reshape(bsz, t, HEADS, dh).transpose(0, 2, 1, 3)

    h = _jax_layer_norm(x, g1, be1)
    q, k, v = heads(h @ wq), heads(h @ wk), heads(h @ wv)
    scores = q @ k.transpose(0, 1, 3, 2) / dh ** 0.5 + mask
    o = jax.nn.softmax(scores, axis=-1) @ v
    x = x + o.transpose(0, 2, 1, 3).reshape(bsz, t, d) @ wo
    h = _jax_layer_norm(x, g2, be2)
    y = x + jax.nn.gelu(h @ w1 + b1, approximate=False) @ w2 + b2
    return jnp.mean((y - target) ** 2)


# ---------------------------------------------------------------------------
# Data (seeded) and the comparison
# ---------------------------------------------------------------------------

def _normal(rng, shape, scale=1.0):
    return rng.standard_normal(shape) * scale


def mlp_case(rng, classify=True):
    n, d, h1, h2, c = 16, 10, 24, 20, 5
    x = _normal(rng, (n, d))
    y = rng.integers(0, c, n) if classify else _normal(rng, (n, c))
    weights = [_normal(rng, (d, h1), d ** -0.5), _normal(rng, h1, 0.1),
               _normal(rng, (h1, h2), h1 ** -0.5), _normal(rng, h2, 0.1),
               _normal(rng, (h2, c), h2 ** -0.5), _normal(rng, c, 0.1)]
    return [x, y] + weights, [0] + list(range(2, 8))


def convnet_case(rng):
    # H != W so that a height/width mix-up changes the shapes.
    n, c, hgt, wid, c1, c2, classes = 3, 3, 12, 10, 4, 6, 5
    x = _normal(rng, (n, c, hgt, wid))
    y = rng.integers(0, classes, n)
    # conv1: (12+1+0-3)/2+1 = 6, (10+2+1-3)/2+1 = 6; max pool -> 3x3;
    # conv2 keeps 3x3; avg pool 2x2 -> 1x1.
    k1 = _normal(rng, (c1, c, 3, 3), (9 * c) ** -0.5)
    k2 = _normal(rng, (c2, c1 // 2, 3, 3), (9 * c1 // 2) ** -0.5)
    w = _normal(rng, (c2, classes), c2 ** -0.5)
    args = [x, y, k1, _normal(rng, c1, 0.1), k2, _normal(rng, c2, 0.1), w,
            _normal(rng, classes, 0.1)]
    return args, [0] + list(range(2, 8))


def attention_case(rng):
    bsz, t, d, hidden = 2, 5, 8, 16
    x = _normal(rng, (bsz, t, d))
    target = _normal(rng, (bsz, t, d))
    mask = np.triu(np.full((t, t), -1e9), 1)        # causal
    def w(*s):
        return _normal(rng, s, s[0] ** -0.5)
    def near_one(k):
        return 1.0 + _normal(rng, k, 0.1)
    args = [x, target, mask,
            near_one(d), _normal(rng, d, 0.1),              # g1, be1
            w(d, d), w(d, d), w(d, d), w(d, d),             # wq wk wv wo
            near_one(d), _normal(rng, d, 0.1),              # g2, be2
            w(d, hidden), _normal(rng, hidden, 0.1),
            w(hidden, d), _normal(rng, d, 0.1)]
    return args, [0] + list(range(3, 15))


CASES = {
    "mlp": (mlp_loss, mlp_torch, mlp_jax, lambda r: mlp_case(r, True)),
    "mlp_mse": (mlp_mse, mlp_mse_torch, mlp_mse_jax,
                lambda r: mlp_case(r, False)),
    "convnet": (convnet_loss, convnet_torch, convnet_jax, convnet_case),
    "attention": (attention_loss, attention_torch, attention_jax,
                  attention_case),
}


def _cast(args, dtype):
    return [a if a.dtype.kind == "i" else a.astype(dtype) for a in args]


def torch_value_and_grad(fn, args, argnums):
    ts = [torch.from_numpy(a.copy()) for a in args]
    for i in argnums:
        ts[i].requires_grad_(True)
    value = fn(*ts)
    grads = torch.autograd.grad(value, [ts[i] for i in argnums])
    return value.detach().numpy(), [g.numpy() for g in grads]


def jax_value_and_grad(fn, args, argnums):
    value, grads = jax.value_and_grad(fn, argnums=tuple(argnums))(
        *[jnp.asarray(a) for a in args])
    return np.asarray(value), [np.asarray(g) for g in grads]


def compare(name, peer, dtype, seed=0):
    """The loss and gradients of adjoint and of `peer` on case `name`;
    returns {label: rel_err}."""
    ours, in_torch, in_jax, make = CASES[name]
    args, argnums = make(np.random.default_rng(seed))
    args = _cast(args, dtype)
    value, grads = adj.value_and_grad(ours, argnums=tuple(argnums))(*args)
    if peer == "torch":
        want_value, want_grads = torch_value_and_grad(in_torch, args, argnums)
    else:
        want_value, want_grads = jax_value_and_grad(in_jax, args, argnums)

    assert np.asarray(value).dtype == dtype
    errors = {"loss": rel_err(value, want_value)}
    assert len(grads) == len(argnums)
    for i, g, want in zip(argnums, grads, want_grads):
        assert g.dtype == dtype and g.shape == args[i].shape
        # A gradient that is zero everywhere would compare trivially.
        assert np.max(np.abs(want)) > 0, "arg %d: zero gradient" % i
        errors["d_arg%d" % i] = rel_err(g, want)
    return errors


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("peer", PEERS)
@pytest.mark.parametrize("name", list(CASES))
def test_value_and_grad_match_reference(name, peer, dtype):
    errors = compare(name, peer, dtype)
    worst = max(errors.values())
    assert worst <= TOL[dtype], "%s vs %s: %s" % (
        name, peer, {k: "%.2e" % v for k, v in errors.items()
                     if v > TOL[dtype]})


@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
def test_forward_matches_torch_without_grad():
    """The jitted forward call (no AD) gives the same loss."""
    args, _ = convnet_case(np.random.default_rng(1))
    want, _ = torch_value_and_grad(convnet_torch, args, [0])
    np.testing.assert_allclose(convnet_loss(*args), want, rtol=1e-12)


if __name__ == "__main__":
    # The measured differences, per model, peer and dtype.
    for name in CASES:
        for peer in ("torch", "jax"):
            for dtype in (np.float64, np.float32):
                e = compare(name, peer, dtype)
                print("%-10s %-6s %-8s max rel %.2e (loss %.2e)" % (
                    name, peer, np.dtype(dtype).name, max(e.values()),
                    e["loss"]))
