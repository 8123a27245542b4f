"""Calls of Python functions in jitted code: inlining, and recursion as
adj.func.

A call binds the arguments like Python (defaults, keywords, ``*args``) and
translates the callee's body in a new frame: the callee is inlined. Closures
(nested ``def``/``lambda``) are build-time values (_InlineFn), so passing,
returning or storing them in tuples needs nothing in the IR.

Recursion on Python values (a depth that is a Python int) unrolls at build
time. Recursion on tensors cannot: when a function is called again with the
same specialization key (the function, and its arguments' structure: the
types of Values, the values of Python numbers, the identity of functions)
while an inlined call with that key is still being translated, it becomes an
adj.func for that key, which calls itself. Its parameters are the Values of
its arguments followed by the Values it captures (found through the free
names of closures, and the closures passed to it), so the adj.func is
isolated from the function that calls it: lambda lifting. Its body is
translated from copies of the arguments and closures in which those Values
are replaced by the parameters (_subst).

Its result types are found first: the body is translated once into a
scratch module ("probing") in which a call of the function being defined
raises _Unknown; an adj.if whose branch raises it is replaced by its other
branch. That is the first step of a Kleene iteration from the paths that
return without recursing; the real definition then checks that the
recursive paths give the same types.
"""

import contextlib
import inspect

from . import _adjoint as _adj
from ._adjoint import Module, Value
from ._source import _Source
from ._trees import (_InlineFn, _Unknown, _is_number, _results, _unflatten)

#: Nested inlined calls allowed while building (recursion on Python values).
_MAX_DEPTH = 200


class _Recursive:
    """An adj.func made for one specialization key of a Python function."""

    def __init__(self, ident):
        self.ident = ident    # keeps the function alive: its id is the key
        self.function = None  # the adjoint.Function, once declared
        self.tree = None      # the structure of its result

    def call(self, values):
        return _unflatten(self.tree, _results(self.function(*values)))


class _SubstFrame:
    """A view of a frame in which some Values are replaced by others."""

    def __init__(self, frame, pairs):
        self.frame = frame
        self.pairs = pairs
        self.filename = frame.filename
        self.globals = frame.globals

    def find(self, name):
        found, value = self.frame.find(name)
        return found, (_subst(value, self.pairs) if found else None)

    def error(self, message, node):
        return self.frame.error(message, node)


def _subst(x, pairs):
    """`x` with the Values of `pairs` (old, new) replaced, through tuples,
    lists, dicts and the scopes of closures and transforms."""
    if isinstance(x, Value):
        for old, new in pairs:
            if x.is_(old):
                return new
        return x
    if isinstance(x, tuple):
        return tuple(_subst(e, pairs) for e in x)
    if isinstance(x, list):
        return [_subst(e, pairs) for e in x]
    if isinstance(x, dict):
        return {k: _subst(v, pairs) for k, v in x.items()}
    if isinstance(x, _InlineFn):
        return _InlineFn(x.node, _SubstFrame(x.frame, pairs),
                         _subst(x.defaults, pairs),
                         _subst(x.kwdefaults, pairs), x.origin)
    if hasattr(x, "_adjoint_subst"):
        return x._adjoint_subst(lambda v: _subst(v, pairs))
    return x


def _captured(x, out, seen):
    """Appends to `out` the Values `x` holds or its closures can reach, each
    once, in a deterministic order."""
    if isinstance(x, Value):
        if not any(x.is_(v) for v in out):
            out.append(x)
    elif isinstance(x, (tuple, list)):
        for e in x:
            _captured(e, out, seen)
    elif isinstance(x, dict):
        for k in x:
            _captured(x[k], out, seen)
    elif isinstance(x, _InlineFn):
        # Copies made by _subst share the origin (and would recurse forever
        # through a closure that names itself).
        if id(x.origin) in seen:
            return
        seen.add(id(x.origin))
        for name in x.free_names():
            found, value = x.frame.find(name)
            if found:
                _captured(value, out, seen)
        _captured(x.defaults, out, seen)
        _captured(x.kwdefaults, out, seen)
    elif hasattr(x, "_adjoint_children"):
        for e in x._adjoint_children():
            _captured(e, out, seen)


def _key(x):
    """The specialization key of a build-time value."""
    if isinstance(x, Value):
        return ("V", str(x.type))
    if isinstance(x, tuple):
        return ("T",) + tuple(_key(e) for e in x)
    if isinstance(x, list):
        return ("L",) + tuple(_key(e) for e in x)
    if isinstance(x, dict):
        return ("D",) + tuple((k, _key(x[k])) for k in sorted(x))
    if isinstance(x, _InlineFn):
        return ("F", id(x.origin))
    if _is_number(x):
        return ("N", type(x).__name__, x)
    if x is None or isinstance(x, str):
        return ("C", x)
    if hasattr(x, "_adjoint_key"):
        return x._adjoint_key(_key)
    return ("O", id(x))


