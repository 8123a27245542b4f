"""numpy.pad in jitted code, every mode: the array grows one axis at a time
(as numpy pads, so a later axis's pad covers the corners), each side a
block joined with adj.concat. The blocks are fills, broadcast edges,
reversed or repeated slices of the array being padded, ramps and
statistics, so derivatives come from slice, reverse, concat and the
reductions.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value
from ._np_reductions import amax, amin, mean
from ._np_rounding import floor, rint
from ._np_sorting import sort
from ._np_support import as_value, cast_to, float_dtype, size

_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp",
          "maximum", "mean", "median", "minimum", "empty")

# The keywords each mode takes (numpy's).
_KEYWORDS = {"constant": ("constant_values",), "linear_ramp": ("end_values",),
             "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
             "maximum": ("stat_length",), "mean": ("stat_length",),
             "median": ("stat_length",), "minimum": ("stat_length",)}


def _pairs(v, rank, what, integers=True):
    """numpy's forms of per-axis (before, after) pairs: a number, (n,),
    (before, after), or one pair per axis."""
    if isinstance(v, Value):
        raise TypeError("adjoint.numpy.pad: %s must be known while building"
                        % what)
    a = _np.asarray(v)
    if integers and a.dtype.kind not in "iu":
        raise TypeError("adjoint.numpy.pad: `%s` must be of integral type"
                        % what)
    try:
        a = _np.broadcast_to(a, (rank, 2))
    except ValueError:
        raise ValueError("adjoint.numpy.pad: %s of shape %s cannot be "
                         "broadcast to (%d, 2)" % (what, a.shape, rank)) \
            from None
    if integers and (a < 0).any():
        raise ValueError("adjoint.numpy.pad: index can't contain negative "
                         "values")
    return a.tolist()


def _values(v, rank, x):
    """constant_values/end_values: numbers (in numpy's pair forms) or a
    traced scalar, as Values of x's dtype per axis and side."""
    if isinstance(v, Value):
        if v.rank:
            raise ValueError("adjoint.numpy.pad: a traced pad value must be "
                             "a scalar")
        v = cast_to(v, x.dtype)
        return [[v, v] for _ in range(rank)]
    pairs = _pairs(v, rank, "the pad values", integers=False)
    return [[cast_to(as_value(p, "pad", like=x), x.dtype) for p in pair]
            for pair in pairs]


def _part(x, axis, lo, hi):
    start, limit = [0] * x.rank, list(x.shape)
    start[axis], limit[axis] = lo, hi
    return _adj.slice(x, start, limit)


def _spread(x, axis, width):
    """x (of size 1 along `axis`) repeated `width` times along it."""
    shape = list(x.shape)
    shape[axis] = width
    return _adj.broadcast_to(x, shape)


def _fill(value, like, axis, width):
    shape = list(like.shape)
    shape[axis] = width
    return _adj.broadcast_to(value, shape)


def pad(array, pad_width, mode="constant", **kwargs):
    """numpy.pad: `pad_width` and the mode's values in numpy's forms (a
    number, (n,), (before, after) or one pair per axis)."""
    x = as_value(array, "pad")
    if callable(mode):
        raise TypeError("adjoint.numpy.pad: a function as mode is not "
                        "supported in jitted code")
    if mode not in _MODES:
        raise ValueError("adjoint.numpy.pad: mode %r is not supported"
                         % (mode,))
    unknown = set(kwargs) - set(_KEYWORDS.get(mode, ()))
    if unknown:
        raise ValueError("adjoint.numpy.pad: unsupported keyword arguments "
                         "for mode '%s': %s" % (mode, sorted(unknown)))
    widths = _pairs(pad_width, x.rank, "pad_width")
    if mode == "constant":
        values = _values(kwargs.get("constant_values", 0), x.rank, x)
    elif mode == "linear_ramp":
        values = _values(kwargs.get("end_values", 0), x.rank, x)
    elif mode in ("maximum", "mean", "median", "minimum"):
        stat = kwargs.get("stat_length")
        values = None if stat is None else _pairs(stat, x.rank,
                                                   "stat_length")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError("adjoint.numpy.pad: reflect_type must be 'even' or "
                         "'odd', not %r" % (reflect_type,))
    for axis, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        n = x.shape[axis]
        if n == 0 and mode not in ("constant", "empty"):
            raise ValueError("adjoint.numpy.pad: can't extend empty axis %d "
                             "using modes other than 'constant' or 'empty'"
                             % axis)
        if mode in ("constant", "empty"):
            v = values[axis] if mode == "constant" else [
                _adj.scalar(x.module, 0.0, x.dtype)] * 2
            x = _adj.concat(_nonempty([_fill(v[0], x, axis, before), x,
                                       _fill(v[1], x, axis, after)]), axis)
        elif mode in ("reflect", "symmetric", "wrap"):
            x = _extend(x, axis, before, after, mode, reflect_type == "odd")
        elif mode == "edge":
            x = _adj.concat(_nonempty([
                _spread(_part(x, axis, 0, 1), axis, before), x,
                _spread(_part(x, axis, n - 1, n), axis, after)]), axis)
        elif mode == "linear_ramp":
            x = _ramp(x, axis, before, after, values[axis])
        else:
            length = None if values is None else values[axis]
            x = _statistic(x, axis, before, after, mode, length)
    return x


def _nonempty(parts):
    """The parts that hold elements (an empty one cannot be lowered)."""
    return [p for p in parts if size(p.shape)]


def _extend(x, axis, before, after, mode, odd):
    """reflect/symmetric/wrap, as numpy grows them: by chunks no longer
    than the period, each read from the array padded so far (so widths
    beyond the array's length repeat the pattern)."""
    n = x.shape[axis]
    if mode == "reflect" and n == 1:
        mode = "edge_like"
    period = n - 1 if mode == "reflect" else n
    left, right = before, after
    while left or right:
        if left:
            k = min(left, period) if mode != "edge_like" else left
            if mode == "wrap":
                # The period ends `period` positions into the array.
                chunk = _part(x, axis, period - k, period)
            elif mode == "edge_like":
                chunk = _spread(_part(x, axis, 0, 1), axis, k)
            else:
                off = 1 if mode == "reflect" else 0
                chunk = _adj.reverse(_part(x, axis, off, off + k), [axis])
            if odd and mode != "wrap":
                edge = _spread(_part(x, axis, 0, 1), axis, k)
                chunk = edge + edge - chunk
            x = _adj.concat([chunk, x], axis)
            left -= k
        if right:
            m = x.shape[axis]
            k = min(right, period) if mode != "edge_like" else right
            if mode == "wrap":
                chunk = _part(x, axis, m - period, m - period + k)
            elif mode == "edge_like":
                chunk = _spread(_part(x, axis, m - 1, m), axis, k)
            else:
                off = 1 if mode == "reflect" else 0
                chunk = _adj.reverse(_part(x, axis, m - off - k, m - off),
                                     [axis])
            if odd and mode != "wrap":
                edge = _spread(_part(x, axis, m - 1, m), axis, k)
                chunk = edge + edge - chunk
            x = _adj.concat([x, chunk], axis)
            right -= k
    return x


def _ramp(x, axis, before, after, ends):
    """Linear ramps from the end values to the edges (the edge itself
    excluded), computed in floats (floored for an integer array) as
    numpy's linspace does."""
    n = x.shape[axis]
    parts = []
    for width, edge_at, end, rising in ((before, 0, ends[0], True),
                                        (after, n - 1, ends[1], False)):
        if not width:
            parts.append(None)
            continue
        t = _np.arange(width, dtype=_np.float64) / width
        if not rising:
            t = t[::-1]
        shape = [1] * x.rank
        shape[axis] = width
        weights = _adj.constant(x.module, t, shape, _ramp_dtype(x))
        edge = _spread(cast_to(_part(x, axis, edge_at, edge_at + 1),
                               _ramp_dtype(x)), axis, width)
        end = cast_to(end, _ramp_dtype(x))
        ramp = end + (edge - end) * weights
        if not x.dtype.is_float:
            ramp = floor(ramp)   # numpy's integer linspace floors
        parts.append(cast_to(ramp, x.dtype))
    return _adj.concat([p for p in (parts[0], x, parts[1]) if p is not None],
                       axis)


def _ramp_dtype(x):
    return x.dtype if x.dtype.is_float else float_dtype()


def _statistic(x, axis, before, after, mode, length):
    """maximum/minimum/mean/median of the first (last) stat_length
    positions, repeated over the pad."""
    n = x.shape[axis]
    parts = []
    for width, first, k in ((before, True, None if length is None else
                             length[0]),
                            (after, False, None if length is None else
                             length[1])):
        if not width:
            parts.append(None)
            continue
        k = n if k is None else min(int(k), n)
        if k == 0:
            raise ValueError("adjoint.numpy.pad: stat_length of 0 yields no "
                             "value for padding")
        region = _part(x, axis, 0, k) if first else _part(x, axis, n - k, n)
        if mode == "maximum":
            s = amax(region, axis=axis, keepdims=True)
        elif mode == "minimum":
            s = amin(region, axis=axis, keepdims=True)
        elif mode == "mean":
            s = mean(region, axis=axis, keepdims=True)
        else:
            s = _median(region, axis)
        if not x.dtype.is_float and s.dtype != x.dtype:
            s = rint(s)   # numpy rounds an integer array's mean
        parts.append(_spread(cast_to(s, x.dtype), axis, width))
    return _adj.concat([p for p in (parts[0], x, parts[1]) if p is not None],
                       axis)


def _median(region, axis):
    """The median along `axis` (kept): the middle of the sorted values, the
    mean of the middle two for an even count."""
    k = region.shape[axis]
    s = sort(region, axis=axis)
    if not s.dtype.is_float:
        s = cast_to(s, float_dtype())
    mid = _part(s, axis, (k - 1) // 2, k // 2 + 1)
    return mean(mid, axis=axis, keepdims=True)
