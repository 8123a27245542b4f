"""numpy's finite differences, integrals and scans in jitted code: diff,
ediff1d, gradient (numpy's second-order-accurate interior and first- or
second-order edges, uniform or coordinate spacing), trapezoid,
cumulative_sum/cumulative_prod (include_initial), interp (left, right,
period) and unwrap. All are slices, pads and arithmetic of the operands,
so their derivatives and batching are adj's ops'.
"""

import math

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_movement import take
from ._np_reductions import _scan
from ._np_rounding import remainder
from ._np_searching import searchsorted
from ._np_sorting import argsort
from ._np_support import (as_value, cast_to, float_dtype, normalize_axes,
                          normalize_axis, ravel)

_NO_VALUE = object()


def _float(x):
    return x if x.dtype.is_inexact else _adj.cast(x, float_dtype())


def _part(x, axis, start, stop):
    """x[start:stop] along `axis` (Python slice bounds)."""
    start, stop, _ = slice(start, stop).indices(x.shape[axis])
    lo, hi = [0] * x.rank, list(x.shape)
    lo[axis], hi[axis] = start, max(start, stop)
    return _adj.slice(x, lo, hi)


def _along(v, axis, rank):
    """A 1-D v shaped to broadcast along `axis` of a rank-`rank` array."""
    shape = [1] * rank
    shape[axis] = v.shape[0]
    return _adj.reshape(v, shape)


def _edge(value, x, axis, name):
    """prepend/append: a scalar or array broadcast to x's shape with a size
    along `axis` of its own (1 for a scalar)."""
    v = cast_to(as_value(value, name, like=x), x.dtype)
    if v.rank == 0:
        shape = list(x.shape)
        shape[axis] = 1
        return _adj.broadcast_to(v, shape)
    shape = list(x.shape)
    shape[axis] = v.shape[axis] if v.rank == x.rank else 1
    if v.rank != x.rank:
        v = _adj.reshape(v, [1] * (x.rank - v.rank) + list(v.shape))
    return _adj.broadcast_to(v, shape)


