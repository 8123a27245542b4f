"""Pytrees as in JAX: adjoint.tree_util (against jax.tree_util), namedtuple,
dataclass, OrderedDict, None and registered nodes through jit and the
transforms, tree utilities inside jitted code, ravel_pytree, and static
parse trees of ints beside differentiated arguments."""

import collections
import dataclasses
import functools
import typing

import numpy as np
import pytest

import jax
import jax.numpy as jnp
import jax.flatten_util
import adjoint as adj
from adjoint import tree_util as tu
from adjoint.flatten_util import ravel_pytree

jax.config.update("jax_enable_x64", True)


class AdamState(typing.NamedTuple):
    count: typing.Any
    mu: typing.Any
    nu: typing.Any


class Pair(typing.NamedTuple):
    a: typing.Any
    b: typing.Any


OtherPair = collections.namedtuple("OtherPair", "a b")


@dataclasses.dataclass
class Params:
    w: typing.Any
    b: typing.Any


@dataclasses.dataclass(frozen=True)
class Layer:
    w: typing.Any
    act: str = dataclasses.field(default="tanh", metadata={"static": True})


jax.tree_util.register_dataclass(Params, data_fields=["w", "b"],
                                 meta_fields=[])
jax.tree_util.register_dataclass(Layer, data_fields=["w"],
                                 meta_fields=["act"])


class Box:
    """A registered node: two children and a hashable label."""

    def __init__(self, x, y, label):
        self.x, self.y, self.label = x, y, label


def _box_flatten(b):
    return (b.x, b.y), b.label


def _box_unflatten(label, children):
    return Box(children[0], children[1], label)


tu.register_pytree_node(Box, _box_flatten, _box_unflatten)
jax.tree_util.register_pytree_node(Box, _box_flatten, _box_unflatten)


@tu.register_pytree_node_class
@jax.tree_util.register_pytree_node_class
class Scaled:
    def __init__(self, value, scale):
        self.value, self.scale = value, scale

    def tree_flatten(self):
        return (self.value,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(children[0], scale)


def _same(a, b):
    """a (adjoint) and b (jax) are the same pytree: equal structure (types,
    keys, aux data) and equal leaves."""
    la, ta = jax.tree_util.tree_flatten(a)
    lb, tb = jax.tree_util.tree_flatten(b)
    assert ta == tb, (ta, tb)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-12)


def _trees():
    dd = collections.defaultdict(list)
    dd["z"], dd["a"] = 1.0, (2.0, 3.0)
    return [
        1.0,
        (),
        None,
        (1.0, [2.0, {"b": 3.0, "a": None}], {}),
        AdamState(0, {"w": 1.0}, {"w": 2.0}),
        collections.OrderedDict([("z", 1.0), ("a", [2.0, 3.0])]),
        dd,
        Params(w=[1.0, 2.0], b=3.0),
        Layer(w=(1.0, 2.0), act="relu"),
        Box(1.0, (2.0, None), "lbl"),
        [Scaled(4.0, 2), Pair(a=None, b=5.0)],
    ]


# ---------------------------------------------------------------------------
# adjoint.tree_util from Python, against jax.tree_util
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("tree", _trees(), ids=lambda t: type(t).__name__)
def test_flatten_leaves_and_structure_match_jax(tree):
    leaves, treedef = tu.tree_flatten(tree)
    jleaves, jdef = jax.tree_util.tree_flatten(tree)
    assert leaves == jleaves
    assert tu.tree_leaves(tree) == jax.tree_util.tree_leaves(tree)
    assert treedef.num_leaves == jdef.num_leaves
    assert treedef.num_nodes == jdef.num_nodes
    assert len(treedef.children()) == len(jdef.children())
    rebuilt = treedef.unflatten(leaves)
    assert type(rebuilt) is type(tree)
    assert jax.tree_util.tree_structure(rebuilt) == jdef
    assert type(tu.tree_unflatten(treedef, leaves)) is type(tree)
    assert tu.tree_structure(tree) == treedef
    assert hash(tu.tree_structure(tree)) == hash(treedef)
    # tree_map of several trees.
    doubled = tu.tree_map(lambda x: 2 * x, tree)
    _same(doubled, jax.tree_util.tree_map(lambda x: 2 * x, tree))
    _same(tu.tree_map(lambda x, y: x - y, doubled, tree),
          jax.tree_util.tree_map(lambda x, y: x - y, doubled, tree))
    assert tu.tree_reduce(lambda a, b: a + b, tree, 0.5) == \
        jax.tree_util.tree_reduce(lambda a, b: a + b, tree, 0.5)
    assert tu.tree_all(tree) == jax.tree_util.tree_all(tree)


