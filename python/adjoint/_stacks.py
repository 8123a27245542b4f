"""Lists that a long loop collects, kept as stacked tensors.

`ys = []; for t in range(T): ...; ys.append(h)` is unrolled while building
when T is small (_loops). When T is large, unrolling would build T copies of
the body; instead the adj.for carries one tensor per list (per leaf of what
is appended: `outs.append((pre, h))` gives two), of shape [T] + the leaf's
shape, and the append writes row t (an update at a traced index, as
`ys.at[t].set(h)`). After the loop the list holds the rows of those tensors,
so `np.stack(ys)` and `ys[-1]` read them as they would read the unrolled
values.

Only a list that is empty before the loop, appended to once per step (a
statement `ys.append(e)` of the body itself, not under a condition or in a
nested loop), and not otherwise named in the body qualifies: then every step
appends one value of the same type, and no step reads the list. The types
of the rows come from a first build of the body that is abandoned (a probe).
"""

import ast

from . import _adjoint as _adj
from . import _index_plan
from ._indexing import getitem
from ._trees import _flatten, _unflatten

#: Loops of more steps than this stack the lists they collect in tensors
#: instead of being unrolled.
STACK_ABOVE = 16


class _Probed(Exception):
    """Ends the probe: the types of the appended values are known."""


def _append_of(stmt, name):
    """Whether `stmt` is `name.append(e)`."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
        and isinstance(stmt.value.func, ast.Attribute) \
        and stmt.value.func.attr == "append" \
        and isinstance(stmt.value.func.value, ast.Name) \
        and stmt.value.func.value.id == name \
        and len(stmt.value.args) == 1 and not stmt.value.keywords \
        and not isinstance(stmt.value.args[0], ast.Starred)


class Stacks:
    def __init__(self, names, frame):
        self.names = names
        self.lists = [frame.vars[n] for n in names]
        self.layout = None  # per list: (tree, [leaf Type])
        self.keys = []      # the carried pseudo-variables, one per leaf

    @staticmethod
    def of(s, frame, trips):
        """The lists loop `s` collects, or None."""
        if trips <= STACK_ABOVE:
            return None
        targets = {n.id for n in ast.walk(s.target)
                   if isinstance(n, ast.Name)}
        names = []
        for n, v in frame.vars.items():
            if not isinstance(v, list) or v or n in targets:
                continue
            uses = sum(isinstance(x, ast.Name) and x.id == n
                       for st in s.body for x in ast.walk(st))
            appends = sum(_append_of(st, n) for st in s.body)
            if appends == 1 and uses == 1:
                names.append(n)
        return Stacks(names, frame) if names else None

    def run_body(self, tr, stmts, f, step):
        """Translates the body; its appends to the collected lists record
        their types (probe) or write row `step` of the stacks."""
        start = 0
        for i, st in enumerate(stmts):
            name = next((n for n in self.names if _append_of(st, n)), None)
            if name is None:
                continue
            tr.block(stmts[start:i], f)
            start = i + 1
            leaves = []
            tree = _flatten(tr.expr(st.value.args[0], f), leaves)
            try:
                leaves = [tr.materialize(l) for l in leaves]
            except TypeError as e:
                raise f.error(str(e), st)
            k = self.names.index(name)
            if self.layout is None:
                self.probe[k] = (tree, [l.type for l in leaves])
                continue
            if (tree, [l.type for l in leaves]) != self.layout[k]:
                raise f.error("the appended value changes type", st)
            for key, leaf in zip(self.keys[k], leaves):
                f.vars[key] = _index_plan.scatter("set", f.vars[key],
                                                  (step,), leaf)
        tr.block(stmts[start:], f)
        if self.layout is None:
            raise _Probed()

    def start_probe(self):
        self.probe = {}

    def finish_probe(self, tr, frame, trips):
        """Adds the zero stacks to `frame` as pseudo-variables (names that
        are not identifiers); returns their names."""
        self.layout = [self.probe[k] for k in range(len(self.names))]
        out = []
        for k, (tree, types) in enumerate(self.layout):
            keys = []
            for j, t in enumerate(types):
                key = "%s#stack%d" % (self.names[k], j)
                frame.vars[key] = _adj.zeros(tr.module,
                                             [trips] + list(t.shape), t.dtype)
                keys.append(key)
            self.keys.append(keys)
            out += keys
        return out

    def fill(self, frame, values, trips):
        """After the loop: each list gets the rows of its stacks (in place,
        as the appends would have)."""
        for k, (tree, _) in enumerate(self.layout):
            stacks = [values[key] for key in self.keys[k]]
            self.lists[k].extend(
                _unflatten(tree, [getitem(x, t) for x in stacks])
                for t in range(trips))
