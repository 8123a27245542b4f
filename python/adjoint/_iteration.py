"""What loops and comprehensions run over: sequences whose length is known
while building.

An item is read at an index that is a Python int (an unrolled loop, a
comprehension) or, for a *traceable* sequence, at the i64 index Value of an
adj.for: ranges of Python ints, the rows of a tensor, and enumerate, zip and
reversed of those. A Python tuple or list is a sequence too, read only at
Python ints, so a loop over it is unrolled. A range whose bounds are tensors
(_TracedRange) has no length while building: only `for i in range(n)` can run
over it, as an adj.for with tensor bounds.
"""

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._indexing import getitem


class _Seq:
    traceable = True

    def __iter__(self):
        for i in range(len(self)):
            yield self.item(i)


class _Range(_Seq):
    def __init__(self, r):
        self.range = r

    def __len__(self):
        return len(self.range)

    def item(self, i):
        if not isinstance(i, Value):
            return self.range[i]
        r = self.range
        i = i if r.step == 1 else i * r.step
        return i if r.start == 0 else i + r.start


class _Rows(_Seq):
    """x[i] along the first axis; at a traced index a plain gather (the
    index is in range by construction)."""

    def __init__(self, x):
        self.x = x

    def __len__(self):
        return self.x.shape[0]

    def item(self, i):
        if isinstance(i, Value):
            return _adj.gather(self.x, i, 0)
        return getitem(self.x, i)


class _Items(_Seq):
    traceable = False

    def __init__(self, items):
        self.items = tuple(items)

    def __len__(self):
        return len(self.items)

    def item(self, i):
        return self.items[i]


class _Enumerate(_Seq):
    def __init__(self, seq, start):
        self.seq, self.start = seq, start
        self.traceable = seq.traceable

    def __len__(self):
        return len(self.seq)

    def item(self, i):
        index = i if self.start == 0 else i + self.start
        return index, self.seq.item(i)


class _Zip(_Seq):
    def __init__(self, seqs, strict):
        self.seqs = seqs
        self.traceable = all(s.traceable for s in seqs)
        if strict and len({len(s) for s in seqs}) > 1:
            raise ValueError("zip(strict=True): the arguments have lengths "
                             "%s" % [len(s) for s in seqs])

    def __len__(self):
        return min((len(s) for s in self.seqs), default=0)

    def item(self, i):
        return tuple(s.item(i) for s in self.seqs)


class _Reversed(_Seq):
    def __init__(self, seq):
        self.seq = seq
        self.traceable = seq.traceable

    def __len__(self):
        return len(self.seq)

    def item(self, i):
        return self.seq.item(len(self) - 1 - i)


class _TracedRange:
    """range(a, b, c) with a tensor bound (i64 scalars)."""

    def __init__(self, args):
        if not 1 <= len(args) <= 3:
            raise TypeError("range expected 1 to 3 arguments, got %d"
                            % len(args))
        for a in args:
            if isinstance(a, Value) and (a.rank != 0 or a.dtype not in (
                    DType.i32, DType.i64)):
                raise TypeError("range() bounds must be integer scalars, "
                                "not a %s" % a.type)
            if not isinstance(a, (Value, int)):
                raise TypeError("range() bounds must be integers, not %s"
                                % type(a).__name__)
        args = list(args)
        self.args = [0] + args + [1] if len(args) == 1 else \
            args + [1] if len(args) == 2 else args
        if isinstance(self.args[2], int) and self.args[2] == 0:
            raise ValueError("range() arg 3 must not be zero")

    def __iter__(self):
        raise TypeError("a range with tensor bounds has no length while "
                        "building: loop over it directly, `for i in "
                        "range(n)`, or give it Python int bounds")

    __len__ = __iter__


def sequence(x):
    """x as a _Seq, or None when it is not a sequence of known length."""
    if isinstance(x, _Seq):
        return x
    if isinstance(x, range):
        return _Range(x)
    if isinstance(x, Value):
        if not x.type.is_tensor or x.rank == 0:
            raise TypeError("cannot iterate over a %s" % x.type)
        return _Rows(x)
    if isinstance(x, _TracedRange):
        iter(x)  # raises, saying why
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        return None
    return _Items(x)


def iteration_builtin(fn, args, kwargs):
    """enumerate, zip or reversed over arguments of which one is a tensor,
    a range or a _Seq (Python's own serve Python containers)."""
    if fn is enumerate:
        if not 1 <= len(args) <= 2 or set(kwargs) - {"start"}:
            raise TypeError("enumerate(iterable, start=0)")
        start = args[1] if len(args) == 2 else kwargs.get("start", 0)
        return _Enumerate(_required(args[0]), start)
    if fn is zip:
        strict = kwargs.pop("strict", False)
        if kwargs:
            raise TypeError("zip() takes no keyword %s" % sorted(kwargs))
        return _Zip([_required(a) for a in args], strict)
    if len(args) != 1 or kwargs:
        raise TypeError("reversed() takes exactly one argument")
    return _Reversed(_required(args[0]))


def is_iteration_call(fn, args):
    return fn in (enumerate, zip, reversed) and any(
        isinstance(a, (Value, range, _Seq, _TracedRange)) for a in args)


def _required(x):
    seq = sequence(x)
    if seq is None:
        raise TypeError("'%s' object is not iterable" % type(x).__name__)
    return seq