def test_treedef_equality_repr_and_is_leaf():
    t1 = tu.tree_structure(Pair(1.0, 2.0))
    t2 = tu.tree_structure(OtherPair(1.0, 2.0))
    t3 = tu.tree_structure((1.0, 2.0))
    assert t1 != t2 and t1 != t3 and t2 != t3
    assert t1 == tu.tree_structure(Pair(3.0, 4.0))
    assert tu.tree_structure({"a": 1, "b": 2}) != \
        tu.tree_structure({"a": 1, "c": 2})
    assert repr(tu.tree_structure((1, [2, {"k": None}]))) == \
        "PyTreeDef((*, [*, {'k': None}]))"
    assert repr(t1) == "PyTreeDef(Pair(a=*, b=*))"
    assert repr(tu.tree_structure(Layer(1.0))) == \
        "PyTreeDef(Layer(w=*, act='tanh'))"
    tree = {"a": (1.0, 2.0), "b": [3.0]}
    is_tuple = lambda x: isinstance(x, tuple)  # noqa: E731
    assert tu.tree_leaves(tree, is_leaf=is_tuple) == \
        jax.tree_util.tree_leaves(tree, is_leaf=is_tuple)
    size = lambda t: len(t) if isinstance(t, tuple) else -1.0  # noqa: E731
    _same(tu.tree_map(size, tree, is_leaf=is_tuple),
          jax.tree_util.tree_map(size, tree, is_leaf=is_tuple))
    # A prefix tree: its leaves meet whole subtrees of the others.
    _same(tu.tree_map(lambda s, t: s * sum(t), {"a": 2.0, "b": 3.0}, tree),
          jax.tree_util.tree_map(lambda s, t: s * sum(t),
                                 {"a": 2.0, "b": 3.0}, tree))


def test_tree_util_errors():
    with pytest.raises(ValueError, match="structures do not match"):
        tu.tree_map(lambda x, y: x, (1.0, 2.0), [1.0, 2.0])
    with pytest.raises(ValueError, match="structures do not match"):
        tu.tree_map(lambda x, y: x, Pair(1.0, 2.0), OtherPair(1.0, 2.0))
    with pytest.raises(ValueError, match="2 leaves given"):
        tu.tree_structure((1.0, 2.0, 3.0)).unflatten([1.0, 2.0])
    with pytest.raises(ValueError, match="already a pytree node"):
        tu.register_pytree_node(Box, _box_flatten, _box_unflatten)
    with pytest.raises(TypeError, match="must be hashable"):
        tu.tree_flatten(Box(1.0, 2.0, ["unhashable"]))


def test_adjoint_tree_namespace_as_jax_tree():
    tree = {"x": (1.0, 2.0), "y": None}
    assert adj.tree.leaves(tree) == jax.tree.leaves(tree)
    _same(adj.tree.map(lambda v: v + 1, tree),
          jax.tree.map(lambda v: v + 1, tree))
    leaves, treedef = adj.tree.flatten(tree)
    assert adj.tree.unflatten(treedef, leaves) == tree
    assert adj.tree.structure(tree) == treedef
    assert [(tu.keystr(p), x) for p, x in adj.tree.leaves_with_path(tree)] \
        == [(jax.tree_util.keystr(p), x)
            for p, x in jax.tree.leaves_with_path(tree)]
    assert adj.tree.reduce(lambda a, b: a + b, tree) == \
        jax.tree.reduce(lambda a, b: a + b, tree)


