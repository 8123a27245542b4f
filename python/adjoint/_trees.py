"""Build-time values of the front end (pytrees of Values, numbers and
tuples) and the analyses of statement lists it needs."""

import ast
import inspect
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value
from ._tree_nodes import head_size, node_of, rebuild


# ---------------------------------------------------------------------------
# Pytrees of build-time values: Values and numbers in nodes (_tree_nodes)
# ---------------------------------------------------------------------------

def _is_number(x):
    return isinstance(x, (bool, int, float, complex, _np.number, _np.bool_))


def _is_integer(x):
    """A Python or numpy integer (not a bool): constants of these keep all
    64 bits (adj.scalar takes Python ints exactly, floats hold 53)."""
    return isinstance(x, (int, _np.integer)) and \
        not isinstance(x, (bool, _np.bool_))


def _is_data(x):
    """Whether `x` is a pytree whose leaves are Values and numbers."""
    node = node_of(x)
    if node is not None:
        return all(_is_data(e) for e in node[1])
    return isinstance(x, Value) or _is_number(x)


def _flatten(x, leaves):
    """Appends the leaves of `x` (the nodes of _tree_nodes and tuple-typed
    Values are nodes); returns its structure, None for a leaf: the node's
    head followed by its children's structures."""
    node = node_of(x)
    if node is not None:
        head, children = node
        return head + tuple(_flatten(e, leaves) for e in children)
    if isinstance(x, Value) and x.type.is_tuple:
        n = len(x.type.elements)
        return tuple(_flatten(_adj.get(x, i), leaves) for i in range(n))
    leaves.append(x)
    return None


def _unflatten(tree, leaves, pos=None):
    if pos is None:
        pos = [0]
    if tree is None:
        leaf = leaves[pos[0]]
        pos[0] += 1
        return leaf
    n = head_size(tree)
    return rebuild(tree[:n], [_unflatten(t, leaves, pos) for t in tree[n:]])


def _leaves_up_to(tree, x):
    """The subtrees of `x` at the leaves of the structure `tree` (a None
    among them where x has None for a leaf: a zero cotangent), or None when
    x does not have that structure."""
    if tree is None:
        return [x]
    node = node_of(x)
    n = head_size(tree)
    if node is None or node[0] != tree[:n] or len(node[1]) != len(tree) - n:
        return None
    out = []
    for t, c in zip(tree[n:], node[1]):
        part = _leaves_up_to(t, c)
        if part is None:
            return None
        out += part
    return out


def _results(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


# ---------------------------------------------------------------------------
# Operators
# ---------------------------------------------------------------------------

_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow,
    ast.MatMult: operator.matmul, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_CMPOPS = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne,
}


class _Return(Exception):
    pass


class _Unknown(Exception):
    """A call of a recursive function whose result type is not known yet
    (raised only while its body is probed for that type: _functions)."""


class _InlineFn:
    """A ``def`` or ``lambda`` of the jitted code: a build-time closure over
    the frame that defined it. Calls inline its body, or call the adj.func
    made for it when it recurses on tensors (_functions).

    `origin` is the closure as first defined: copies made by substituting
    its captured Values (see _functions) keep it, so that they count as the
    same function."""

    def __init__(self, node, frame, defaults=(), kwdefaults=None,
                 origin=None):
        self.node = node
        self.frame = frame
        self.defaults = tuple(defaults)
        self.kwdefaults = dict(kwdefaults or {})
        self.origin = self if origin is None else origin
        self._free = None

    @property
    def name(self):
        return getattr(self.node, "name", "<lambda>")

    def free_names(self):
        if self._free is None:
            self._free = _free_names(self.node)
        return self._free

    def signature(self):
        """The inspect.Signature of the definition (to bind a call)."""
        return _signature(self.node.args, self.defaults, self.kwdefaults)


def _signature(a, defaults, kwdefaults):
    P = inspect.Parameter
    params = []
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(defaults)
    for i, p in enumerate(positional):
        kind = P.POSITIONAL_ONLY if i < len(a.posonlyargs) else \
            P.POSITIONAL_OR_KEYWORD
        default = defaults[i - first_default] if i >= first_default \
            else P.empty
        params.append(P(p.arg, kind, default=default))
    if a.vararg:
        params.append(P(a.vararg.arg, P.VAR_POSITIONAL))
    for p in a.kwonlyargs:
        params.append(P(p.arg, P.KEYWORD_ONLY,
                        default=kwdefaults.get(p.arg, P.empty)))
    if a.kwarg:
        params.append(P(a.kwarg.arg, P.VAR_KEYWORD))
    return inspect.Signature(params)


def _free_names(fnode):
    """Names a def or lambda reads that it does not bind itself (an
    over-approximation: names bound only in nested functions count)."""
    a = fnode.args
    bound = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    bound.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    body = fnode.body if isinstance(fnode.body, list) else [fnode.body]
    bound.update(_assigned(body))
    names = []
    for s in body:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) \
                    and n.id not in bound and n.id not in names:
                names.append(n.id)
    return names


def _assigned(stmts):
    """Names a statement list assigns (not inside nested functions)."""
    names = []

    def visit(node):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            if node.id not in names:
                names.append(node.id)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name not in names:
                names.append(node.name)
            return
        if isinstance(node, (ast.Lambda, ast.ClassDef)):
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for s in stmts:
        visit(s)
    return names


def _returns(stmts):
    """Whether the statement list ends by returning on every path."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _returns(last.body) and _returns(last.orelse)
    return False


def _contains_return(stmts):
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Return):
                return True
    return False
