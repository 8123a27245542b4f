"""Statements: assignments, returns, if/for/while to adj.if/for/while."""

import ast

from . import _adjoint as _adj
from ._adjoint import Value
from ._indexing import getitem
from ._source import FrontendError
from ._dtypes import Weak
from ._trees import (_BINOPS, _Return, _assigned, _contains_return,
                     _flatten, _is_data, _results, _returns, _unflatten)


class _Statements:
    """The statement half of _Translator (a mixin)."""

    # -- statements -------------------------------------------------------

    def body(self, stmts, frame, fnode):
        """Translates a function body; returns the returned value."""
        try:
            self.block(stmts, frame)
        except _Return as r:
            return r.args[0]
        raise frame.error("a jitted function must return a value", fnode)

    def block(self, stmts, frame):
        for i, s in enumerate(stmts):
            if isinstance(s, ast.If):
                rest = stmts[i + 1:]
                if self.if_stmt(s, rest, frame):
                    return
            else:
                self.stmt(s, frame)

    def stmt(self, s, frame):
        try:
            self._stmt(s, frame)
        except (_Return, FrontendError):
            raise
        except (_adj.Error, TypeError, ValueError, IndexError) as e:
            raise frame.error(str(e), s) from e

    def _stmt(self, s, frame):
        if isinstance(s, ast.Return):
            value = self.expr(s.value, frame) if s.value is not None else None
            raise _Return(value)
        if isinstance(s, ast.Assign):
            value = self.expr(s.value, frame)
            for t in s.targets:
                self.assign(t, value, frame)
            return
        if isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise frame.error("only names can be augmented", s)
            op = _BINOPS.get(type(s.op))
            if op is None:
                raise frame.error("unsupported operator", s)
            old = frame.lookup(s.target.id, s.target)
            frame.vars[s.target.id] = self.binop(
                op, old, self.expr(s.value, frame))
            return
        if isinstance(s, ast.AnnAssign) and s.value is not None:
            self.assign(s.target, self.expr(s.value, frame), frame)
            return
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return  # docstring
            self.expr(s.value, frame)
            return
        if isinstance(s, ast.Pass):
            return
        if isinstance(s, ast.FunctionDef):
            from ._custom import runs_at_build_time
            fn = self.closure(s, frame)
            # Decorators that run while the program is built (custom_vjp,
            # custom_jvp, checkpoint, f.defjvp), innermost first.
            for d in reversed(s.decorator_list):
                dec = self.expr(d, frame)
                if not runs_at_build_time(dec):
                    raise frame.error("decorators on nested functions are "
                                      "not supported, except custom_vjp, "
                                      "custom_jvp, defjvp and checkpoint", d)
                fn = dec(fn)
            frame.vars[s.name] = fn
            return
        if isinstance(s, ast.For):
            self.for_stmt(s, frame)
            return
        if isinstance(s, ast.While):
            self.while_stmt(s, frame)
            return
        if isinstance(s, ast.Assert):
            # Checked while building when the test is a Python value (a
            # shape, a static argument); a tensor test cannot be.
            test = self.expr(s.test, frame)
            if not isinstance(test, Value) and not test:
                message = "assertion failed"
                if s.msg is not None:
                    message += ": %s" % (self.expr(s.msg, frame),)
                raise frame.error(message, s)
            return
        if isinstance(s, ast.Raise):
            # Reached while building: only under Python conditions.
            exc = self.expr(s.exc, frame) if s.exc is not None else None
            if isinstance(exc, type):
                exc = exc()
            raise frame.error("%s raised while building: %s"
                              % (type(exc).__name__, exc), s)
        raise frame.error("unsupported statement: %s" % type(s).__name__, s)

    def assign(self, target, value, frame):
        if isinstance(target, ast.Name):
            frame.vars[target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                raise frame.error("starred assignment is not supported",
                                  target)
            n = len(target.elts)
            if isinstance(value, Value) and value.type.is_tuple:
                value = tuple(_adj.get(value, i)
                              for i in range(len(value.type.elements)))
            elif isinstance(value, Value) and value.type.is_tensor and \
                    value.rank >= 1 and value.shape[0] == n:
                # As numpy: a tensor unpacks along its first axis
                # (`k1, k2 = random.split(key)`).
                value = tuple(_unpack_row(value, i) for i in range(n))
            if not isinstance(value, (tuple, list)) or len(value) != n:
                raise frame.error("cannot unpack into %d names" % n, target)
            for t, v in zip(target.elts, value):
                self.assign(t, v, frame)
            return
        raise frame.error("unsupported assignment target: %s"
                          % type(target).__name__, target)

    def if_stmt(self, s, rest, frame):
        """Translates `s`; returns True when it consumed `rest` (returned)."""
        try:
            cond = self.expr(s.test, frame)
        except FrontendError:
            raise
        except (_adj.Error, TypeError) as e:
            raise frame.error(str(e), s.test) from e
        if not isinstance(cond, Value):
            self.block((s.body if cond else s.orelse), frame)
            return False
        then_stmts, else_stmts = list(s.body), list(s.orelse)
        returns = _contains_return(then_stmts) or _contains_return(else_stmts)
        if returns:
            # A return in a branch: the rest of the block continues the
            # branches that fall through, so both end by returning.
            if not _returns(then_stmts):
                then_stmts += rest
            if not _returns(else_stmts):
                else_stmts += rest
            if not (_returns(then_stmts) and _returns(else_stmts)):
                raise frame.error("every path after a conditional return "
                                  "must return", s)

            def returning_branch(stmts):
                return lambda: self.body(stmts, frame.child(), s)

            raise _Return(self.guard(
                lambda: self.conditional(cond, returning_branch(then_stmts),
                                         returning_branch(else_stmts), s,
                                         frame), s, frame))
        # The results: the variables a branch assigns that exist before it,
        # or that both assign.
        before = frame.vars
        a, b = _assigned(then_stmts), _assigned(else_stmts)
        outputs = [n for n in a + [x for x in b if x not in a]
                   if n in before or (n in a and n in b)]
        if not outputs:
            return False

        def branch(stmts):
            def run():
                f = frame.child()
                self.block(stmts, f)
                return tuple(f.vars[n] for n in outputs)
            return run

        vals = self.guard(
            lambda: self.conditional(cond, branch(then_stmts),
                                     branch(else_stmts), s, frame), s, frame)
        frame.vars.update(zip(outputs, vals))
        return False

    def guard(self, build, node, frame):
        try:
            return build()
        except FrontendError:
            raise
        except (_adj.Error, TypeError) as e:
            raise frame.error(str(e), node) from e

    def carried(self, s, frame, exclude=()):
        """The variables loop `s` carries: those its body assigns that exist
        before it. They must be data: a function value is known only while
        building, and a loop's trip count only when it runs."""
        names = [n for n in _assigned(s.body)
                 if n in frame.vars and n not in exclude]
        for n in names:
            if not _is_data(frame.vars[n]):
                raise frame.error(
                    "the loop reassigns '%s', a %s: a loop cannot carry a "
                    "function or another Python value (only a range loop "
                    "with constant bounds can: it is unrolled)"
                    % (n, type(frame.vars[n]).__name__), s)
        return names

    def for_stmt(self, s, frame):
        if s.orelse:
            raise frame.error("for ... else is not supported", s)
        if _contains_return(s.body):
            raise frame.error("return inside a loop is not supported", s)
        for n in ast.walk(s):
            if isinstance(n, (ast.Break, ast.Continue)):
                raise frame.error("break and continue are not supported", n)
        it = self.expr(s.iter, frame)
        if isinstance(it, (tuple, list)):
            for v in it:  # unrolled
                self.assign(s.target, v, frame)
                self.block(s.body, frame)
            return
        rows = None
        if isinstance(it, Value) and it.type.is_tensor and it.rank > 0:
            # Over the rows of a tensor: x[i] for i in range(len(x)).
            rows, it = it, range(it.shape[0])
        if not isinstance(it, range):
            raise frame.error("for loops run over range(...), a tuple or "
                              "a tensor", s)
        targets = [n.id for n in ast.walk(s.target)
                   if isinstance(n, ast.Name)]

        def bind(f, i):
            # A traced loop index is in range: its row is a plain gather.
            if rows is not None:
                i = _adj.gather(rows, i, 0) if isinstance(i, Value) \
                    else getitem(rows, i)
            self.assign(s.target, i, f)

        if any(n in frame.vars and not _is_data(frame.vars[n])
               for n in _assigned(s.body) if n not in targets):
            for i in it:  # carries a function value: unrolled
                bind(frame, i)
                self.block(s.body, frame)
            return
        names = self.carried(s, frame, exclude=targets)
        if not names:
            raise frame.error("a loop that assigns no variable used before "
                              "it has no effect", s)
        loop = _Carried(self, names, frame, s)

        def run(i, *args):
            f = loop.frame_of(args)
            bind(f, i)
            self.block(s.body, f)
            return loop.yielded(f)

        r = loop.build(lambda inits: _adj.for_(it.start, it.stop, it.step,
                                               inits, run))
        frame.vars.update(zip(names, loop.results(r)))

    def while_stmt(self, s, frame):
        if s.orelse:
            raise frame.error("while ... else is not supported", s)
        if _contains_return(s.body):
            raise frame.error("return inside a loop is not supported", s)
        for n in ast.walk(s):
            if isinstance(n, (ast.Break, ast.Continue)):
                raise frame.error("break and continue are not supported", n)
        names = self.carried(s, frame)
        if not names:
            raise frame.error("a loop that assigns no variable used before "
                              "it has no effect", s)
        loop = _Carried(self, names, frame, s)

        def cond(*args):
            c = self.expr(s.test, loop.frame_of(args))
            if not isinstance(c, Value):
                raise frame.error("a while condition must depend on the "
                                  "loop's tensors", s.test)
            return c

        def body(*args):
            f = loop.frame_of(args)
            self.block(s.body, f)
            return loop.yielded(f)

        r = loop.build(lambda inits: _adj.while_(inits, cond, body))
        frame.vars.update(zip(names, loop.results(r)))


class _Carried:
    """The variables a loop carries, with the join of their types: the
    loop is built with the types of their values before it, and built
    again with the joins when its body assigns them wider types (an int
    that meets a float, a scalar that meets a vector; _dtypes)."""

    def __init__(self, tr, names, frame, node):
        self.tr, self.names, self.frame, self.node = tr, names, frame, node
        self.tree, self.leaves = self._flatten(frame)
        self.owners = []  # the variable of each leaf, for messages
        for n in names:
            self.owners += [n] * len(_flatten_leaves(frame.vars[n]))
        self.states = [tr.state_of(l) for l in self.leaves]

    def _flatten(self, f):
        leaves = []
        tree = _flatten(tuple(f.vars[n] for n in self.names), leaves)
        return tree, leaves

    def what(self, i):
        return "the loop-carried variable '%s'" % self.owners[i]

    def frame_of(self, args):
        """A frame of the body with the carried Values `args`."""
        for a, st in zip(args, self.states):
            if isinstance(st, Weak):
                self.tr.mark_weak(a)
        f = self.frame.child()
        f.vars.update(zip(self.names, _unflatten(self.tree, list(args))))
        return f

    def yielded(self, f):
        """The Values the body yields, of the carried types; raises _Widen
        when the body assigns wider types."""
        tree, leaves = self._flatten(f)
        if tree != self.tree:
            raise self.frame.error("a loop variable changes tuple structure",
                                   self.node)
        found = [self.tr.state_of(l) for l in leaves]
        self.tr.widen(self.states, found, self.what, self.node, self.frame)
        return [self.tr.convert(l, st) for l, st in zip(leaves, self.states)]

    def build(self, make):
        """make(inits) builds the loop; repeated while the types widen."""
        return self.tr.widening(
            self.states,
            lambda: self.tr.guard(lambda: make(
                [self.tr.convert(l, st)
                 for l, st in zip(self.leaves, self.states)]),
                self.node, self.frame),
            self.node, self.frame, "the loop-carried variables")

    def results(self, r):
        """The variables' values after the loop."""
        r = _results(r)
        for v, st in zip(r, self.states):
            if isinstance(st, Weak):
                self.tr.mark_weak(v)
        return _unflatten(self.tree, r)


def _flatten_leaves(x):
    leaves = []
    _flatten(x, leaves)
    return leaves


def _unpack_row(value, i):
    """Row `i` of `value` along its first axis."""
    shape = list(value.shape)
    start = [i] + [0] * (len(shape) - 1)
    limit = [i + 1] + shape[1:]
    return _adj.reshape(_adj.slice(value, start, limit), shape[1:])
