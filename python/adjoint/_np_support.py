"""What adjoint.numpy's functions share: the translator of the jitted
function being built (array creation needs its module and float dtype),
operands as Values, axes and dtypes in numpy's conventions.

The base of the numpy layer: it imports none of the family modules
(_np_*.py), _indexing or adjoint.numpy, so that each of them can import it
at the top. A helper that two of them need (stacking Values, an empty part
of an array) lives here rather than in one of them."""

import contextlib
import contextvars
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._source import _NP_TO_ADJ
from ._tensor import adj_dtype
from ._trees import _flatten, _is_integer

# The _Translator running on this thread, while a jitted function is built.
_TRANSLATOR = contextvars.ContextVar("adjoint_translator", default=None)


@contextlib.contextmanager
def building(translator):
    """Makes `translator` the one adjoint.numpy builds with."""
    token = _TRANSLATOR.set(translator)
    try:
        yield
    finally:
        _TRANSLATOR.reset(token)


def translator(name):
    """The translator being run; `name` is the numpy function that needs it
    (an array made from Python values needs the module being built)."""
    tr = _TRANSLATOR.get()
    if tr is None:
        raise TypeError(
            "adjoint.numpy.%s makes a new array: call it inside an "
            "@adjoint.jit function (with the builder API, use "
            "adjoint.fill/zeros/iota with the Module)" % name)
    return tr


def module_of(name, *xs):
    """The module of the first Value among `xs`, else the one being built."""
    for x in xs:
        if isinstance(x, Value):
            return x.module
    return translator(name).module


def float_dtype(*xs):
    """The program's float dtype (in jitted code), else that of a float
    Value among `xs`, else f32."""
    tr = _TRANSLATOR.get()
    if tr is not None:
        return tr.float_dtype
    for x in xs:
        if isinstance(x, Value) and x.dtype.is_float:
            return x.dtype
    return DType.f32


def as_value(x, name, like=None):
    """`x` (a Value, a number, a numpy array, a nested list of numbers) as a
    Value; numbers follow the front end's rules (see _Translator)."""
    if isinstance(x, Value):
        return x
    tr = _TRANSLATOR.get()
    if tr is None:
        if like is not None and isinstance(x, (int, float, _np.number)):
            exact = _is_integer(x) and not like.dtype.is_float
            return _adj.scalar(like.module, int(x) if exact else float(x),
                               like.dtype)
        if like is not None and isinstance(x, _np.ndarray):
            return _host_constant(x, like)
        raise TypeError("adjoint.numpy.%s: a %s is not an adjoint.Value "
                        "(outside jitted code, every operand must be one)"
                        % (name, type(x).__name__))
    if isinstance(x, (list, tuple)):
        leaves = []
        _flatten(x, leaves)
        values = [e for e in leaves if isinstance(e, Value)]
        if values:
            # np.array([a, b]) of tensors stacks them.
            like = values[0] if like is None else like
            return stack_values([as_value(e, name, like) for e in x], 0)
        x = _np.asarray(x)
    if isinstance(x, _np.ndarray):
        return tr.constant(x)
    if isinstance(x, (bool, _np.bool_)) or like is None:
        return tr.materialize(x)
    return tr.materialize(x, like=like)


def _host_constant(a, like):
    """A numpy array met by the Value `like` outside jitted code: floats
    take like's float dtype, as numbers do."""
    if a.dtype.kind == "f" and like.dtype.is_float:
        dtype = like.dtype
    elif a.dtype in _NP_TO_ADJ:
        dtype = _NP_TO_ADJ[a.dtype]
    else:
        raise TypeError("a numpy array of dtype %s cannot be a value of the "
                        "program" % a.dtype)
    return _adj.constant(like.module, a.astype(_np.float64), list(a.shape),
                         dtype)


def binop(op, a, b):
    """`op(a, b)` with the front end's operand rules (numbers, mixed
    dtypes) inside jitted code, the Value operators outside (a numpy array
    operand becoming a constant and a numpy scalar a Python number: their
    own operators would dispatch back here)."""
    tr = _TRANSLATOR.get()
    if tr is not None:
        return tr.binop(op, a, b)
    # numpy's scalars too: their operators dispatch back here.
    a = a.item() if isinstance(a, _np.generic) else a
    b = b.item() if isinstance(b, _np.generic) else b
    if isinstance(a, _np.ndarray) and isinstance(b, Value):
        a = _host_constant(a, b)
    elif isinstance(b, _np.ndarray) and isinstance(a, Value):
        b = _host_constant(b, a)
    return op(a, b)


