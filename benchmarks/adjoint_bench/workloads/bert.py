"""bert: a BERT encoder trained on masked language modelling (derived from
Milabench's bert).

Token and position embeddings (a gather from each table) and a layer norm,
then post-norm encoder layers: multi-head self-attention with biases and a
padding mask, a residual and a layer norm, a feed-forward block with the
exact (erf) GELU, a residual and a layer norm. The MLM head is BERT's: a
dense layer, GELU and a layer norm, then logits against the token
embedding table (tied weights) plus a bias. The loss is the cross-entropy
over the masked positions only: per-token losses weighted by a float mask,
divided by the number of masked tokens.

The synthetic batches: sequences of random lengths padded to `seq` (id 0
is padding, id 1 is [MASK]); 15% of the real tokens are replaced by [MASK]
and predicted. The tokens follow a fixed successor table most of the time
(Zipf-distributed otherwise), so the problem is learnable.
"""

import functools

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, normal

PAD, MASK = 0, 1


class BERT(Workload):
    name = "bert"
    unit = "sequences/s"
    derived_from = "bert"
    sizes = {
        "tiny": dict(batch=2, seq=16, dim=32, layers=2, heads=2, ffn=64,
                     vocab=64),
        "cpu": dict(batch=8, seq=128, dim=256, layers=4, heads=4, ffn=1024,
                    vocab=8192),
        "gpu": dict(batch=32, seq=512, dim=768, layers=12, heads=12,
                    ffn=3072, vocab=30522),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        v, t, d, f = size["vocab"], size["seq"], size["dim"], size["ffn"]
        # BERT's initialization: N(0, 0.02) weights, zero biases, unit
        # layer-norm scales.
        params = {"tok_emb": normal(rng, (v, d), 0.02),
                  "pos_emb": normal(rng, (t, d), 0.02)}

        def dense(name, n, m):
            params[name + ".w"] = normal(rng, (n, m), 0.02)
            params[name + ".b"] = np.zeros(m, np.float32)

        def norm(name):
            params[name + ".g"] = np.ones(d, np.float32)
            params[name + ".b"] = np.zeros(d, np.float32)

        norm("emb_ln")
        for i in range(size["layers"]):
            for w in ("q", "k", "v", "o"):
                dense("l%d.%s" % (i, w), d, d)
            norm("l%d.ln1" % i)
            dense("l%d.ffn1" % i, d, f)
            dense("l%d.ffn2" % i, f, d)
            norm("l%d.ln2" % i)
        dense("head", d, d)
        norm("head_ln")
        params["out.b"] = np.zeros(v, np.float32)

        # Zipf-distributed tokens 2..v-1, each followed by its successor
        # (a fixed permutation) with probability 0.8.
        freq = 1.0 / np.arange(1, v - 1)
        freq /= freq.sum()
        succ = rng.permutation(v - 2) + 2
        batches = []
        for _ in range(4):
            n = size["batch"]
            seq = np.zeros((n, t), np.int64)
            seq[:, 0] = rng.choice(v - 2, n, p=freq) + 2
            for j in range(1, t):
                draw = rng.choice(v - 2, n, p=freq) + 2
                seq[:, j] = np.where(rng.random(n) < 0.8,
                                     succ[seq[:, j - 1] - 2], draw)
            lengths = rng.integers(t // 2, t + 1, n)
            real = np.arange(t)[None, :] < lengths[:, None]
            masked = real & (rng.random((n, t)) < 0.15)
            masked[0, 0] = True                  # at least one per batch
            tokens = np.where(real, seq, PAD)
            batches.append({
                "tokens": np.where(masked, MASK, tokens),
                "mask": real.astype(np.float32),       # attention mask
                "labels": tokens,
                "weights": masked.astype(np.float32),  # MLM positions
            })
        return Problem(params, batches, items=size["batch"], lr=0.05)

    def loss_adjoint(self, size):
        heads, vocab = size["heads"], size["vocab"]
        layers = ["l%d." % i for i in range(size["layers"])]
        classes = np.arange(vocab)

        def loss(p, b):
            n, t = b["tokens"].shape
            d = p["tok_emb"].shape[1]
            dh = d // heads

            def ln(x, name):
                return adj.layer_norm(x, p[name + ".g"], p[name + ".b"])

            def dense(x, name):
                return x @ p[name + ".w"] + p[name + ".b"]

            def split(x):                    # [N, T, D] -> [N, H, T, Dh]
                return x.reshape(n, t, heads, dh).transpose(0, 2, 1, 3)

            # 0 where a key is a token, -1e9 where it is padding.
            bias = ((b["mask"] - 1.0) * 1e9).reshape(n, 1, 1, t)
            x = adj.gather(p["tok_emb"], b["tokens"]) + p["pos_emb"]
            x = ln(x, "emb_ln")
            for pre in layers:
                q = split(dense(x, pre + "q"))
                k = split(dense(x, pre + "k"))
                v = split(dense(x, pre + "v"))
                s = q @ k.transpose(0, 1, 3, 2) / dh ** 0.5 + bias
                o = (adj.softmax(s) @ v).transpose(0, 2, 1, 3)
                x = ln(x + dense(o.reshape(n, t, d), pre + "o"), pre + "ln1")
                h = dense(adj.gelu(dense(x, pre + "ffn1")), pre + "ffn2")
                x = ln(x + h, pre + "ln2")
            h = ln(adj.gelu(dense(x, "head")), "head_ln")
            logits = h @ p["tok_emb"].T + p["out.b"]
            logp = adj.log_softmax(logits)
            hit = b["labels"][..., None] == classes
            nll = -adj.sum(adj.select(hit, logp, 0.0), -1)
            return adj.sum(nll * b["weights"]) / adj.sum(b["weights"])

        return loss

    def loss_torch(self, size):
        from reference import bert
        return functools.partial(bert.torch_loss, heads=size["heads"],
                                layers=size["layers"])

    def loss_jax(self, size):
        from reference import bert
        return functools.partial(bert.jax_loss, heads=size["heads"],
                                layers=size["layers"])
