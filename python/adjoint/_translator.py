"""Scopes of a translated function and the translator's core: values,
calls of Python functions and of adjoint's tensor functions."""

import ast
import builtins
import inspect

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value, DType
from ._expressions import _Expressions
from ._source import FrontendError, _Source
from ._statements import _Statements
from ._trees import _InlineFn, _flatten, _is_number, _numpy_map

# numpy functions -> adjoint's, made on first use.
_NUMPY_MAP = None


class _Frame:
    """Variables of one function being translated, with its scopes."""

    def __init__(self, ctx, filename, globals_, closure, outer=None):
        self.ctx = ctx
        self.filename = filename
        self.globals = globals_
        self.closure = closure
        self.outer = outer
        self.vars = {}

    def child(self):
        """A copy for a branch or loop body: same scopes, copied variables."""
        f = _Frame(self.ctx, self.filename, self.globals, self.closure,
                   self.outer)
        f.vars = dict(self.vars)
        return f

    def lookup(self, name, node):
        frame = self
        while frame is not None:
            if name in frame.vars:
                return frame.vars[name]
            if name in frame.closure:
                return frame.closure[name]
            frame = frame.outer
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error("name '%s' is not defined" % name, node)

    def error(self, message, node):
        return FrontendError(message, self.filename,
                             getattr(node, "lineno", None),
                             getattr(node, "col_offset", None))


class _Translator(_Statements, _Expressions):
    """Translates function bodies into the region being built."""

    def __init__(self, module, float_dtype):
        self.module = module
        self.float_dtype = float_dtype
        self.stack = []

    # -- values -----------------------------------------------------------

    def materialize(self, x, like=None):
        if isinstance(x, Value):
            return x
        if _is_number(x):
            if isinstance(x, (bool, _np.bool_)):
                return _adj.scalar(self.module, float(x), DType.i1)
            if isinstance(x, (int, _np.integer)) and like is None:
                return _adj.scalar(self.module, float(x), DType.i64)
            dtype = like.dtype if like is not None else self.float_dtype
            return _adj.scalar(self.module, float(x), dtype)
        raise TypeError("a %s cannot be a value of the program"
                        % type(x).__name__)

    def leaves(self, x, node, frame):
        leaves = []
        tree = _flatten(x, leaves)
        try:
            return tree, [self.materialize(l) for l in leaves]
        except TypeError as e:
            raise frame.error(str(e), node)

    # -- calls ------------------------------------------------------------

    def call_python(self, fn, args, kwargs, node, frame):
        # frontend imports this module: JitFunction is looked up late.
        from .frontend import JitFunction
        if isinstance(fn, JitFunction):
            fn = fn.fn
        if isinstance(fn, _InlineFn):
            fnode, outer = fn.node, fn.frame
            callee = _Frame(self, outer.filename, outer.globals, {}, outer)
            key = fnode
        else:
            src = _Source.of(fn)
            fnode = src.node
            closure = {}
            if fn.__closure__:
                for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
                    try:
                        closure[name] = cell.cell_contents
                    except ValueError:
                        pass
            callee = _Frame(self, src.filename, fn.__globals__, closure)
            key = fn.__code__
        if key in self.stack:
            raise frame.error("recursion is not supported yet", node)
        a = fnode.args
        if a.vararg or a.kwarg or a.kwonlyargs or kwargs:
            raise frame.error("only positional arguments are supported", node)
        params = [p.arg for p in a.posonlyargs + a.args]
        defaults = a.defaults
        if len(args) < len(params) - len(defaults) or len(args) > len(params):
            raise frame.error("%s takes %d arguments, got %d"
                              % (getattr(fnode, "name", "lambda"),
                                 len(params), len(args)), node)
        for i, p in enumerate(params):
            if i < len(args):
                callee.vars[p] = args[i]
            else:
                d = defaults[i - (len(params) - len(defaults))]
                callee.vars[p] = self.expr(d, frame if isinstance(
                    fn, _InlineFn) else callee)
        self.stack.append(key)
        try:
            if isinstance(fnode, ast.Lambda):
                return self.expr(fnode.body, callee)
            return self.body(fnode.body, callee, fnode)
        finally:
            self.stack.pop()

    def call(self, fn, args, kwargs, node, frame):
        from .frontend import JitFunction
        global _NUMPY_MAP
        if isinstance(fn, (JitFunction, _InlineFn)) or (
                inspect.isfunction(fn) and not _is_adjoint(fn)):
            return self.call_python(fn, args, kwargs, node, frame)
        if fn is range:
            return range(*args)
        if _NUMPY_MAP is None:
            _NUMPY_MAP = _numpy_map()
        try:
            mapped = _NUMPY_MAP.get(fn)
        except TypeError:
            mapped = None
        if mapped is not None and any(isinstance(a, Value) for a in args):
            fn = mapped
        if isinstance(fn, Value):
            return fn(*args)
        return fn(*args, **kwargs)


def _is_adjoint(fn):
    mod = getattr(fn, "__module__", "") or ""
    return mod == "adjoint" or mod.startswith("adjoint.")