# ---------------------------------------------------------------------------
# Nodes through adjoint.jit: types kept, cache keys
# ---------------------------------------------------------------------------

def test_jit_results_keep_node_types_on_both_call_paths():
    @adj.jit
    def f(t):
        return tu.tree_map(lambda v: v * 2.0, t)

    x = np.arange(3.0)
    for tree in _trees()[3:]:
        want = jax.tree_util.tree_map(lambda v: v * 2.0, tree)
        for _ in range(2):  # full path, then quick path
            got = f(tree)
            _same(got, want)
            assert type(got) is type(tree)
    st = AdamState(np.int64(1), {"w": x}, {"w": x * 3})
    for _ in range(2):
        out = f(st)
        assert type(out) is AdamState
        np.testing.assert_allclose(out.nu["w"], x * 6)


def test_cache_key_distinguishes_node_types_of_one_arity():
    @adj.jit
    def f(t):
        return t

    x = np.ones(2)
    for _ in range(2):
        assert type(f(Pair(x, x))) is Pair
        assert type(f(OtherPair(x, x))) is OtherPair
        assert type(f((x, x))) is tuple
        assert type(f(Params(x, x))) is Params
    assert f.builds == 4
    # Static fields and aux data are part of the key.
    g = adj.jit(lambda l: adj.tanh(l.w) if l.act == "tanh" else l.w * 0.0)
    np.testing.assert_allclose(g(Layer(x)), np.tanh(x))
    np.testing.assert_allclose(g(Layer(x, "zero")), 0 * x)
    assert type(adj.jit(lambda b: b)(Box(x, x, "p"))) is Box
    assert adj.jit(lambda b: b)(Box(x, x, "q")).label == "q"


def test_none_is_an_empty_node():
    @adj.jit
    def f(d):
        return {"y": d["x"] * 2.0, "nothing": None, "n": d["n"]}

    x = np.arange(3.0)
    for _ in range(2):
        out = f({"x": x, "n": None})
        assert out["nothing"] is None and out["n"] is None
        np.testing.assert_allclose(out["y"], 2 * x)
    assert adj.jit(lambda x: None)(x) is None
    g = adj.grad(lambda p: adj.sum(p["w"] ** 2.0))({"w": x, "frozen": None})
    assert g["frozen"] is None
    np.testing.assert_allclose(g["w"], 2 * x)


# ---------------------------------------------------------------------------
# optax-style states built and updated inside jitted code
# ---------------------------------------------------------------------------

def _adam_reference(params, grads, state, lr=0.1, b1=0.9, b2=0.999,
                    eps=1e-8):
    count = state.count + 1
    mu = {k: b1 * state.mu[k] + (1 - b1) * grads[k] for k in params}
    nu = {k: b2 * state.nu[k] + (1 - b2) * grads[k] ** 2 for k in params}
    new = {k: params[k] - lr * (mu[k] / (1 - b1 ** count)) /
           (np.sqrt(nu[k] / (1 - b2 ** count)) + eps) for k in params}
    return new, AdamState(count, mu, nu)


def _loss(params, x):
    return adj.sum((x @ params["w"] + params["b"]) ** 2.0)


@adj.jit
def _adam_step(params, state, x, lr=0.1, b1=0.9, b2=0.999, eps=1e-8):
    grads = adj.grad(_loss)(params, x)
    count = state.count + 1
    mu = tu.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g,
                                state.nu, grads)

    def update(p, m, v):
        mhat = m / (1 - b1 ** count)
        return p - lr * mhat / (adj.numpy.sqrt(v / (1 - b2 ** count)) + eps)

    new = jax.tree.map(update, params, mu, nu)
    return new, state._replace(count=count, mu=mu, nu=nu)


