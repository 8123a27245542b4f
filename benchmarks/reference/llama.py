"""llama in PyTorch and JAX (adjoint_bench/workloads/llama.py); `heads` and
`layers` are those of the size."""

EPS = 1e-5


def torch_loss(p, b, heads, layers):
    import torch
    import torch.nn.functional as F
    n, t = b["tokens"].shape
    v, d = p["tok_emb"].shape
    dh = d // heads
    half = dh // 2

    def rms_norm(x, w):
        return x * torch.rsqrt(torch.mean(x * x, -1, keepdim=True) + EPS) * w

    def rope(x):
        rot = torch.cat([-x[..., half:], x[..., :half]], -1)
        return x * b["cos"] + rot * b["sin"]

    def split(x):
        return x.reshape(n, t, heads, dh).permute(0, 2, 1, 3)

    x = p["tok_emb"][b["tokens"]]
    for pre in ["l%d." % i for i in range(layers)]:
        h = rms_norm(x, p[pre + "attn_norm"])
        q = rope(split(h @ p[pre + "q"]))
        k = rope(split(h @ p[pre + "k"]))
        vv = split(h @ p[pre + "v"])
        s = q @ k.transpose(-1, -2) / dh ** 0.5 + b["causal"]
        o = (torch.softmax(s, dim=-1) @ vv).permute(0, 2, 1, 3)
        x = x + o.reshape(n, t, d) @ p[pre + "o"]
        h = rms_norm(x, p[pre + "ffn_norm"])
        g = h @ p[pre + "gate"]
        x = x + (g * torch.sigmoid(g) * (h @ p[pre + "up"])) @ p[pre + "down"]
    logits = rms_norm(x, p["norm"]) @ p["out"]
    return F.cross_entropy(logits.reshape(n * t, v),
                           b["targets"].reshape(n * t))


def jax_loss(p, b, heads, layers):
    import jax
    import jax.numpy as jnp
    n, t = b["tokens"].shape
    v, d = p["tok_emb"].shape
    dh = d // heads
    half = dh // 2

    def rms_norm(x, w):
        return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + EPS) * w

    def rope(x):
        rot = jnp.concatenate([-x[..., half:], x[..., :half]], -1)
        return x * b["cos"] + rot * b["sin"]

    def split(x):
        return x.reshape(n, t, heads, dh).transpose(0, 2, 1, 3)

    x = p["tok_emb"][b["tokens"]]
    for pre in ["l%d." % i for i in range(layers)]:
        h = rms_norm(x, p[pre + "attn_norm"])
        q = rope(split(h @ p[pre + "q"]))
        k = rope(split(h @ p[pre + "k"]))
        vv = split(h @ p[pre + "v"])
        s = q @ k.transpose(0, 1, 3, 2) / dh ** 0.5 + b["causal"]
        o = (jax.nn.softmax(s, axis=-1) @ vv).transpose(0, 2, 1, 3)
        x = x + o.reshape(n, t, d) @ p[pre + "o"]
        h = rms_norm(x, p[pre + "ffn_norm"])
        g = h @ p[pre + "gate"]
        x = x + (g * jax.nn.sigmoid(g) * (h @ p[pre + "up"])) @ p[pre + "down"]
    logits = rms_norm(x, p["norm"]) @ p["out"]
    logp = jax.nn.log_softmax(logits.reshape(n * t, v), axis=-1)
    tgt = b["targets"].reshape(n * t)
    return -jnp.mean(jnp.take_along_axis(logp, tgt[:, None], axis=-1))