def diff(a, n=1, axis=-1, prepend=_NO_VALUE, append=_NO_VALUE):
    """The n-th forward difference along `axis` (booleans: whether
    neighbours differ, as numpy)."""
    if n < 0:
        raise ValueError("adjoint.numpy.diff: order must be non-negative "
                         "but got %r" % (n,))
    x = as_value(a, "diff")
    if x.rank == 0:
        raise ValueError("adjoint.numpy.diff requires input that is at "
                         "least one dimensional")
    axis = normalize_axis(axis, x.rank, "diff")
    if n == 0:
        return x
    parts = [x]
    if prepend is not _NO_VALUE:
        parts.insert(0, _edge(prepend, x, axis, "diff"))
    if append is not _NO_VALUE:
        parts.append(_edge(append, x, axis, "diff"))
    if len(parts) > 1:
        x = _adj.concat(parts, axis)
    for _ in range(n):
        later, earlier = _part(x, axis, 1, None), _part(x, axis, 0, -1)
        x = later != earlier if x.dtype == DType.i1 else later - earlier
    return x


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of the flattened array, between to_begin and
    to_end."""
    x = ravel(as_value(ary, "ediff1d"))
    parts = [diff(x)]
    if to_begin is not None:
        parts.insert(0, ravel(cast_to(as_value(to_begin, "ediff1d", like=x),
                                      x.dtype)))
    if to_end is not None:
        parts.append(ravel(cast_to(as_value(to_end, "ediff1d", like=x),
                                   x.dtype)))
    return parts[0] if len(parts) == 1 else _adj.concat(parts, 0)


# -- gradient -----------------------------------------------------------------

def _spacings(varargs, f, axes):
    """One spacing per axis: a Python number, or the differences of a
    coordinate array (a Value of shape [n - 1])."""
    if not varargs:
        return [1.0] * len(axes)
    if len(varargs) == 1 and _is_scalar(varargs[0]):
        return [varargs[0]] * len(axes)
    if len(varargs) != len(axes):
        raise TypeError("adjoint.numpy.gradient: invalid number of "
                        "arguments (one spacing, or one per axis)")
    out = []
    for h, ax in zip(varargs, axes):
        if _is_scalar(h):
            out.append(h)
            continue
        h = cast_to(_float(as_value(h, "gradient", like=f)), f.dtype)
        if h.rank == 0:
            out.append(h)
            continue
        if h.rank != 1:
            raise ValueError("adjoint.numpy.gradient: distances must be "
                             "either scalars or 1d")
        if h.shape[0] != f.shape[ax]:
            raise ValueError("adjoint.numpy.gradient: when 1d, distances "
                             "must match the length of the corresponding "
                             "dimension")
        out.append(diff(h))
    return out


def _is_scalar(h):
    return isinstance(h, (int, float)) and not isinstance(h, bool) or \
        (hasattr(h, "ndim") and not isinstance(h, Value) and h.ndim == 0)


def _one_gradient(f, ax, h, edge_order):
    """numpy's gradient of f along `ax` with spacing h (a number, a rank-0
    Value or the [n - 1] coordinate differences)."""
    n, rank = f.shape[ax], f.rank
    if n < edge_order + 1:
        raise ValueError("adjoint.numpy.gradient: Shape of array too small "
                         "to calculate a numerical gradient, at least "
                         "(edge_order + 1) elements are required")

    def at(i, j=_NO_VALUE):
        """f[i] (keeping the axis), or f[i:j]."""
        return _part(f, ax, i, (i + 1 or None) if j is _NO_VALUE else j)

    uniform = not isinstance(h, Value) or h.rank == 0
    if uniform:
        h = float(h) if not isinstance(h, Value) else h
        inner = (at(2, None) - at(0, -2)) / (h * 2.0) if n > 2 else None
        if edge_order == 1:
            first = (at(1) - at(0)) / h
            last = (at(-1) - at(-2)) / h
        else:
            first = (at(0) * -1.5 + at(1) * 2.0 - at(2) * 0.5) / h
            last = (at(-3) * 0.5 - at(-2) * 2.0 + at(-1) * 1.5) / h
    else:
        inner = None
        if n > 2:
            d1 = _along(_part(h, 0, 0, -1), ax, rank)
            d2 = _along(_part(h, 0, 1, None), ax, rank)
            s = d1 + d2
            inner = (at(0, -2) * (-d2 / (d1 * s)) +
                     at(1, -1) * ((d2 - d1) / (d1 * d2)) +
                     at(2, None) * (d1 / (d2 * s)))

        def step(i):
            return _along(_part(h, 0, i, i + 1 or None), ax, rank)
        if edge_order == 1:
            first = (at(1) - at(0)) / step(0)
            last = (at(-1) - at(-2)) / step(-1)
        else:
            d1, d2 = step(0), step(1)
            s = d1 + d2
            first = (at(0) * (-(d1 * 2.0 + d2) / (d1 * s)) +
                     at(1) * (s / (d1 * d2)) + at(2) * (-d1 / (d2 * s)))
            d1, d2 = step(-2), step(-1)
            s = d1 + d2
            last = (at(-3) * (d2 / (d1 * s)) + at(-2) * (-s / (d1 * d2)) +
                    at(-1) * ((d2 * 2.0 + d1) / (d2 * s)))
    parts = [first] + ([inner] if inner is not None else []) + [last]
    return _adj.concat(parts, ax)


def gradient(f, *varargs, axis=None, edge_order=None):
    """numpy's gradient: central differences inside, one-sided ones of
    `edge_order` (1 or 2) at the ends; one array per axis (a tuple when
    there are several)."""
    edge_order = 1 if edge_order is None else edge_order
    if edge_order not in (1, 2):
        raise ValueError("adjoint.numpy.gradient: 'edge_order' greater "
                         "than 2 not supported")
    x = _float(as_value(f, "gradient"))
    axes = normalize_axes(axis, x.rank, "gradient")
    spacing = _spacings(varargs, x, axes)
    out = tuple(_one_gradient(x, ax, h, edge_order)
                for ax, h in zip(axes, spacing))
    return out[0] if len(out) == 1 else out


# -- integrals and scans ------------------------------------------------------

def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The trapezoidal rule along `axis`, with sample points x (1-D, or of
    y's shape) or a constant spacing dx."""
    v = _float(as_value(y, "trapezoid"))
    ax = normalize_axis(axis, v.rank, "trapezoid")
    if x is None:
        d = cast_to(as_value(dx, "trapezoid", like=v), v.dtype)
    else:
        xs = cast_to(_float(as_value(x, "trapezoid", like=v)), v.dtype)
        d = diff(xs, axis=-1 if xs.rank == 1 else ax)
        if xs.rank == 1:
            d = _along(d, ax, v.rank)
    mid = _part(v, ax, 1, None) + _part(v, ax, 0, -1)
    return _adj.sum(d * mid, [ax], False) * 0.5


