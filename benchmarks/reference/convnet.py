"""convnet in PyTorch and JAX (adjoint_bench/workloads/convnet.py).

`blocks` is the workload's `layout(size)`: (prefix, cin, cout, stride,
projection) per residual block."""


def torch_loss(p, b, blocks):
    import torch.nn.functional as F

    def bn(x, name):
        return F.batch_norm(x, None, None, p[name + ".g"], p[name + ".b"],
                            training=True, eps=1e-5)

    def conv(x, name, stride, pad):
        return F.conv2d(x, p[name + ".w"], stride=stride, padding=pad)

    h = F.relu(bn(conv(b["x"], "stem", 2, 3), "stem.bn"))
    h = F.max_pool2d(h, 3, stride=2, padding=1)
    for prefix, cin, cout, stride, proj in blocks:
        o = F.relu(bn(conv(h, prefix + ".conv1", stride, 1), prefix + ".bn1"))
        o = bn(conv(o, prefix + ".conv2", 1, 1), prefix + ".bn2")
        if proj:
            h = bn(conv(h, prefix + ".proj", stride, 0), prefix + ".bnp")
        h = F.relu(o + h)
    h = h.mean(dim=(2, 3))
    return F.cross_entropy(h @ p["fc.w"] + p["fc.b"], b["y"])


def jax_loss(p, b, blocks):
    import jax
    import jax.numpy as jnp
    from jax import lax

    def bn(x, name):
        mu = jnp.mean(x, axis=(0, 2, 3), keepdims=True)
        xc = x - mu
        var = jnp.mean(xc * xc, axis=(0, 2, 3), keepdims=True)
        g = p[name + ".g"].reshape(1, -1, 1, 1)
        beta = p[name + ".b"].reshape(1, -1, 1, 1)
        return xc * lax.rsqrt(var + 1e-5) * g + beta

    def conv(x, name, stride, pad):
        return lax.conv_general_dilated(
            x, p[name + ".w"], window_strides=(stride, stride),
            padding=[(pad, pad), (pad, pad)],
            dimension_numbers=("NCHW", "OIHW", "NCHW"))

    h = jax.nn.relu(bn(conv(b["x"], "stem", 2, 3), "stem.bn"))
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 1, 3, 3), (1, 1, 2, 2),
                          [(0, 0), (0, 0), (1, 1), (1, 1)])
    for prefix, cin, cout, stride, proj in blocks:
        o = jax.nn.relu(bn(conv(h, prefix + ".conv1", stride, 1),
                           prefix + ".bn1"))
        o = bn(conv(o, prefix + ".conv2", 1, 1), prefix + ".bn2")
        if proj:
            h = bn(conv(h, prefix + ".proj", stride, 0), prefix + ".bnp")
        h = jax.nn.relu(o + h)
    h = jnp.mean(h, axis=(2, 3))
    logp = jax.nn.log_softmax(h @ p["fc.w"] + p["fc.b"])
    return -jnp.mean(jnp.take_along_axis(logp, b["y"][:, None], axis=1))
