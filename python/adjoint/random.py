"""Counter-based random numbers from keys, as ``jax.random``.

Every function is a pure function of its key: the same key gives the same
numbers in the interpreter, in compiled CPU code and on every device, under
``grad`` (keys take no gradient) and in every call. The numbers are JAX's
(default threefry implementation): ``key``, ``split``, ``fold_in``, ``bits``,
``uniform`` and ``bernoulli`` bit for bit, ``normal`` to within a few ulp.

A key is an int32 array of shape (2,): JAX's raw ``uint32[2]`` key data
with its words read as int32 (``np.asarray(jax_key).view(np.int32)``).
``split(key, n)`` gives an (n, 2) array of keys; ``keys[i]`` is one.

Inside ``@adjoint.jit`` code (and with the builder API) the functions take
and return Values. Outside, given numpy arrays and ints, they compile and
run the computation on the CPU and return numpy arrays, as JAX's eager
functions do.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_support import _TRANSLATOR, float_dtype, to_dtype
from ._precision import compile as _compile
from . import _random_sampling as _sampling

__all__ = ["key", "PRNGKey", "split", "fold_in", "bits", "uniform",
           "normal", "bernoulli", "categorical", "dropout", "randint",
           "permutation", "shuffle", "choice"]

_R = _adj._random


def _shape(shape, name):
    if isinstance(shape, (int, _np.integer)):
        shape = (shape,)
    try:
        return [int(d) for d in shape]
    except TypeError:
        raise TypeError("adjoint.random.%s: the shape must be Python ints, "
                        "not %r" % (name, shape)) from None


def _dtype(dtype, name, default):
    return to_dtype(dtype, "random." + name) if dtype is not None else default


def _building():
    return _TRANSLATOR.get() is not None


def _eager(name, fn, args):
    """Runs `fn` over the numpy arrays `args` in a compiled CPU program (the
    functions called outside jitted code)."""
    arrays = []
    for a in args:
        a = _np.asarray(a)
        if a.dtype == _np.uint32:
            a = a.view(_np.int32)
        arrays.append(a)
    m = _adj.Module()
    types = []
    for a in arrays:
        dtype = {_np.dtype(_np.int32): DType.i32,
                 _np.dtype(_np.int64): DType.i64,
                 _np.dtype(_np.float32): DType.f32,
                 _np.dtype(_np.float64): DType.f64}.get(a.dtype)
        if dtype is None:
            raise TypeError("adjoint.random.%s: an array of dtype %s" %
                            (name, a.dtype))
        types.append(_adj.Type.tensor(dtype, list(a.shape)))
    m.function("f", types, fn)
    out = _compile(m, "f")(*arrays)
    return _np.asarray(out)


def _dispatch(name, fn, *args):
    """fn(*args) on Values, else run eagerly on the numpy arrays."""
    if _building() or any(isinstance(a, Value) for a in args):
        return fn(*args)
    return _eager(name, fn, args)


def key(seed, module=None):
    """The key of an integer seed: [0, seed] for 32-bit seeds, the high and
    low words of 64-bit ones (as JAX with jax_enable_x64). `seed` is a
    Python int or a rank-0 integer Value; `module` is needed for an int
    seed with the builder API outside jitted code."""
    if isinstance(seed, Value):
        return _R.key(seed)
    if not isinstance(seed, (int, _np.integer)) or isinstance(seed, bool):
        raise TypeError("adjoint.random.key: the seed must be an int or an "
                        "integer Value, not %r" % (seed,))
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise OverflowError("adjoint.random.key: seed %d does not fit in 64 "
                            "bits" % seed)
    if seed >= 2**63:
        seed -= 2**64
    if module is not None:
        return _R.key(module, seed)
    if _building():
        return _R.key(_TRANSLATOR.get().module, seed)
    return _eager_key(seed)


def _eager_key(seed):
    m = _adj.Module()
    m.function("f", [], lambda: _R.key(m, seed))
    return _np.asarray(_compile(m, "f")())


#: JAX's older name.
PRNGKey = key


def split(key, num=2):
    """`num` new keys, an (num, 2) array."""
    return _dispatch("split", lambda k: _R.split(k, int(num)), key)


def fold_in(key, data):
    """A new key from `key` and the integer `data` (its low 32 bits)."""
    if isinstance(data, (int, _np.integer)) and not isinstance(data, bool):
        return _dispatch("fold_in", lambda k: _R.fold_in(k, int(data)), key)
    return _dispatch("fold_in", _R.fold_in, key, data)


def bits(key, shape=(), dtype=None):
    """Random words (int32 by default, or int64): JAX's uint32/uint64 bits
    read as signed integers."""
    shape = _shape(shape, "bits")
    dtype = _dtype(dtype, "bits", DType.i32)
    return _dispatch("bits", lambda k: _R.bits(k, shape, dtype), key)


def uniform(key, shape=(), dtype=None, minval=0.0, maxval=1.0):
    """Floats in [minval, maxval)."""
    shape = _shape(shape, "uniform")
    dtype = _dtype(dtype, "uniform", float_dtype())
    return _dispatch(
        "uniform",
        lambda k: _R.uniform(k, shape, dtype, float(minval), float(maxval)),
        key)


def normal(key, shape=(), dtype=None):
    """Standard normal floats."""
    shape = _shape(shape, "normal")
    dtype = _dtype(dtype, "normal", float_dtype())
    return _dispatch("normal", lambda k: _R.normal(k, shape, dtype), key)


def bernoulli(key, p=0.5, shape=None):
    """Booleans, true with probability `p` (a number or a float array)."""
    if isinstance(p, Value) or (not isinstance(p, (int, float)) and
                                not _building()):
        if shape is None:
            return _dispatch("bernoulli",
                             lambda k, q: _R.bernoulli(k, q, list(q.shape)),
                             key, p)
        shape = _shape(shape, "bernoulli")
        return _dispatch("bernoulli",
                         lambda k, q: _R.bernoulli(k, q, shape), key, p)
    shape = _shape(() if shape is None else shape, "bernoulli")
    dtype = float_dtype()
    return _dispatch("bernoulli",
                     lambda k: _R.bernoulli(k, float(p), shape, dtype), key)


def categorical(key, logits, axis=-1, shape=None):
    """Indices (int32) drawn with probabilities softmax(logits) along
    `axis`; `shape`, if given, must end with the logits' shape without
    `axis` (its leading dimensions draw independent samples)."""
    shape = None if shape is None else _shape(shape, "categorical")
    return _dispatch("categorical",
                     lambda k, l: _R.categorical(k, l, int(axis), shape),
                     key, logits)


def dropout(key, x, rate):
    """Inverted dropout: x / (1 - rate) where a bernoulli(1 - rate) draw
    holds, else 0."""
    return _dispatch("dropout", lambda k, v: _R.dropout(k, v, float(rate)),
                     key, x)


def randint(key, shape, minval, maxval, dtype=None):
    """Integers in [minval, maxval) (int32 by default, as JAX's default
    32-bit mode; int32 or narrower), JAX's numbers."""
    shape = _shape(shape, "randint")
    dtype = _dtype(dtype, "randint", DType.i32)
    if dtype not in (DType.i32,):
        raise TypeError("adjoint.random.randint: dtype must be int32 (JAX's "
                        "64-bit draws are not implemented)")
    bounds = [b for b in (minval, maxval) if not _is_int(b)]
    if bounds:
        raise TypeError("adjoint.random.randint: minval and maxval must be "
                        "Python ints")
    return _dispatch("randint", lambda k: _sampling.randint(
        k, shape, int(minval), int(maxval), dtype), key)


