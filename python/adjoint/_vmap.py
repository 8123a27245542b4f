"""``vmap``: batching by source transformation, from Python and inside
jitted code alike.

Inside jitted code, ``vmap(f, in_axes, out_axes)(*args)`` builds ``f`` once
for one example, as an ``adj.lambda`` whose parameters have the
per-example types (the mapped axis removed), and calls the ``adj.vmap``
request of it on the arguments: -adj-grad batches the lambda's code (no loop
over the batch), so vmap nests and composes with grad, jvp and vjp in either
order. Arguments with axis None are parameters that every example shares:
they stay unbatched in the batched code (a layer's weights are not copied
per example). ``in_axes`` and ``out_axes`` follow JAX: an int or None for
everything, or a tree prefix of the arguments (of the result); a result
with out_axes None is returned once, unbatched, and must not depend on the
mapped arguments.
"""

from . import _adjoint as _adj
from ._adjoint import Type, Value
from ._transforms import _Transform
from ._tree_nodes import head_size, node_of
from ._trees import _flatten, _results, _unflatten

__all__ = ["vmap"]


def _freeze(axes):
    """A hashable form of an axes tree (for the compile cache key)."""
    node = None if axes is None else node_of(axes)
    if node is None:
        return axes
    return node[0] + tuple(_freeze(a) for a in node[1])


def _is_axis(a):
    return a is None or (isinstance(a, int) and not isinstance(a, bool))


def _leaf_count(tree):
    if tree is None:
        return 1
    return sum(_leaf_count(t) for t in tree[head_size(tree):])


def _axes_per_leaf(axes, tree, what, error):
    """The axis of each leaf of `tree` (a _flatten structure) given the tree
    prefix `axes`."""
    if _is_axis(axes):
        return [axes] * _leaf_count(tree)
    if tree is None:
        raise error("vmap: %s gives a %s where the value is a single array"
                    % (what, type(axes).__name__))
    if tree[:1] == ("dict",):
        if not isinstance(axes, dict) or sorted(axes) != list(tree[1]):
            raise error("vmap: %s must match the dict keys %s"
                        % (what, list(tree[1])))
        out = []
        for k, t in zip(tree[1], tree[2:]):
            out += _axes_per_leaf(axes[k], t, what, error)
        return out
    children = tree[head_size(tree):]
    if tree[:1] == ("node",) and type(axes) is tree[1]:
        # in_axes of the argument's own type (a namedtuple, a dataclass)
        axes = node_of(axes)[1]
    if not isinstance(axes, (tuple, list)) or len(axes) != len(children):
        raise error("vmap: %s has the structure %r, which is not a prefix "
                    "of the value's" % (what, axes))
    out = []
    for a, t in zip(axes, children):
        out += _axes_per_leaf(a, t, what, error)
    return out


def _normalize(axis, rank, what, error):
    if axis < -rank or axis >= rank:
        raise error("vmap: %s axis %d is out of range for rank %d"
                    % (what, axis, rank))
    return axis % rank


class _Vmap(_Transform):
    prefix = "vmap"

    def __init__(self, fn, in_axes=0, out_axes=0):
        super().__init__(fn)
        self.in_axes = in_axes
        self.out_axes = out_axes

    def __eq__(self, other):
        return type(self) is type(other) and self.fn == other.fn and \
            _freeze(self.in_axes) == _freeze(other.in_axes) and \
            _freeze(self.out_axes) == _freeze(other.out_axes)

    def __hash__(self):
        return hash((type(self), self.fn, _freeze(self.in_axes),
                     _freeze(self.out_axes)))

    def _adjoint_key(self, key):
        return ("V", key(self.fn), _freeze(self.in_axes),
                _freeze(self.out_axes))

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        def error(msg):
            return frame.error(msg, node)

        in_axes = self.in_axes
        if isinstance(in_axes, list):
            in_axes = tuple(in_axes)
        leaves = []
        tree = _flatten(tuple(args), leaves)
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise error("vmap: in_axes has %d entries for %d positional "
                        "arguments" % (len(in_axes), len(args)))
        axes = _axes_per_leaf(in_axes, tree, "in_axes", error)
        # Keyword arguments are mapped over their leading axis, whatever
        # in_axes says (in_axes describes positional arguments only), as in
        # JAX.
        n_args = len(leaves)
        kw_tree = _flatten(dict(kwargs), leaves)
        axes += [0] * (len(leaves) - n_args)
        size, params, types, in_list = None, [], [], []
        for x, a in zip(leaves, axes):
            if not isinstance(x, Value):
                if a is not None:
                    raise error("vmap: a %s argument cannot be mapped (give "
                                "it in_axes None)" % type(x).__name__)
                continue
            params.append(x)
            if a is None:
                types.append(x.type)
                in_list.append(-1)
                continue
            shape = list(x.shape)
            a = _normalize(a, len(shape), "in_axes", error)
            if size is None:
                size = shape[a]
            elif shape[a] != size:
                raise error("vmap got inconsistent sizes for the mapped "
                            "axes: %d and %d" % (size, shape[a]))
            del shape[a]
            types.append(Type.tensor(x.dtype, shape))
            in_list.append(a)
        if size is None:
            raise error("vmap: no argument is mapped (in_axes is None for "
                        "every array)")
        state = {}

        def body(*ps):
            it = iter(ps)
            new = [next(it) if isinstance(x, Value) else x for x in leaves]
            out = tr.call(self.fn, list(_unflatten(tree, new[:n_args])),
                          _unflatten(kw_tree, new[n_args:]), node, frame)
            state["tree"], out_leaves = tr.leaves(out, node, frame)
            return out_leaves

        fn = _adj.lambda_(tr.module, types, body)
        out_tree = state["tree"]
        out_types = list(fn.type.results)
        out_axes = self.out_axes
        if isinstance(out_axes, list):
            out_axes = tuple(out_axes)
        out_list = []
        for a, t in zip(_axes_per_leaf(out_axes, out_tree, "out_axes", error),
                        out_types):
            if a is None:
                out_list.append(-1)
                continue
            out_list.append(_normalize(a, t.rank + 1, "out_axes", error))
        out = _results(_adj.vmap(fn, in_list, out_list, size)(*params))
        return _unflatten(out_tree, out)


def vmap(fun, in_axes=0, out_axes=0):
    """``vmap(f, in_axes=0, out_axes=0)``: f mapped over an axis of its
    arguments, as jax.vmap. ``in_axes`` is an int or None (every argument),
    or a tuple with one entry per argument, each a tree prefix of that
    argument (None: the argument is shared by all examples, as weights in
    ``vmap(grad(loss), in_axes=(None, 0, 0))``). ``out_axes`` places the
    batch in the results the same way; None returns a result without the
    batch (it must not depend on the mapped arguments). Usable from Python (compiled) and
    inside jitted code, nested and composed with grad, jvp, vjp and jit."""
    return _Vmap(fun, in_axes, out_axes)
