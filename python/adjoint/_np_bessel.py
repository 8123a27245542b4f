"""numpy's i0, the modified Bessel function of the first kind of order 0,
from its two classical expansions, each accurate to a few ulp where it is
used (no special-function primitive in adj):

- |x| <= 20: the power series sum_k (x^2/4)^k / (k!)^2, whose terms are
  all positive (no cancellation), 46 terms (the last below 1e-17 of the
  sum at |x| = 20), in Horner form;
- |x| > 20: the asymptotic series e^|x| / sqrt(2 pi |x|) *
  sum_k ((2k-1)!!)^2 / (k! (8|x|)^k), 30 terms (its error is about
  e^-2|x|); e^|x| is taken in two halves so that i0 is finite up to where
  numpy's is.

Both are polynomials in x (the first in x^2, so that every derivative at 0
is right), so derivatives come from the composition: i0' is i1 to about
the same accuracy (JAX defines it as i1).
"""

import math

from . import _adjoint as _adj
from ._np_elementwise import float_function

_SWITCH = 20.0
_SERIES_TERMS = 46
_ASYMPTOTIC_TERMS = 30


def _series(x):
    q = x * x * 0.25
    r = 1.0 + q * (1.0 / (_SERIES_TERMS * _SERIES_TERMS))
    for k in range(_SERIES_TERMS - 1, 0, -1):
        r = 1.0 + q * r * (1.0 / (k * k))
    return r


def _asymptotic(a):
    c = [1.0]
    for k in range(1, _ASYMPTOTIC_TERMS):
        c.append(c[-1] * (2 * k - 1) ** 2 / (8.0 * k))
    inv = 1.0 / a
    s = c[-1]
    for ck in reversed(c[:-1]):
        s = ck + inv * s
    half = _adj.exp(a * 0.5)
    return half * (half * s / _adj.sqrt(a * (2.0 * math.pi)))


def _i0(x):
    a = _adj.abs(x)
    near = a <= _SWITCH
    # Each expansion sees only arguments it is meant for, so the branch not
    # taken stays finite (a select's derivative multiplies it by 0).
    small = _series(_adj.select(near, x, 0.0))
    large = _asymptotic(_adj.select(near, _SWITCH + 1.0, a))
    return _adj.select(near, small, large)


i0 = float_function(_i0, "i0")
i0.__doc__ = "The modified Bessel function of the first kind, order 0."
