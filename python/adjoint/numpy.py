"""A numpy-like namespace for jitted code: ``import adjoint.numpy as anp``.

numpy's names over adjoint's tensor functions (the arguments are adjoint
Values while a program is built). Inside jitted code numpy's own functions
given traced arrays resolve to these (_numpy_calls): ``np.argmax(x)`` is
``anp.argmax(x)``; a numpy function that has no entry here is an error
naming it. The functions that take no array (zeros, eye, arange, ...) build
into the program being jitted.
"""

from ._adjoint import (  # noqa: F401
    abs, sign, sum, mean, transpose, broadcast_to, relu, softmax,
    log_softmax, pow, cast)
from ._adjoint import neg as negative  # noqa: F401
from . import _adjoint as _adj
from ._np_contraction import dot, einsum, matmul, outer  # noqa: F401
from ._np_creation import (  # noqa: F401
    arange, empty, empty_like, eye, full, full_like, identity, linspace,
    ones, ones_like, zeros, zeros_like)
from ._np_elementwise import float_function as _float_function
from ._np_elementwise import (  # noqa: F401
    add, clip, divide, equal, greater, greater_equal, isfinite, isinf,
    isnan, less, less_equal, log1p, logical_and, logical_not, logical_or,
    logical_xor, maximum, minimum, multiply, not_equal, reciprocal, square,
    subtract, tril, triu, true_divide, where)
from ._np_movement import (  # noqa: F401
    array_split, concatenate, expand_dims, ravel, split, squeeze, stack,
    take, take_along_axis)
from ._np_reductions import (  # noqa: F401
    all, amax, amin, any, argmax, argmin, cumprod, cumsum, prod)
from ._np_sorting import argsort, sort  # noqa: F401
from ._np_support import as_value as _as_value, cast_to as _cast_to
from ._np_support import normalize_axes as _axes, size as _size
from ._np_support import to_dtype as _to_dtype

exp, log, tanh, sqrt, sin, cos, erf, sigmoid = (
    _float_function(getattr(_adj, name), name)
    for name in ("exp", "log", "tanh", "sqrt", "sin", "cos", "erf", "sigmoid"))
power = pow
absolute = abs
max = amax
min = amin


def var(a, axis=None, keepdims=False, ddof=0):
    """The mean squared deviation, divided by N - ddof."""
    x = _as_value(a, "var")
    n = _size([x.shape[i] for i in _axes(axis, x.rank, "var")])
    d = x - _adj.mean(x, axis, True)
    dof = n - ddof if n > ddof else 0  # numpy's max(N - ddof, 0)
    return _adj.sum(d * d, axis, keepdims) / float(dof)


def std(a, axis=None, keepdims=False, ddof=0):
    """sqrt(var), whose derivative is 0 where the deviation is 0: over a
    size-1 axis std is constant (0) in x, and at equal values 0 is a
    subgradient, where sqrt's infinite slope times a zero deviation would
    give NaN. The square root of 1 stands in where var is 0, so that no
    infinite slope is formed even in the branch not taken."""
    v = var(a, axis, keepdims, ddof)
    nonzero = v != 0.0  # NaN (a NaN input, ddof = N) stays NaN
    return _adj.select(nonzero, sqrt(_adj.select(nonzero, v, 1.0)), 0.0)


def reshape(a, newshape):
    """numpy's reshape (one dimension may be -1)."""
    from ._indexing import _reshape
    return _reshape(_as_value(a, "reshape"), newshape)


def asarray(a, dtype=None):
    """A Value as it is (cast to `dtype`); numbers and numpy arrays become
    constants of the program."""
    return _cast_to(_as_value(a, "asarray"), _to_dtype(dtype, "asarray"))


array = asarray


def shape(a):
    return tuple(_as_value(a, "shape").shape)


def ndim(a):
    return _as_value(a, "ndim").rank


def size(a, axis=None):
    s = _as_value(a, "size").shape
    return _size(s) if axis is None else s[axis]


#: The numpy names this namespace implements (_numpy_calls maps numpy's
#: functions of these names to these).
NAMES = sorted(n for n in dir() if not n.startswith("_") and n not in (
    "NAMES", "pow", "cast", "sigmoid", "relu", "softmax", "log_softmax"))
