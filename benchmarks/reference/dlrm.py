"""dlrm in PyTorch and JAX (adjoint_bench/workloads/dlrm.py)."""

import numpy as np


def _tri(f):
    i, j = np.triu_indices(f, k=1)
    return (i * f + j).astype(np.int64)


def make_torch_loss(size):
    k = size["tables"]
    nb, nt = len(size["bottom"]) + 1, len(size["top"]) + 1
    tri = _tri(k + 1)
    tri_on = {}  # the index on each device the loss has run on

    def loss(p, b):
        import torch
        import torch.nn.functional as F
        x = b["dense"]
        if x.device not in tri_on:
            tri_on[x.device] = torch.from_numpy(tri).to(x.device)
        for i in range(nb):
            x = F.relu(x @ p["bot_w%d" % i] + p["bot_b%d" % i])
        # embedding_bag: torch's DLRM lookup (the same sums; forward and
        # backward 1.4x faster on the CPU than `table[idx].sum(1)`).
        bags = [F.embedding_bag(b["idx%d" % t], p["emb%d" % t], mode="sum")
                for t in range(k)]
        z = torch.stack([x] + bags, dim=1)
        zz = z @ z.transpose(1, 2)
        dots = zz.reshape(zz.shape[0], -1)[:, tri_on[x.device]]
        h = torch.cat([x, dots], dim=1)
        for i in range(nt):
            h = h @ p["top_w%d" % i] + p["top_b%d" % i]
            if i < nt - 1:
                h = F.relu(h)
        zl = h[:, 0]
        y = b["y"]
        return torch.mean(F.relu(zl) + torch.log(1.0 + torch.exp(-zl.abs()))
                          - y * zl)
    return loss


def make_jax_loss(size):
    k = size["tables"]
    nb, nt = len(size["bottom"]) + 1, len(size["top"]) + 1
    tri = _tri(k + 1)

    def loss(p, b):
        import jax
        import jax.numpy as jnp
        x = b["dense"]
        for i in range(nb):
            x = jax.nn.relu(x @ p["bot_w%d" % i] + p["bot_b%d" % i])
        bags = [p["emb%d" % t][b["idx%d" % t]].sum(axis=1) for t in range(k)]
        z = jnp.stack([x] + bags, axis=1)
        zz = z @ jnp.swapaxes(z, 1, 2)
        dots = zz.reshape(zz.shape[0], -1)[:, tri]
        h = jnp.concatenate([x, dots], axis=1)
        for i in range(nt):
            h = h @ p["top_w%d" % i] + p["top_b%d" % i]
            if i < nt - 1:
                h = jax.nn.relu(h)
        zl = h[:, 0]
        y = b["y"]
        return jnp.mean(jax.nn.relu(zl) + jnp.log(1.0 + jnp.exp(-jnp.abs(zl)))
                        - y * zl)
    return loss
