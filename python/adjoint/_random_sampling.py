"""jax.random's integer draws and sampling, with JAX's numbers for the same
key: randint (JAX's two-word modulus reduction), permutation and shuffle
(sorting by random 32-bit keys, as many rounds as JAX takes), and choice
(with or without replacement, with weights p).

Values here are the unsigned 32-bit words of JAX as i64 in [0, 2**32), so
that JAX's uint32 remainders and wrapping sums are exact i64 arithmetic.
"""

import math

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._indexing import getitem
from ._np_movement import take, take_along_axis
from ._np_reductions import cumsum
from ._np_sorting import argsort

_R = _adj._random
_WORD = 2.0 ** 32
_NP_FLOAT = {DType.f16: _np.float16, DType.f32: _np.float32,
             DType.f64: _np.float64}


def _keys(key):
    """JAX's _split(key): two keys."""
    keys = _R.split(key, 2)
    return getitem(keys, 0), getitem(keys, 1)


def _words(key, shape):
    """JAX's 32-bit random words as i64 in [0, 2**32)."""
    w = _adj.cast(_R.bits(key, list(shape), DType.i32), DType.i64)
    return _adj.select(w < 0.0, w + _WORD, w)


def _as_i64(x, like):
    if isinstance(x, Value):
        return _adj.cast(x, DType.i64)
    return _adj.scalar(like.module, int(x), DType.i64)


def randint(key, shape, minval, maxval, dtype):
    """Integers in [minval, maxval) of a 32-bit (or narrower) dtype."""
    lo_lim, hi_lim = -2.0 ** 31, 2.0 ** 31 - 1
    minv, maxv = _as_i64(minval, key), _as_i64(maxval, key)
    out_of_range = maxv > hi_lim
    minv = _adj.minimum(_adj.maximum(minv, lo_lim), hi_lim)
    maxv = _adj.minimum(_adj.maximum(maxv, lo_lim), hi_lim)
    k1, k2 = _keys(key)
    higher, lower = _words(k1, shape), _words(k2, shape)
    span = maxv - minv
    span = _adj.select(maxv <= minv, 1.0, span)
    span = _adj.select(_adj.select(out_of_range, maxv > minv, out_of_range),
                       span + 1.0, span)
    multiplier = (span * 0.0 + 2.0 ** 16) % span
    # JAX's square is a uint32 product: it wraps (to 0 for spans above
    # 2**16, whose multiplier is 2**16).
    multiplier = ((multiplier * multiplier) % _WORD) % span
    offset = ((higher % span) * multiplier) % _WORD
    offset = ((offset + lower % span) % _WORD) % span
    return _adj.cast(minv + offset, dtype)


def shuffle(key, x, axis):
    """x sorted along `axis` by random words, in JAX's number of rounds
    (ceil(3 ln(size) / ln(2**32 - 1))), a new subkey per round."""
    size = max(1, math.prod(x.shape))
    rounds = int(math.ceil(3 * math.log(size) / math.log(2 ** 32 - 1)))
    for _ in range(rounds):
        key, sub = _keys(key)
        order = argsort(_words(sub, x.shape), axis=axis)
        x = take_along_axis(x, order, axis)
    return x


def arange(key, n):
    """0..n-1 as int32 (JAX's default integer)."""
    return _adj.iota(key.module, [int(n)], 0, DType.i32)


def permutation(key, x, axis, independent):
    if isinstance(x, int):
        return shuffle(key, arange(key, x), 0)
    axis = axis % max(1, x.rank)
    if independent or x.rank == 1:
        return shuffle(key, x, axis)
    return take(x, shuffle(key, arange(key, x.shape[axis]), 0), axis=axis)


def choice(key, a, shape, replace, p, axis, float_dtype):
    scalar = isinstance(a, int)
    if not scalar:
        axis = axis % a.rank
    n = a if scalar else a.shape[axis]
    draws = math.prod(shape)
    if n <= 0:
        raise ValueError("adjoint.random.choice: a must be greater than 0 "
                         "unless no samples are taken")
    if not replace and draws > n:
        raise ValueError("adjoint.random.choice: cannot take a larger "
                         "sample (size %d) than population (size %d) when "
                         "replace=False" % (draws, n))
    if p is None:
        if replace:
            ind = randint(key, shape, 0, n, DType.i32)
            out = ind if scalar else take(a, ind, axis=axis)
        else:
            perm = permutation(key, n if scalar else a, axis, False)
            limit = list(perm.shape)
            limit[0 if scalar else axis] = draws
            out = _adj.slice(perm, [0] * perm.rank, limit)
    else:
        if list(p.shape) != [n]:
            raise ValueError("adjoint.random.choice: p must be a vector of "
                             "the size of a.shape[axis] (%d)" % n)
        if not p.dtype.is_float:
            p = _adj.cast(p, float_dtype)
        if not replace:
            ind = _gumbel_top(key, p, draws)
            ind = _adj.reshape(ind, list(shape))
            out = ind if scalar else take(a, ind, axis=axis)
            return _shaped(out, a, scalar, shape, axis)
        cum = cumsum(p)
        total = getitem(cum, n - 1)
        r = total * (1.0 - _R.uniform(key, list(shape), p.dtype, 0.0, 1.0))
        # searchsorted(cum, r, side='left'): how many sums are below r.
        below = _adj.cast(_adj.reshape(cum, [1] * len(shape) + [n]) <
                          _adj.reshape(r, list(shape) + [1]), DType.i32)
        ind = _adj.sum(below, [len(shape)], False)
        out = ind if scalar else take(a, ind, axis=axis)
    return _shaped(out, a, scalar, shape, axis)


def _shaped(out, a, scalar, shape, axis):
    if scalar:
        return _adj.reshape(out, list(shape))
    return _adj.reshape(out, list(a.shape[:axis]) + list(shape) +
                        list(a.shape[axis + 1:]))


def _gumbel_top(key, p, k):
    """The k largest of gumbel + log(p) (JAX's Gumbel top-k sampling
    without replacement; JAX's default 'low' Gumbel: -log(-log(u)) of
    uniforms on [tiny, 1)), largest first, the lower index on ties."""
    tiny = float(_np.finfo(_NP_FLOAT[p.dtype]).tiny)
    u = _R.uniform(key, list(p.shape), p.dtype, tiny, 1.0)
    g = -_adj.log(-_adj.log(u)) + _adj.log(p)
    order = argsort(-g)
    return _adj.cast(_adj.slice(order, [0], [k]), DType.i32)
