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

import collections
import dataclasses
import functools

from . import _tree_nodes

__all__ = ["PyTreeDef", "tree_map", "tree_leaves", "tree_flatten",
           "tree_unflatten", "tree_structure", "tree_reduce", "tree_all",
           "register_pytree_node", "register_pytree_node_class",
           "tree_flatten_with_path", "tree_leaves_with_path",
           "tree_map_with_path", "keystr", "DictKey", "SequenceKey",
           "GetAttrKey", "FlattenedIndexKey"]


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


# ---------------------------------------------------------------------------
# Key paths: where each leaf is (JAX's tree_*_with_path)
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class DictKey:
    """A dict entry (dicts, OrderedDict, defaultdict)."""
    key: object

    def __str__(self):
        return "[%r]" % (self.key,)


@dataclasses.dataclass(frozen=True)
class SequenceKey:
    """An element of a tuple or list."""
    idx: int

    def __str__(self):
        return "[%d]" % self.idx


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    """A field of a namedtuple or a dataclass."""
    name: str

    def __str__(self):
        return "." + self.name


@dataclasses.dataclass(frozen=True)
class FlattenedIndexKey:
    """A child of a registered node, by its position."""
    key: int

    def __str__(self):
        return "[<flat index %d>]" % self.key


def _child_keys(head, n):
    """The keys of the `n` children of a node with this head."""
    if not head or head[0] == "list":
        return [SequenceKey(i) for i in range(n)]
    if head[0] == "dict":
        return [DictKey(k) for k in head[1]]
    t, aux = head[1], head[2]
    if t in _tree_nodes._REGISTRY:
        return [FlattenedIndexKey(i) for i in range(n)]
    if hasattr(t, "_fields"):
        return [GetAttrKey(f) for f in t._fields]
    if hasattr(t, "__dataclass_fields__"):
        return [GetAttrKey(f) for f in aux[0]]
    if issubclass(t, collections.defaultdict):
        return [DictKey(k) for k in aux[1]]
    if issubclass(t, dict):
        return [DictKey(k) for k in aux]
    return [SequenceKey(i) for i in range(n)]


def _with_path(x, path, out, is_leaf):
    if is_leaf is not None and is_leaf(x):
        out.append((path, x))
        return
    node = _tree_nodes.node_of(x)
    if node is None:
        out.append((path, x))
        return
    head, children = node
    for k, c in zip(_child_keys(head, len(children)), children):
        _with_path(c, path + (k,), out, is_leaf)


def tree_flatten_with_path(tree, is_leaf=None):
    """([(key path, leaf)], PyTreeDef)."""
    out = []
    _with_path(tree, (), out, is_leaf)
    return out, tree_structure(tree, is_leaf)


def tree_leaves_with_path(tree, is_leaf=None):
    out = []
    _with_path(tree, (), out, is_leaf)
    return out


def tree_map_with_path(f, tree, *rest, is_leaf=None):
    """tree_map whose function also takes the key path of each leaf."""
    pairs, treedef = tree_flatten_with_path(tree, is_leaf)
    others = [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(path, x, *ys)
                             for (path, x), *ys in zip(pairs, *others))


def keystr(keys, *, simple=False, separator=""):
    """A key path as text: ``['a'][0].w``, or with ``simple=True`` the bare
    keys joined by `separator` (``a/0/w`` with ``separator="/"``)."""
    if not simple:
        return separator.join(str(k) for k in keys)
    return separator.join(
        str(getattr(k, "key", getattr(k, "idx", getattr(k, "name", k))))
        for k in keys)
