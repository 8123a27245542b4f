"""numpy's questions about dtypes and objects, answered by numpy for the
dtypes of adjoint's arrays: can_cast, promote_types, result_type, isdtype,
issubdtype, finfo, iinfo, iterable, isrealobj, iscomplexobj, isscalar. A
traced array (a Value) stands for its dtype (for iterable and isscalar,
its rank), so the questions can be asked in jitted code; the answers are
Python values known while building (so these functions never run
compiled).
"""

import numpy as _np

from ._adjoint import DType, Value
from ._source import _ADJ_TO_NP


def _numpy_dtype(x):
    """A Value or an adjoint DType as numpy's dtype (bf16 as ml_dtypes'
    bfloat16, which numpy's functions know); anything else as it is."""
    dtype = x.dtype if isinstance(x, Value) else x
    if isinstance(dtype, DType):
        if dtype == DType.bf16:
            import ml_dtypes
            return _np.dtype(ml_dtypes.bfloat16)
        return _ADJ_TO_NP[dtype]
    return x


def can_cast(from_, to, casting="safe"):
    """numpy's can_cast of the dtypes (a Value stands for its dtype)."""
    return bool(_np.can_cast(_numpy_dtype(from_), _numpy_dtype(to),
                             casting))


def promote_types(type1, type2):
    """numpy's promote_types of the dtypes."""
    return _np.promote_types(_numpy_dtype(type1), _numpy_dtype(type2))


def result_type(*arrays_and_dtypes):
    """numpy's result_type; Python numbers are weak, as in numpy 2."""
    return _np.result_type(*[_numpy_dtype(a) for a in arrays_and_dtypes])


def isdtype(dtype, kind):
    """numpy's isdtype (kind a dtype, a name such as 'real floating', or a
    tuple of them)."""
    return bool(_np.isdtype(_numpy_dtype(dtype), kind))


def issubdtype(arg1, arg2):
    """numpy's issubdtype (np.floating, np.integer, ... as the parent)."""
    return bool(_np.issubdtype(_numpy_dtype(arg1), _numpy_dtype(arg2)))


def finfo(dtype):
    """numpy's finfo of a float dtype (ml_dtypes' for bf16)."""
    d = _numpy_dtype(dtype)
    if getattr(d, "name", None) == "bfloat16":
        import ml_dtypes
        return ml_dtypes.finfo(d)
    return _np.finfo(d)


def iinfo(int_type):
    """numpy's iinfo of an integer dtype."""
    return _np.iinfo(_numpy_dtype(int_type))


def iterable(y):
    """Whether y can be iterated: a traced array when its rank is not 0,
    as numpy's arrays."""
    if isinstance(y, Value):
        return y.type.is_tensor and y.rank > 0
    return bool(_np.iterable(y))


def isrealobj(x):
    """True unless x has a complex dtype."""
    return not iscomplexobj(x)


def iscomplexobj(x):
    if isinstance(x, Value):
        return x.type.is_tensor and x.dtype.is_complex
    return bool(_np.iscomplexobj(x))


def isscalar(element):
    """numpy's isscalar; a traced rank-0 array counts as a scalar, as a JAX
    array does in jnp.isscalar."""
    if isinstance(element, Value):
        return element.type.is_tensor and element.rank == 0
    return bool(_np.isscalar(element))


#: These answer with Python values, also outside jitted code.
HOST_ANSWERS = ("can_cast", "promote_types", "result_type", "isdtype",
                "issubdtype", "iterable", "isrealobj", "iscomplexobj",
                "isscalar", "finfo", "iinfo")
