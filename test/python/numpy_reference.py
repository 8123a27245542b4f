"""Checks a numpy function in jitted code against jax.numpy in float64.

``check_like_jax("roll", x, 2, axis=1)`` compiles ``np.roll(x, 2,
axis=1)`` with adjoint.jit (numpy's function on traced arrays resolves to
adjoint.numpy's) and compares with ``jnp.roll`` under jax.jit:

- the values (and dtypes' kinds);
- reverse mode: the gradient of a fixed random weighting of every float
  output with respect to each float argument (adjoint.grad vs jax.grad);
- forward mode: the JVP along random tangents (adjoint.jvp vs jax.jvp);
- second order: the gradient of the first gradient's weighted sum, i.e. a
  Hessian-vector product (``order=2``, where JAX defines it);
- optionally the values on other devices (``devices=[opencl_device]``).

Arguments that are not float arrays (ints, shapes, axes given positionally)
are passed through as static Python values or integer arrays and are not
differentiated. Each float array argument is differentiated on its own,
so conventions at ties (JAX splits max(x, y)'s derivative evenly where
x == y) show up: pass a tie-free input or compare the convention itself. Tests of issue 26's functions use this one harness so that
every function is held to the same standard.
"""

import numpy as np

import jax
import jax.numpy as jnp

import adjoint as adj

jax.config.update("jax_enable_x64", True)


def _leaves(tree):
    if isinstance(tree, (tuple, list)):
        out = []
        for t in tree:
            out += _leaves(t)
        return out
    return [tree]


def _is_float_array(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _assert_close(got, want, rtol, atol, what):
    got, want = _leaves(got), _leaves(want)
    assert len(got) == len(want), (what, len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        where = "%s[%d]" % (what, i)
        assert g.shape == w.shape, (where, g.shape, w.shape)
        if w.dtype.kind in "biu":
            assert g.dtype.kind == w.dtype.kind, (where, g.dtype, w.dtype)
            np.testing.assert_array_equal(g, w, err_msg=where)
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol,
                                       err_msg=where)


class _Case:
    """The function with its non-differentiated arguments bound: a
    function of the float array arguments only."""

    def __init__(self, module, name, args, kwargs):
        self.fn = getattr(module, name) if isinstance(name, str) else name
        self.args, self.kwargs = list(args), kwargs
        self.diff = [i for i, a in enumerate(args) if _is_float_array(a)]

    def __call__(self, *floats):
        args = list(self.args)
        for i, x in zip(self.diff, floats):
            args[i] = x
        return self.fn(*args, **self.kwargs)


def _weights(outputs, seed):
    """Fixed random weights for the float outputs (None elsewhere)."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(np.shape(o))
            if np.asarray(o).dtype.kind == "f" else None
            for o in _leaves(outputs)]


def _weighted(fn, weights, numpy):
    def scalar(*floats):
        total = 0.0
        for o, w in zip(_leaves(fn(*floats)), weights):
            if w is not None:
                total = total + numpy.sum(o * w)
        return total
    return scalar


def check_like_jax(name, *args, rtol=1e-10, atol=1e-12, order=2,
                   devices=(), jax_name=None, **kwargs):
    """np.<name>(*args, **kwargs) in adjoint.jit against jnp.<jax_name or
    name> in float64: values, reverse and forward derivatives, and second
    order up to `order` (0: values only). `name` may also be a function
    of numpy's namespace (``lambda x: np.roll(x, 1)``) used for both, with
    `jax_name` the JAX function then. Returns adjoint's values."""
    ours = _Case(np, name, args, kwargs)
    theirs = _Case(jnp, jax_name or name, args, kwargs) \
        if isinstance(name, str) or jax_name else None
    if theirs is None:
        raise TypeError("check_like_jax: a function needs jax_name")
    floats = [args[i] for i in ours.diff]
    got = adj.jit(ours)(*floats)
    want = jax.jit(theirs)(*floats)
    _assert_close(got, want, rtol, atol, "%s values" % _label(name))
    for device in devices:
        on = adj.jit(ours, device=device)(*floats)
        _assert_close(adj.tree_util.tree_map(adj.to_numpy, on)
                      if isinstance(on, (tuple, list)) else adj.to_numpy(on),
                      want, max(rtol, 1e-6), max(atol, 1e-9),
                      "%s on %s" % (_label(name), device))
    if order < 1 or not floats:
        return got
    weights = _weights(want, 1)
    if all(w is None for w in weights):
        return got
    s_ours, s_theirs = _weighted(ours, weights, np), \
        _weighted(theirs, weights, jnp)
    argnums = tuple(range(len(floats)))
    _assert_close(adj.grad(s_ours, argnums=argnums)(*floats),
                  jax.grad(s_theirs, argnums=argnums)(*floats), rtol, atol,
                  "%s reverse" % _label(name))
    rng = np.random.default_rng(2)
    tangents = tuple(rng.standard_normal(f.shape) for f in floats)
    _, t_ours = adj.jvp(ours, tuple(floats), tangents)
    _, t_theirs = jax.jvp(theirs, tuple(floats), tangents)
    _assert_close(t_ours, t_theirs, rtol, atol, "%s forward" % _label(name))
    if order < 2:
        return got
    v = [rng.standard_normal(f.shape) for f in floats]

    def hvp(grad, numpy, scalar):
        def along(*fs):
            gs = grad(scalar, argnums=argnums)(*fs)
            return sum(numpy.sum(g * w) for g, w in zip(gs, v))
        return grad(along, argnums=argnums)

    _assert_close(hvp(adj.grad, np, s_ours)(*floats),
                  hvp(jax.grad, jnp, s_theirs)(*floats), rtol, atol,
                  "%s second order" % _label(name))
    return got


def check_built(build, *args, **kwargs):
    """check_like_jax of build(np) against build(jnp): `build` takes a
    numpy namespace and returns the function to compare."""
    ours = build(np)
    ours.__name__ = build.__name__
    return check_like_jax(ours, *args, jax_name=build(jnp), **kwargs)


def _label(name):
    return name if isinstance(name, str) else getattr(name, "__name__", "fn")
