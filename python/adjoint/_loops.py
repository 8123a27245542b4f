"""Loops: `for` and `while`, unrolled while building or built as adj.for and
adj.while.

A loop whose trip count is known while building (a range of Python ints, a
tuple, list or dict, the rows of a tensor, enumerate/zip/reversed of those,
a `while` whose test is a Python value) runs as Python does when it must:
unrolled, so that `break`, `continue` and `else` follow Python's rules and
Python containers made before the loop can grow (`ys.append(h)`, `ys +=
[h]`, `d["h"].append(h)`: an RNN's outputs, stacked after the loop). Other
loops over a range, the rows of a tensor or enumerate/zip of them become an
adj.for, which keeps the program small. That choice is made by trying: the
adj.for is built, and abandoned for unrolling when its body mutates a
container made before it or changes the structure of a carried variable,
which only Python can do.

A loop whose trip count is a tensor (a range with tensor bounds, a while
with a tensor test) cannot: `break`/`continue` in it, and a container made
before it and mutated in it, are errors at their line that say what works
instead. So is a mutation under a tensor condition (_Conditionals).
"""

import ast
import contextlib

from . import _adjoint as _adj
from ._adjoint import Value
from ._dtypes import Weak
from ._source import FrontendError
from ._stacks import Stacks, _Probed
from ._iteration import _TracedRange, sequence
from ._trees import (_assigned, _contains_return, _flatten, _is_data,
                     _results, _unflatten)

#: Iterations of a `while` with a Python test that are unrolled at most.
_MAX_UNROLLED = 10000

#: Methods that change a list, dict or set in place.
_MUTATORS = {
    list: {"append", "extend", "insert", "pop", "remove", "clear", "sort",
           "reverse", "__setitem__", "__delitem__", "__iadd__"},
    dict: {"update", "pop", "popitem", "setdefault", "clear", "__setitem__",
           "__delitem__"},
    set: {"add", "discard", "remove", "pop", "clear", "update"},
}

_HOW = ("loop over range(T) with a Python int T (a shape: "
        "range(x.shape[0])), which is unrolled while building, or "
        "preallocate the stacked tensor and write its rows: `ys = "
        "np.zeros((T, n))` before the loop, `ys = ys.at[t].set(h)` in it")


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Unroll(Exception):
    """Raised in the body of an adj.for being tried: only unrolling can
    translate it."""


class _Region:
    """A region being built (a loop body, a branch): the containers made
    before it, which only an unrolled (`static`) loop may mutate."""

    def __init__(self, frame, static, what):
        self.static, self.what = static, what
        self.ids = set()
        f = frame
        while f is not None:
            for scope in (getattr(f, "vars", {}), getattr(f, "closure", {})):
                for v in scope.values():
                    _containers(v, self.ids)
            f = getattr(f, "outer", None) or getattr(f, "frame", None)


def _containers(x, ids):
    if isinstance(x, (list, dict, set)):
        if id(x) in ids:
            return
        ids.add(id(x))
    if isinstance(x, dict):
        x = list(x.values())
    if isinstance(x, (list, tuple, set)):
        for e in x:
            _containers(e, ids)


def _exits(stmts):
    """The first break/continue of `stmts` that leaves their own loop (not
    one of a nested loop), or None."""
    def visit(node):
        if isinstance(node, (ast.Break, ast.Continue)):
            return node
        if isinstance(node, (ast.For, ast.While)):
            # Its own break/continue are its; its else clause is ours.
            return _exits(node.orelse)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.Lambda, ast.ClassDef)):
            return None
        for child in ast.iter_child_nodes(node):
            found = visit(child)
            if found is not None:
                return found
        return None

    for s in stmts:
        found = visit(s)
        if found is not None:
            return found
    return None


