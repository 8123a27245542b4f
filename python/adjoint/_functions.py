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

import ast
import contextlib
import inspect

from ._adjoint import Module, Value
from ._dtypes import Weak
from ._frame import _Frame
from ._source import FrontendError, _Source
from ._tree_nodes import node_of, rebuild
from ._trees import (_InlineFn, _Unknown, _flatten, _is_number, _results,
                     _unflatten)

#: Nested inlined calls allowed while building (recursion on Python values).
_MAX_DEPTH = 200


class _Recursive:
    """An adj.func made for one specialization key of a Python function."""

    def __init__(self, ident):
        self.ident = ident    # keeps the function alive: its id is the key
        self.function = None  # the adjoint.Function, once declared
        self.tree = None      # the structure of its result
        self.states = None    # the join states of its result leaves
        self.probed = None    # those of the paths that do not recurse

    def call(self, tr, values):
        results = _results(self.function(*values))
        for v, st in zip(results, self.states):
            if isinstance(st, Weak):
                tr.mark_weak(v)
        return _unflatten(self.tree, results)


class _SubstFrame:
    """A view of a frame in which some Values are replaced by others."""

    def __init__(self, frame, pairs):
        self.frame = frame
        self.pairs = pairs
        self.filename = frame.filename
        self.globals = frame.globals
        self.name = frame.name

    def find(self, name):
        found, value = self.frame.find(name)
        return found, (_subst(value, self.pairs) if found else None)

    def error(self, message, node):
        return self.frame.error(message, node)


def _subst(x, pairs):
    """`x` with the Values of `pairs` (old, new) replaced, through pytree
    nodes and the scopes of closures and transforms."""
    if isinstance(x, Value):
        for old, new in pairs:
            if x.is_(old):
                return new
        return x
    node = node_of(x)
    if node is not None:
        return rebuild(node[0], [_subst(e, pairs) for e in node[1]])
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
    elif node_of(x) is not None:
        for e in node_of(x)[1]:
            _captured(e, out, seen)
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
    node = node_of(x)
    if node is not None:
        return node[0] + tuple(_key(e) for e in node[1])
    if isinstance(x, _InlineFn):
        return ("F", id(x.origin))
    if _is_number(x):
        return ("N", type(x).__name__, x)
    if isinstance(x, str):
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
        """Calls a user function (a Python function or an _InlineFn); an
        error in it records this call, so that it names the user's whole
        chain of calls (FrontendError.calls)."""
        try:
            return self._call_function(fn, args, kwargs, node, frame)
        except FrontendError as e:
            # Not when the error is the call's own (its arguments do not
            # bind): it is at this position already.
            own = not e.calls and (e.filename, e.lineno, e.col) == \
                (frame.filename, getattr(node, "lineno", None),
                 getattr(node, "col_offset", None))
            if isinstance(node, ast.Call) and not own:
                e.called_from(frame.filename, node, frame.name)
            raise

    def _call_function(self, fn, args, kwargs, node, frame):
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
            return rec.call(self, self._lifted(fn, values))
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
        if isinstance(fn, _InlineFn):
            outer = fn.frame
            return self._Callee(
                fn.name, fn.node, fn.signature(), fn.origin,
                lambda: _Frame(self, outer.filename, outer.globals, {},
                               outer, fn.name))
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
            lambda: _Frame(self, src.filename, fn.__globals__, closure,
                           name=getattr(fn, "__name__", "<lambda>")))

    def _inline(self, callee, key, arguments):
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
        # The join states of the results: those of the probe's paths, then
        # widened while some path returns a wider type (_dtypes).
        rec = _Recursive(callee.ident)

        def body(*params):
            pairs = list(zip(lifted, params))
            fn2 = _subst(fn, pairs)
            args = _subst(values, pairs)
            c2 = self._callee(fn2)
            names = list(c2.signature.parameters)
            value = self._inline(c2, key, dict(zip(names, args)))
            leaves = []
            tree = _flatten(value, leaves)
            trees.append(tree)
            try:
                found = [self.state_of(l) for l in leaves]
            except TypeError as e:
                raise frame.error(str(e), callee.node)
            if rec.states is None:  # the probe
                rec.probed = found
                return [self.convert(l, st) for l, st in zip(leaves, found)]
            if tree != rec.tree:
                raise frame.error(
                    "the recursive function %s() must return the same tuple "
                    "structure on every path" % callee.name, node)
            self.widen(rec.states, found,
                       lambda i: "result #%d of %s()" % (i, callee.name),
                       node, frame)
            return [self.convert(l, st) for l, st in zip(leaves, rec.states)]

        self.pending.add(key)
        try:
            with self._scratch():
                try:
                    self.module.function("probe", types, body)
                except _Unknown:
                    raise frame.error(
                        "cannot find the result type of the recursive "
                        "function %s(): every path through it calls it "
                        "again" % callee.name, node)
            rec.tree = trees[-1]
            rec.states = list(rec.probed)
            name = self._fresh_name(callee.name)

            def define():
                rec.function = self.module.declare(
                    name, types, [self.concrete(st) for st in rec.states])
                self.functions[key] = rec
                try:
                    rec.function.define(body)
                except BaseException:
                    # Declared again, with wider results or not at all.
                    del self.functions[key]
                    rec.function.erase()
                    raise

            self.widening(rec.states, define, node, frame,
                          "the results of %s()" % callee.name)
        finally:
            self.pending.discard(key)
        return rec.call(self, lifted)

    @contextlib.contextmanager
    def _scratch(self):
        """Builds into a throwaway module, with recursive calls whose result
        is not known raising _Unknown."""
        saved = self.module, self.functions, self.probing, list(self.weak)
        self.module, self.functions, self.probing = Module(), {}, True
        try:
            yield
        finally:
            self.module, self.functions, self.probing, self.weak = saved

    def _fresh_name(self, base):
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base)
        i = 1
        while "%s_rec%d" % (base, i) in self.names:
            i += 1
        name = "%s_rec%d" % (base, i)
        self.names.add(name)
        return name
