"""numpy's reductions and scans in jitted code, composed from adj's
reduce_max, reduce_sum, cmp, select, iota, slice and pad: max/min (NaN
propagating, as numpy), any/all, argmax/argmin (the first index on ties and
of the first NaN, as numpy), cumsum/cumprod (a log-step scan: exact for
integers, differentiable) and prod.
"""

import builtins

from . import _adjoint as _adj
from ._adjoint import DType
from ._np_support import (as_value, cast_to, float_dtype, iota,
                          normalize_axes, normalize_axis, ravel,
                          reversed_order, to_dtype)


def _isnan(x):
    return x != x


def _nan_where_any(x, result, axes, keepdims):
    """`result` with NaN where the reduced elements of x hold one: adj's
    reduce_max skips NaNs, numpy's max returns them."""
    if not x.dtype.is_float:
        return result
    has = _adj.max(_adj.cast(_isnan(x), DType.i32), axes, keepdims) > 0.0
    return _adj.select(has, float("nan"), result)


def _bool_safe(x):
    return _adj.cast(x, DType.i32) if x.dtype == DType.i1 else x


def _check_nonempty(x, axes, name):
    if _any_empty(x, axes):
        raise ValueError("adjoint.numpy.%s: zero-size array to reduction "
                         "operation, which has no identity" % name)


def amax(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_extras("max", out, where)
    x = as_value(a, "max")
    if initial is not None:
        x = _adj.maximum(x, float(initial))
    axes = normalize_axes(axis, x.rank, "max")
    _check_nonempty(x, axes, "max")
    m = cast_to(_adj.max(_bool_safe(x), axes, keepdims), x.dtype)
    return _nan_where_any(x, m, axes, keepdims)


def amin(a, axis=None, out=None, keepdims=False, initial=None, where=None):
    _no_extras("min", out, where)
    x = as_value(a, "min")
    if initial is not None:
        x = _adj.minimum(x, float(initial))
    axes = normalize_axes(axis, x.rank, "min")
    _check_nonempty(x, axes, "min")
    y = _bool_safe(x)
    m = cast_to(reversed_order(_adj.max(reversed_order(y), axes, keepdims)),
                x.dtype)
    return _nan_where_any(x, m, axes, keepdims)


def _counts(hit, axes, keepdims):
    return _adj.max(_adj.cast(hit, DType.i32), axes, keepdims)


def any(a, axis=None, out=None, keepdims=False, where=None):
    """Whether an element is non-zero (NaN counts), i1."""
    _no_extras("any", out, where)
    x = as_value(a, "any")
    axes = normalize_axes(axis, x.rank, "any")
    if _any_empty(x, axes):
        return _empty_result(x, axes, keepdims, False)
    zero = _adj.cast(_bool_safe(x) == 0.0, DType.i32) == 0.0
    return _counts(zero, axes, keepdims) > 0.0


def all(a, axis=None, out=None, keepdims=False, where=None):
    """Whether every element is non-zero (NaN counts), i1."""
    _no_extras("all", out, where)
    x = as_value(a, "all")
    axes = normalize_axes(axis, x.rank, "all")
    if _any_empty(x, axes):
        return _empty_result(x, axes, keepdims, True)
    return _counts(_bool_safe(x) == 0.0, axes, keepdims) == 0.0


def _any_empty(x, axes):
    return builtins.any(x.shape[a] == 0 for a in axes)


def _empty_result(x, axes, keepdims, value):
    shape = [1 if i in axes else d for i, d in enumerate(x.shape)
             if keepdims or i not in axes]
    return _adj.fill(x.module, float(value), shape, DType.i1)


def _first(hit, index, n, axis, keepdims):
    """The smallest index along `axis` where `hit`, n where none."""
    candidates = _adj.select(hit, index, float(n))
    return -_adj.max(-candidates, [axis], keepdims)


def _arg_extreme(a, axis, keepdims, largest, name):
    x = as_value(a, name)
    rank = x.rank
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = normalize_axis(axis, rank, name)
    n = x.shape[ax]
    if n == 0:
        raise ValueError("adjoint.numpy.%s: attempt to get %s of an empty "
                         "sequence" % (name, name))
    y = _bool_safe(x)
    key = y if largest else reversed_order(y)
    index = iota(x.module, x.shape, ax)
    hit = key == _adj.max(key, [ax], True)
    result = _first(hit, index, n, ax, keepdims and axis is not None)
    if x.dtype.is_float:
        first_nan = _first(_isnan(x), index, n, ax,
                           keepdims and axis is not None)
        result = _adj.select(first_nan < float(n), first_nan, result)
    if axis is None and keepdims:
        result = _adj.reshape(result, [1] * rank)
    return result


def argmax(a, axis=None, out=None, keepdims=False):
    _no_extras("argmax", out)
    return _arg_extreme(a, axis, keepdims, True, "argmax")


def argmin(a, axis=None, out=None, keepdims=False):
    _no_extras("argmin", out)
    return _arg_extreme(a, axis, keepdims, False, "argmin")


def _scan(a, axis, dtype, combine, identity, name):
    """Inclusive scan along `axis` in log2(n) steps: after the step with
    shift k, element i combines elements (i - 2k, i]."""
    x = as_value(a, name)
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = normalize_axis(axis, x.rank, name)
    dtype = to_dtype(dtype, name)
    if dtype is None and x.dtype in (DType.i1, DType.i32):
        dtype = DType.i64  # numpy accumulates small integers in int64
    x = cast_to(x, dtype)
    n, rank = x.shape[ax], x.rank
    k = 1
    while k < n:
        limit = list(x.shape)
        limit[ax] = n - k
        low = [0] * rank
        low[ax] = k
        shifted = _adj.pad(_adj.slice(x, [0] * rank, limit), low, [0] * rank,
                           identity)
        x = combine(x, shifted)
        k *= 2
    return x


def cumsum(a, axis=None, dtype=None, out=None):
    _no_extras("cumsum", out)
    return _scan(a, axis, dtype, lambda u, v: u + v, 0.0, "cumsum")


def cumprod(a, axis=None, dtype=None, out=None):
    _no_extras("cumprod", out)
    return _scan(a, axis, dtype, lambda u, v: u * v, 1.0, "cumprod")


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
         where=None):
    """The last element of cumprod, per reduced axis (1 for none)."""
    _no_extras("prod", out, where)
    if initial is not None:
        return prod(a, axis, dtype, None, keepdims) * float(initial)
    x = as_value(a, "prod")
    axes = normalize_axes(axis, x.rank, "prod")
    for ax in axes:
        n = x.shape[ax]
        start, limit = [0] * x.rank, list(x.shape)
        x = _scan(x, ax, dtype, lambda u, v: u * v, 1.0, "prod")
        if n == 0:
            limit[ax] = 1
            x = _adj.fill(x.module, 1.0, limit, x.dtype)
            continue
        start[ax] = n - 1
        x = _adj.slice(x, start, limit)
    if not keepdims:
        x = _adj.reshape(x, [d for i, d in enumerate(x.shape)
                             if i not in axes])
    return x


