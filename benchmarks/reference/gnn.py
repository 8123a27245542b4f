"""gnn in PyTorch and JAX (adjoint_bench/workloads/gnn.py)."""


def make_torch_loss(size):
    layers, g, h = size["layers"], size["graphs"], size["hidden"]
    scale = size["graphs"] / size["nodes"]

    def loss(p, b):
        import torch
        src, dst = b["src"], b["dst"]
        deg = b["deg"][:, None]
        inv_deg = 1.0 / torch.clamp(deg, min=1.0)
        has_in = torch.clamp(deg, max=1.0)
        x = b["x"] @ p["w_in"] + p["b_in"]
        zero_row = torch.zeros_like(x[:1])
        for l in range(layers):
            pair = torch.cat([x.index_select(0, src), x.index_select(0, dst)],
                             dim=1)
            msg = (torch.relu(pair @ p["m_w1_%d" % l] + p["m_b1_%d" % l])
                   @ p["m_w2_%d" % l] + p["m_b2_%d" % l])
            total = torch.zeros_like(x).index_add(0, dst, msg)
            mean = total * inv_deg
            padded = torch.cat([msg, zero_row], dim=0)
            nbr = padded.index_select(0, b["nbr"].reshape(-1))
            nbr = nbr.reshape(b["nbr"].shape + (h,))
            mx = torch.amax(nbr + b["mask"][:, :, None], dim=1) * has_in
            agg = torch.cat([x, total, mean, mx], dim=1)
            x = x + torch.relu(agg @ p["u_w_%d" % l] + p["u_b_%d" % l])
        pooled = torch.zeros(g, h, dtype=x.dtype, device=x.device).index_add(0, b["graph"], x)
        pooled = pooled * scale
        out = torch.relu(pooled @ p["r_w1"] + p["r_b1"]) @ p["r_w2"]
        out = out[:, 0] + p["r_b2"]
        return torch.mean((out - b["y"]) ** 2)
    return loss


def make_jax_loss(size):
    layers, g, h = size["layers"], size["graphs"], size["hidden"]
    scale = size["graphs"] / size["nodes"]

    def loss(p, b):
        import jax
        import jax.numpy as jnp
        src, dst = b["src"], b["dst"]
        deg = b["deg"][:, None]
        inv_deg = 1.0 / jnp.maximum(deg, 1.0)
        has_in = jnp.minimum(deg, 1.0)
        x = b["x"] @ p["w_in"] + p["b_in"]
        zero_row = jnp.zeros_like(x[:1])
        for l in range(layers):
            pair = jnp.concatenate([x[src], x[dst]], axis=1)
            msg = (jax.nn.relu(pair @ p["m_w1_%d" % l] + p["m_b1_%d" % l])
                   @ p["m_w2_%d" % l] + p["m_b2_%d" % l])
            total = jnp.zeros_like(x).at[dst].add(msg)
            mean = total * inv_deg
            padded = jnp.concatenate([msg, zero_row], axis=0)
            mx = jnp.max(padded[b["nbr"]] + b["mask"][:, :, None],
                         axis=1) * has_in
            agg = jnp.concatenate([x, total, mean, mx], axis=1)
            x = x + jax.nn.relu(agg @ p["u_w_%d" % l] + p["u_b_%d" % l])
        pooled = jnp.zeros((g, h), x.dtype).at[b["graph"]].add(x)
        pooled = pooled * scale
        out = jax.nn.relu(pooled @ p["r_w1"] + p["r_b1"]) @ p["r_w2"]
        out = out[:, 0] + p["r_b2"]
        return jnp.mean((out - b["y"]) ** 2)
    return loss
