"""A numpy-like namespace for jitted code: ``import adjoint.numpy as anp``.

numpy's names over adjoint's tensor functions (the arguments are adjoint
Values while a program is built). Inside jitted code numpy's own functions
given traced arrays resolve to these (_numpy_calls): ``np.argmax(x)`` is
``anp.argmax(x)``; a numpy function that has no entry here is an error
naming it. The functions that take no array (zeros, eye, arange, ...) build
into the program being jitted.

The functions are defined in the family modules (_np_*.py; _np_core.py for
those over adj's own ops), which import one another directly, never this
module. Here the namespace is assembled: its functions are made eager
(compiled on numpy arrays outside jitted code, _eager), roots drops
concrete leading zeros first, numpy.linalg and numpy.fft get their
submodules, and the translator is handed the namespace (_numpy_calls).
"""

import functools as _functools

import numpy as _np

from ._adjoint import (  # noqa: F401
    abs, sign, broadcast_to, relu, softmax, log_softmax, cast)
from ._adjoint import neg as negative  # noqa: F401
from . import _adjoint as _adj
from ._np_arithmetic import (  # noqa: F401
    angle, cbrt, conj, conjugate, copysign, deg2rad, degrees, exp2, fabs,
    float_power, fmax, fmin, gcd, heaviside, hypot, imag, lcm, log10, log2,
    logaddexp, logaddexp2, nan_to_num, positive, pow, rad2deg, radians,
    real, signbit, sinc)
from ._np_float_layout import (  # noqa: F401
    frexp, ldexp, modf, nextafter, spacing)
from ._np_bessel import i0  # noqa: F401
from ._np_contraction import dot, einsum, matmul, outer  # noqa: F401
from ._np_dtype_queries import (  # noqa: F401
    can_cast, finfo, iinfo, iscomplexobj, isdtype, isrealobj, isscalar,
    issubdtype, iterable, promote_types, result_type)
from ._np_dtype_queries import HOST_ANSWERS as _HOST_ANSWERS
from ._np_functional import (  # noqa: F401
    apply_along_axis, apply_over_axes, piecewise)
from ._np_histograms import (  # noqa: F401
    histogram, histogram2d, histogram_bin_edges, histogramdd)
from ._np_index_tricks import c_, r_  # noqa: F401
from ._np_logic import (  # noqa: F401
    allclose, array_equal, array_equiv, bitwise_and, bitwise_count,
    bitwise_invert, bitwise_left_shift, bitwise_not, bitwise_or,
    bitwise_right_shift, bitwise_xor, invert, iscomplex, isclose, isneginf,
    isposinf, isreal, left_shift, packbits, right_shift, unpackbits)
from ._np_creation import (  # noqa: F401
    arange, empty, empty_like, eye, full, full_like, identity, linspace,
    ones, ones_like, zeros, zeros_like)
from ._np_elementwise import (  # noqa: F401
    add, clip, divide, equal, greater, greater_equal, isfinite, isinf,
    isnan, less, less_equal, logical_and, logical_not, logical_or,
    logical_xor, maximum, minimum, multiply, not_equal, reciprocal, square,
    subtract, tril, triu, true_divide, where)
from ._np_movement import (  # noqa: F401
    array_split, concatenate, expand_dims, split, squeeze, stack,
    take, take_along_axis)
from ._np_reductions import (  # noqa: F401
    all, amax, amin, any, argmax, argmin, cumprod, cumsum, logsumexp, mean,
    prod, sum)
from ._np_polynomials import (  # noqa: F401
    poly, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub,
    polyval, roots, vander)
from ._np_products import (  # noqa: F401
    convolve, correlate, cross, einsum_path, inner, matvec, tensordot,
    vdot, vecdot, vecmat)
from ._np_rounding import (  # noqa: F401
    around, ceil, divmod, fix, floor, floor_divide, fmod, mod, remainder,
    rint, round, trunc)
from ._np_sorting import argsort, sort, sort_complex  # noqa: F401
from ._np_shapes import (  # noqa: F401
    append, astype, atleast_1d, atleast_2d, atleast_3d, block, column_stack,
    concat, copy, dsplit, dstack, flip, fliplr, flipud, hsplit, hstack,
    matrix_transpose, moveaxis, permute_dims, roll, rollaxis, rot90,
    row_stack, swapaxes, unstack, vsplit, vstack)
from ._np_diagonals import (  # noqa: F401
    diag, diagflat, diagonal, fill_diagonal, kron, trace, tri)
from ._np_index_functions import (  # noqa: F401
    choose, diag_indices, diag_indices_from, indices, ix_, mask_indices,
    meshgrid, place, put, put_along_axis, ravel_multi_index, select,
    tril_indices,
    tril_indices_from, triu_indices, triu_indices_from, unravel_index)
from ._np_nonzero import (  # noqa: F401
    argwhere, compress, extract, flatnonzero, nonzero)
from ._np_pad import pad  # noqa: F401
from ._np_resizing import (  # noqa: F401
    broadcast_arrays, broadcast_shapes, delete, insert, repeat, resize, tile)