def logical(is_and, a, b):
    """a and b / a or b elementwise, as the front end's `and`/`or` on
    tensors (a select)."""
    a = truth(as_value(a, "logical_and" if is_and else "logical_or"))
    b = truth(as_value(b, "logical_and" if is_and else "logical_or"))
    return _adj.select(a, b, a) if is_and else _adj.select(a, a, b)


def truth(x):
    """x != 0 as i1, NaN counting as true (as numpy's bool(x))."""
    if not isinstance(x, Value) or x.dtype == DType.i1:
        return x
    return _adj.cast(x == 0.0, DType.i32) == 0.0


def normalize_axis(axis, rank, name):
    """`axis` in [0, rank), from numpy's [-rank, rank)."""
    if not isinstance(axis, (int, _np.integer)) or isinstance(axis, bool):
        raise TypeError("adjoint.numpy.%s: axis must be an int, not %s"
                        % (name, type(axis).__name__))
    if not -rank <= axis < rank:
        raise ValueError("adjoint.numpy.%s: axis %d is out of bounds for an "
                         "array of dimension %d" % (name, axis, rank))
    return int(axis) % rank


def normalize_axes(axis, rank, name):
    """A list of axes for None (all), an int or a sequence."""
    if axis is None:
        return list(range(rank))
    if isinstance(axis, (tuple, list)):
        axes = [normalize_axis(a, rank, name) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError("adjoint.numpy.%s: repeated axis" % name)
        return axes
    return [normalize_axis(axis, rank, name)]


def size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def ravel(x):
    return _adj.reshape(x, [size(x.shape)])


def stack_values(xs, axis):
    """Values of one shape joined along a new axis `axis`: numpy's stack
    (_np_movement), and as_value's list of tensors."""
    if any(list(x.shape) != list(xs[0].shape) for x in xs):
        raise ValueError("adjoint.numpy.stack: all input arrays must have "
                         "the same shape")
    axis = normalize_axis(axis, xs[0].rank + 1, "stack")
    return _adj.concat([_adj.reshape(x, list(x.shape[:axis]) + [1] +
                                     list(x.shape[axis:])) for x in xs],
                       axis)


def empty_part(x, shape):
    """An empty part of x: no element of x is read, so it is a fill (the
    CPU lowering rejects an empty slice that starts at a dimension's end,
    e.g. x[3:] of 3 elements)."""
    return _adj.fill(x.module, 0.0, shape, x.dtype)


def part_dtype(dtype):
    """The dtype of a complex dtype's parts (c64 -> f32, c128 -> f64); any
    other dtype itself."""
    return {DType.c64: DType.f32, DType.c128: DType.f64}.get(dtype, dtype)


def complex_dtype(real):
    """The complex dtype of parts of `real`: c128 for f64, else c64."""
    return DType.c128 if real == DType.f64 else DType.c64


def to_dtype(dtype, name):
    """A numpy dtype (or DType) as a DType; Python's float is the program's
    float dtype, as Python float values are (and complex its complex
    type)."""
    if dtype is None or isinstance(dtype, DType):
        return dtype
    if dtype is float:
        return float_dtype()
    if dtype is complex:
        return complex_dtype(float_dtype())
    found = adj_dtype(dtype)
    if found is None:
        raise TypeError("adjoint.numpy.%s: unsupported dtype %r"
                        % (name, dtype))
    return found


def cast_to(x, dtype):
    return x if dtype is None or x.dtype == dtype else _adj.cast(x, dtype)


def iota(module, shape, axis):
    return _adj.iota(module, list(shape), axis, DType.i64)


def move_axis_last(x, axis):
    """(x with `axis` moved last, the permutation that moves it back)."""
    rank = x.rank
    if axis == rank - 1:
        return x, None
    perm = [d for d in range(rank) if d != axis] + [axis]
    back = [0] * rank
    for i, p in enumerate(perm):
        back[p] = i
    return _adj.transpose(x, perm), back


def move_back(x, back):
    return x if back is None else _adj.transpose(x, back)


def reversed_order(x):
    """An order-reversing bijection of x's values: -x for floats, -x - 1
    (bitwise not, which does not overflow) for integers."""
    if x.dtype.is_float:
        return -x
    return -x - 1.0


OPS = {"add": operator.add, "subtract": operator.sub,
       "multiply": operator.mul, "divide": operator.truediv,
       "true_divide": operator.truediv, "equal": operator.eq,
       "not_equal": operator.ne, "less": operator.lt,
       "less_equal": operator.le, "greater": operator.gt,
       "greater_equal": operator.ge}
