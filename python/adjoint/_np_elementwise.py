"""numpy's elementwise functions in jitted code that adj has no single op
for: where (numbers as branches too), clip, maximum/minimum with a number on
either side, triu/tril (a select with an iota mask), the arithmetic and
comparison ufuncs, logical functions and isnan/isinf/isfinite.

Binary functions follow the front end's rules for operands (the same as
``a + b`` in jitted code: numbers take the other operand's dtype).
"""

import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_support import (OPS, _TRANSLATOR, as_value, binop, float_dtype,
                          iota, logical, truth)


def float_function(fn, name, complex_ok=False):
    """numpy's float-only function `fn` (tanh, exp, ...): integers and
    booleans are computed as floats of the program's float dtype, as numpy
    computes them in float64 (a Python number's weakness carries over).
    Complex arrays stay complex where `fn` is written for them
    (`complex_ok`) and are an error elsewhere."""
    def function(x):
        x = as_value(x, name)
        if x.dtype.is_complex and not complex_ok:
            raise TypeError("adjoint.numpy.%s: complex arrays are not "
                            "supported (%s)" % (name, x.dtype))
        if x.dtype.is_inexact:
            return fn(x)
        tr = _TRANSLATOR.get()
        out = fn(_adj.cast(x, float_dtype()))
        if tr is not None and tr.is_weak(x):
            tr.mark_weak(out)
        return out
    function.__name__ = function.__qualname__ = name
    function.__doc__ = "numpy's %s; integers and booleans as floats." % name
    return function


def where(condition, x=None, y=None):
    """``x`` where ``condition`` is non-zero, else ``y`` (broadcast)."""
    if x is None or y is None:
        raise TypeError("adjoint.numpy.where needs x and y: the one-argument "
                        "form (indices of non-zeros) has a data-dependent "
                        "shape")
    cond = truth(as_value(condition, "where"))
    tr = _TRANSLATOR.get()
    if tr is not None and (isinstance(x, Value) or isinstance(y, Value)):
        # The branches meet as the operands of x + y do: a number takes
        # the tensor's dtype unless its kind is higher (an int tensor and
        # 1.5 are floats), and two tensors are promoted by the builder.
        x, y, weak = tr.promote(None, x, y)
        out = _adj.select(cond, as_value(x, "where", like=y),
                          as_value(y, "where", like=x))
        return tr.mark_weak(out) if weak else out
    if not isinstance(x, Value) and not isinstance(y, Value):
        # Two numbers: an int and a float branch are both floats (numpy's
        # where(c, 2, 1.5) is float64).
        if any(isinstance(v, (float, _np.floating)) for v in (x, y)) and \
                all(isinstance(v, (bool, int, float, _np.number))
                    for v in (x, y)):
            x, y = float(x), float(y)
        x = as_value(x, "where")
    x = as_value(x, "where", like=y if isinstance(y, Value) else None)
    y = as_value(y, "where", like=x)
    return _adj.select(cond, x, y)


def _extreme(fn, name, a, b):
    if not isinstance(a, Value):
        a, b = b, a   # maximum and minimum commute
    if not isinstance(a, Value):
        raise TypeError("adjoint.numpy.%s: no operand is an array" % name)
    if _TRANSLATOR.get() is not None:
        # The operand rules of a + b (an int tensor and 2.5 are floats).
        return binop(fn, a, b)
    if isinstance(b, (bool, int, float, _np.number)):
        return fn(a, float(b))
    return fn(a, as_value(b, name, like=a))


def maximum(x1, x2):
    return _extreme(_adj.maximum, "maximum", x1, x2)


def minimum(x1, x2):
    return _extreme(_adj.minimum, "minimum", x1, x2)


def clip(a, a_min=None, a_max=None):
    """min(max(a, a_min), a_max); a bound may be None."""
    x = as_value(a, "clip")
    if a_min is not None:
        x = maximum(x, a_min)
    if a_max is not None:
        x = minimum(x, a_max)
    return x


def _triangle(m, k, keep, name):
    x = as_value(m, name)
    if x.rank < 2:
        raise ValueError("adjoint.numpy.%s: the array must have at least 2 "
                         "dimensions" % name)
    shape = list(x.shape[-2:])
    offset = iota(x.module, shape, 1) - iota(x.module, shape, 0)
    return _adj.select(keep(offset, float(k)), x, 0.0)


def tril(m, k=0):
    """Zeros above the k-th diagonal."""
    return _triangle(m, k, operator.le, "tril")


def triu(m, k=0):
    """Zeros below the k-th diagonal."""
    return _triangle(m, k, operator.ge, "triu")


def _ufunc(name):
    op = OPS[name]

    def fn(x1, x2):
        return binop(op, x1, x2)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = "numpy.%s: ``%s`` with the front end's operand rules." % (
        name, op.__name__)
    return fn


add, subtract, multiply, divide, true_divide = (
    _ufunc(n) for n in ("add", "subtract", "multiply", "divide",
                        "true_divide"))
equal, not_equal, less, less_equal, greater, greater_equal = (
    _ufunc(n) for n in ("equal", "not_equal", "less", "less_equal",
                        "greater", "greater_equal"))


def logical_and(x1, x2):
    return logical(True, x1, x2)


def logical_or(x1, x2):
    return logical(False, x1, x2)


def logical_not(x):
    t = truth(as_value(x, "logical_not"))
    return _adj.cast(t, DType.i32) == 0.0


def logical_xor(x1, x2):
    a = _adj.cast(truth(as_value(x1, "logical_xor")), DType.i32)
    b = _adj.cast(truth(as_value(x2, "logical_xor")), DType.i32)
    return a != b


def isnan(x):
    return _float_test(x, "isnan", lambda v: v != v, False)


def _float_test(x, name, test, otherwise, both=False):
    """test(x) for floats; for complex numbers test(real) or test(imag) (and
    with `both`); integers give `otherwise` everywhere."""
    x = as_value(x, name)
    if x.dtype.is_complex:
        re, im = test(_adj.real(x)), test(_adj.imag(x))
        return logical_and(re, im) if both else logical_or(re, im)
    if x.dtype.is_float:
        return test(x)
    return _adj.fill(x.module, float(otherwise), list(x.shape), DType.i1)


def isinf(x):
    return _float_test(x, "isinf", lambda v: _adj.abs(v) == float("inf"),
                       False)


def isfinite(x):
    return _float_test(x, "isfinite", lambda v: _adj.abs(v) < float("inf"),
                       True, both=True)


def reciprocal(x):
    return binop(operator.truediv, 1.0, as_value(x, "reciprocal"))


def square(x):
    return x * x
