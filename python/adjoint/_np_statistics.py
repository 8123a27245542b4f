"""numpy's statistics in jitted code: the NaN-aware reductions, average,
ptp, count_nonzero, median/quantile/percentile (and their nan forms), cov
and corrcoef, composed from the reductions, sort and selects, so that their
derivatives and batching are those of adj's ops.

NaN semantics are numpy's: nansum of an all-NaN slice is 0, its nanmean,
nanmax, nanmedian are NaN; nanargmax of an all-NaN slice is -1 (as JAX:
numpy raises, which a value known only when the program runs cannot).
Quantiles sort the reduced elements (NaN last) and interpolate between the
two neighbouring order statistics, so the derivative flows to them as in
JAX.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_reductions import (_no_extras, amax, amin, argmax, argmin,
                             cumprod, cumsum, mean, prod, sum as _sum)
from ._np_movement import take_along_axis
from ._np_rounding import _floor, _rint
from ._np_sorting import sort
from ._np_support import (as_value, cast_to, float_dtype, normalize_axes,
                          size, to_dtype, truth)


def _float(x, dtype=None):
    """x as floats (integers and booleans in the program's float dtype)."""
    x = cast_to(x, dtype)
    return x if x.dtype.is_float else _adj.cast(x, float_dtype())


def _isnan(x):
    return x != x


def _filled(x, value):
    """x with its NaNs replaced by `value` (integers have none)."""
    if not x.dtype.is_float:
        return x
    return _adj.select(_isnan(x), value, x)


def _all_nan(x, axis, keepdims):
    """Whether every reduced element is NaN (i1)."""
    axes = normalize_axes(axis, x.rank, "nan reduction")
    return _adj.max(_adj.cast(x == x, DType.i32), axes, keepdims) == 0.0


# -- NaN-aware reductions -----------------------------------------------------

def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
           where=None):
    """sum with NaN counted as 0."""
    _no_extras("nansum", out, where)
    return _sum(_filled(as_value(a, "nansum"), 0.0), axis, dtype, None,
                keepdims, initial)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
            where=None):
    """prod with NaN counted as 1."""
    _no_extras("nanprod", out, where)
    return prod(_filled(as_value(a, "nanprod"), 1.0), axis, dtype, None,
                keepdims, initial)


def nancumsum(a, axis=None, dtype=None, out=None):
    _no_extras("nancumsum", out)
    return cumsum(_filled(as_value(a, "nancumsum"), 0.0), axis, dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    _no_extras("nancumprod", out)
    return cumprod(_filled(as_value(a, "nancumprod"), 1.0), axis, dtype)


def _count(x, axis, keepdims):
    """The number of non-NaN elements reduced, in x's float dtype."""
    axes = normalize_axes(axis, x.rank, "nan reduction")
    return _adj.sum(_adj.cast(x == x, x.dtype), axes, keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    """The mean of the non-NaN elements (NaN where there are none)."""
    _no_extras("nanmean", out, where)
    x = _float(as_value(a, "nanmean"), to_dtype(dtype, "nanmean"))
    axes = normalize_axes(axis, x.rank, "nanmean")
    return _adj.sum(_filled(x, 0.0), axes, keepdims) / _count(x, axes,
                                                             keepdims)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False,
           where=None, mean=None, correction=None):
    """The variance of the non-NaN elements, divided by their count - ddof
    (NaN where that is not positive)."""
    _no_extras("nanvar", out, where)
    if mean is not None:
        raise TypeError("adjoint.numpy.nanvar: mean= is not supported")
    if correction is not None:
        ddof = correction
    x = _float(as_value(a, "nanvar"), to_dtype(dtype, "nanvar"))
    axes = normalize_axes(axis, x.rank, "nanvar")
    d = _filled(x - nanmean(x, axes, keepdims=True), 0.0)
    dof = _count(x, axes, keepdims) - float(ddof)
    return _adj.select(dof > 0.0, _adj.sum(d * d, axes, keepdims) / dof,
                       float("nan"))


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False,
           where=None, mean=None, correction=None):
    """sqrt(nanvar), with derivative 0 where the variance is 0 (as std)."""
    v = nanvar(a, axis, dtype, out, ddof, keepdims, where, mean, correction)
    nonzero = v != 0.0
    return _adj.select(nonzero, _adj.sqrt(_adj.select(nonzero, v, 1.0)), 0.0)