from ._np_calculus import (  # noqa: F401
    cumulative_prod, cumulative_sum, diff, ediff1d, gradient, interp,
    trapezoid, unwrap)
from ._np_searching import (  # noqa: F401
    argpartition, bincount, digitize, intersect1d, isin, lexsort, partition,
    searchsorted, setdiff1d, setxor1d, trim_zeros, union1d, unique,
    unique_all, unique_counts, unique_inverse, unique_values)
from ._np_statistics import (  # noqa: F401
    average, corrcoef, count_nonzero, cov, median, nanargmax, nanargmin,
    nancumprod, nancumsum, nanmax, nanmean, nanmedian, nanmin,
    nanpercentile, nanprod, nanquantile, nanstd, nansum, nanvar, percentile,
    ptp, quantile)
from ._np_vectorize import vectorize  # noqa: F401
from ._np_windows import (  # noqa: F401
    bartlett, blackman, fromfunction, geomspace, hamming, hanning, kaiser,
    logspace)
from ._np_trigonometric import (  # noqa: F401
    acos, acosh, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,
    asin, asinh, atan, atan2, atanh, cosh, expm1, log1p, sinh, tan)
from ._np_core import (  # noqa: F401
    asanyarray, asarray, ascontiguousarray, asfortranarray, cos, erf, exp,
    log, ndim, power, ravel, reshape, shape, sigmoid, sin, size, sqrt, std,
    tanh, transpose, var)
from ._eager import eager as _eager

absolute = abs
max = amax
min = amin
array = asarray


#: The numpy functions this namespace implements (_numpy_calls maps numpy's
#: functions of these names to these; numpy's r_ and c_ are objects,
#: resolved where they are subscripted).
NAMES = sorted(n for n in dir() if not n.startswith("_") and n not in (
    "NAMES", "cast", "sigmoid", "relu", "softmax", "log_softmax",
    "r_", "c_"))

# Outside jitted code, on numpy arrays, the functions run compiled (the
# shape and dtype queries are answered by numpy).
for _name in NAMES:
    if _name not in ("shape", "ndim", "size", "vectorize") + _HOST_ANSWERS:
        globals()[_name] = _eager(globals()[_name])
logsumexp = _eager(logsumexp)


def _concrete(x):
    """Whether `x` holds no traced Value (numbers, arrays, lists of them)."""
    # (all and any here are adjoint.numpy's.)
    if isinstance(x, (list, tuple)):
        return not [item for item in x if not _concrete(item)]
    return not isinstance(x, _adj.Value)


def _stripping_concrete_zeros(compiled):
    """numpy's roots (see _np_polynomials.roots): concrete coefficients
    (outside jitted code, or constants in it) have their leading zeros
    dropped first, as numpy (and JAX outside jit) drop them."""
    @_functools.wraps(compiled)
    def roots(p, *, strip_zeros=True):
        if strip_zeros and _concrete(p):
            p = _np.atleast_1d(_np.asarray(p))
            nonzero = _np.flatnonzero(p)
            p = p[nonzero[0]:] if nonzero.size else p[:0]
            strip_zeros = False
        return compiled(p, strip_zeros=strip_zeros)
    return roots


roots = _stripping_concrete_zeros(roots)


# A contraction plan is Python data from shapes: nothing to compile.
from ._np_products import einsum_path  # noqa: E402,F811
del _name

# Functions of shapes only answer as they are outside jitted code too.
from ._np_resizing import broadcast_shapes  # noqa: F401,E402,F811
from ._np_index_functions import (  # noqa: F401,E402,F811
    diag_indices, diag_indices_from, mask_indices, tril_indices,
    tril_indices_from, triu_indices, triu_indices_from)

# numpy.linalg's functions: adjoint.numpy.linalg (importable by that name),
# eager on numpy arrays as the functions above.
import sys as _sys  # noqa: E402
import types as _types  # noqa: E402

from . import _np_linalg as _linalg_functions  # noqa: E402

linalg = _types.ModuleType("adjoint.numpy.linalg", _linalg_functions.__doc__)
for _name in _linalg_functions.NAMES:
    setattr(linalg, _name, _eager(getattr(_linalg_functions, _name)))
for _name in ("NAMES", "EigResult", "EighResult", "QRResult", "SlogdetResult",
              "SVDResult", "LinAlgError"):
    setattr(linalg, _name, getattr(_linalg_functions, _name))
_sys.modules[linalg.__name__] = linalg

# numpy.fft's functions: adjoint.numpy.fft, likewise.
from . import _np_fft as _fft_functions  # noqa: E402

fft = _types.ModuleType("adjoint.numpy.fft", _fft_functions.__doc__)
for _name in _fft_functions.NAMES:
    setattr(fft, _name, _eager(getattr(_fft_functions, _name)))
fft.NAMES = _fft_functions.NAMES
_sys.modules[fft.__name__] = fft
del _name

# Jitted code's numpy calls resolve to this namespace (_numpy_calls). The
# translator is below it (the functions here run compiled through jit), so
# the namespace is handed to it rather than imported by it.
from ._numpy_calls import use_namespace as _use_namespace  # noqa: E402

_use_namespace(_sys.modules[__name__])
