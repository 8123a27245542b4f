"""A numpy-like namespace for jitted code: ``import adjoint.numpy as anp``.

Thin aliases of adjoint's tensor functions under numpy's names (the
arguments are adjoint Values while a program is built).
"""

from ._adjoint import (  # noqa: F401
    exp, log, tanh, sqrt, abs, sign, sin, cos, erf, maximum, minimum,
    matmul, sum, mean, max, reshape, transpose, broadcast_to, sigmoid, relu,
    softmax, log_softmax, pow, cast)
from ._adjoint import concat as _concat, select as _select, neg as negative

power = pow
dot = matmul


def concatenate(xs, axis=0):
    return _concat(list(xs), axis)


def where(cond, a, b):
    return _select(cond, a, b)
