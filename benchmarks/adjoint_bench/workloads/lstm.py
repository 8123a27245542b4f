"""lstm: an LSTM language model (derived from Milabench's rwkv, a recurrent
LM): token embedding (a gather), `layers` stacked LSTM cells run over the
sequence, the gates `x W_ih + h W_hh + b` split as (input, forget, cell,
output), each of width H, sigmoid/tanh, and a softmax cross-entropy
next-token loss at every step, averaged over the B*T tokens; the gradient
is backpropagation through time by adjoint's AD. Tokens are time-major:
`x`/`y` [T, B] int64, `y` is `x` shifted by one.

The time loop is a `while t < seq` on a tensor counter (adj.while): a
counted loop, whose backward pass -adj-reverse-loops turns into one reverse
loop over stacked residuals, so it compiles in about a second at every size.
With the size key `unroll=True` it is `for t in range(seq)` instead: an
adj.for, unrolled by the optimizer only up to 8 trips (tiny) and otherwise
reversed the same way (docs/benchmarks.md, "lstm")."""

import numpy as np

import adjoint as adj
import adjoint.numpy as anp

from ..workload import Problem, Workload, glorot, normal


class LSTM(Workload):
    name = "lstm"
    unit = "tokens/s"
    derived_from = "rwkv"
    sizes = {
        "tiny": dict(batch=2, seq=8, hidden=16, layers=2, vocab=32, lr=1.0),
        "cpu": dict(batch=16, seq=64, hidden=256, layers=2, vocab=4096,
                    lr=10.0),
        "gpu": dict(batch=64, seq=128, hidden=768, layers=2, vocab=16384,
                    lr=5.0),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        b, t, h = size["batch"], size["seq"], size["hidden"]
        v, layers = size["vocab"], size["layers"]
        params = {"emb": normal(rng, (v, h), 0.1),
                  "w_out": glorot(rng, h, v),
                  "b_out": np.zeros(v, np.float32)}
        for l in range(layers):
            params["w_ih%d" % l] = glorot(rng, h, 4 * h)
            params["w_hh%d" % l] = glorot(rng, h, 4 * h)
            # A forget-gate bias of 1, as usual for LSTMs.
            bias = np.zeros(4 * h, np.float32)
            bias[h:2 * h] = 1.0
            params["b%d" % l] = bias
        # A learnable language: a sparse Markov chain, each token followed
        # by one of 4 successors (most often the first).
        succ = rng.integers(0, v, (v, 4))
        probs = np.array([0.7, 0.1, 0.1, 0.1])
        batches = []
        for _ in range(4):
            tok = np.empty((t + 1, b), np.int64)
            tok[0] = rng.integers(0, v, b)
            for i in range(t):
                pick = rng.choice(4, size=b, p=probs)
                tok[i + 1] = succ[tok[i], pick]
            batches.append({"x": tok[:-1].copy(), "y": tok[1:].copy()})
        return Problem(params, batches, items=b * t, lr=size["lr"])

    def loss_adjoint(self, size):
        hd, layers, seq = size["hidden"], size["layers"], size["seq"]
        unroll = size.get("unroll", False)

        def cell(w_ih, w_hh, bias, x, h, c):
            g = x @ w_ih + h @ w_hh + bias
            i = adj.sigmoid(g[:, :hd])
            f = adj.sigmoid(g[:, hd:2 * hd])
            u = adj.tanh(g[:, 2 * hd:3 * hd])
            o = adj.sigmoid(g[:, 3 * hd:])
            c = f * c + i * u
            return o * adj.tanh(c), c

        def time_step(p, ws, b, e, t, state, total):
            """One step of every layer and its next-token loss."""
            x = e[t]
            new = []
            for l in list(range(layers)):      # a list: unrolled
                h, c = cell(*ws[l], x, *state[l])
                new.append((h, c))
                x = h
            logits = x @ p["w_out"] + p["b_out"]
            return tuple(new), total + adj.cross_entropy(logits, b["y"][t])

        def loss(p, b):
            ws = [(p["w_ih%d" % l], p["w_hh%d" % l], p["b%d" % l])
                  for l in range(layers)]
            e = p["emb"][b["x"]]                       # [T, B, H]
            zero = e[0] * 0.0
            state = tuple((zero, zero) for _ in range(layers))
            total = anp.zeros_like(p["b_out"][0])
            if unroll:
                # adj.for: unrolled up to 8 trips, else a reverse loop.
                for t in range(seq):
                    state, total = time_step(p, ws, b, e, t, state, total)
            else:
                # adj.while counting to seq: a reverse loop once
                # differentiated.
                t = anp.zeros_like(b["x"][0, 0])
                while t < seq:
                    state, total = time_step(p, ws, b, e, t, state, total)
                    t = t + 1
            return total / seq
        return loss

    def loss_torch(self, size):
        from reference import lstm
        return lstm.make_torch_loss(size)

    def loss_jax(self, size):
        from reference import lstm
        return lstm.make_jax_loss(size)