class _Functions:
    """The calls half of _Translator (a mixin)."""

    def __init__(self):
        self.stack = []        # keys of the inlined calls being translated
        self.functions = {}    # key -> _Recursive, in self.module
        self.pending = set()   # keys whose adj.func is being defined
        self.probing = False
        self.names = set()

    def call_function(self, fn, args, kwargs, node, frame):
        """Calls a user function (a Python function or an _InlineFn)."""
        callee = self._callee(fn)
        try:
            bound = callee.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise frame.error("%s(): %s" % (callee.name, e), node)
        bound.apply_defaults()
        values = tuple(bound.arguments.values())
        key = (id(callee.ident), _key(values))
        rec = self.functions.get(key)
        if rec is not None and rec.function is not None:
            return rec.call(self._lifted(fn, values))
        if key in self.pending:
            if not self.probing:
                raise frame.error("internal error: %s() is called before "
                                  "its result type is known" % callee.name,
                                  node)
            raise _Unknown()
        if any(k == key for k, _ in self.stack):
            return self._define_recursive(key, fn, callee, values, node,
                                          frame)
        if len(self.stack) >= _MAX_DEPTH:
            raise frame.error("calls nested deeper than %d while building "
                              "(a recursion on Python values that does not "
                              "stop?)" % _MAX_DEPTH, node)
        return self._inline(callee, key, bound.arguments)

    # -- inlining ---------------------------------------------------------

    class _Callee:
        def __init__(self, name, node, signature, ident, frame):
            self.name = name
            self.node = node
            self.signature = signature
            self.ident = ident
            self.frame = frame  # makes the callee's frame

    def _callee(self, fn):
        from ._translator import _Frame
        if isinstance(fn, _InlineFn):
            outer = fn.frame
            return self._Callee(
                fn.name, fn.node, fn.signature(), fn.origin,
                lambda: _Frame(self, outer.filename, outer.globals, {},
                               outer))
        src = _Source.of(fn)
        closure = {}
        if fn.__closure__:
            for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
                try:
                    closure[name] = cell.cell_contents
                except ValueError:  # a cell not assigned yet
                    pass
        return self._Callee(
            getattr(fn, "__name__", "<lambda>"), src.node,
            inspect.signature(fn), fn,
            lambda: _Frame(self, src.filename, fn.__globals__, closure))

    def _inline(self, callee, key, arguments):
        import ast
        self.stack.append((key, callee.ident))
        try:
            frame = callee.frame()
            frame.vars.update(arguments)
            if isinstance(callee.node, ast.Lambda):
                return self.expr(callee.node.body, frame)
            return self.body(callee.node.body, frame, callee.node)
        finally:
            self.stack.pop()

    # -- recursion --------------------------------------------------------

    @staticmethod
    def _lifted(fn, values):
        """The parameters of the adj.func of (fn, values): the Values of the
        arguments, then the Values that fn's closures capture."""
        out = []
        _captured(values, out, set())
        _captured(fn, out, set())
        return out

    def _define_recursive(self, key, fn, callee, values, node, frame):
        lifted = self._lifted(fn, values)
        types = [v.type for v in lifted]
        trees = []

        def body(*params):
            pairs = list(zip(lifted, params))
            fn2 = _subst(fn, pairs)
            args = _subst(values, pairs)
            c2 = self._callee(fn2)
            names = list(c2.signature.parameters)
            value = self._inline(c2, key, dict(zip(names, args)))
            tree, leaves = self.leaves(value, callee.node, frame)
            trees.append(tree)
            return leaves

        rec = _Recursive(callee.ident)
        self.pending.add(key)
        try:
            with self._scratch():
                try:
                    probe = self.module.function("probe", types, body)
                except _Unknown:
                    raise frame.error(
                        "cannot find the result type of the recursive "
                        "function %s(): every path through it calls it "
                        "again" % callee.name, node)
            rec.tree = trees[-1]
            rec.function = self.module.declare(
                self._fresh_name(callee.name), types, probe.type.results)
            self.functions[key] = rec
            try:
                rec.function.define(body)
            except _adj.Error as e:
                raise frame.error(
                    "the recursive function %s() must return the same types "
                    "on every path (%s; the paths that return without "
                    "recursing give %s)"
                    % (callee.name, e,
                       ", ".join(str(t) for t in probe.type.results)), node)
            if trees[-1] != rec.tree:
                raise frame.error(
                    "the recursive function %s() must return the same tuple "
                    "structure on every path" % callee.name, node)
        finally:
            self.pending.discard(key)
        return rec.call(lifted)

    @contextlib.contextmanager
    def _scratch(self):
        """Builds into a throwaway module, with recursive calls whose result
        is not known raising _Unknown."""
        saved = self.module, self.functions, self.probing
        self.module, self.functions, self.probing = Module(), {}, True
        try:
            yield
        finally:
            self.module, self.functions, self.probing = saved

    def _fresh_name(self, base):
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base)
        i = 1
        while "%s_rec%d" % (base, i) in self.names:
            i += 1
        name = "%s_rec%d" % (base, i)
        self.names.add(name)
        return name
