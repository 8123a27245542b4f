"""Build-time values of the front end (pytrees of Values, numbers and
tuples) and the analyses of statement lists it needs."""

import ast
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value


# ---------------------------------------------------------------------------
# Pytrees of build-time values: Values, numbers and tuples of them
# ---------------------------------------------------------------------------

def _is_number(x):
    return isinstance(x, (bool, int, float, _np.number, _np.bool_))


def _is_data(x):
    if isinstance(x, tuple):
        return all(_is_data(e) for e in x)
    return isinstance(x, Value) or _is_number(x)


def _flatten(x, leaves):
    """Appends the leaves of `x`; returns its structure."""
    if isinstance(x, tuple):
        return tuple(_flatten(e, leaves) for e in x)
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
    return tuple(_unflatten(t, leaves, pos) for t in tree)


def _results(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


# ---------------------------------------------------------------------------
# Functions the translator calls directly
# ---------------------------------------------------------------------------

def _numpy_map():
    """numpy functions used inside jitted code, mapped to adjoint's."""
    names = ["exp", "log", "tanh", "sqrt", "abs", "sign", "sin", "cos",
             "maximum", "minimum", "matmul", "sum", "mean", "max",
             "reshape", "transpose", "concatenate", "where", "dot",
             "negative", "power", "broadcast_to"]
    from . import numpy as anp
    return {getattr(_np, n): getattr(anp, n) for n in names
            if hasattr(_np, n) and hasattr(anp, n)}


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


class _InlineFn:
    """A ``def`` or ``lambda`` of the jitted code, inlined where called."""

    def __init__(self, node, frame):
        self.node = node
        self.frame = frame


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
