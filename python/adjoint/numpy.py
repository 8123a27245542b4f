"""A numpy-like namespace for jitted code: ``import adjoint.numpy as anp``.

Thin aliases of adjoint's tensor functions under numpy's names (the
arguments are adjoint Values while a program is built).
"""

from ._adjoint import (  # noqa: F401
    exp, log, tanh, sqrt, abs, sign, sin, cos, erf, maximum, minimum,
    sum, mean, max, reshape, transpose, broadcast_to, sigmoid, relu,
    softmax, log_softmax, pow, cast)
from ._adjoint import concat as _concat, select as _select, neg as negative
from ._adjoint import matmul as _matmul, reshape as _reshape
from ._adjoint import fill as _fill

power = pow


def matmul(a, b):
    """numpy's matmul: a 1-D operand is a row (left) or a column (right)
    vector, removed from the result."""
    ra, rb = a.rank, b.rank
    if ra == 1:
        a = _reshape(a, [1] + list(a.shape))
    if rb == 1:
        b = _reshape(b, list(b.shape) + [1])
    out = _matmul(a, b)
    if ra == 1 or rb == 1:
        shape = list(out.shape)
        if rb == 1:
            shape.pop(-1)
        if ra == 1:
            shape.pop(-2 if rb != 1 else -1)
        out = _reshape(out, shape)
    return out


dot = matmul


def concatenate(xs, axis=0):
    return _concat(list(xs), axis)


def where(cond, a, b):
    return _select(cond, a, b)


def zeros_like(x):
    return _fill(x.module, 0.0, list(x.shape), x.dtype)


def ones_like(x):
    return _fill(x.module, 1.0, list(x.shape), x.dtype)


def full_like(x, value):
    return _fill(x.module, float(value), list(x.shape), x.dtype)


def square(x):
    return x * x


def log1p(x):
    return log(x + 1.0)


def clip(x, lo, hi):
    return minimum(maximum(x, lo), hi)


def _axis(axis, rank):
    return axis % rank if axis < 0 else axis


def expand_dims(x, axis):
    shape = list(x.shape)
    shape.insert(_axis(axis, len(shape) + 1), 1)
    return _reshape(x, shape)


def squeeze(x, axis=None):
    shape = list(x.shape)
    if axis is None:
        return _reshape(x, [d for d in shape if d != 1])
    axes = {_axis(a, len(shape)) for a in
            ((axis,) if isinstance(axis, int) else axis)}
    return _reshape(x, [d for i, d in enumerate(shape) if i not in axes])


def stack(xs, axis=0):
    xs = list(xs)
    axis = _axis(axis, xs[0].rank + 1)
    return _concat([expand_dims(x, axis) for x in xs], axis)


def var(x, axis=None, keepdims=False):
    d = x - mean(x, axis, True)
    return mean(d * d, axis, keepdims)


def std(x, axis=None, keepdims=False):
    return sqrt(var(x, axis, keepdims))