def _is_int(x):
    return isinstance(x, (int, _np.integer)) and not isinstance(x, bool)


def _array_or_int(x):
    return int(x) if _is_int(x) else x


def permutation(key, x, axis=0, independent=False):
    """A shuffled copy of x along `axis` (its rows moved together unless
    `independent`), or a permutation of range(x) for an int x."""
    x = _array_or_int(x)
    if isinstance(x, int):
        return _dispatch("permutation",
                         lambda k: _sampling.permutation(k, x, 0, False), key)
    return _dispatch("permutation", lambda k, v: _sampling.permutation(
        k, v, int(axis), bool(independent)), key, x)


def shuffle(key, x, axis=0):
    """JAX's deprecated shuffle: x's entries shuffled independently along
    `axis` (permutation with independent=True)."""
    return _dispatch("shuffle", lambda k, v: _sampling.shuffle(
        k, v, int(axis) % max(1, v.rank)), key, x)


def choice(key, a, shape=(), replace=True, p=None, axis=0):
    """Samples of `a` (an array, along `axis`, or range(a) for an int), with
    or without replacement, uniform or with probabilities `p`."""
    shape = _shape(shape, "choice")
    a = _array_or_int(a)
    fd = float_dtype()

    def draw(k, *rest):
        it = iter(rest)
        arr = a if isinstance(a, int) else next(it)
        weights = None if p is None else next(it)
        return _sampling.choice(k, arr, shape, bool(replace), weights,
                                int(axis), fd)
    args = [key] + ([] if isinstance(a, int) else [a]) + \
        ([] if p is None else [p])
    return _dispatch("choice", draw, *args)
