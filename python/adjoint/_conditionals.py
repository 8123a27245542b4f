"""Tensor conditionals: adj.if of two branches whose results are
build-time values, functions included.

A branch result is a pytree. Its tensors and numbers become the results of
the adj.if. Its functions cannot (a function is a build-time value), so a
function that both branches give unchanged (defined before the
conditional) passes through, and two different ones become a _Choice: a
function that, when called, builds an adj.if of the two calls. The Values
each closure captures may be defined inside its branch, out of reach after
the conditional, so they become results of the adj.if too: the branch of the
closure yields them, the other one zeros (the call in the other branch of
the _Choice never reads them), as -adj-inline does when it sinks a call of a
closure chosen by a conditional.

Where that is needed is known only once both branches are built, so a
conditional whose results hold functions is built three times: once until a
function shows up, once per branch (each in an adj.if that is abandoned) to
learn the structure of its result and the types of the captures, and then
for good with those "packs".
"""

from . import _adjoint as _adj
from ._dtypes import Weak, _Widen
from ._functions import _captured, _subst
from ._trees import (_InlineFn, _Unknown, _flatten, _is_data, _results,
                     _unflatten)


class _NeedsPacks(Exception):
    """A branch result holds a function (first attempt)."""


class _Abandon(Exception):
    """Ends a branch built only to see its result."""


def _is_function(x):
    return callable(x) or isinstance(x, _InlineFn)


class _Choice:
    """The function chosen by a tensor condition between two functions."""

    def __init__(self, cond, a, b):
        self.cond, self.a, self.b = cond, a, b

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        return tr.conditional(
            self.cond,
            lambda: tr.call(self.a, args, kwargs, node, frame),
            lambda: tr.call(self.b, args, kwargs, node, frame), node, frame)

    def _adjoint_children(self):
        return [self.cond, self.a, self.b]

    def _adjoint_subst(self, f):
        return _Choice(f(self.cond), f(self.a), f(self.b))

    def _adjoint_key(self, key):
        return ("C", key(self.a), key(self.b))


class _Shape:
    """What one branch gives: its tree and, per leaf, a data type, or the
    origin of a function with the types of the Values it captures."""

    def __init__(self, tree, leaves):
        self.tree = tree
        self.kinds = []
        for leaf in leaves:
            if _is_data(leaf):
                self.kinds.append(("data",))
            else:
                caps = []
                _captured(leaf, caps, set())
                self.kinds.append(("static", getattr(leaf, "origin", leaf),
                                   [c.type for c in caps]))


class _Packs:
    """The layout of the adj.if results when the branches give functions:
    the data leaves, then per chosen function the captures of the then
    function and those of the else function."""

    def __init__(self, then, other, node, frame):
        if then.tree != other.tree:
            raise frame.error("the branches give values of different "
                              "structures", node)
        self.tree = then.tree
        self.kinds = []
        for a, b in zip(then.kinds, other.kinds):
            if a[0] != b[0]:
                raise frame.error("one branch gives a function (or another "
                                  "Python value) where the other gives a "
                                  "tensor", node)
            if a[0] == "data":
                self.kinds.append(a)
            elif a[1] is b[1] or (not _is_function(a[1]) and a[1] == b[1]):
                self.kinds.append(("same",))
            elif _is_function(a[1]) and _is_function(b[1]):
                for t in a[2] + b[2]:
                    if not t.is_tensor:
                        raise frame.error(
                            "cannot choose by a tensor condition between "
                            "closures that capture a %s" % t, node)
                self.kinds.append(("choice", a[2], b[2]))
            else:
                raise frame.error("the branches give different Python "
                                  "values: %r and %r" % (a[1], b[1]), node)
        self.seen = {}  # leaf index -> {side: the function built there}

    def branch_leaves(self, tr, side, leaves, node, frame):
        out = []
        for i, (kind, leaf) in enumerate(zip(self.kinds, leaves)):
            if kind[0] == "data":
                out.append(tr.materialize(leaf))
                continue
            self.seen.setdefault(i, {})[side] = leaf
            if kind[0] == "choice":
                caps = []
                _captured(leaf, caps, set())
                for s, types in ((0, kind[1]), (1, kind[2])):
                    if s == side:
                        out += caps
                    else:
                        out += [_adj.zeros(tr.module, list(t.shape), t.dtype)
                                for t in types]
        return out

    def rebuild(self, cond, results):
        it = iter(results)
        leaves = []
        for i, kind in enumerate(self.kinds):
            if kind[0] == "data":
                leaves.append(next(it))
            elif kind[0] == "same":
                leaves.append(next(iter(self.seen[i].values())))
            else:
                fns = []
                for s, types in ((0, kind[1]), (1, kind[2])):
                    slots = [next(it) for _ in types]
                    fn = self.seen[i].get(s)
                    if fn is None:  # not built (a probe kept one branch)
                        fns.append(None)
                        continue
                    caps = []
                    _captured(fn, caps, set())
                    fns.append(_subst(fn, list(zip(caps, slots))))
                a, b = fns
                leaves.append(a if b is None else b if a is None
                              else _Choice(cond, a, b))
        return _unflatten(self.tree, leaves)


class _Conditionals:
    """The conditional half of _Translator (a mixin)."""

    def conditional(self, cond, then_fn, else_fn, node, frame):
        """adj.if on the tensor `cond` of two branches, functions of no
        arguments that translate them and return their values. A branch
        cannot mutate a container made before it (_loops)."""
        with self.region(frame, False, "a conditional on a tensor"):
            return self._branches(cond, then_fn, else_fn, node, frame)

    def _branches(self, cond, then_fn, else_fn, node, frame):
        try:
            with self.discarding():
                return self._conditional(cond, then_fn, else_fn, None, node,
                                         frame)
        except _NeedsPacks:
            pass
        shapes = [self._shape(cond, fn, side)
                  for side, fn in enumerate((then_fn, else_fn))]
        if None in shapes:  # probing: a branch calls the probed function
            for shape, fn in zip(shapes, (then_fn, else_fn)):
                if shape is not None:
                    return fn()
            raise _Unknown()
        packs = _Packs(shapes[0], shapes[1], node, frame)
        return self._conditional(cond, then_fn, else_fn, packs, node, frame)

    def _shape(self, cond, fn, side):
        """The _Shape of one branch, built in an adj.if that is abandoned
        (None when probing and the branch calls the probed function)."""
        shape = []

        def run():
            leaves = []
            tree = _flatten(fn(), leaves)
            shape.append(_Shape(tree, [self.materialize(l) if _is_data(l)
                                       else l for l in leaves]))
            raise _Abandon()

        def nothing():
            return []

        try:
            with self.discarding():
                _adj.if_(cond,
                         *((run, nothing) if side == 0 else (nothing, run)))
        except _Abandon:
            return shape[0]
        except _Unknown:
            if not self.probing:
                raise
            return None

    def _conditional(self, cond, then_fn, else_fn, packs, node, frame):
        state = {}

        def branch(fn, side):
            def run():
                leaves = []
                tree = _flatten(fn(), leaves)
                if packs is not None:
                    if tree != packs.tree:
                        raise frame.error("the branches give values of "
                                          "different structures", node)
                    return packs.branch_leaves(self, side, leaves, node,
                                               frame)
                if not all(_is_data(l) for l in leaves):
                    raise _NeedsPacks()
                self.check_tree(state, tree, node, frame)
                return self.branch_results(state, side, leaves, node, frame)
            return run

        try:
            with self.discarding():
                r = _results(self.build_if(cond, branch(then_fn, 0),
                                           branch(else_fn, 1), state))
        except _Widen as w:
            state.clear()
            state["targets"] = w.states
            r = _results(self.build_if(cond, branch(then_fn, 0),
                                       branch(else_fn, 1), state))
        if packs is not None:
            return packs.rebuild(cond, r)
        for v, st in zip(r, state.get("joined", ())):
            if isinstance(st, Weak):
                self.mark_weak(v)
        return _unflatten(state["tree"], r)

    def branch_results(self, state, side, leaves, node, frame):
        """The Values a branch yields for its data `leaves`. The adj.if
        joins the branches' types, but the then branch is built before the
        else branch is seen: a weak scalar that it gives is made in its
        default dtype, and when the join needs another one (the else branch
        gives an i32 or an f16), the conditional is built again with the
        joins known (`targets`)."""
        found = [self.state_of(l) for l in leaves]
        targets = state.get("targets")
        if targets is not None:
            state["joined"] = targets
        elif side == 1 and "then" in state:
            before = state["then"]
            targets = self.join_all(
                before, found, lambda i: "result #%d of the conditional" % i,
                node, frame)
            for a, t in zip(before, targets):
                if isinstance(a, Weak) and _adj.join_types(
                        self.concrete(a), self.concrete(t)) != \
                        self.concrete(t):
                    raise _Widen(targets)
            state["joined"] = targets
        if targets is None:
            state["then"] = found
            targets = found
        return [self.convert(l, t) for l, t in zip(leaves, targets)]

    def check_tree(self, state, tree, node, frame):
        if "tree" not in state:
            state["tree"] = tree
        elif state["tree"] != tree:
            raise frame.error("the branches give values of different "
                              "tuple structures", node)

    def build_if(self, cond, then_run, else_run, state):
        """adj.if of two branch builders (each returns its leaves). While
        probing (_functions), a branch that calls the function being probed
        is dropped and the other one is built in place."""
        try:
            with self.discarding():
                return _adj.if_(cond, then_run, else_run)
        except _Unknown:
            if not self.probing:
                raise
        for run in (then_run, else_run):
            state.clear()
            try:
                with self.discarding():
                    return run()
            except _Unknown:
                pass
        raise _Unknown()