def _nan_extreme(a, axis, out, keepdims, initial, where, reduce, fill, name):
    _no_extras(name, out, where)
    x = as_value(a, name)
    if not x.dtype.is_float:
        return reduce(x, axis, None, keepdims, initial)
    m = reduce(_filled(x, fill), axis, None, keepdims, initial)
    return _adj.select(_all_nan(x, axis, keepdims), float("nan"), m) \
        if initial is None else m


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """max over the non-NaN elements (NaN for an all-NaN slice)."""
    return _nan_extreme(a, axis, out, keepdims, initial, where, amax,
                        float("-inf"), "nanmax")


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    """min over the non-NaN elements (NaN for an all-NaN slice)."""
    return _nan_extreme(a, axis, out, keepdims, initial, where, amin,
                        float("inf"), "nanmin")


def _nan_arg(a, axis, out, keepdims, arg, fill, name):
    _no_extras(name, out)
    x = as_value(a, name)
    if not x.dtype.is_float:
        return arg(x, axis, None, keepdims)
    i = arg(_filled(x, fill), axis, None, keepdims)
    none = _all_nan(x, axis, keepdims)
    if axis is None and keepdims:
        none = _adj.reshape(none, list(i.shape))
    return _adj.select(none, -1.0, i)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """argmax ignoring NaNs; -1 for an all-NaN slice (as JAX)."""
    return _nan_arg(a, axis, out, keepdims, argmax, float("-inf"),
                    "nanargmax")


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """argmin ignoring NaNs; -1 for an all-NaN slice (as JAX)."""
    return _nan_arg(a, axis, out, keepdims, argmin, float("inf"),
                    "nanargmin")


# -- average, ptp, count_nonzero ----------------------------------------------

def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """The weighted mean: sum(a * w) / sum(w) over `axis`; 1-D weights
    along one axis when their shapes differ, as numpy. With `returned`,
    also the sum of the weights (broadcast to the average's shape)."""
    x = _float(as_value(a, "average"))
    axes = normalize_axes(axis, x.rank, "average")
    if weights is None:
        avg = _adj.mean(x, axes, keepdims)
        scale = _adj.fill(x.module, float(size([x.shape[i] for i in axes])),
                          list(avg.shape), avg.dtype)
    else:
        w = _float(as_value(weights, "average", like=x))
        if list(w.shape) != list(x.shape):
            w = _weights_along(x, w, axis)
        w = _adj.broadcast_to(cast_to(w, x.dtype), list(x.shape))
        scale = _adj.sum(w, axes, keepdims)
        avg = _adj.sum(x * w, axes, keepdims) / scale
    return (avg, scale) if returned else avg


def _weights_along(x, w, axis):
    """1-D (or axes-shaped) weights shaped to broadcast along `axis`."""
    if axis is None:
        raise TypeError("adjoint.numpy.average: axis must be specified when "
                        "shapes of a and weights differ")
    axes = normalize_axes(axis, x.rank, "average")
    if w.rank != len(axes):
        raise TypeError("adjoint.numpy.average: 1D weights expected when "
                        "shapes of a and weights differ")
    if list(w.shape) != [x.shape[i] for i in axes]:
        raise ValueError("adjoint.numpy.average: shape of weights must be "
                         "consistent with shape of a along specified axis")
    order = sorted(range(len(axes)), key=lambda k: axes[k])
    if order != list(range(len(axes))):
        w = _adj.transpose(w, order)
    return _adj.reshape(w, [d if i in axes else 1
                            for i, d in enumerate(x.shape)])


def ptp(a, axis=None, out=None, keepdims=False):
    """max - min ("peak to peak")."""
    _no_extras("ptp", out)
    return amax(a, axis, None, keepdims) - amin(a, axis, None, keepdims)


def count_nonzero(a, axis=None, *, keepdims=False):
    """The number of non-zero elements (NaN counts), int64."""
    x = truth(as_value(a, "count_nonzero"))
    if x.dtype != DType.i1:
        x = x != 0.0
    axes = normalize_axes(axis, x.rank, "count_nonzero")
    return _adj.sum(_adj.cast(x, DType.i64), axes, keepdims)


# -- quantiles ----------------------------------------------------------------

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _q_value(q, x, scale, name):
    """q / scale as a Value of x's dtype; a q known while building must
    lie in [0, 1] after scaling, as numpy checks."""
    if isinstance(q, Value):
        return _float(q, x.dtype) / float(scale)
    qa = _np.asarray(q, dtype=_np.float64) / scale
    if _np.any(qa < 0.0) or _np.any(qa > 1.0):
        raise ValueError("adjoint.numpy.%s: %s must be in the range [0, %s]"
                         % (name, "Percentiles" if scale == 100 else
                            "Quantiles", scale))
    return cast_to(as_value(qa, name, like=x), x.dtype)