class _Loops:
    """The loop half of _Translator (a mixin)."""

    def __init__(self):
        self.regions = []

    @contextlib.contextmanager
    def region(self, frame, static, what):
        self.regions.append(_Region(frame, static, what))
        try:
            yield
        finally:
            self.regions.pop()

    def check_mutation(self, fn, node, frame):
        """Before `fn(...)`: a method that mutates a container made before
        the region being built is for an unrolled loop only."""
        owner = getattr(fn, "__self__", None)
        kind = next((k for k in _MUTATORS if isinstance(owner, k)), None)
        if not self.regions or kind is None or \
                getattr(fn, "__name__", None) not in _MUTATORS[kind] or \
                id(owner) not in self.regions[-1].ids:
            return
        top = self.regions[-1]
        if top.static:
            raise _Unroll()
        name = fn.__name__
        call = "%s += [...]" % kind.__name__ if name == "__iadd__" else \
            "%s[...] = ..." % kind.__name__ if name == "__setitem__" else \
            "%s.%s(...)" % (kind.__name__, name)
        raise frame.error(
            "%s changes a %s made before %s: Python containers "
            "cannot grow by a number of steps known only when the program "
            "runs (a list, dict or set exists only while building). To "
            "collect per-step outputs, %s"
            % (call, kind.__name__, top.what, _HOW), node)

    def refuse_exits(self, stmts, frame):
        """break/continue under a tensor condition: refused."""
        node = _exits(stmts)
        if node is not None:
            raise frame.error(
                "%s under a tensor condition: the loop's trip count would "
                "depend on a tensor. Use a Python condition (the loop is "
                "unrolled), or a `while` loop whose test holds the condition "
                "(carry a done flag: `while i < n and not done`), or keep "
                "the values with np.where(done, old, new)"
                % type(node).__name__.lower(), node)

    def refuse_dropped_mutations(self, stmts, frame,
                                 what="a conditional on a tensor"):
        """A tensor-conditioned `if` (or a traced loop) that assigns nothing
        is not built: a container mutation in it (`ys.append(x)`,
        `d[k] = v`) is an error here, as it is in the regions that are
        built."""
        mutators = set().union(*_MUTATORS.values())
        for node in (n for s in stmts for n in ast.walk(s)):
            if isinstance(node, ast.Call) and \
                    isinstance(node.func, ast.Attribute) and \
                    node.func.attr in mutators:
                container, method = node.func.value, node.func.attr
            elif isinstance(node, ast.Subscript) and \
                    isinstance(node.ctx, ast.Store):
                container, method = node.value, "__setitem__"  # d[k] = v
            else:
                continue
            if not isinstance(container, (ast.Name, ast.Subscript)):
                continue
            try:  # a container of the branch itself is not checked
                owner = self.expr(container, frame)
            except (FrontendError, LookupError):
                continue
            with self.region(frame, False, what):
                self.check_mutation(getattr(owner, method, None), node, frame)

    # -- for --------------------------------------------------------------

    def for_stmt(self, s, frame):
        if _contains_return(s.body):
            raise frame.error("return inside a loop is not supported", s)
        it = self.expr(s.iter, frame)
        if isinstance(it, _TracedRange):
            self.traced_for(s, frame, it, None)
            return
        try:
            seq = sequence(it)
        except TypeError as e:
            raise frame.error(str(e), s.iter)
        if seq is None:
            raise frame.error("cannot loop over a %s" % type(it).__name__,
                              s.iter)
        if seq.traceable and _exits(s.body) is None and len(seq) > 0 and \
                not self.carries_function(s, frame):
            try:
                self.traced_for(s, frame, None, seq)
                return
            except (_Unroll, FrontendError):
                # Unrolled, the loop is Python's: its index a Python int,
                # its containers growing, its carried values of any
                # structure; an error that remains is raised from there.
                pass
        for i in range(len(seq)):
            self.assign(s.target, seq.item(i), frame)
            if self.loop_body(s.body, frame):
                return
        self.block(s.orelse, frame)

    def loop_body(self, stmts, frame):
        """Runs an unrolled iteration; True when it breaks."""
        try:
            self.block(stmts, frame)
        except _Continue:
            pass
        except _Break:
            return True
        return False

    def carries_function(self, s, frame):
        targets = {n.id for n in ast.walk(s.target)
                   if isinstance(n, ast.Name)}
        return any(n in frame.vars and not _is_data(frame.vars[n])
                   for n in _assigned(s.body) if n not in targets)

    def traced_for(self, s, frame, traced, seq):
        """adj.for over a _TracedRange, or over a traceable _Seq (then
        raising _Unroll when only unrolling can translate the body)."""
        static = seq is not None
        if not static:
            self.refuse_tensor_trip(s, frame, "a range with tensor bounds")
        targets = [n.id for n in ast.walk(s.target)
                   if isinstance(n, ast.Name)]
        names = self.carried(s, frame, exclude=targets)
        stacks = Stacks.of(s, frame, len(seq)) if static else None
        if not names and stacks is None:
            if static:
                raise _Unroll()
            self.no_effect(s, frame, "a range with tensor bounds")
        plain = static and stacks is None and getattr(seq, "range", None)
        if plain:
            bounds = (plain.start, plain.stop, plain.step)
        elif static:
            bounds = (0, len(seq), 1)
        else:
            bounds = tuple(self.materialize(b) for b in traced.args)

        def build(loop_frame, names, bounds):
            loop = _Carried(self, names, loop_frame, s, static)

            def run(i, *args):
                f = loop.frame_of(args)
                self.assign(s.target, i if plain or not static
                            else seq.item(i), f)
                if stacks is not None:
                    stacks.run_body(self, s.body, f, i)
                else:
                    self.block(s.body, f)
                return loop.yielded(f)

            with self.region(frame, static,
                             "a range loop with tensor bounds"):
                r = loop.build(lambda inits: _adj.for_(*bounds, inits, run))
            return dict(zip(names, loop.results(r)))

        loop_frame = frame
        if stacks is not None:
            # The probe: adj.for with tensor bounds may carry nothing.
            stacks.start_probe()
            try:
                build(frame, names, [self.materialize(b) for b in bounds])
            except _Probed:
                pass
            loop_frame = frame.child()
            names = names + stacks.finish_probe(self, loop_frame, len(seq))
        values = build(loop_frame, names, bounds)
        if stacks is not None:
            stacks.fill(frame, values, len(seq))
        frame.vars.update((n, v) for n, v in values.items() if n in
                          frame.vars)
        self.block(s.orelse, frame)

    def refuse_tensor_trip(self, s, frame, what):
        node = _exits(s.body)
        if node is not None:
            raise frame.error(
                "%s in %s: its trip count is a tensor, so the loop cannot "
                "be unrolled. Put the condition in a `while` test, or loop "
                "over a Python range" % (type(node).__name__.lower(), what),
                node)

    def no_effect(self, s, frame, what):
        self.refuse_dropped_mutations(s.body, frame, what)
        raise frame.error("a loop that assigns no variable used before it "
                          "has no effect", s)

    # -- while ------------------------------------------------------------

    def while_stmt(self, s, frame):
        if _contains_return(s.body):
            raise frame.error("return inside a loop is not supported", s)
        # Unrolled while the test is a Python value; from the first tensor
        # test on, the rest of the loop is an adj.while.
        for _ in range(_MAX_UNROLLED):
            test = self.expr(s.test, frame)
            if isinstance(test, Value):
                self.traced_while(s, frame)
                return
            if not test:
                self.block(s.orelse, frame)
                return
            if self.loop_body(s.body, frame):
                return
        raise frame.error("a while loop whose test is a Python value ran "
                          "%d iterations while building" % _MAX_UNROLLED, s)

    def traced_while(self, s, frame):
        self.refuse_tensor_trip(s, frame, "a while loop with a tensor test")
        names = self.carried(s, frame)
        if not names:
            self.no_effect(s, frame, "a while loop with a tensor test")
        loop = _Carried(self, names, frame, s, False)

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

        with self.region(frame, False, "a while loop with a tensor test"):
            r = loop.build(lambda inits: _adj.while_(inits, cond, body))
        frame.vars.update(zip(names, loop.results(r)))
        self.block(s.orelse, frame)

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
                    "function or another Python value (only a loop with a "
                    "trip count known while building can: it is unrolled)"
                    % (n, type(frame.vars[n]).__name__), s)
        return names


class _Carried:
    """The variables a loop carries, with the join of their types: the
    loop is built with the types of their values before it, and built
    again with the joins when its body assigns them wider types (an int
    that meets a float, a scalar that meets a vector; _dtypes)."""

    def __init__(self, tr, names, frame, node, static):
        self.tr, self.names, self.frame, self.node = tr, names, frame, node
        self.static = static
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
            self.restructured(f)
        found = [self.tr.state_of(l) for l in leaves]
        self.tr.widen(self.states, found, self.what, self.node, self.frame)
        return [self.tr.convert(l, st) for l, st in zip(leaves, self.states)]

    def restructured(self, f):
        """A carried variable changes structure (`ys = ys + [h]`): only
        unrolling translates it; an error at its assignment otherwise."""
        if self.static:
            raise _Unroll()
        name = next(n for n in self.names
                    if _flatten(f.vars[n], []) != _flatten(self.frame.vars[n],
                                                           []))
        where = next((s for s in ast.walk(self.node)
                      if isinstance(s, (ast.Assign, ast.AugAssign))
                      and name in _assigned([s])), self.node)
        grows = isinstance(f.vars[name], (list, tuple, dict))
        raise self.frame.error(
            "the loop changes the structure of '%s'%s: a loop whose trip "
            "count is a tensor carries values of one structure. %s"
            % (name, " (a Python container)" if grows else "",
               ("To collect per-step outputs, " + _HOW) if grows else
               "Give it the same structure before the loop"), where)

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
