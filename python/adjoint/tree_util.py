"""Pytrees as in ``jax.tree_util``: ``tree_map``, ``tree_flatten``, ...

A pytree is a nest of nodes (tuples, lists, dicts, namedtuples,
OrderedDict, defaultdict, dataclass instances, None, and the types
registered here) whose other objects are its leaves. The front end uses the
same nodes for the arguments and results of jitted and transformed
functions, so a type registered here is honoured there too.

These functions work from Python and inside jitted code (where the leaves
are traced arrays, and the functions given to tree_map are translated).
Unlike JAX, plain ``@dataclasses.dataclass`` instances are nodes without
registration (their fields are the children, as with flax.struct); a field
declared with ``metadata={"static": True}`` (or flax's
``pytree_node=False``) is part of the structure instead.
"""

import functools

from . import _tree_nodes

__all__ = ["PyTreeDef", "tree_map", "tree_leaves", "tree_flatten",
           "tree_unflatten", "tree_structure", "tree_reduce", "tree_all",
           "register_pytree_node", "register_pytree_node_class"]


class PyTreeDef:
    """The structure of a pytree: its nodes, without the leaves."""

    __slots__ = ("_tree", "num_leaves", "num_nodes")

    def __init__(self, tree):
        self._tree = tree
        self.num_leaves, self.num_nodes = _count(tree)

    def unflatten(self, leaves):
        """The pytree of this structure with `leaves` in order."""
        leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError("PyTreeDef.unflatten: %d leaves given for a "
                             "structure of %d" % (len(leaves),
                                                  self.num_leaves))
        it = iter(leaves)
        return _build(self._tree, it)

    def flatten_up_to(self, tree):
        """The subtrees of `tree` at the leaves of this structure (this
        structure must be a prefix of tree's)."""
        out = []
        _up_to(self._tree, tree, out)
        return out

    def children(self):
        """The structures of the root's children."""
        if self._tree is None:
            return []
        return [PyTreeDef(t)
                for t in self._tree[_tree_nodes.head_size(self._tree):]]

    def __eq__(self, other):
        return isinstance(other, PyTreeDef) and self._tree == other._tree

    def __hash__(self):
        return hash(self._tree)

    def __repr__(self):
        return "PyTreeDef(%s)" % _show(self._tree)


def _flatten(x, leaves, is_leaf):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return None
    node = _tree_nodes.node_of(x)
    if node is None:
        leaves.append(x)
        return None
    head, children = node
    return head + tuple(_flatten(c, leaves, is_leaf) for c in children)


def _build(tree, it):
    if tree is None:
        return next(it)
    n = _tree_nodes.head_size(tree)
    return _tree_nodes.rebuild(tree[:n], [_build(t, it) for t in tree[n:]])


def _count(tree):
    """(leaves, nodes) of a structure (leaves count as nodes, as in JAX)."""
    if tree is None:
        return 1, 1
    leaves, nodes = 0, 1
    for t in tree[_tree_nodes.head_size(tree):]:
        l, n = _count(t)
        leaves, nodes = leaves + l, nodes + n
    return leaves, nodes


def _up_to(tree, x, out):
    if tree is None:
        out.append(x)
        return
    n = _tree_nodes.head_size(tree)
    node = _tree_nodes.node_of(x)
    if node is None or node[0] != tree[:n] or \
            len(node[1]) != len(tree) - n:
        raise ValueError(
            "pytree structures do not match: expected %s, got %r"
            % (_show(tree), x))
    for t, c in zip(tree[n:], node[1]):
        _up_to(t, c, out)


def _show(tree):
    if tree is None:
        return "*"
    n = _tree_nodes.head_size(tree)
    head, parts = tree[:n], [_show(t) for t in tree[n:]]
    if not head:
        return "(%s)" % (parts[0] + "," if len(parts) == 1
                         else ", ".join(parts))
    if head[0] == "list":
        return "[%s]" % ", ".join(parts)
    if head[0] == "dict":
        return "{%s}" % ", ".join("%r: %s" % (k, p)
                                  for k, p in zip(head[1], parts))
    t, aux = head[1], head[2]
    if t is type(None):
        return "None"
    if t in _tree_nodes._REGISTRY:
        return "%s[%r](%s)" % (t.__name__, aux, ", ".join(parts))
    if hasattr(t, "_fields"):  # a namedtuple
        fields = ["%s=%s" % kp for kp in zip(t._fields, parts)]
    elif hasattr(t, "__dataclass_fields__"):
        names, static = aux
        fields = ["%s=%s" % kp for kp in zip(names, parts)] + \
            ["%s=%r" % kv for kv in static]
    elif isinstance(aux, tuple) and len(aux) == len(parts):  # dicts
        fields = ["%r: %s" % kp for kp in zip(aux, parts)]
    else:
        fields = parts
    return "%s(%s)" % (t.__name__, ", ".join(fields))


# ---------------------------------------------------------------------------
# The functions of jax.tree_util
# ---------------------------------------------------------------------------

def tree_flatten(tree, is_leaf=None):
    """(leaves, PyTreeDef): `is_leaf(x)` true makes x a leaf."""
    leaves = []
    return leaves, PyTreeDef(_flatten(tree, leaves, is_leaf))


def tree_leaves(tree, is_leaf=None):
    leaves = []
    _flatten(tree, leaves, is_leaf)
    return leaves


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def tree_unflatten(treedef, leaves):
    return treedef.unflatten(leaves)


def tree_map(f, tree, *rest, is_leaf=None):
    """The pytree of tree's structure whose leaves are ``f(x, *ys)`` for
    the leaf x of `tree` and the corresponding subtrees ys of `rest` (tree
    is a prefix of each of them)."""
    leaves, treedef = tree_flatten(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(*xs) for xs in zip(leaves, *others))


_NO_INITIAL = object()


def tree_reduce(function, tree, initializer=_NO_INITIAL, is_leaf=None):
    """``functools.reduce`` over the leaves."""
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _NO_INITIAL:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_all(tree, *, is_leaf=None):
    """Whether every leaf is true."""
    return all(tree_leaves(tree, is_leaf))


def register_pytree_node(nodetype, flatten_func, unflatten_func):
    """Makes instances of `nodetype` nodes: ``flatten_func(x) -> (children,
    aux_data)`` (aux_data hashable: it is part of the structure) and
    ``unflatten_func(aux_data, children) -> x``."""
    _tree_nodes.register(nodetype, flatten_func, unflatten_func)


def register_pytree_node_class(cls):
    """A class decorator: registers `cls` with its ``tree_flatten`` method
    and ``tree_unflatten`` classmethod."""
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls
