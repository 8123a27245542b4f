"""Random small programs for the Python front end.

Each program is the source of a function ``f(x, y)`` over numpy arrays
(``x`` of shape (3, 4), ``y`` of shape (4,), float64) that returns a scalar
loss. It uses only constructs the front end supports: arithmetic and
comparisons with broadcasting, numpy functions (through ``np``), reductions
with axes and keepdims, matrix products, tensor-conditioned ``if`` and
conditional expressions, conditions on shapes and dtypes (tuples and
numpy dtypes, decided while building), ``for`` over ``range`` and ``while``
with a tensor condition, lists collected in a loop and stacked,
``enumerate``/``zip``/``reversed``/dict items, ``break``/``continue`` under
Python conditions, comprehensions, nested functions and lambdas capturing
locals, tuples. The same
source runs as plain Python on numpy arrays, which gives the reference.

Values stay bounded (squashing functions, denominators kept away from zero)
so that the reference is finite and the comparison meaningful. The generator
tracks the shape of every expression, so programs are well typed by
construction: a rejection by the front end is a finding.
"""

import random

#: Shapes of the expressions: scalar, a row like y, a column, a matrix like x.
SCALAR, ROW, COL, MAT = (), (4,), (3,), (3, 4)
SHAPES = (SCALAR, ROW, COL, MAT)


def broadcast(a, b):
    """numpy's broadcast of two of SHAPES, or None (COL with ROW/MAT)."""
    if a == b or b == SCALAR:
        return a
    if a == SCALAR:
        return b
    if {a, b} == {ROW, MAT}:
        return MAT
    return None


class ProgramGenerator:
    """Writes one random program per call of ``program()``."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    # -- expressions -----------------------------------------------------

    def expr(self, shape, depth):
        """An expression of `shape` over the variables in scope."""
        r = self.rng
        if depth <= 0 or r.random() < 0.2:
            return self.leaf(shape)
        kind = r.choice(["binary", "binary", "unary", "unary", "reduce",
                         "where", "matmul", "maximum", "ifexp", "call",
                         "static"])
        d = depth - 1
        if kind == "binary":
            other = r.choice([s for s in SHAPES if broadcast(shape, s) == shape])
            a, b = self.expr(shape, d), self.expr(other, d)
            if r.random() < 0.5:
                a, b = b, a
            op = r.choice(["+", "-", "*", "/"])
            if op == "/":
                # Keep the denominator in [1, inf).
                return "(%s / (1.0 + %s * %s))" % (a, b, b)
            return "(%s %s %s)" % (a, op, b)
        if kind == "unary":
            a = self.expr(shape, d)
            form = r.choice([
                "np.tanh(%s)", "np.sin(%s)", "np.cos(%s)",
                "np.exp(np.tanh(%s))", "np.sqrt(1.0 + %s * %s)",
                "np.abs(%s)", "(-%s)", "np.log(2.0 + np.tanh(%s))",
                "(%s ** 2)", "np.square(%s)",
            ])
            return form.replace("%s", a)
        if kind == "reduce":
            return self.reduction(shape, d)
        if kind == "where":
            cond = self.expr(shape, d)
            a, b = self.expr(shape, d), self.expr(shape, d)
            cmp = r.choice([">", "<", ">=", "<="])
            return "np.where(%s %s %s, %s, %s)" % (cond, cmp, self.threshold(),
                                                 a, b)
        if kind == "maximum":
            fn = r.choice(["np.maximum", "np.minimum"])
            return "%s(%s, %s)" % (fn, self.expr(shape, d),
                                   self.expr(shape, d))
        if kind == "matmul":
            return self.matmul(shape, d)
        if kind == "ifexp":
            cond = "np.sum(%s) > %s" % (self.expr(self.rng.choice(SHAPES), d),
                                        self.threshold())
            return "(%s if %s else %s)" % (self.expr(shape, d), cond,
                                           self.expr(shape, d))
        if kind == "static":
            return self.static(shape, d)
        return self.call(shape, d)

    def static(self, shape, d):
        """A conditional expression on shapes and dtypes, decided while
        building: shape is a tuple of ints and dtype a numpy dtype, so the
        comparison is true or false exactly as in numpy (x is float64 of
        shape (3, 4), y of shape (4,))."""
        r = self.rng
        cond = r.choice([
            "x.shape == (3, 4)", "x.shape == (4, 3)", "y.shape == (4,)",
            "x.shape[-1] == y.shape[0]", "x.shape[:1] + y.shape == (3, 4)",
            "len(x.shape) == 2", "x.ndim == y.ndim", "x.size == 12",
            "x.dtype == np.float64", "x.dtype == np.float32",
            "y.dtype == x.dtype", "x.dtype.itemsize == 8",
            "np.shape(y) == (4,)", "x.shape != (3, 4)",
        ])
        a = self.expr(shape, d)
        if shape == MAT and r.random() < 0.5:
            # A shape computed from shapes: (3, 4) -> (3, 2, 2), its last
            # two axes swapped, and back.
            a = "(%s).reshape(x.shape[:-1] + (2, 2)).transpose(0, 2, 1)" \
                ".reshape(x.shape)" % a
        return "(%s if %s else %s)" % (a, cond, self.expr(shape, d))

    def threshold(self):
        """A comparison's right side. Not 0: a sum that is zero in exact
        arithmetic (x - mean(x)) is a rounding error of either sign, and
        the compiled and numpy results would take different branches."""
        return repr(self.rng.choice([-1, 1]) * round(self.rng.uniform(0.05, 1),
                                                      2))

    def leaf(self, shape):
        r = self.rng
        names = [n for n, s in self.scope if s == shape]
        if names and r.random() < 0.8:
            return r.choice(names)
        if shape == SCALAR:
            # Python ints are weakly typed: they join float tensors.
            if r.random() < 0.3:
                return repr(r.randint(-2, 2))
            return repr(round(r.uniform(-2, 2), 2))
        # Build the shape from an argument.
        if shape == MAT:
            return r.choice(["x", "(x * 0.5)", "np.tanh(x)"])
        if shape == ROW:
            return r.choice(["y", "np.mean(x, axis=0)", "(y * 2.0)"])
        return r.choice(["np.sum(x, axis=1)", "np.max(x, axis=1)",
                         "(x @ y) * 0.25"])

    def reduction(self, shape, d):
        r = self.rng
        fn = r.choice(["np.sum", "np.mean", "np.max"])
        if shape == SCALAR:
            src = r.choice([ROW, COL, MAT])
            return "%s(%s)" % (fn, self.expr(src, d))
        if shape == ROW:
            return "%s(%s, axis=0)" % (fn, self.expr(MAT, d))
        if shape == COL:
            axis = r.choice(["1", "-1"])
            return "%s(%s, axis=%s)" % (fn, self.expr(MAT, d), axis)
        # keepdims, broadcast back to the matrix.
        axis = r.choice(["0", "1"])
        return "(%s - %s(%s, axis=%s, keepdims=True))" % (
            self.expr(MAT, d), fn, self.expr(MAT, d), axis)

    def matmul(self, shape, d):
        if shape == COL:
            return "((%s @ %s) * 0.25)" % (self.expr(MAT, d),
                                           self.expr(ROW, d))
        if shape == ROW:
            return "((%s @ %s) * 0.25)" % (self.expr(COL, d),
                                           self.expr(MAT, d))
        if shape == SCALAR:
            return "((%s @ %s) * 0.25)" % (self.expr(ROW, d),
                                           self.expr(ROW, d))
        return "(np.tanh(%s @ (%s.T @ %s)) * 0.5)" % (
            self.expr(MAT, d), self.expr(MAT, d), self.expr(MAT, d))

    def call(self, shape, d):
        """A call of a local function of this shape, when there is one."""
        fns = [n for n, s in self.functions if s == shape]
        if not fns:
            return self.expr(shape, d)
        return "%s(%s)" % (self.rng.choice(fns), self.expr(shape, d))

    # -- statements ------------------------------------------------------

    def fresh(self):
        self.counter += 1
        return "v%d" % self.counter

    def assign(self, lines, indent):
        shape = self.rng.choice(SHAPES)
        name = self.fresh()
        lines.append("%s%s = %s" % (indent, name, self.expr(shape, 3)))
        self.scope.append((name, shape))

    def statement(self, lines, indent, depth):
        r = self.rng
        kind = r.choice(["assign", "assign", "assign", "augmented", "if",
                         "for", "while", "def", "lambda", "tuple", "collect",
                         "iterate", "comprehension"])
        if kind == "augmented" and depth > 0:
            names = [n for n, s in self.scope if s not in ((3,),) and
                     n not in ("x", "y", "u")]
            if names:
                name = r.choice(names)
                shape = dict(self.scope)[name]
                other = r.choice([s for s in SHAPES
                                  if broadcast(shape, s) == shape])
                lines.append("%s%s %s= %s" % (indent, name, r.choice("+-*"),
                                              self.expr(other, 2)))
                return None
            kind = "assign"
        if depth <= 0 or kind == "assign":
            return self.assign(lines, indent)
        if kind == "if":
            # A tensor condition; the variable is assigned in both branches.
            shape = r.choice(SHAPES)
            name = self.fresh()
            cond = "np.sum(%s) %s %s" % (self.expr(r.choice(SHAPES), 2),
                                         r.choice([">", "<"]),
                                         self.threshold())
            lines.append("%sif %s:" % (indent, cond))
            lines.append("%s    %s = %s" % (indent, name, self.expr(shape, 2)))
            lines.append("%selse:" % indent)
            # Sometimes a scalar branch is a Python number, joined with the
            # other (a number in a branch of another shape would be
            # broadcast by the join but stay a scalar in numpy).
            other = (repr(r.randint(-1, 2))
                     if shape == SCALAR and r.random() < 0.4
                     else self.expr(shape, 2))
            lines.append("%s    %s = %s" % (indent, name, other))
            self.scope.append((name, shape))
            return None
        if kind == "for":
            shape = r.choice(SHAPES)
            acc = self.fresh()
            lines.append("%s%s = %s" % (indent, acc, self.expr(shape, 2)))
            lines.append("%sfor i in range(%d):" % (indent, r.randint(1, 4)))
            self.scope.append((acc, shape))
            body = self.expr(shape, 2)
            lines.append("%s    %s = np.tanh(%s * 0.5 + %s)" % (
                indent, acc, acc, body))
            return None
        if kind == "while":
            # A tensor-conditioned loop that runs at most 3 times.
            shape = r.choice(SHAPES)
            acc, n = self.fresh(), self.fresh()
            lines.append("%s%s = %s" % (indent, acc, self.expr(shape, 2)))
            # The counter starts as a Python int (joined with the float it
            # becomes) or as a tensor; the condition is a tensor's.
            start = r.choice(["0", "np.sum(x) * 0.0"])
            lines.append("%s%s = %s" % (indent, n, start))
            limit = self.expr(SCALAR, 1)
            lines.append("%swhile %s < 3.0 and np.tanh(%s) < 0.9:" % (
                indent, n, limit) if r.random() < 0.3 else
                "%swhile %s < np.sum(y) * 0.0 + %d:" % (
                    indent, n, r.randint(1, 3)))
            self.scope.append((acc, shape))
            lines.append("%s    %s = np.sin(%s) + %s * 0.5" % (
                indent, acc, acc, self.expr(shape, 1)))
            lines.append("%s    %s = %s + 1.0" % (indent, n, n))
            return None
        if kind == "collect":
            return self.collect(lines, indent)
        if kind == "iterate":
            return self.iterate(lines, indent)
        if kind == "comprehension":
            return self.comprehension(lines, indent)
        if kind in ("def", "lambda"):
            # A local function of one argument that captures the scope.
            shape = r.choice(SHAPES)
            name = "%s%d" % ("g" if kind == "def" else "h", len(self.functions))
            saved = list(self.scope)
            self.scope.append(("u", shape))
            body = self.expr(shape, 2)
            self.scope = saved
            if kind == "def":
                lines.append("%sdef %s(u):" % (indent, name))
                lines.append("%s    return %s" % (indent, body))
            else:
                lines.append("%s%s = lambda u: %s" % (indent, name, body))
            self.functions.append((name, shape))
            return None
        # A tuple built and unpacked.
        s1, s2 = r.choice(SHAPES), r.choice(SHAPES)
        a, b, t = self.fresh(), self.fresh(), self.fresh()
        lines.append("%s%s = (%s, %s)" % (indent, t, self.expr(s1, 2),
                                          self.expr(s2, 2)))
        lines.append("%s%s, %s = %s" % (indent, a, b, t))
        self.scope += [(a, s1), (b, s2)]
        return None

    def exit_line(self, index, trips):
        """Sometimes a break or continue under a Python condition on the
        loop's int index (the loop is unrolled)."""
        r = self.rng
        if r.random() < 0.5:
            return None
        if r.random() < 0.5:
            return "if %s == %d:" % (index, r.randrange(trips)), "continue"
        return "if %s >= %d:" % (index, r.randint(1, trips)), "break"

    def loop_body(self, lines, indent, acc, shape, names, index, trips):
        """`acc = np.tanh(acc * 0.5 + e)`, e over the scope and `names`
        (the loop's targets), after an optional break/continue."""
        exit = self.exit_line(index, trips) if index else None
        if exit:
            lines.append("%s    %s" % (indent, exit[0]))
            lines.append("%s        %s" % (indent, exit[1]))
        saved = list(self.scope)
        self.scope += names
        body = self.expr(shape, 2)
        self.scope = saved
        lines.append("%s    %s = np.tanh(%s * 0.5 + %s)" % (indent, acc, acc,
                                                          body))

    def collect(self, lines, indent):
        """A list collected in a Python-int range loop and stacked: an RNN's
        outputs (unrolled)."""
        r = self.rng
        shape = r.choice(SHAPES)
        acc, ys, name = self.fresh(), self.fresh(), self.fresh()
        # Sometimes long enough that ys.append(...) stacks in a tensor
        # carried by an adj.for instead of unrolling (_stacks).
        trips = r.choice([1, 2, 3, 4, 20])
        lines.append("%s%s = %s" % (indent, acc, self.expr(shape, 2)))
        lines.append("%s%s = []" % (indent, ys))
        lines.append("%sfor t in range(%d):" % (indent, trips))
        self.scope.append((acc, shape))
        self.loop_body(lines, indent, acc, shape, [("t", SCALAR)], "t",
                       trips)
        item = r.choice(["%s", "%s * 2.0", "np.sin(%s)"]) % acc
        lines.append("%s    %s" % (indent, self.append_form(ys, item)))
        # An empty list (a break at t >= 0) makes both sides raise: skipped.
        lines.append("%s%s = np.%s(np.stack(%s), axis=0)" % (
            indent, name, r.choice(["sum", "mean", "max"]), ys))
        self.scope.append((name, shape))
        return None

    def append_form(self, ys, item):
        form = self.rng.choice(["%s.append(%s)", "%s += [%s]",
                                "%s = %s + [%s]", "%s.extend([%s])"])
        if form.count("%s") == 3:
            return form % (ys, ys, item)
        return form % (ys, item)

    def iterate(self, lines, indent):
        """A loop over enumerate/zip/reversed of x's rows, Python lists or
        a dict's items: an adj.for when it can be one, else unrolled."""
        r = self.rng
        shape = r.choice(SHAPES)
        acc = self.fresh()
        lines.append("%s%s = %s" % (indent, acc, self.expr(shape, 2)))
        self.scope.append((acc, shape))
        forms = [
            ("i, r in enumerate(x)", [("i", SCALAR), ("r", ROW)], "i", 3),
            ("r, q in zip(x, %s)" % self.expr(MAT, 1),
             [("r", ROW), ("q", ROW)], None, 3),
            ("i, (r, c) in enumerate(zip(x, [0.5, -1.0, 2.0]))",
             [("i", SCALAR), ("r", ROW), ("c", SCALAR)], "i", 3),
            ("r in reversed(x)", [("r", ROW)], None, 3),
            ("i, c in enumerate(%s, start=1)" % self.expr(COL, 1),
             [("i", SCALAR), ("c", SCALAR)], "i", 4),
            ("i in reversed(range(%d))" % r.randint(1, 4), [("i", SCALAR)],
             "i", 1),
        ]
        if shape != SCALAR:
            d = "{'p': %s, 'q': %s}" % (self.expr(shape, 1),
                                         self.expr(shape, 1))
            forms.append(("k, w in %s.items()" % d, [("w", shape)], None, 2))
        target, names, index, trips = r.choice(forms)
        lines.append("%sfor %s:" % (indent, target))
        self.loop_body(lines, indent, acc, shape, names, index, trips)
        return None

    def comprehension(self, lines, indent):
        """A list stacked from a comprehension, or a sum of a generator,
        over the same iterables."""
        r = self.rng
        name = self.fresh()
        saved = list(self.scope)
        self.scope += [("r", ROW), ("i", SCALAR)]
        body = self.expr(ROW, 2)
        self.scope = saved
        rows = ["i, r in enumerate(x)", "i, r in zip(range(5), reversed(x))"]
        if r.random() < 0.5:
            # Three rows of x: a matrix like x.
            lines.append("%s%s = np.stack([%s for %s])" % (
                indent, name, body, r.choice(rows)))
            self.scope.append((name, MAT))
        else:
            lines.append("%s%s = sum(%s for %s)" % (
                indent, name, body,
                r.choice(rows + ["i, r in enumerate([y, y * 2.0])"])))
            self.scope.append((name, ROW))
        return None

    def program(self):
        """The source of one ``def f(x, y)`` returning a scalar."""
        self.scope = [("x", MAT), ("y", ROW)]
        self.functions = []
        self.counter = 0
        lines = ["def f(x, y):"]
        for _ in range(self.rng.randint(1, 6)):
            self.statement(lines, "    ", 1)
        result = self.expr(self.rng.choice(SHAPES), 3)
        lines.append("    return np.sum(np.tanh(%s))" % result)
        return "\n".join(lines) + "\n"
