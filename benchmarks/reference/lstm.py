"""lstm in PyTorch and JAX (adjoint_bench/workloads/lstm.py): the same
cells and loss; the time loop is a Python loop in torch (eager) and
jax.lax.scan in JAX (a Python loop there is unrolled by jax.jit: at the cpu
size it compiled in 32 s and ran 2.3x slower than the scan)."""


def make_torch_loss(size):
    hd, layers, seq = size["hidden"], size["layers"], size["seq"]

    def loss(p, b):
        import torch
        import torch.nn.functional as F
        e = p["emb"][b["x"]]
        hs = [torch.zeros_like(e[0]) for _ in range(layers)]
        cs = [torch.zeros_like(e[0]) for _ in range(layers)]
        total = 0.0
        for t in range(seq):
            x = e[t]
            for l in range(layers):
                g = x @ p["w_ih%d" % l] + hs[l] @ p["w_hh%d" % l] + p["b%d" % l]
                i = torch.sigmoid(g[:, :hd])
                f = torch.sigmoid(g[:, hd:2 * hd])
                u = torch.tanh(g[:, 2 * hd:3 * hd])
                o = torch.sigmoid(g[:, 3 * hd:])
                cs[l] = f * cs[l] + i * u
                hs[l] = o * torch.tanh(cs[l])
                x = hs[l]
            logits = x @ p["w_out"] + p["b_out"]
            total = total + F.cross_entropy(logits, b["y"][t])
        return total / seq
    return loss


def make_jax_loss(size):
    hd, layers = size["hidden"], size["layers"]

    def loss(p, b):
        import jax
        import jax.numpy as jnp
        e = p["emb"][b["x"]]

        def time_step(state, xy):
            x, y = xy
            new = []
            for l in range(layers):
                h, c = state[l]
                g = x @ p["w_ih%d" % l] + h @ p["w_hh%d" % l] + p["b%d" % l]
                i = jax.nn.sigmoid(g[:, :hd])
                f = jax.nn.sigmoid(g[:, hd:2 * hd])
                u = jnp.tanh(g[:, 2 * hd:3 * hd])
                o = jax.nn.sigmoid(g[:, 3 * hd:])
                c = f * c + i * u
                x = o * jnp.tanh(c)
                new.append((x, c))
            logits = x @ p["w_out"] + p["b_out"]
            logp = jax.nn.log_softmax(logits)
            nll = -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))
            return tuple(new), nll

        zero = jnp.zeros_like(e[0])
        state = tuple((zero, zero) for _ in range(layers))
        _, nll = jax.lax.scan(time_step, state, (e, b["y"]))
        return jnp.sum(nll) / e.shape[0]
    return loss