def test_optax_style_adam_state_in_a_jitted_step():
    rng = np.random.default_rng(0)
    params = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2)}
    x = rng.normal(size=(4, 3))
    zeros = {k: np.zeros_like(v) for k, v in params.items()}
    state = AdamState(np.int64(0), zeros, dict(zeros))
    ref_p, ref_s = params, state
    for _ in range(3):
        params, state = _adam_step(params, state, x)
        grads = {"w": 2 * x.T @ (x @ ref_p["w"] + ref_p["b"]),
                 "b": 2 * (x @ ref_p["w"] + ref_p["b"]).sum(0)}
        ref_p, ref_s = _adam_reference(ref_p, grads, ref_s)
        assert type(state) is AdamState and type(params) is dict
        assert int(state.count) == int(ref_s.count)
        for k in params:
            np.testing.assert_allclose(params[k], ref_p[k], rtol=1e-10)
            np.testing.assert_allclose(state.mu[k], ref_s.mu[k], rtol=1e-10)
            np.testing.assert_allclose(state.nu[k], ref_s.nu[k], rtol=1e-10)
    assert _adam_step.builds == 1


def test_nodes_constructed_inside_jitted_code():
    @adj.jit
    def f(x, p):
        st = AdamState(count=0, mu=x * 2.0, nu=Pair(x, None))
        q = dataclasses.replace(p, w=p.w + x)
        layer = Layer(w=q.b * 3.0, act="id")
        return st._replace(count=1), q, layer, Params(w=st.mu, b=p.b)

    x = np.arange(3.0)
    st, q, layer, p2 = f(x, Params(w=x, b=x + 1))
    assert type(st) is AdamState and type(st.nu) is Pair
    assert st.nu.b is None and int(st.count) == 1
    np.testing.assert_allclose(st.mu, 2 * x)
    assert type(q) is Params and type(layer) is Layer and layer.act == "id"
    np.testing.assert_allclose(q.w, 2 * x)
    np.testing.assert_allclose(layer.w, 3 * (x + 1))
    np.testing.assert_allclose(p2.w, 2 * x)


# ---------------------------------------------------------------------------
# Transforms over nodes, against JAX
# ---------------------------------------------------------------------------

def _model(p, x):
    """A loss over Params(w=Layer-like dict, b) with a Pair inside."""
    h = adj.numpy.tanh(x @ p.w["k"] + p.b.a)
    return adj.numpy.sum(h * h * p.b.b)


def _model_jax(p, x):
    h = jnp.tanh(x @ p.w["k"] + p.b.a)
    return jnp.sum(h * h * p.b.b)


def _node_params(rng):
    return Params(w={"k": rng.normal(size=(3, 2))},
                  b=Pair(rng.normal(size=2), rng.normal(size=2)))


def test_grad_and_value_and_grad_keep_node_types():
    rng = np.random.default_rng(1)
    p, x = _node_params(rng), rng.normal(size=(4, 3))
    want = jax.grad(_model_jax)(p, x)
    for g in (adj.grad(_model)(p, x), adj.jit(adj.grad(_model))(p, x),
              adj.jit(lambda p, x: adj.grad(_model)(p, x))(p, x)):
        assert type(g) is Params and type(g.b) is Pair
        _same(g, want)
    (v, aux), g = adj.value_and_grad(
        lambda p, x: (_model(p, x), AdamState(1, p.b, None)),
        has_aux=True)(p, x)
    np.testing.assert_allclose(v, _model_jax(p, x), rtol=1e-12)
    assert type(aux) is AdamState and type(aux.mu) is Pair
    assert aux.nu is None
    _same(g, want)
    # Registered nodes: type and auxiliary data come back.
    box = Box(np.arange(3.0), np.ones(3), "label")
    gb = adj.grad(lambda b: adj.numpy.sum(b.x * b.x * b.y))(box)
    assert type(gb) is Box and gb.label == "label"
    np.testing.assert_allclose(gb.x, 2 * box.x)
    np.testing.assert_allclose(gb.y, box.x ** 2)


