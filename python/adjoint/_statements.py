"""Statements: assignments, returns, if to adj.if (loops: _loops)."""

import ast
import operator

from . import _adjoint as _adj
from ._adjoint import Value
from ._core import runs_at_build_time
from ._indexing import getitem
from ._source import FrontendError
from ._loops import _Break, _Continue
from ._trees import (_BINOPS, _Return, _assigned, _contains_return,
                     _returns)


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
            value = self.expr(s.value, frame)
            if isinstance(old, list) and op is operator.add:
                # In place, as Python's list +=: a mutation (_loops).
                self.check_mutation(old.__iadd__, s, frame)
                old += value
                return
            frame.vars[s.target.id] = self.binop(op, old, value)
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
        if isinstance(s, ast.Break):
            raise _Break()  # only reached in an unrolled loop (_loops)
        if isinstance(s, ast.Continue):
            raise _Continue()
        if isinstance(s, ast.FunctionDef):
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
        if isinstance(target, ast.Subscript):
            self.assign_item(target, value, frame)
            return
        raise frame.error("unsupported assignment target: %s"
                          % type(target).__name__, target)

    def assign_item(self, target, value, frame):
        """`d[k] = v` on a Python dict or list (params["w"] = w): a change
        of a build-time container, under the same rule as its methods (a
        loop that changes a container made before it is unrolled). Arrays
        are values, as in JAX: they are updated with x.at[i].set(v)."""
        obj = self.expr(target.value, frame)
        if isinstance(obj, Value):
            raise frame.error(
                "arrays are values in jitted code and cannot be assigned "
                "to in place: write x = x.at[index].set(value) (or .add, "
                ".multiply, .min, .max)", target)
        if not isinstance(obj, (dict, list)):
            raise frame.error("item assignment on a %s is not supported in "
                              "jitted code (dicts and lists are)"
                              % type(obj).__name__, target)
        key = self.index_expr(target.slice, frame)
        self.check_mutation(obj.__setitem__, target, frame)
        obj[key] = value

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
        self.refuse_exits(then_stmts + else_stmts, frame)
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
            self.refuse_dropped_mutations(then_stmts + else_stmts, frame)
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


def _unpack_row(value, i):
    """Row `i` of `value` along its first axis."""
    shape = list(value.shape)
    start = [i] + [0] * (len(shape) - 1)
    limit = [i + 1] + shape[1:]
    return _adj.reshape(_adj.slice(value, start, limit), shape[1:])
