"""Types in the front end: weakly typed Python numbers, and the join of
the types of branch results, loop-carried values and recursive results.

The element types follow the builder's promotion lattice (after JAX's;
adjoint.promote_types, docs/python.md "Types")::

    i1 < i32 < i64 < {bf16, f16} < f32 < f64        (bf16 v f16 = f32)
    f32 < c64 < c128,  f64 < c128

and the builder promotes two tensors of different dtypes itself. On top of
it, Python numbers are *weakly typed*, as in JAX: a number takes the dtype
of the tensor it meets unless its kind (bool < int < float) is above the
tensor's, and then the tensor is cast to the number's default dtype (i64
for an int, the program's float dtype for a float, the complex type of a
float tensor's precision for a complex number). So ``x * 2.0`` keeps
an f16 ``x`` in f16 and ``i + 0.5`` casts an integer ``i`` to a float.

A number stays a Python number until it meets a tensor or must become one
(a branch result, a loop-carried value, a result). There it becomes a
rank-0 tensor of its default dtype that is still weak: the translator
remembers it (`weak`), arithmetic with numbers keeps it weak, and where
types join (adj.if results, loop-carried values, recursive results) a weak
value takes the other side's dtype. A join of tensors of different shapes
broadcasts them; only a true conflict (a tensor and a tuple, shapes that do
not broadcast) is an error.
"""

import contextlib
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._trees import _is_integer, _is_number

#: The most times a loop or a recursive function is built again with wider
#: types (the lattice is small: more means the types never settle).
_MAX_WIDENINGS = 8

_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3


class Weak:
    """The join state of a weakly typed scalar of a kind (_BOOL, _INT or
    _FLOAT)."""

    def __init__(self, kind):
        self.kind = kind

    def __eq__(self, other):
        return isinstance(other, Weak) and other.kind == self.kind

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "a Python %s" % ("bool", "int", "float", "complex")[self.kind]


class _Widen(Exception):
    """Raised from inside a region whose carried or result types must be
    wider: the region is built again with `states`."""

    def __init__(self, states):
        super().__init__("internal: widen")
        self.states = states


def _number_kind(x):
    if isinstance(x, (bool, _np.bool_)):
        return _BOOL
    if isinstance(x, (int, _np.integer)):
        return _INT
    if isinstance(x, (complex, _np.complexfloating)):
        return _COMPLEX
    return _FLOAT


def _dtype_kind(dtype):
    if dtype == DType.i1:
        return _BOOL
    if dtype.is_complex:
        return _COMPLEX
    return _FLOAT if dtype.is_float else _INT


def _describe(state):
    return repr(state) if isinstance(state, Weak) else str(state)


