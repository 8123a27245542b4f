"""dlrm: a DLRM-style recommender (derived from Milabench's dlrm): dense
features through a bottom MLP (ReLU); sparse features as `tables`
embedding tables, each looked up with a multi-hot bag of `bag` indices per
sample (embedding-bag = a gather then a sum over the bag); the pairwise dot
products of the F = tables + 1 vectors (bottom-MLP output and the bags),
taken from the upper triangle of Z Z^T (Z [B, F, E]) by a fixed index into
its flattened F*F entries; a top MLP over [bottom output, dots] to one
logit; binary cross-entropy with logits in its stable softplus form,
`max(z, 0) + log(1 + exp(-|z|)) - y z`, averaged over the batch.

The gradients of the tables are dense (as torch's `index` / `embedding`
without `sparse=True`), so SGD updates every row."""

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, glorot, normal


def mlp_params(rng, prefix, widths):
    """The parameters of an MLP of these widths: `<prefix>_w<i>`
    (Glorot-uniform) and `<prefix>_b<i>` (zeros) for layer i."""
    params = {}
    for i, (a, b) in enumerate(zip(widths[:-1], widths[1:])):
        params["%s_w%d" % (prefix, i)] = glorot(rng, a, b)
        params["%s_b%d" % (prefix, i)] = np.zeros(b, np.float32)
    return params


def pairs(f):
    """Flat indices i * f + j of the pairs i < j of f vectors."""
    i, j = np.triu_indices(f, k=1)
    return (i * f + j).astype(np.int64)


class DLRM(Workload):
    name = "dlrm"
    unit = "samples/s"
    derived_from = "dlrm"
    sizes = {
        "tiny": dict(batch=8, dense=4, tables=3, rows=50, dim=8, bag=4,
                     bottom=(16,), top=(16,)),
        "cpu": dict(lr=0.1, batch=2048, dense=13, tables=8, rows=100000, dim=64,
                    bag=10, bottom=(512, 256), top=(512, 256)),
        "gpu": dict(lr=0.1, batch=16384, dense=13, tables=8, rows=1000000, dim=64,
                    bag=100, bottom=(512, 512), top=(1024, 1024, 1024)),
    }

    @staticmethod
    def widths(size):
        f = size["tables"] + 1
        bottom = (size["dense"],) + tuple(size["bottom"]) + (size["dim"],)
        top = ((size["dim"] + f * (f - 1) // 2,) + tuple(size["top"]) + (1,))
        return bottom, top

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        n, k, rows, e = size["batch"], size["tables"], size["rows"], size["dim"]
        bottom, top = self.widths(size)
        params = {}
        params.update(mlp_params(rng, "bot", bottom))
        params.update(mlp_params(rng, "top", top))
        for t in range(k):
            params["emb%d" % t] = normal(rng, (rows, e), 0.1)
        # Labels from a random teacher over the dense features and a score
        # per table row, thresholded at the median (balanced classes).
        w_dense = normal(rng, (size["dense"],))
        row_score = [normal(rng, (rows,)) for _ in range(k)]
        batches = []
        for _ in range(4):
            b = {"dense": normal(rng, (n, size["dense"]))}
            score = b["dense"] @ w_dense
            for t in range(k):
                idx = rng.integers(0, rows, (n, size["bag"]))
                b["idx%d" % t] = idx
                score = score + row_score[t][idx].mean(axis=1)
            b["y"] = (score > np.median(score)).astype(np.float32)
            batches.append(b)
        return Problem(params, batches, items=n, lr=size.get("lr", 0.5))

    def loss_adjoint(self, size):
        k = size["tables"]
        nb, nt = len(size["bottom"]) + 1, len(size["top"]) + 1
        tri = pairs(k + 1)

        def loss(p, b):
            bot = [(p["bot_w%d" % i], p["bot_b%d" % i]) for i in range(nb)]
            top = [(p["top_w%d" % i], p["top_b%d" % i]) for i in range(nt)]
            x = b["dense"]
            for w, bias in bot:
                x = adj.relu(x @ w + bias)
            bags = [adj.sum(p["emb%d" % t][b["idx%d" % t]], axis=1)
                    for t in range(k)]
            z = adj.concat([v[:, None, :] for v in [x] + bags], axis=1)
            zz = z @ adj.transpose(z, [0, 2, 1])           # [B, F, F]
            dots = adj.gather(adj.reshape(zz, [zz.shape[0], -1]), tri,
                              axis=1)
            h = adj.concat([x, dots], axis=1)
            for w, bias in top[:-1]:
                h = adj.relu(h @ w + bias)
            h = h @ top[-1][0] + top[-1][1]
            zl = h[:, 0]
            y = b["y"]
            return adj.mean(adj.relu(zl) + adj.log(1.0 + adj.exp(-abs(zl)))
                            - y * zl)
        return loss

    def loss_torch(self, size):
        from reference import dlrm
        return dlrm.make_torch_loss(size)

    def loss_jax(self, size):
        from reference import dlrm
        return dlrm.make_jax_loss(size)