def _no_extras(name, out=None, where=None):
    if out is not None:
        raise TypeError("adjoint.numpy.%s: out= is not supported (arrays "
                        "are immutable values; use the result)" % name)
    if where is not None and where is not True:
        raise TypeError("adjoint.numpy.%s: where= is not supported (mask "
                        "the operand with numpy.where)" % name)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None,
        where=None):
    """numpy's sum: booleans and int32 are summed in int64, as numpy does;
    `a` may be a list or tuple of arrays and numbers."""
    _no_extras("sum", out, where)
    x = as_value(a, "sum")
    dtype = to_dtype(dtype, "sum")
    if dtype is None and x.dtype in (DType.i1, DType.i32):
        dtype = DType.i64
    s = _adj.sum(cast_to(x, dtype), _axis_list(axis, x.rank, "sum"),
                 keepdims)
    return s if initial is None else s + float(initial)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=None):
    """numpy's mean: booleans and integers are averaged as floats (the
    program's float dtype)."""
    _no_extras("mean", out, where)
    x = as_value(a, "mean")
    dtype = to_dtype(dtype, "mean")
    if dtype is None and not x.dtype.is_inexact:
        dtype = float_dtype()
    return _adj.mean(cast_to(x, dtype), _axis_list(axis, x.rank, "mean"),
                     keepdims)


def _axis_list(axis, rank, name):
    return None if axis is None else normalize_axes(axis, rank, name)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) over `axis`, computed around the maximum so that
    large inputs do not overflow; its gradient is softmax(a) (times b).
    With return_sign, (log|s|, sign(s)) for weights `b` of either sign."""
    x = as_value(a, "logsumexp")
    if not x.dtype.is_float:
        x = _adj.cast(x, float_dtype())
    axes = _axis_list(axis, x.rank, "logsumexp")
    m = _adj.max(x, axes, True)
    # An infinite maximum (all -inf, or a +inf) shifts by 0 instead, so
    # that inf - inf makes no NaN.
    m = _adj.stop_gradient(_adj.select(_adj.abs(m) < float("inf"), m, 0.0))
    e = _adj.exp(x - m)
    if b is not None:
        e = e * as_value(b, "logsumexp", like=x)
    s = _adj.sum(e, axes, True)
    if return_sign:
        sign = _adj.sign(s)
        s = _adj.abs(s)
    out = _adj.log(s) + m
    if not keepdims:
        shape = [d for i, d in enumerate(out.shape)
                 if axes is not None and i not in axes]
        out = _adj.reshape(out, shape)
        if return_sign:
            sign = _adj.reshape(sign, shape)
    return (out, sign) if return_sign else out