def test_vjp_jvp_vmap_and_jacobians_keep_node_types():
    rng = np.random.default_rng(2)
    p, x = _node_params(rng), rng.normal(size=(4, 3))

    def f(p):
        return Pair(a=adj.numpy.tanh(p.w["k"]) * 2.0, b=p.b.a * p.b.b)

    def fj(p):
        return Pair(a=jnp.tanh(p.w["k"]) * 2.0, b=p.b.a * p.b.b)

    out, pullback = adj.vjp(f, p)
    jout, jpullback = jax.vjp(fj, p)
    assert type(out) is Pair
    _same(out, jout)
    ct = Pair(a=np.ones((3, 2)), b=np.arange(2.0))
    (cp,) = pullback(ct)
    assert type(cp) is Params
    _same(cp, jpullback(ct)[0])
    tangent = jax.tree_util.tree_map(np.ones_like, p)
    y, ty = adj.jvp(f, (p,), (tangent,))
    jy, jty = jax.jvp(fj, (p,), (tangent,))
    assert type(y) is Pair and type(ty) is Pair
    _same(ty, jty)
    # vmap over a batch of namedtuple states, with in_axes of the node type.
    batch = Pair(a=rng.normal(size=(5, 3)), b=rng.normal(size=3))
    g = adj.vmap(lambda s: Pair(s.a * s.b, adj.numpy.sum(s.a)),
                 in_axes=(Pair(0, None),))
    gj = jax.vmap(lambda s: Pair(s.a * s.b, jnp.sum(s.a)),
                  in_axes=(Pair(0, None),))
    out = g(batch)
    assert type(out) is Pair
    _same(out, gj(batch))
    for ours, theirs in ((adj.jacrev, jax.jacrev), (adj.jacfwd, jax.jacfwd)):
        jac = ours(f)(p)
        assert type(jac) is Pair and type(jac.a) is Params
        _same(jac, theirs(fj)(p))


def test_custom_vjp_over_nodes():
    @adj.custom_vjp
    def scale(s):
        return Pair(s.a * 2.0, s.b)

    def fwd(s):
        return scale(s), None

    def bwd(_, ct):
        # A made-up rule: the cotangents of a come back tripled.
        return (Pair(ct.a * 3.0, ct.b),)

    scale.defvjp(fwd, bwd)

    def loss(s):
        out = scale(s)
        return adj.numpy.sum(out.a) + adj.numpy.sum(out.b * out.b)

    s = Pair(np.arange(3.0), np.arange(2.0))
    for g in (adj.grad(loss)(s), adj.jit(adj.grad(loss))(s)):
        assert type(g) is Pair
        np.testing.assert_allclose(g.a, 3 * np.ones(3))
        np.testing.assert_allclose(g.b, 2 * s.b)


# ---------------------------------------------------------------------------
# Tree utilities called inside jitted code
# ---------------------------------------------------------------------------

