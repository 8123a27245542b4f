"""mlp in PyTorch and JAX (adjoint_bench/workloads/mlp.py)."""


def torch_loss(p, b):
    import torch.nn.functional as F
    h = F.relu(b["x"] @ p["w1"] + p["b1"])
    h = F.relu(h @ p["w2"] + p["b2"])
    return F.cross_entropy(h @ p["w3"] + p["b3"], b["y"])


def jax_loss(p, b):
    import jax
    import jax.numpy as jnp
    h = jax.nn.relu(b["x"] @ p["w1"] + p["b1"])
    h = jax.nn.relu(h @ p["w2"] + p["b2"])
    logits = h @ p["w3"] + p["b3"]
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, b["y"][:, None], axis=1))