def _cumulative(x, axis, dtype, include_initial, combine, identity, name):
    x = as_value(x, name)
    if axis is None:
        if x.rank > 1:
            raise ValueError("adjoint.numpy.%s: axis must be specified for "
                             "arrays of more than one dimension" % name)
        axis = 0
    if x.rank == 0:
        raise ValueError("adjoint.numpy.%s: the array must have at least "
                         "one dimension" % name)
    ax = normalize_axis(axis, x.rank, name)
    out = _scan(x, ax, dtype, combine, identity, name)
    if include_initial:
        low = [0] * out.rank
        low[ax] = 1
        out = _adj.pad(out, low, [0] * out.rank, identity)
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(x, axis, dtype, include_initial, lambda u, v: u + v,
                       0.0, "cumulative_sum")


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(x, axis, dtype, include_initial, lambda u, v: u * v,
                       1.0, "cumulative_prod")


# -- interp, unwrap -----------------------------------------------------------

def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of (xp, fp) at x (xp increasing);
    left/right outside the range (fp's ends by default), or periodic."""
    fp = _float(as_value(fp, "interp"))
    xv = cast_to(_float(as_value(x, "interp", like=fp)), fp.dtype)
    xp = cast_to(_float(as_value(xp, "interp", like=fp)), fp.dtype)
    if xp.rank != 1 or fp.rank != 1:
        raise ValueError("adjoint.numpy.interp: data points must be 1-D "
                         "sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("adjoint.numpy.interp: fp and xp are not of the "
                         "same length")
    if xp.shape[0] == 0:
        raise ValueError("adjoint.numpy.interp: array of sample points is "
                         "empty")
    if period is not None:
        if not isinstance(period, Value) and period == 0:
            raise ValueError("adjoint.numpy.interp: period must be a "
                             "non-zero value")
        period = _adj.abs(cast_to(as_value(period, "interp", like=fp),
                                  fp.dtype))
        xv = remainder(xv, period)
        xp = remainder(xp, period)
        order = argsort(xp)
        xp, fp = take(xp, order), take(fp, order)
        xp = _adj.concat([_part(xp, 0, -1, None) - period, xp,
                          _part(xp, 0, 0, 1) + period], 0)
        fp = _adj.concat([_part(fp, 0, -1, None), fp, _part(fp, 0, 0, 1)], 0)
        left = right = None
    n = xp.shape[0]
    if n == 1:
        out = _adj.broadcast_to(_adj.reshape(fp, []), list(xv.shape))
    else:
        i = _adj.minimum(_adj.maximum(searchsorted(xp, xv, "right"), 1.0),
                         float(n - 1))
        x0, x1 = take(xp, i - 1.0), take(xp, i)
        f0, f1 = take(fp, i - 1.0), take(fp, i)
        out = f0 + (xv - x0) * ((f1 - f0) / (x1 - x0))
    if period is not None:
        return out
    first, last = _adj.reshape(_part(xp, 0, 0, 1), []), \
        _adj.reshape(_part(xp, 0, -1, None), [])
    lo = _adj.reshape(_part(fp, 0, 0, 1), []) if left is None else \
        cast_to(as_value(left, "interp", like=fp), fp.dtype)
    hi = _adj.reshape(_part(fp, 0, -1, None), []) if right is None else \
        cast_to(as_value(right, "interp", like=fp), fp.dtype)
    out = _adj.select(xv < first, lo, out)
    return _adj.select(xv > last, hi, out)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """p with jumps larger than max(discont, period / 2) along `axis`
    replaced by their complement modulo period (numpy's algorithm)."""
    x = _float(as_value(p, "unwrap"))
    ax = normalize_axis(axis, x.rank, "unwrap")
    if discont is None:
        discont = period / 2.0
    half = period / 2.0
    dd = diff(x, axis=ax)
    wrapped = remainder(dd + half, float(period)) - half
    # The jump of exactly half a period keeps its sign, as numpy.
    low_end = wrapped == -half
    wrapped = _adj.select(_adj.select(low_end, dd > 0.0, low_end), half,
                          wrapped)
    correction = _adj.select(_adj.abs(dd) < discont, 0.0, wrapped - dd)
    low = [0] * x.rank
    low[ax] = 1
    total = _adj.pad(_scan(correction, ax, None, lambda u, v: u + v, 0.0,
                           "unwrap"), low, [0] * x.rank, 0.0)
    return x + total