def _quantile(a, q, axis, method, keepdims, nan_aware, scale, name,
              weights=None, interpolation=None):
    if weights is not None:
        raise TypeError("adjoint.numpy.%s: weights= is not supported" % name)
    method = interpolation if interpolation is not None else method
    if method not in _METHODS:
        raise ValueError("adjoint.numpy.%s: method=%r is not supported (one "
                         "of %s)" % (name, method, ", ".join(_METHODS)))
    x = _float(as_value(a, name))
    q = _q_value(q, x, scale, name)
    axes = normalize_axes(axis, x.rank, name)
    shape = list(x.shape)
    kept = [i for i in range(x.rank) if i not in axes]
    n = size([x.shape[i] for i in axes])
    if n == 0:
        raise ValueError("adjoint.numpy.%s: cannot take a quantile of an "
                         "empty slice" % name)
    rows = [x.shape[i] for i in kept]
    if kept + axes != list(range(x.rank)):
        x = _adj.transpose(x, kept + axes)
    x = _adj.reshape(x, rows + [n])
    ordered = _adj.reshape(sort(x, -1), [1] * q.rank + rows + [n])
    qb = _adj.reshape(q, list(q.shape) + [1] * (len(rows) + 1))
    last = _count(x, [x.rank - 1], True) - 1.0 if nan_aware else \
        float(n - 1)
    pos = qb * last
    if nan_aware:
        pos = _adj.maximum(pos, 0.0)  # an all-NaN row: NaN below
    low = _floor(pos)
    frac = pos - low
    high = low + _adj.cast(frac > 0.0, low.dtype)
    if method == "nearest":
        low = _rint(pos)
    value_at = _taker(ordered)
    v_low = value_at(low)
    if method == "linear":
        out = v_low + (value_at(high) - v_low) * frac
    elif method == "midpoint":
        out = (v_low + value_at(high)) * 0.5
    elif method == "higher":
        out = value_at(high)
    else:
        out = v_low
    out = _adj.reshape(out, list(out.shape[:-1]))
    # A NaN in the slice (numpy's quantile), or no number in it (nan forms).
    bad = _adj.max(_adj.cast(_isnan(x), DType.i32), [x.rank - 1], False) \
        > 0.0 if not nan_aware else \
        _adj.reshape(last, rows) < 0.0
    out = _adj.select(bad, float("nan"), out)
    if keepdims:
        out = _adj.reshape(out, list(q.shape) + [
            1 if i in axes else d for i, d in enumerate(shape)])
    return out


def _taker(ordered):
    """The order statistic at float positions of the shape of the result
    (plus a trailing 1), along the last axis of `ordered`."""
    def at(position):
        return take_along_axis(ordered, _adj.cast(position, DType.i64), -1)
    return at


def quantile(a, q, axis=None, out=None, overwrite_input=False,
             method="linear", keepdims=False, *, weights=None,
             interpolation=None):
    _no_extras("quantile", out)
    return _quantile(a, q, axis, method, keepdims, False, 1, "quantile",
                     weights, interpolation)


def percentile(a, q, axis=None, out=None, overwrite_input=False,
               method="linear", keepdims=False, *, weights=None,
               interpolation=None):
    _no_extras("percentile", out)
    return _quantile(a, q, axis, method, keepdims, False, 100, "percentile",
                     weights, interpolation)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    _no_extras("median", out)
    x = as_value(a, "median")
    if x.dtype.is_complex:
        return _complex_median(x, axis, keepdims)
    return _quantile(x, 0.5, axis, "linear", keepdims, False, 1, "median")


