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
