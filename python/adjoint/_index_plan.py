"""numpy's general indexing as one gather or scatter on a flattened view.

Every index form (ints, slices of any step, slices whose start is traced,
None, Ellipsis, integer arrays and tensors broadcast together, build-time
boolean masks) addresses a set of elements whose flat positions are a
tensor L of the result's shape: the sum over the indexed dimensions of
(coordinate along that dimension) * (its row-major stride). x[idx] is then
adj.gather of x viewed as [P, trailing...] at L, and x.at[idx].<op>(v) one
adj.scatter (or scatter_add) there, where `trailing` are the full slices
that end the index (left as rows, so each index moves a whole row) and P
the product of the dimensions before them. Static coordinates are summed
while building (a constant); traced ones (index tensors, loop indices)
become integer adj arithmetic. The gradients are those of gather and
scatter.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_support import as_value


class DynamicSlice:
    """x[i:i + size] with a traced start i: `size` elements from i, the
    start clamped into [0, n - size] as JAX's dynamic_slice does."""

    __slots__ = ("start", "size")

    def __init__(self, start, size):
        self.start, self.size = start, int(size)


def _is_mask(i):
    return isinstance(i, _np.ndarray) and i.dtype == _np.bool_


def _traced_mask_error():
    return IndexError(
        "a boolean mask that is a traced Value gives x[mask] a shape known "
        "only at run time: use numpy.where(mask, x, other), x.at[mask]"
        ".set(v), or a mask known while building (a numpy array); JAX "
        "needs size= here for the same reason")


def _i64(v):
    return v if v.dtype == DType.i64 else _adj.cast(v, DType.i64)


def _wrapped(v, n):
    """A traced index with numpy's negative indices counting from the end."""
    v = _i64(v)
    zero = _adj.scalar(v.module, 0.0, DType.i64)
    return _adj.select(_adj.cmp(_adj.Cmp.LT, v, zero), v + float(n), v)


def wrap_index(v, n):
    """A traced index along an axis of size n, wrapped, then clamped into
    [0, n) in its own axis, as JAX's gathers clamp (so that, flattened with
    the other axes' coordinates, an index past the end never reaches a
    neighbouring row)."""
    return _adj.maximum(_adj.minimum(_wrapped(v, n), float(max(n - 1, 0))),
                        0.0)


def _in_range(w, n):
    """1 (i64) where the wrapped index w lies in [0, n), else 0."""
    ge = _adj.cast(_adj.cmp(_adj.Cmp.GE, w, _adj.scalar(w.module, 0.0,
                                                          DType.i64)),
                   DType.i64)
    return ge * _adj.cast(_adj.cmp(_adj.Cmp.LT, w, _adj.scalar(
        w.module, float(n), DType.i64)), DType.i64)


def _static_array(a, n, dim):
    a = _np.asarray(a)
    if a.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or "
                         "boolean) type, got %s" % a.dtype)
    if a.size and (a.min() < -n or a.max() >= n):
        raise IndexError("an index is out of bounds for axis %d of size %d"
                         % (dim, n))
    return _np.where(a < 0, a + n, a).astype(_np.int64)


def _expand(x, idx):
    """The index as one item per dimension of x (None items add one),
    Ellipsis expanded and build-time masks replaced by their nonzero()."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    items = []
    for i in idx:
        if isinstance(i, list):
            i = _np.asarray(i)
        if isinstance(i, (bool, _np.bool_)):
            raise IndexError("a boolean scalar index is not supported")
        if _is_mask(i):
            items.extend(_np.nonzero(i))
        elif isinstance(i, Value) and i.dtype == DType.i1:
            raise _traced_mask_error()
        else:
            items.append(i)
    if sum(1 for i in items if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis")
    used = sum(1 for i in items if i is not None and i is not Ellipsis)
    if used > x.rank:
        raise IndexError("too many indices for a tensor of rank %d" % x.rank)
    out = []
    for i in items:
        if i is Ellipsis:
            out += [slice(None)] * (x.rank - used)
        else:
            out.append(i)
    if not any(i is Ellipsis for i in items):
        out += [slice(None)] * (x.rank - used)
    return out


def _is_full(i):
    return isinstance(i, slice) and i.start is None and i.stop is None \
        and i.step is None


def _slice_range(s, n, dim):
    for part in (s.start, s.stop, s.step):
        if isinstance(part, Value):
            raise IndexError(
                "slice bounds that are traced Values must be written "
                "x[i:i + k] with k known while building (axis %d)" % dim)
    return _np.arange(*s.indices(n), dtype=_np.int64)


class _Plan:
    """The flat positions L of the elements that an index addresses."""

    def __init__(self, x, idx):
        items = _expand(x, idx)
        shape = list(x.shape)
        # The full slices that end the index stay whole rows.
        end = len(items)
        while end and _is_full(items[end - 1]):
            end -= 1
        lead, tail = items[:end], len(items) - end
        self.trailing = shape[len(shape) - tail:] if tail else []
        dims = len(shape) - len(self.trailing)
        self.rows = int(_np.prod(shape[:dims], dtype=_np.int64))
        strides = [int(_np.prod(shape[d + 1:dims], dtype=_np.int64))
                   for d in range(dims)]
        self.x = x
        advanced = [k for k, i in enumerate(lead)
                    if isinstance(i, (Value, _np.ndarray))]
        # As in numpy, ints join the advanced indices when there are any.
        if advanced:
            advanced = [k for k, i in enumerate(lead)
                        if isinstance(i, (Value, _np.ndarray, int,
                                          _np.integer))]
        adv_shapes = [tuple(lead[k].shape) if hasattr(lead[k], "shape")
                      else () for k in advanced]
        block = list(_np.broadcast_shapes(*adv_shapes)) if advanced else []
        adjacent = advanced == list(range(advanced[0], advanced[-1] + 1)) \
            if advanced else True
        # Result axes: each basic item one, the advanced block in place
        # when its items are adjacent, else first (numpy's rule).
        out_shape, axis_of, block_at = [], {}, 0 if advanced else None
        for k, i in enumerate(lead):
            if advanced and k == advanced[0] and adjacent:
                block_at = len(out_shape)
                out_shape += block
            if k in advanced:
                continue
            if i is None:
                out_shape.append(1)
            elif isinstance(i, DynamicSlice):
                axis_of[k] = len(out_shape)
                out_shape.append(i.size)
            elif isinstance(i, slice):
                axis_of[k] = len(out_shape)
                out_shape.append(None)   # its length, below
            # a lone int (no advanced index) adds no axis
        if advanced and not adjacent:
            out_shape = block + out_shape
            axis_of = {k: a + len(block) for k, a in axis_of.items()}
        static = _np.zeros((), dtype=_np.int64)
        traced, in_range = [], []
        rank = len(out_shape)

        def placed(length, axis):
            s = [1] * rank
            s[axis] = length
            return s

        def in_block(a_shape):
            s = [1] * rank
            off = block_at + len(block) - len(a_shape)
            s[off:off + len(a_shape)] = a_shape
            return s

        d = 0
        for k, i in enumerate(lead):
            if i is None:
                continue
            n, stride = shape[d], strides[d]
            if k in advanced:
                if isinstance(i, Value):
                    if i.dtype not in (DType.i64, DType.i32):
                        raise IndexError("tensor indices must be integers")
                    w = _wrapped(i, n)
                    in_range.append(_adj.reshape(_in_range(w, n),
                                                 in_block(list(i.shape))))
                    v = _adj.maximum(_adj.minimum(w, float(max(n - 1, 0))),
                                     0.0)
                    v = _adj.reshape(v, in_block(list(i.shape)))
                    traced.append(v * float(stride) if stride != 1 else v)
                else:
                    a = _static_array(i, n, d)
                    static = static + a.reshape(in_block(list(a.shape))) \
                        * stride
            elif isinstance(i, DynamicSlice):
                if not 0 <= i.size <= n:
                    raise IndexError("a slice of %d elements does not fit "
                                     "axis %d of size %d" % (i.size, d, n))
                start = _i64(_adj.reshape(i.start, [])) \
                    if i.start.rank else _i64(i.start)
                # As lax.dynamic_slice: a negative start counts from the
                # end, then the slice is moved to fit.
                start = _adj.select(start < 0.0, start + float(n), start)
                start = _adj.maximum(_adj.minimum(start, float(n - i.size)),
                                     0.0)
                coords = _adj.iota(x.module, [i.size], 0, DType.i64) + start
                coords = _adj.reshape(coords, placed(i.size, axis_of[k]))
                traced.append(coords * float(stride) if stride != 1
                              else coords)
            elif isinstance(i, slice):
                a = _slice_range(i, n, d)
                out_shape[axis_of[k]] = len(a)
                static = static + a.reshape(placed(len(a), axis_of[k])) \
                    * stride
            else:
                c = int(i)
                if not -n <= c < n:
                    raise IndexError("index %d is out of bounds for axis %d "
                                     "of size %d" % (c, d, n))
                static = static + (c % n) * stride
            d += 1
        self.shape = out_shape
        self.static = static
        self.traced = traced
        self.in_range = in_range

    def positions(self):
        """L, an i64 tensor of the result's leading shape."""
        x = self.x
        flat = None
        if self.static.ndim or self.static != 0 or not self.traced:
            flat = _adj.constant(x.module, self.static.astype(_np.float64),
                                 list(self.static.shape), DType.i64)
        for t in self.traced:
            flat = t if flat is None else flat + t
        if list(flat.shape) != self.shape:
            flat = _adj.broadcast_to(flat, self.shape)
        return flat

    def table(self):
        return _adj.reshape(self.x, [self.rows] + self.trailing)

    def result_shape(self):
        return self.shape + self.trailing


def gather(x, idx):
    """x[idx] for any index form but a traced boolean mask."""
    plan = _Plan(x, idx)
    return _adj.gather(plan.table(), plan.positions(), 0)


def _updates(x, v, shape):
    """v as x's dtype, broadcast to `shape` (the shape of x[idx])."""
    if not isinstance(v, Value):
        v = as_value(v, "at", like=x)
    if v.dtype != x.dtype:
        v = _adj.cast(v, x.dtype)
    if list(v.shape) != list(shape):
        v = _adj.broadcast_to(v, list(shape))
    return v


def scatter(mode, x, idx, v):
    """x.at[idx].<mode>(v): functional, with the index forms of gather.

    As JAX's, an update at a traced index out of its axis' range is dropped:
    it is sent to one extra row after the table, cut off afterwards."""
    plan = _Plan(x, idx)
    v = _updates(x, v, plan.result_shape())
    table, positions = plan.table(), plan.positions()
    if plan.in_range:
        ok = plan.in_range[0]
        for r in plan.in_range[1:]:
            ok = ok * r
        if list(ok.shape) != plan.shape:
            ok = _adj.broadcast_to(ok, plan.shape)
        spare = _adj.scalar(x.module, float(plan.rows), DType.i64)
        positions = _adj.select(_adj.cmp(_adj.Cmp.EQ, ok, _adj.scalar(
            x.module, 1.0, DType.i64)), positions, spare)
        zeros = [0] * len(plan.trailing)
        table = _adj.pad(table, [0] + zeros, [1] + zeros)
        out = _adj.scatter(mode, table, positions, v, 0)
        out = _adj.slice(out, [0] + zeros, [plan.rows] + plan.trailing,
                         [1] * (1 + len(zeros)))
        return _adj.reshape(out, list(x.shape))
    out = _adj.scatter(mode, table, positions, v, 0)
    return _adj.reshape(out, list(x.shape))


def masked(mode, x, mask, v):
    """x.at[mask].<mode>(v) with a traced boolean mask over x's leading
    dimensions, as a select (the shape of x[mask] is not known while
    building, so v must broadcast to x's trailing dimensions)."""
    shape = list(x.shape)
    if list(mask.shape) != shape[:mask.rank]:
        raise IndexError("a boolean mask of shape %s does not match the "
                         "leading dimensions of a tensor of shape %s"
                         % (list(mask.shape), shape))
    m = _adj.reshape(mask, list(mask.shape) + [1] * (x.rank - mask.rank))
    v = _updates(x, v, shape)
    if mode == "set":
        return _adj.select(m, v, x)
    if mode == "add":
        return x + _adj.select(m, v, 0.0)
    if mode == "mul":
        return x * _adj.select(m, v, 1.0)
    combined = _adj.minimum(x, v) if mode == "min" else _adj.maximum(x, v)
    return _adj.select(m, combined, x)