def test_jax_and_adjoint_tree_functions_inside_jit():
    tree = {"a": np.arange(3.0), "b": (np.ones(2), Pair(np.full(2, 3.0),
                                                        None))}

    @adj.jit
    def f(t, s):
        leaves = jax.tree_util.tree_leaves(t)
        total = functools.reduce(lambda u, v: u + adj.numpy.sum(v),
                                 leaves, 0.0)

        def shift(x, y):
            return x * s + y

        a = jax.tree_util.tree_map(shift, t, t)
        b = jax.tree.map(lambda x: x + total, t)
        c = tu.tree_map(lambda x: x.a if isinstance(x, Pair) else -x, t,
                        is_leaf=lambda x: isinstance(x, Pair))
        flat, treedef = tu.tree_flatten(t)
        d = treedef.unflatten([x * 0.0 for x in flat])
        jflat, jdef = jax.tree_util.tree_flatten(t)
        e = jax.tree_util.tree_unflatten(jdef, [x + 1.0 for x in jflat])
        n = tu.tree_reduce(lambda u, v: u + v.shape[0], t, 0)
        return a, b, c, d, e, total, n

    s = 2.0
    a, b, c, d, e, total, n = f(tree, s)
    jt = jax.tree_util.tree_map(jnp.asarray, tree)
    jtotal = sum(float(np.sum(v)) for v in jax.tree_util.tree_leaves(tree))
    np.testing.assert_allclose(total, jtotal)
    assert int(n) == 7
    _same(a, jax.tree_util.tree_map(lambda x: x * s + x, jt))
    _same(b, jax.tree_util.tree_map(lambda x: x + jtotal, jt))
    pick = lambda x: x.a if isinstance(x, Pair) else -x  # noqa: E731
    _same(c, jax.tree_util.tree_map(
        pick, jt, is_leaf=lambda x: isinstance(x, Pair)))
    _same(d, jax.tree_util.tree_map(lambda x: x * 0.0, jt))
    _same(e, jax.tree_util.tree_map(lambda x: x + 1.0, jt))

    # Under grad, from Python and inside jit.
    def l2(p):
        return jax.tree_util.tree_reduce(
            lambda a, b: a + b,
            tu.tree_map(lambda v: adj.numpy.sum(v * v * v), p))

    def l2_jax(p):
        return jax.tree_util.tree_reduce(
            lambda a, b: a + b, jax.tree.map(lambda v: jnp.sum(v ** 3), p))

    want = jax.grad(l2_jax)(jt)
    _same(adj.grad(l2)(tree), want)
    _same(adj.jit(lambda t: adj.grad(l2)(t))(tree), want)


def test_tree_errors_inside_jit_have_a_location():
    @adj.jit
    def f(a, b):
        return tu.tree_map(lambda x, y: x + y, a, b)

    x = np.ones(2)
    with pytest.raises(adj.FrontendError,
                       match=r"test_pytrees.py:\d+.*structures do not "
                             r"match"):
        f((x, x), [x, x])

    @adj.jit
    def g(a):
        return jax.tree_util.tree_map(lambda v: v.nonexistent, a)

    with pytest.raises(adj.FrontendError, match="nonexistent"):
        g((x,))


# ---------------------------------------------------------------------------
# ravel_pytree, against jax.flatten_util
# ---------------------------------------------------------------------------

def test_ravel_pytree_from_python_matches_jax():
    rng = np.random.default_rng(3)
    tree = {"w": rng.normal(size=(2, 3)), "b": (rng.normal(size=3), None),
            "s": Pair(np.float64(1.5), rng.normal(size=(1, 2)))}
    flat, unravel = ravel_pytree(tree)
    jflat, junravel = jax.flatten_util.ravel_pytree(tree)
    np.testing.assert_array_equal(flat, np.asarray(jflat))
    back = unravel(flat * 2)
    _same(back, junravel(jflat * 2))
    assert type(back["s"]) is Pair and back["b"][1] is None
    # Mixed dtypes: one common dtype, each leaf cast back to its own.
    mixed = (np.arange(3, dtype=np.float32), np.arange(2, dtype=np.int32))
    mflat, munravel = ravel_pytree(mixed)
    jmflat, _ = jax.flatten_util.ravel_pytree(mixed)
    assert mflat.dtype == jmflat.dtype
    assert [x.dtype for x in munravel(mflat)] == [np.float32, np.int32]
    assert ravel_pytree(())[0].shape == (0,)
    with pytest.raises(ValueError, match="shape"):
        unravel(np.zeros(3))