def _complex_median(x, axis, keepdims):
    """numpy's median of complex numbers: the middle one in numpy's order
    of complex numbers (real part, then imaginary part), or the mean of the
    middle two; where the slice holds a NaN (in either part), its last
    number in that order, which holds one, as numpy's."""
    axes = normalize_axes(axis, x.rank, "median")
    shape = list(x.shape)
    kept = [i for i in range(x.rank) if i not in axes]
    n = size([x.shape[i] for i in axes])
    if n == 0:
        raise ValueError("adjoint.numpy.median: cannot take the median of "
                         "an empty slice")
    rows = [x.shape[i] for i in kept]
    if kept + axes != list(range(x.rank)):
        x = _adj.transpose(x, kept + axes)
    x = _adj.reshape(x, rows + [n])
    ordered = sort(x, -1)

    def at(i):
        return _adj.reshape(_adj.slice(ordered, [0] * len(rows) + [i],
                                       rows + [i + 1]), rows)
    out = at(n // 2) if n % 2 else (at(n // 2 - 1) + at(n // 2)) * 0.5
    last = at(n - 1)
    bad = _adj.cast(_isnan(_adj.real(last)), DType.i32) + \
        _adj.cast(_isnan(_adj.imag(last)), DType.i32) > 0.0
    out = _adj.select(bad, last, out)
    if keepdims:
        out = _adj.reshape(out, [1 if i in axes else d
                                 for i, d in enumerate(shape)])
    return out


def nanquantile(a, q, axis=None, out=None, overwrite_input=False,
                method="linear", keepdims=False, *, weights=None,
                interpolation=None):
    _no_extras("nanquantile", out)
    return _quantile(a, q, axis, method, keepdims, True, 1, "nanquantile",
                     weights, interpolation)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False,
                  method="linear", keepdims=False, *, weights=None,
                  interpolation=None):
    _no_extras("nanpercentile", out)
    return _quantile(a, q, axis, method, keepdims, True, 100,
                     "nanpercentile", weights, interpolation)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    _no_extras("nanmedian", out)
    return _quantile(a, 0.5, axis, "linear", keepdims, True, 1, "nanmedian")


# -- covariance ---------------------------------------------------------------

def _rows(m, rowvar, dtype, name):
    """m as a 2-D array of variables in rows (numpy's ndmin=2, then
    transposed unless rowvar)."""
    x = _float(as_value(m, name), to_dtype(dtype, name))
    if x.rank > 2:
        raise ValueError("adjoint.numpy.%s: m has more than 2 dimensions"
                         % name)
    if x.rank < 2:
        x = _adj.reshape(x, [1] * (2 - x.rank) + list(x.shape))
    if not rowvar and x.shape[0] != 1:
        x = _adj.transpose(x, [1, 0])
    return x


def _frequency_weights(w, n, name, integral):
    w = as_value(w, name)
    if integral and w.dtype.is_float:
        raise TypeError("adjoint.numpy.%s: fweights must be integer" % name)
    if w.rank != 1 or w.shape[0] != n:
        raise RuntimeError("adjoint.numpy.%s: incompatible numbers of "
                           "samples and weights" % name)
    return _float(w)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
        aweights=None, *, dtype=None):
    """The covariance matrix of the variables (rows of m, or columns
    unless rowvar), with frequency and reliability weights as numpy;
    squeezed (a scalar for one variable)."""
    x = _rows(m, rowvar, dtype, "cov")
    if y is not None:
        x = _adj.concat([x, cast_to(_rows(y, rowvar, dtype, "cov"),
                                    x.dtype)], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = _frequency_weights(fweights, n, "cov", True)
    if aweights is not None:
        aw = _frequency_weights(aweights, n, "cov", False)
        w = aw if w is None else w * aw
    if w is None:
        avg = _adj.mean(x, [1], True)
        fact = float(n - ddof) if n > ddof else 0.0
    else:
        w = cast_to(w, x.dtype)
        w_sum = _adj.sum(w, None, False)
        avg = _adj.sum(x * w, [1], True) / w_sum
        if aweights is None:
            fact = w_sum - float(ddof)
        else:
            fact = w_sum - float(ddof) * _adj.sum(w * aw, None, False) / w_sum
        fact = _adj.maximum(fact, 0.0)
    xc = x - avg
    weighted = xc if w is None else xc * w
    c = _adj.matmul(xc, _adj.transpose(weighted, [1, 0])) / fact
    return _adj.reshape(c, [d for d in c.shape if d != 1])


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """cov divided by the outer product of the standard deviations,
    clipped to [-1, 1] as numpy."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.rank == 0:
        return c / c
    k = c.shape[0]
    eye = _adj.cast(_adj.iota(c.module, [k, k], 0, DType.i64)
                    == _adj.iota(c.module, [k, k], 1, DType.i64), c.dtype)
    std = _adj.sqrt(_adj.sum(c * eye, [1], False))
    c = c / _adj.reshape(std, [k, 1]) / _adj.reshape(std, [1, k])
    return _adj.minimum(_adj.maximum(c, -1.0), 1.0)
