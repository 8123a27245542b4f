"""Which Python objects are pytree nodes, and how they come apart into
children and back.

A node is described by a head, a hashable tuple that is part of the tree
descriptions of _trees (and so of compile cache keys): ``()`` for a tuple,
``("list",)``, ``("dict", keys)`` and ``("node", type, aux)`` for every
other kind (namedtuples, OrderedDict, defaultdict, dataclasses, None,
subclasses of tuple/list/dict, types registered with
adjoint.tree_util.register_pytree_node). The type in the head is what makes
two namedtuples of the same arity different trees, and what rebuilds the
result with its type.
"""

import collections
import dataclasses

#: type -> (flatten, unflatten) of adjoint.tree_util.register_pytree_node.
_REGISTRY = {}

_NONE = ("node", type(None), None)


def register(cls, flatten, unflatten):
    if not isinstance(cls, type):
        raise TypeError("register_pytree_node: %r is not a type" % (cls,))
    if cls in _REGISTRY or cls in (tuple, list, dict, type(None)):
        raise ValueError("register_pytree_node: %s is already a pytree node"
                         % cls.__qualname__)
    _REGISTRY[cls] = (flatten, unflatten)


def _hashable(aux, cls):
    try:
        hash(aux)
    except TypeError:
        raise TypeError(
            "pytree node %s: its auxiliary data %r must be hashable (it is "
            "part of the tree structure, which keys the compiled code)"
            % (cls.__qualname__, aux)) from None
    return aux


def _static_field(f):
    """Dataclass fields marked static are part of the structure: JAX's
    register_dataclass meta_fields, spelt as flax.struct's
    ``field(pytree_node=False)`` metadata or ``metadata={"static": True}``."""
    return f.metadata.get("static", False) or \
        not f.metadata.get("pytree_node", True)


def node_of(x):
    """(head, children) of `x` when it is a node, else None (a leaf)."""
    t = type(x)
    if t is tuple:
        return (), x
    if t is list:
        return ("list",), x
    if t is dict:
        keys = tuple(sorted(x))
        return ("dict", keys), [x[k] for k in keys]
    if x is None:
        return _NONE, ()
    entry = _REGISTRY.get(t)
    if entry is not None:
        children, aux = entry[0](x)
        return ("node", t, _hashable(aux, t)), list(children)
    if isinstance(x, tuple):
        # namedtuples and other tuple subclasses
        return ("node", t, None), x
    if isinstance(x, list):
        return ("node", t, None), x
    if isinstance(x, dict):
        # OrderedDict keeps its order, as in JAX; others are sorted.
        if isinstance(x, collections.OrderedDict):
            keys = tuple(x)
        else:
            keys = tuple(sorted(x))
        aux = keys
        if isinstance(x, collections.defaultdict):
            aux = (_hashable(x.default_factory, t), keys)
        return ("node", t, aux), [x[k] for k in keys]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        fields = dataclasses.fields(x)
        names = tuple(f.name for f in fields if not _static_field(f))
        static = tuple((f.name, getattr(x, f.name)) for f in fields
                       if _static_field(f))
        return ("node", t, (names, _hashable(static, t))), \
            [getattr(x, n) for n in names]
    return None


def rebuild(head, children):
    """The node of `head` with `children`."""
    if not head:
        return tuple(children)
    kind = head[0]
    if kind == "list":
        return list(children)
    if kind == "dict":
        return dict(zip(head[1], children))
    t, aux = head[1], head[2]
    if t is type(None):
        return None
    entry = _REGISTRY.get(t)
    if entry is not None:
        return entry[1](aux, children)
    if issubclass(t, tuple):
        return t(*children) if hasattr(t, "_fields") else t(children)
    if issubclass(t, list):
        return t(children)
    if issubclass(t, collections.defaultdict):
        return t(aux[0], zip(aux[1], children))
    if issubclass(t, dict):
        return t(zip(aux, children))
    # A dataclass: its fields are set, not passed to __init__, so that
    # fields with init=False and a __post_init__ that checks its values
    # (called on tracers or tangents here) take no part.
    obj = object.__new__(t)
    names, static = aux
    for name, value in zip(names, children):
        object.__setattr__(obj, name, value)
    for name, value in static:
        object.__setattr__(obj, name, value)
    return obj


def head_size(tree):
    """How many entries of a tree description are its head."""
    if not tree:
        return 0
    return {"list": 1, "dict": 2, "node": 3}.get(tree[0], 0)
