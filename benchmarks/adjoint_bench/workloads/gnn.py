"""gnn: message passing on batched random graphs (derived from Milabench's
pna and dimenet):

- a batch is `graphs` random graphs of `nodes / graphs` nodes on average,
  `edges` directed edges in all (no self loops, no duplicates, in-degree at
  most `max_degree`), as one disjoint graph: node features `x` [N, F], the
  edge list `src`, `dst` [E], the graph of each node `graph` [N];
- node embedding `h = x W + b`, then `layers` layers of: messages
  `m = relu([h[src], h[dst]] W1 + b1) W2 + b2` (gathers by src and dst),
  aggregated into each dst as a sum (scatter_add), a mean (the sum over the
  in-degree) and a max (over the padded neighbour list `nbr` [N, D] of
  incoming edge ids: a gather from the messages plus a zero row for the
  padding, a -1e9 mask, a max; 0 for nodes without incoming edges), and a
  residual update `h = h + relu([h, sum, mean, max] U + c)`;
- a readout: the sum of h per graph (scatter_add by graph id) times
  graphs / nodes (a mean over the average graph size), an MLP to one
  value per graph, and the mean squared error against synthetic targets."""

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, glorot, normal

NEG = -1e9


def _rank_in_group(keys):
    """For each element, how many equal keys come before it."""
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    counts = np.diff(np.r_[starts, len(keys)])
    rank = np.empty(len(keys), np.int64)
    rank[order] = np.arange(len(keys)) - np.repeat(starts, counts)
    return rank


def random_graphs(rng, graphs, nodes, edges, max_degree):
    """A batch of `graphs` graphs with `nodes` nodes and `edges` edges in
    all (numpy arrays)."""
    sizes = 1 + rng.multinomial(nodes - 2 * graphs,
                                np.ones(graphs) / graphs) + 1
    first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    graph = np.repeat(np.arange(graphs), sizes)
    src = dst = np.zeros(0, np.int64)
    while len(src) < edges:
        # Candidates in a graph chosen by size, then the accepted edges so
        # far followed by the new ones that are no self loop, no duplicate
        # and within the in-degree cap.
        k = 2 * (edges - len(src)) + 16
        g = rng.choice(graphs, size=k, p=sizes / nodes)
        a = first[g] + rng.integers(0, sizes[g])
        b = first[g] + rng.integers(0, sizes[g])
        a, b = np.r_[src, a[a != b]], np.r_[dst, b[a != b]]
        _, once = np.unique(a * nodes + b, return_index=True)
        once = np.sort(once)
        a, b = a[once], b[once]
        ok = _rank_in_group(b) < max_degree
        src, dst = a[ok][:edges], b[ok][:edges]
    indeg = np.bincount(dst, minlength=nodes)
    # Incoming edge ids per node, padded with `edges` (a zero message).
    nbr = np.full((nodes, max_degree), edges, np.int64)
    nbr[dst, _rank_in_group(dst)] = np.arange(edges)
    mask = np.where(nbr < edges, 0.0, NEG).astype(np.float32)
    return dict(src=src, dst=dst, graph=graph, nbr=nbr, mask=mask,
                deg=indeg.astype(np.float32))


class GNN(Workload):
    name = "gnn"
    unit = "graphs/s"
    derived_from = "pna, dimenet"
    sizes = {
        "tiny": dict(graphs=4, nodes=24, edges=48, max_degree=6,
                     features=9, hidden=16, layers=2),
        "cpu": dict(graphs=128, nodes=2304, edges=4992, max_degree=8,
                    features=9, hidden=64, layers=4),
        "gpu": dict(graphs=4096, nodes=73728, edges=163840, max_degree=8,
                    features=9, hidden=64, layers=16),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        f, h, g = size["features"], size["hidden"], size["graphs"]
        params = {"w_in": glorot(rng, f, h), "b_in": np.zeros(h, np.float32),
                  "r_w1": glorot(rng, h, h), "r_b1": np.zeros(h, np.float32),
                  "r_w2": glorot(rng, h, 1), "r_b2": np.zeros(1, np.float32)}
        for l in range(size["layers"]):
            params["m_w1_%d" % l] = glorot(rng, 2 * h, h)
            params["m_b1_%d" % l] = np.zeros(h, np.float32)
            params["m_w2_%d" % l] = glorot(rng, h, h)
            params["m_b2_%d" % l] = np.zeros(h, np.float32)
            # Residual branches start small.
            params["u_w_%d" % l] = 0.1 * glorot(rng, 4 * h, h)
            params["u_b_%d" % l] = np.zeros(h, np.float32)
        # Targets: a fixed function of the features and the structure
        # (mean over nodes of tanh(x a) weighted by 1 + in-degree).
        a = normal(rng, (f,))
        batches = []
        for _ in range(4):
            b = random_graphs(rng, g, size["nodes"], size["edges"],
                              size["max_degree"])
            b["x"] = normal(rng, (size["nodes"], f))
            node = np.tanh(b["x"] @ a) * (1.0 + b["deg"])
            count = np.bincount(b["graph"], minlength=g)
            b["y"] = (np.bincount(b["graph"], node, g) / count
                      ).astype(np.float32)
            batches.append(b)
        return Problem(params, batches, items=g, lr=0.02)

    def loss_adjoint(self, size):
        layers, g, h = size["layers"], size["graphs"], size["hidden"]
        scale = size["graphs"] / size["nodes"]

        def loss(p, b):
            ws = [(p["m_w1_%d" % l], p["m_b1_%d" % l], p["m_w2_%d" % l],
                   p["m_b2_%d" % l], p["u_w_%d" % l], p["u_b_%d" % l])
                  for l in range(layers)]
            src, dst = b["src"], b["dst"]
            deg = b["deg"][:, None]
            inv_deg = 1.0 / adj.maximum(deg, 1.0)
            has_in = adj.minimum(deg, 1.0)
            x = b["x"] @ p["w_in"] + p["b_in"]
            zero_row = x[:1] * 0.0
            for w1, b1, w2, b2, u, c in ws:
                pair = adj.concat([x[src], x[dst]], axis=1)
                msg = adj.relu(pair @ w1 + b1) @ w2 + b2        # [E, H]
                total = adj.scatter_add(x * 0.0, dst, msg)
                mean = total * inv_deg
                padded = adj.concat([msg, zero_row], axis=0)
                mx = adj.max(padded[b["nbr"]] + b["mask"][:, :, None],
                             axis=1) * has_in
                agg = adj.concat([x, total, mean, mx], axis=1)
                x = x + adj.relu(agg @ u + c)
            pooled = adj.scatter_add(adj.broadcast_to(zero_row, [g, h]),
                                     b["graph"], x)
            pooled = pooled * scale
            out = adj.relu(pooled @ p["r_w1"] + p["r_b1"]) @ p["r_w2"]
            out = out[:, 0] + p["r_b2"]
            return adj.mean((out - b["y"]) ** 2.0)
        return loss

    def loss_torch(self, size):
        from reference import gnn
        return gnn.make_torch_loss(size)

    def loss_jax(self, size):
        from reference import gnn
        return gnn.make_jax_loss(size)
