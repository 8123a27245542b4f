"""llama: a LLaMA decoder trained on next-token prediction (derived from
Milabench's llm-lora-*, which fine-tunes Llama models; here every weight is
trained, no LoRA).

Token embeddings (a gather), pre-norm decoder blocks: RMSNorm, causal
multi-head self-attention without biases with rotary position embeddings
on the queries and keys (the rotate-half form of Hugging Face's Llama),
a residual; RMSNorm, the SwiGLU MLP (down(silu(gate(x)) * up(x))), a
residual. A final RMSNorm and a separate (untied) output projection, then
the cross-entropy of the next token, averaged over batch * seq positions.

The rotary cos/sin tables ([seq, head_dim], computed in numpy with base
10000) and the additive causal mask ([seq, seq]: 0 on and below the
diagonal, -1e9 above) are inputs of every batch, the same arrays for all
frameworks. The tokens follow a fixed successor table most of the time
(Zipf-distributed otherwise), so the problem is learnable.
"""

import functools

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, normal

EPS = 1e-5


def rope_tables(seq, head_dim, base=10000.0):
    """cos and sin of position * frequency, each frequency twice (the
    rotate-half layout): two float32 arrays [seq, head_dim]."""
    inv = 1.0 / base ** (np.arange(0, head_dim, 2) / head_dim)
    angles = np.arange(seq)[:, None] * inv[None, :]
    angles = np.concatenate([angles, angles], axis=1)
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


class Llama(Workload):
    name = "llama"
    unit = "tokens/s"
    derived_from = "llm-lora"
    sizes = {
        "tiny": dict(batch=2, seq=16, dim=32, layers=2, heads=4, ffn=64,
                     vocab=64),
        "cpu": dict(batch=2, seq=256, dim=256, layers=4, heads=8, ffn=688,
                    vocab=4096),
        "gpu": dict(batch=8, seq=1024, dim=2048, layers=8, heads=16,
                    ffn=5632, vocab=32000),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        v, t, d, f = size["vocab"], size["seq"], size["dim"], size["ffn"]
        params = {"tok_emb": normal(rng, (v, d), 0.02),
                  "norm": np.ones(d, np.float32),
                  "out": normal(rng, (d, v), 0.02)}
        for i in range(size["layers"]):
            pre = "l%d." % i
            params[pre + "attn_norm"] = np.ones(d, np.float32)
            params[pre + "ffn_norm"] = np.ones(d, np.float32)
            for w in ("q", "k", "v", "o"):
                params[pre + w] = normal(rng, (d, d), 0.02)
            params[pre + "gate"] = normal(rng, (d, f), 0.02)
            params[pre + "up"] = normal(rng, (d, f), 0.02)
            params[pre + "down"] = normal(rng, (f, d), 0.02)

        cos, sin = rope_tables(t, d // size["heads"])
        causal = np.triu(np.full((t, t), -1e9, np.float32), 1)
        # Zipf-distributed tokens, each followed by its successor (a fixed
        # permutation) with probability 0.8.
        freq = 1.0 / np.arange(1, v + 1)
        freq /= freq.sum()
        succ = rng.permutation(v)
        batches = []
        for _ in range(4):
            n = size["batch"]
            seq = np.zeros((n, t + 1), np.int64)
            seq[:, 0] = rng.choice(v, n, p=freq)
            for j in range(1, t + 1):
                seq[:, j] = np.where(rng.random(n) < 0.8, succ[seq[:, j - 1]],
                                     rng.choice(v, n, p=freq))
            batches.append({"tokens": seq[:, :-1], "targets": seq[:, 1:],
                            "cos": cos, "sin": sin, "causal": causal})
        return Problem(params, batches, items=size["batch"] * t, lr=0.1)

    def loss_adjoint(self, size, remat=False):
        """The loss; with `remat`, each decoder block is an
        adjoint.checkpoint (its activations are recomputed in the backward
        pass instead of kept: benchmarks/ad/remat_llama.py)."""
        heads = size["heads"]
        layers = ["l%d." % i for i in range(size["layers"])]

        def loss(p, b):
            n, t = b["tokens"].shape
            v, d = p["tok_emb"].shape
            dh = d // heads
            half = dh // 2

            def rms_norm(x, w):
                return x * adj.rsqrt(adj.mean(x * x, -1, True) + EPS) * w

            def rope(x):                     # [N, H, T, Dh]
                rot = adj.concat([-x[..., half:], x[..., :half]], -1)
                return x * b["cos"] + rot * b["sin"]

            def split(x):                    # [N, T, D] -> [N, H, T, Dh]
                return x.reshape(n, t, heads, dh).transpose(0, 2, 1, 3)

            def block(x, pre):
                h = rms_norm(x, p[pre + "attn_norm"])
                q = rope(split(h @ p[pre + "q"]))
                k = rope(split(h @ p[pre + "k"]))
                vv = split(h @ p[pre + "v"])
                s = q @ k.transpose(0, 1, 3, 2) / dh ** 0.5 + b["causal"]
                o = (adj.softmax(s) @ vv).transpose(0, 2, 1, 3)
                x = x + o.reshape(n, t, d) @ p[pre + "o"]
                h = rms_norm(x, p[pre + "ffn_norm"])
                g = h @ p[pre + "gate"]
                return x + (g * adj.sigmoid(g) * (h @ p[pre + "up"])) \
                    @ p[pre + "down"]

            run_block = adj.checkpoint(block) if remat else block
            x = adj.gather(p["tok_emb"], b["tokens"])
            for pre in layers:
                x = run_block(x, pre)
            logits = rms_norm(x, p["norm"]) @ p["out"]
            return adj.cross_entropy(logits.reshape(n * t, v),
                                     b["targets"].reshape(n * t))

        return loss

    def loss_torch(self, size):
        from reference import llama
        return functools.partial(llama.torch_loss, heads=size["heads"],
                                layers=size["layers"])

    def loss_jax(self, size):
        from reference import llama
        return functools.partial(llama.jax_loss, heads=size["heads"],
                                layers=size["layers"])
