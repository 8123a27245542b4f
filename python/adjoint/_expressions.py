"""Expressions: operators, literals, names, calls, tuples."""

import ast
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value
from ._index_plan import DynamicSlice
from ._indexing import attribute, getitem
from ._np_contraction import matmul
from ._np_index_tricks import for_numpy
from ._source import FrontendError
from ._trees import _BINOPS, _CMPOPS, _InlineFn, _Return, _is_number


class _Expressions:
    """The expression half of _Translator (a mixin)."""

    # -- expressions ------------------------------------------------------

    def expr(self, e, frame):
        try:
            return self._expr(e, frame)
        except (_Return, FrontendError):
            raise
        except (_adj.Error, TypeError, ValueError, IndexError,
                AttributeError) as err:
            raise frame.error(str(err), e) from err

    def binop(self, op, a, b):
        """`a op b` with Python's semantics on numbers and the promotion
        rules of _dtypes on Values (weak numbers keep the tensor's dtype)."""
        a, b, weak = self.promote(op, a, b)
        if op is operator.pow and isinstance(a, Value) and \
                isinstance(b, Value):
            r = _adj.pow(a, b)
        elif op is operator.matmul and isinstance(a, Value):
            r = matmul(a, b)
        else:
            r = op(a, b)
        if weak and op not in _CMPOPS.values():
            self.mark_weak(r)
        return r

    def _expr(self, e, frame):
        if isinstance(e, ast.Constant):
            if _is_number(e.value) or e.value is None or \
                    e.value is Ellipsis or isinstance(e.value, str):
                return e.value
            raise frame.error("unsupported constant", e)
        if isinstance(e, ast.Name):
            return self.host(frame.lookup(e.id, e))
        if isinstance(e, ast.Attribute):
            obj = self.expr(e.value, frame)
            if isinstance(obj, Value):
                return attribute(obj, e.attr)
            return self.host(getattr(obj, e.attr))
        if isinstance(e, ast.Tuple):
            return tuple(self.starred(e.elts, frame))
        if isinstance(e, ast.List):
            return list(self.starred(e.elts, frame))
        if isinstance(e, ast.BinOp):
            op = _BINOPS.get(type(e.op))
            if op is None:
                raise frame.error("unsupported operator %s"
                                  % type(e.op).__name__, e)
            return self.binop(op, self.expr(e.left, frame),
                              self.expr(e.right, frame))
        if isinstance(e, ast.UnaryOp):
            v = self.expr(e.operand, frame)
            if isinstance(e.op, ast.USub):
                return -v
            if isinstance(e.op, ast.UAdd):
                return v
            if isinstance(e.op, ast.Not) and not isinstance(v, Value):
                return not v
            if isinstance(e.op, ast.Not):
                return _adj.select(v, self.materialize(False), 
                                   self.materialize(True))
            raise frame.error("unsupported unary operator", e)
        if isinstance(e, ast.Compare):
            left = self.expr(e.left, frame)
            result = None
            for op, right_node in zip(e.ops, e.comparators):
                right = self.expr(right_node, frame)
                fn = _CMPOPS.get(type(op))
                if fn is None:
                    c = _python_comparison(op, left, right, e, frame)
                else:
                    c = self.binop(fn, left, right)
                result = c if result is None else self.logical(
                    True, result, c)
                left = right
            return result
        if isinstance(e, ast.BoolOp):
            is_and = isinstance(e.op, ast.And)
            result = self.expr(e.values[0], frame)
            for v in e.values[1:]:
                if not isinstance(result, Value):
                    # Python semantics, short-circuiting at build time.
                    if (is_and and not result) or (not is_and and result):
                        return result
                    result = self.expr(v, frame)
                    continue
                result = self.logical(is_and, result, self.expr(v, frame))
            return result
        if isinstance(e, ast.IfExp):
            cond = self.expr(e.test, frame)
            if not isinstance(cond, Value):
                return self.expr(e.body if cond else e.orelse, frame)
            return self.conditional(cond, lambda: self.expr(e.body, frame),
                                    lambda: self.expr(e.orelse, frame), e,
                                    frame)
        if isinstance(e, ast.Call):
            fn = self.expr(e.func, frame)
            args = self.starred(e.args, frame)
            kwargs = {}
            for k in e.keywords:
                if k.arg is not None:
                    kwargs[k.arg] = self.expr(k.value, frame)
                    continue
                # f(**options): a mapping known while building (its values
                # may be traced arrays), as Python unpacks it.
                named = self.expr(k.value, frame)
                if not hasattr(named, "keys"):
                    raise frame.error("argument after ** must be a mapping, "
                                      "not %s" % type(named).__name__, k)
                for name in named.keys():
                    if name in kwargs:
                        raise frame.error("got multiple values for keyword "
                                          "argument '%s'" % name, k)
                    kwargs[name] = named[name]
            return self.call(fn, args, kwargs, e, frame)
        if isinstance(e, ast.Subscript):
            obj = self.expr(e.value, frame)
            idx = self.index_expr(e.slice, frame)
            if isinstance(obj, Value):
                if obj.type.is_tuple and isinstance(idx, int):
                    return _adj.get(obj, idx)
                return getitem(obj, idx)
            tricks = for_numpy(obj, idx)
            if tricks is not None:   # np.r_[x, 0.0], np.c_[a, b]
                return tricks[idx]
            # An array reached through a container (D["k"]) becomes a
            # constant like one read by name.
            return self.host(obj[idx])
        if isinstance(e, ast.Slice):
            parts = [None if p is None else self.expr(p, frame)
                     for p in (e.lower, e.upper, e.step)]
            size = self.dynamic_slice_size(e, parts, frame)
            if size is not None:
                return DynamicSlice(parts[0], size)
            return slice(*parts)
        if isinstance(e, ast.Lambda):
            return self.closure(e, frame)
        if isinstance(e, (ast.ListComp, ast.GeneratorExp, ast.SetComp,
                          ast.DictComp)):
            return self.comprehension(e, frame)
        if isinstance(e, ast.Dict):
            if any(k is None for k in e.keys):
                raise frame.error("**mapping in a dict display is not "
                                  "supported", e)
            return {self.expr(k, frame): self.expr(v, frame)
                    for k, v in zip(e.keys, e.values)}
        raise frame.error("unsupported expression: %s" % type(e).__name__, e)

    def dynamic_slice_size(self, e, parts, frame):
        """k when the slice is `a + c:a + c + k` (step 1) with a traced
        start and c, k known while building: JAX's dynamic_slice written
        as numpy."""
        start, _, step = parts
        if not isinstance(start, Value) or step not in (None, 1) or \
                e.upper is None:
            return None
        low_base, low = self.offset_of(e.lower, frame)
        up_base, up = self.offset_of(e.upper, frame)
        if low is None or up is None or ast.dump(low_base) != \
                ast.dump(up_base):
            return None
        return up - low

    def offset_of(self, e, frame):
        """(base, c) for an expression `base + c`, `c + base`, `base - c`
        or `base` with c an int known while building; (e, None) else."""
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
            pairs = [(e.left, e.right)]
            if isinstance(e.op, ast.Add):
                pairs.append((e.right, e.left))
            for base, c in pairs:
                if isinstance(c, (ast.Constant, ast.Name, ast.UnaryOp)):
                    k = self.expr(c, frame)
                    if isinstance(k, int) and not isinstance(k, bool):
                        return base, k if isinstance(e.op, ast.Add) else -k
        return e, 0

    def comprehension(self, e, frame):
        """Comprehensions run while building, over Python iterables (or
        the rows of a tensor), like an unrolled loop; a generator is
        evaluated to a tuple."""
        out = []

        def run(generators, f):
            if not generators:
                if isinstance(e, ast.DictComp):
                    out.append((self.expr(e.key, f), self.expr(e.value, f)))
                else:
                    out.append(self.expr(e.elt, f))
                return
            g = generators[0]
            if g.is_async:
                raise frame.error("async comprehensions are not supported", g)
            it = self.expr(g.iter, f)
            if isinstance(it, Value):
                if not it.type.is_tensor or it.rank == 0:
                    raise frame.error("cannot iterate over a %s" % it.type, g)
                it = [getitem(it, i) for i in range(it.shape[0])]
            for v in it:
                inner = f.child()
                self.assign(g.target, v, inner)
                conds = [self.expr(c, inner) for c in g.ifs]
                if any(isinstance(c, Value) for c in conds):
                    raise frame.error("a comprehension's condition must be "
                                      "known while building", g)
                if all(conds):
                    run(generators[1:], inner)

        run(e.generators, frame)
        if isinstance(e, ast.DictComp):
            return dict(out)
        if isinstance(e, ast.ListComp):
            return out
        if isinstance(e, ast.SetComp):
            return set(out)
        return tuple(out)

    def host(self, x):
        """A numpy array of the Python program (a global, a closure cell, an
        attribute) read by jitted code becomes a constant, except in an
        index, where it stays an array known while building (a boolean
        mask's positions, bounds checked now)."""
        if isinstance(x, _np.ndarray) and not getattr(self, "_in_index",
                                                      False):
            return self.constant(x)
        return x

    def index_expr(self, e, frame):
        """The subscript of x[...]: numpy arrays of the program stay
        arrays."""
        outer = getattr(self, "_in_index", False)
        self._in_index = True
        try:
            return self.expr(e, frame)
        finally:
            self._in_index = outer

    def closure(self, fnode, frame):
        """The build-time closure of a def or lambda; its defaults are
        evaluated now, as Python does."""
        a = fnode.args
        defaults = [self.expr(d, frame) for d in a.defaults]
        kwdefaults = {p.arg: self.expr(d, frame)
                      for p, d in zip(a.kwonlyargs, a.kw_defaults)
                      if d is not None}
        return _InlineFn(fnode, frame, defaults, kwdefaults)

    def logical(self, is_and, a, b):
        if not isinstance(a, Value):
            a = self.materialize(bool(a))
        if not isinstance(b, Value):
            b = self.materialize(bool(b))
        return _adj.select(a, b, a) if is_and else _adj.select(a, a, b)

    def starred(self, elts, frame):
        out = []
        for x in elts:
            if isinstance(x, ast.Starred):
                out.extend(self.expr(x.value, frame))
            else:
                out.append(self.expr(x, frame))
        return out


def _python_comparison(op, left, right, node, frame):
    """`is`, `is not`, `in` and `not in`, decided while building: identity
    of build-time objects (`x is None`, `type(d) is int`) and membership in
    Python containers (`k in d`, `mode in ("a", "b")`). Membership of a
    traced array would ask each element's truth, which is not known while
    building."""
    if isinstance(op, ast.Is):
        return left is right
    if isinstance(op, ast.IsNot):
        return left is not right
    if isinstance(right, Value) or (isinstance(left, Value) and
                                    not isinstance(right, dict)):
        raise frame.error("`in` on traced arrays is not supported in jitted "
                          "code: compare with == and reduce with "
                          "np.any", node)
    found = left in right
    return found if isinstance(op, ast.In) else not found
