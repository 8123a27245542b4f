"""Hessian-vector products over a tree of parameters.

The curvature of a loss along a direction ``v`` (a tree of the parameters'
structure) is ``jvp(grad(loss), (params,), (v,))``: forward mode over
reverse mode, one compiled program whose cost is a small multiple of a
gradient's, never the Hessian itself. Hessian spectra (Lanczos), Newton-CG
and influence functions are built from it. ``adjoint.hessian`` gives the
whole Hessian as a tree of blocks when it is small enough to want.

    PYTHONPATH=build/python python3 examples/python/hvp_pytree.py

It is also a test (ctest -R python-example-hvp-pytree): it exits non-zero
unless the product matches the full Hessian's blocks contracted with ``v``
and central differences of the gradient, and unless the power iteration
built on it finds the Hessian's largest eigenvalue.
"""

import sys

import numpy as np

import adjoint as adj

anp = adj.numpy
FEATURES, HIDDEN, BATCH = 4, 5, 16


def loss(params, x, y):
    h = anp.tanh(x @ params["w1"] + params["b1"])
    return anp.mean((h @ params["w2"] - y) ** 2)


@adj.jit
def hvp(params, v, x, y):
    """H(params) v, where H is the Hessian of loss in params."""
    return adj.jvp(lambda p: adj.grad(loss)(p, x, y), (params,), (v,))[1]


def dot(a, b):
    return sum(float(np.vdot(np.asarray(a[k]), np.asarray(b[k]))) for k in a)


def contract(hessian, v):
    """(H v)[k] = sum over j of H[k][j] contracted with v[j]."""
    out = {}
    for k, row in hessian.items():
        out[k] = sum(np.tensordot(np.asarray(block), v[j], axes=v[j].ndim)
                     for j, block in row.items())
    return out


def main():
    rng = np.random.default_rng(0)
    params = {"w1": rng.standard_normal((FEATURES, HIDDEN)) * 0.5,
              "b1": rng.standard_normal(HIDDEN) * 0.1,
              "w2": rng.standard_normal((HIDDEN, 1)) * 0.5}
    x = rng.standard_normal((BATCH, FEATURES))
    y = rng.standard_normal((BATCH, 1))
    v = {k: rng.standard_normal(p.shape) for k, p in params.items()}

    hv = hvp(params, v, x, y)
    full = adj.hessian(loss)(params, x, y)
    want = contract(full, v)
    err_h = max(np.abs(np.asarray(hv[k]) - want[k]).max() for k in params)

    eps = 1e-5
    g = adj.grad(loss)
    plus = g({k: p + eps * v[k] for k, p in params.items()}, x, y)
    minus = g({k: p - eps * v[k] for k, p in params.items()}, x, y)
    err_fd = max(np.abs(np.asarray(hv[k]) - (np.asarray(plus[k]) -
                                             np.asarray(minus[k])) / (2 * eps)
                        ).max() for k in params)
    print("max |Hv - hessian blocks . v| = %.2e" % err_h)
    print("max |Hv - central differences of grad| = %.2e" % err_fd)

    # The largest eigenvalue of H by power iteration on Hessian-vector
    # products, against numpy's eigenvalues of the assembled Hessian.
    keys = sorted(params)
    sizes = [params[k].size for k in keys]
    dense = np.block([[np.asarray(full[a][b]).reshape(params[a].size, -1)
                       for b in keys] for a in keys])
    top = max(np.linalg.eigvalsh(dense), key=abs)
    u = {k: rng.standard_normal(p.shape) for k, p in params.items()}
    for _ in range(200):
        hu = hvp(params, u, x, y)
        norm = np.sqrt(dot(hu, hu))
        u = {k: np.asarray(hu[k]) / norm for k in params}
    estimate = dot(u, hvp(params, u, x, y))
    print("largest |eigenvalue|: power iteration %.6f, numpy %.6f "
          "(%d parameters)" % (estimate, top, sum(sizes)))

    ok = err_h < 1e-10 and err_fd < 1e-6 and \
        abs(estimate - top) < 1e-6 * max(1.0, abs(top))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