def test_ravel_pytree_inside_jit_and_under_grad():
    rng = np.random.default_rng(4)
    params = {"w": rng.normal(size=(3, 2)), "b": Pair(rng.normal(size=2),
                                                      np.float64(0.5))}
    x = rng.normal(size=(4, 3))

    def loss(p, x):
        return adj.numpy.sum(adj.numpy.tanh(x @ p["w"] + p["b"].a) ** 2.0) \
            * p["b"].b

    def loss_jax(p, x):
        return jnp.sum(jnp.tanh(x @ p["w"] + p["b"].a) ** 2.0) * p["b"].b

    @adj.jit
    def step(p, x):
        flat, unravel = ravel_pytree(p)
        g = adj.grad(lambda v: loss(unravel(v), x))(flat)
        return flat, unravel(flat - 0.1 * g)

    jflat, junravel = jax.flatten_util.ravel_pytree(params)
    jg = jax.grad(lambda v: loss_jax(junravel(v), x))(jflat)
    flat, new = step(params, x)
    np.testing.assert_allclose(flat, jflat, rtol=1e-12)
    assert type(new["b"]) is Pair
    _same(new, junravel(jflat - 0.1 * jg))
    # The host's unravel under a grad called from Python.
    hflat, hunravel = ravel_pytree(params)
    g = adj.grad(lambda v, x: loss(hunravel(v), x))(hflat, x)
    np.testing.assert_allclose(g, jg, rtol=1e-10)


# ---------------------------------------------------------------------------
# Parse trees of ints beside differentiated arguments
# ---------------------------------------------------------------------------

def _evaluate(p, tree):
    """A recursive network over a parse tree: a leaf is a row index of the
    embeddings, a node combines its children."""
    if isinstance(tree, int):
        return p["emb"][tree]
    vecs = [_evaluate(p, t) for t in tree]
    total = vecs[0]
    for v in vecs[1:]:
        total = total + v
    return adj.numpy.tanh(p["W"] @ total)


def _evaluate_jax(p, tree):
    if isinstance(tree, int):
        return p["emb"][tree]
    total = sum(_evaluate_jax(p, t) for t in tree)
    return jnp.tanh(p["W"] @ total)


def _tree_loss(p, tree):
    return adj.numpy.sum(_evaluate(p, tree) ** 2.0)


def _tree_loss_jax(p, tree):
    return jnp.sum(_evaluate_jax(p, tree) ** 2.0)


TREES = [(1, (2, 3), ((4,), 5)), (0, 1), 3, ((0, (1, (2, (3, 4)))),)]


def test_parse_tree_argument_of_grad_from_python():
    rng = np.random.default_rng(5)
    p = {"emb": rng.normal(size=(6, 3)), "W": rng.normal(size=(3, 3))}
    vg = adj.value_and_grad(_tree_loss)
    g0 = adj.grad(_tree_loss, argnums=0)
    for tree in TREES + TREES:
        v, g = vg(p, tree)
        jv, jg = jax.value_and_grad(_tree_loss_jax)(p, tree)
        np.testing.assert_allclose(v, jv, rtol=1e-10)
        _same(g, jg)
        _same(g0(p, tree), jg)
    # One build per distinct tree: the ints are static, the second round
    # of calls finds them all.
    assert vg.jit_function.builds == len(TREES)


def test_parse_tree_inside_jit():
    rng = np.random.default_rng(6)
    p = {"emb": rng.normal(size=(6, 3)), "W": rng.normal(size=(3, 3))}

    @adj.jit(static_argnums=(1,))
    def train_step(p, tree):
        v, g = adj.value_and_grad(_tree_loss)(p, tree)
        return v, tu.tree_map(lambda a, b: a - 0.1 * b, p, g)

    # Traced ints (the tree as a plain argument): indices are int tensors
    # and the recursion follows the tuples.
    @adj.jit
    def traced(p, tree):
        def walk(q, t):
            if isinstance(t, tuple):
                return adj.numpy.tanh(q["W"] @ sum(walk(q, c) for c in t))
            return q["emb"][t]

        return adj.value_and_grad(
            lambda q: adj.numpy.sum(walk(q, tree) ** 2.0))(p)

    for tree in TREES[:2]:
        v, new = train_step(p, tree)
        jv, jg = jax.value_and_grad(_tree_loss_jax)(p, tree)
        np.testing.assert_allclose(v, jv, rtol=1e-10)
        _same(new, jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, p, jg))
    for tree in ((1, (2, 3)), (4, (0, 5))):
        v, g = traced(p, tree)
        jv, jg = jax.value_and_grad(_tree_loss_jax)(p, tree)
        np.testing.assert_allclose(v, jv, rtol=1e-10)
        _same(g, jg)
    assert traced.builds == 1  # same structure, other ints: no new build