class _Types:
    """The type half of _Translator (a mixin): weak values, promotion of
    binary operands and joins."""

    def __init__(self):
        self.weak = []  # Values that are weakly typed scalars

    # -- weak values ------------------------------------------------------

    def is_weak(self, v):
        return any(v.is_(w) for w in self.weak)

    @contextlib.contextmanager
    def discarding(self):
        """Forgets the weak Values made inside when it raises: the IR built
        there is erased (or abandoned), and a later Value could take the
        address of an erased one."""
        n = len(self.weak)
        try:
            yield
        except BaseException:
            del self.weak[n:]
            raise

    def mark_weak(self, v):
        if isinstance(v, Value) and not self.is_weak(v):
            self.weak.append(v)
        return v

    def default_dtype(self, kind):
        complex_dtype = DType.c128 if self.float_dtype == DType.f64 \
            else DType.c64
        return (DType.i1, DType.i64, self.float_dtype, complex_dtype)[kind]

    def weak_dtype(self, kind, dtype):
        """The dtype in which a weak scalar of `kind` meets a tensor of
        `dtype`: the tensor's, unless the scalar's kind is above it. A
        complex number meeting a float tensor keeps its precision (f64 ->
        c128, the narrower floats -> c64), as in JAX."""
        if kind <= _dtype_kind(dtype):
            return dtype
        if kind == _COMPLEX and dtype.is_float:
            return DType.c128 if dtype == DType.f64 else DType.c64
        return self.default_dtype(kind)

    # -- binary operators -------------------------------------------------

    def promote(self, op, a, b):
        """`a` and `b` for the binary operator `op` when one is a Value:
        weak operands (numbers, weak Values) are cast so that they do not
        widen a strong one, and a number becomes a float (a constant of the
        other operand's dtype) or, for ** and @, a Value. Returns (a, b,
        whether the result is weak)."""
        va, vb = isinstance(a, Value), isinstance(b, Value)
        if not (va or vb) or not all(
                (isinstance(x, Value) and x.type.is_tensor) or _is_number(x)
                for x in (a, b)):
            return a, b, False
        if op is operator.truediv and max(self._kind(a), self._kind(b)) < \
                _FLOAT:
            # Python's / is the true division: integers divide as floats.
            a, b = (self._as_float(x) for x in (a, b))
            va, vb = isinstance(a, Value), isinstance(b, Value)
        wa = not va or self.is_weak(a)
        wb = not vb or self.is_weak(b)
        if wa and wb:
            # Weak operands: the kinds' default dtypes, and a weak result.
            kind = max(self._kind(a), self._kind(b))
            target = None
        elif wa or wb:
            strong = b if wa else a
            kind = self._kind(a if wa else b)
            target = self.weak_dtype(kind, strong.dtype)
        else:
            return a, b, False  # the builder promotes two strong tensors
        out = []
        for x in (a, b):
            if isinstance(x, Value):
                want = target or (self.default_dtype(kind)
                                  if kind > self._kind(x) else x.dtype)
                out.append(x if x.dtype == want else _adj.cast(x, want))
            else:
                out.append(x)
        for i, x in enumerate(out):
            if not isinstance(x, Value):
                other = out[1 - i]
                # Ints stay ints (all 64 bits, where a float keeps 53);
                # complex numbers become constants of the other's dtype.
                out[i] = self.materialize(x, like=other) if op in (
                    operator.pow, operator.matmul) or \
                    _number_kind(x) == _COMPLEX else \
                    int(x) if _is_integer(x) else float(x)
        return out[0], out[1], wa and wb

    def _as_float(self, x):
        if not isinstance(x, Value):
            return x
        f = _adj.cast(x, self.float_dtype)
        return self.mark_weak(f) if self.is_weak(x) else f

    def _kind(self, x):
        return _dtype_kind(x.dtype) if isinstance(x, Value) \
            else _number_kind(x)

    # -- joins ------------------------------------------------------------

    def state_of(self, x):
        """The join state of a leaf: Weak for numbers and weak Values, else
        the Value's type."""
        if _is_number(x):
            return Weak(_number_kind(x))
        if isinstance(x, Value) and x.type.is_tensor and self.is_weak(x):
            return Weak(_dtype_kind(x.dtype))
        if isinstance(x, Value):
            return x.type
        return self.materialize(x).type  # raises for non-data

    def concrete(self, state):
        if isinstance(state, Weak):
            return _adj.Type.scalar(self.default_dtype(state.kind))
        return state

    def join(self, a, b):
        """The join of two states; None when they conflict."""
        if isinstance(a, Weak) and isinstance(b, Weak):
            return a if a.kind >= b.kind else b
        if isinstance(b, Weak):
            a, b = b, a
        if isinstance(a, Weak):
            if not b.is_tensor:
                return None
            return b.with_dtype(self.weak_dtype(a.kind, b.dtype))
        return _adj.join_types(a, b)

    def join_all(self, before, after, what, node, frame):
        """The joins of two lists of states; a conflict is an error at
        `node` naming `what(i)`, the value at leaf i."""
        out = []
        for i, (a, b) in enumerate(zip(before, after)):
            j = self.join(a, b)
            if j is None:
                raise frame.error("%s is %s on one path and %s on another, "
                                  "which do not join (a tensor and a tuple, "
                                  "or shapes that do not broadcast)"
                                  % (what(i), _describe(a), _describe(b)),
                                  node)
            out.append(j)
        return out

    def convert(self, x, state):
        """The leaf `x` as a Value of the concrete type of `state` (a
        number becomes a constant of that type; a Value is cast and
        broadcast); weak states give weak Values."""
        t = self.concrete(state)
        if _is_number(x):
            exact = _is_integer(x) and not t.dtype.is_float and \
                not t.dtype.is_complex
            v = _adj.scalar(self.module, int(x) if exact else complex(x)
                            if t.dtype.is_complex else float(x), t.dtype)
        else:
            v = self.materialize(x)
        if v.type != t and v.type.is_tensor and t.is_tensor:
            if v.dtype != t.dtype:
                v = _adj.cast(v, t.dtype)
            if list(v.shape) != list(t.shape):
                v = _adj.broadcast_to(v, list(t.shape))
        if isinstance(state, Weak):
            self.mark_weak(v)
        return v

    def widen(self, states, found, what, node, frame):
        """Checks the states a region found against those it was built
        with: raises _Widen with the joins when some are wider (or lose
        weakness), else returns nothing."""
        joined = self.join_all(states, found, what, node, frame)
        if joined != list(states):
            raise _Widen(joined)

    def widening(self, states, build, node, frame, what):
        """Calls build() until it does not raise _Widen, updating the list
        `states` in place (which build's regions read)."""
        for _ in range(_MAX_WIDENINGS):
            try:
                with self.discarding():
                    return build()
            except _Widen as w:
                states[:] = w.states
        raise frame.error("the types of %s keep widening: %s"
                          % (what, ", ".join(_describe(s) for s in states)),
                          node)
