"""bert in PyTorch and JAX (adjoint_bench/workloads/bert.py); `heads` and
`layers` are those of the size."""


def torch_loss(p, b, heads, layers):
    import torch
    import torch.nn.functional as F
    n, t = b["tokens"].shape
    v, d = p["tok_emb"].shape
    dh = d // heads

    def ln(x, name):
        return F.layer_norm(x, (d,), p[name + ".g"], p[name + ".b"],
                            eps=1e-5)

    def dense(x, name):
        return x @ p[name + ".w"] + p[name + ".b"]

    def split(x):
        return x.reshape(n, t, heads, dh).permute(0, 2, 1, 3)

    bias = ((b["mask"] - 1.0) * 1e9).reshape(n, 1, 1, t)
    x = ln(p["tok_emb"][b["tokens"]] + p["pos_emb"], "emb_ln")
    for pre in ["l%d." % i for i in range(layers)]:
        q = split(dense(x, pre + "q"))
        k = split(dense(x, pre + "k"))
        vv = split(dense(x, pre + "v"))
        s = q @ k.transpose(-1, -2) / dh ** 0.5 + bias
        o = (torch.softmax(s, dim=-1) @ vv).permute(0, 2, 1, 3)
        x = ln(x + dense(o.reshape(n, t, d), pre + "o"), pre + "ln1")
        h = dense(F.gelu(dense(x, pre + "ffn1")), pre + "ffn2")
        x = ln(x + h, pre + "ln2")
    h = ln(F.gelu(dense(x, "head")), "head_ln")
    logits = h @ p["tok_emb"].T + p["out.b"]
    nll = F.cross_entropy(logits.reshape(-1, v), b["labels"].reshape(-1),
                          reduction="none").reshape(n, t)
    return torch.sum(nll * b["weights"]) / torch.sum(b["weights"])


def jax_loss(p, b, heads, layers):
    import jax
    import jax.numpy as jnp
    n, t = b["tokens"].shape
    v, d = p["tok_emb"].shape
    dh = d // heads

    def ln(x, name):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) / jnp.sqrt(var + 1e-5) * p[name + ".g"] \
            + p[name + ".b"]

    def dense(x, name):
        return x @ p[name + ".w"] + p[name + ".b"]

    def split(x):
        return x.reshape(n, t, heads, dh).transpose(0, 2, 1, 3)

    bias = ((b["mask"] - 1.0) * 1e9).reshape(n, 1, 1, t)
    x = ln(p["tok_emb"][b["tokens"]] + p["pos_emb"], "emb_ln")
    for pre in ["l%d." % i for i in range(layers)]:
        q = split(dense(x, pre + "q"))
        k = split(dense(x, pre + "k"))
        vv = split(dense(x, pre + "v"))
        s = q @ k.transpose(0, 1, 3, 2) / dh ** 0.5 + bias
        o = (jax.nn.softmax(s, axis=-1) @ vv).transpose(0, 2, 1, 3)
        x = ln(x + dense(o.reshape(n, t, d), pre + "o"), pre + "ln1")
        h = dense(jax.nn.gelu(dense(x, pre + "ffn1"), approximate=False),
                  pre + "ffn2")
        x = ln(x + h, pre + "ln2")
    h = ln(jax.nn.gelu(dense(x, "head"), approximate=False), "head_ln")
    logits = h @ p["tok_emb"].T + p["out.b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, b["labels"][..., None], axis=-1)[..., 0]
    return jnp.sum(nll * b["weights"]) / jnp.sum(b["weights"])