def test_library_functions_call_back_into_the_jitted_code():
    # The standard library's functions run while building; the functions
    # of the jitted code given to them are translated when they call them.
    @adj.jit
    def f(d, x):
        keys = sorted(d, key=lambda k: -len(k))
        scaled = list(map(lambda k: d[k] * x, keys))
        total = functools.reduce(lambda a, b: a + b, scaled)
        big = list(filter(lambda v: v.shape[0] > 1, scaled))
        return total, big, d[keys[0]]

    d = {"a": np.ones(2), "bbb": np.arange(2.0), "cc": np.full(2, 3.0)}
    total, big, first = f(d, np.float64(2.0))
    np.testing.assert_allclose(total, 2 * (d["a"] + d["bbb"] + d["cc"]))
    assert len(big) == 3
    np.testing.assert_array_equal(first, d["bbb"])


def test_numpy_functions_mapped_over_trees_inside_jit():
    @adj.jit
    def f(t):
        return (jax.tree.map(np.tanh, t), tu.tree_map(np.sum, t),
                adj.tree.map(np.add, t, t))

    t = {"a": np.ones(2), "b": Pair(np.arange(3.0), None)}
    a, b, c = f(t)
    _same(a, jax.tree.map(np.tanh, t))
    _same(b, jax.tree.map(np.sum, t))
    _same(c, jax.tree.map(np.add, t, t))


@pytest.mark.parametrize("tree", _trees(), ids=lambda t: type(t).__name__)
def test_key_paths_match_jax(tree):
    ours = [(tu.keystr(p), x) for p, x in tu.tree_leaves_with_path(tree)]
    theirs = [(jax.tree_util.keystr(p), x)
              for p, x in jax.tree_util.tree_leaves_with_path(tree)]
    assert ours == theirs
    simple = [tu.keystr(p, simple=True, separator="/")
              for p, _ in tu.tree_flatten_with_path(tree)[0]]
    assert simple == [jax.tree_util.keystr(p, simple=True, separator="/")
                      for p, _ in jax.tree_util.tree_flatten_with_path(
                          tree)[0]]
    _same(tu.tree_map_with_path(lambda p, x: len(p) * x, tree),
          jax.tree_util.tree_map_with_path(lambda p, x: len(p) * x, tree))


def test_weight_decay_mask_by_path_inside_jit():
    params = {"dense": {"w": np.ones((2, 2)), "b": np.ones(2)},
              "out": Params(w=np.ones(2), b=np.ones(1))}

    @adj.jit
    def decay(p):
        return tu.tree_map_with_path(
            lambda path, x: x * 0.5 if tu.keystr(path).endswith("w']")
            or tu.keystr(path).endswith(".w") else x, p)

    want = jax.tree_util.tree_map_with_path(
        lambda path, x: x * 0.5 if jax.tree_util.keystr(path).endswith("w']")
        or jax.tree_util.keystr(path).endswith(".w") else x, params)
    _same(decay(params), want)


def test_nodes_carried_by_loops_and_branches():
    @adj.jit
    def f(x, n):
        state = AdamState(count=0, mu=x, nu=Params(w=x * 0.0, b=None))
        i = 0
        while i < n:  # a tensor condition: an adj.while carrying the state
            i = i + 1
            state = state._replace(
                count=state.count + 1, mu=state.mu * 0.5,
                nu=dataclasses.replace(state.nu, w=state.nu.w + state.mu))
        if adj.numpy.sum(x) > 0:
            state = state._replace(mu=-state.mu)
        return state

    x = np.arange(1.0, 4.0)
    for n in (0, 3):
        st = f(x, n)
        assert type(st) is AdamState and type(st.nu) is Params
        assert st.nu.b is None and int(st.count) == n
        np.testing.assert_allclose(st.mu, -x * 0.5 ** n)
        np.testing.assert_allclose(st.nu.w, x * sum(0.5 ** k
                                                    for k in range(n)))
