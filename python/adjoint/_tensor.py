"""numpy's protocols on adjoint.Tensor (device arrays) and adjoint.DType.

A device array behaves as a value, as numpy's, JAX's and torch's arrays do:
``if done:`` and ``while not converged:`` read a one-element result, ``==``
compares elements, ``float(loss)`` and ``int(step)`` convert, and
``np.array(t, copy=False)`` raises numpy 2's ValueError where it cannot give
the tensor's own memory (a device tensor, another dtype) instead of a copy
whose writes would be lost. A DType converts to its numpy dtype
(``np.dtype(adjoint.f32)``, ``np.zeros(3, adjoint.f32)``) and compares equal
to it (``x.dtype == adjoint.f32`` where ``x.dtype`` is numpy's).

The bindings stay logic-free (DESIGN.md): these are installed on their
classes here.
"""

import operator

import numpy as _np

from ._adjoint import DType, Tensor
from ._source import _ADJ_TO_NP, _NP_TO_ADJ


def numpy_dtype(dtype):
    """The numpy dtype of a DType; bf16 is ml_dtypes' bfloat16 (numpy has
    none; JAX's is the same)."""
    found = _ADJ_TO_NP.get(dtype)
    if found is not None:
        return found
    import ml_dtypes
    return _np.dtype(ml_dtypes.bfloat16)


def adj_dtype(dtype):
    """The DType of a numpy dtype (or anything numpy takes as one,
    ml_dtypes' bfloat16 included); None when there is none."""
    if isinstance(dtype, DType):
        return dtype
    try:
        dt = _np.dtype(dtype)
    except (TypeError, ValueError, SyntaxError):  # "cuda,+tf32", "f32"
        return None
    found = _NP_TO_ADJ.get(dt)
    if found is None and dt.name == "bfloat16":
        return DType.bf16
    return found


# ---------------------------------------------------------------------------
# DType
# ---------------------------------------------------------------------------

def _dtype_eq(self, other):
    if isinstance(other, DType):
        return int(self) == int(other)
    return adj_dtype(other) == self if _dtype_like(other) else NotImplemented


def _dtype_like(x):
    return isinstance(x, (_np.dtype, type, str)) or hasattr(x, "dtype")


def _dtype_ne(self, other):
    eq = _dtype_eq(self, other)
    return eq if eq is NotImplemented else not eq


# ---------------------------------------------------------------------------
# Tensor
# ---------------------------------------------------------------------------

def _host(t):
    """The tensor's value on the host (a view of host memory)."""
    return t.numpy()


def _item(t, convert, what):
    if t.size != 1:
        raise TypeError("only one-element tensors can be converted to "
                        "Python %ss (this one has shape %s)"
                        % (what, t.shape))
    return convert(_host(t).reshape(()).item())


def _bool(t):
    if t.size != 1:
        raise ValueError("The truth value of a tensor with more than one "
                         "element is ambiguous (shape %s): use a.any() or "
                         "a.all() on adjoint.to_numpy(a)" % (t.shape,))
    return bool(_host(t).reshape(()))


def _index(t):
    if _np.dtype(t.dtype).kind not in "iub":
        raise TypeError("only integer tensors can be used as an index "
                        "(this one is %s)" % t.dtype)
    return _item(t, int, "int")


def _len(t):
    if not t.shape:
        raise TypeError("len() of a 0-d tensor")
    return t.shape[0]


def _array(t, dtype=None, copy=None):
    """numpy's __array__ protocol: the tensor's own host memory when it can
    (copy=None or False), a copy when asked or needed; copy=False where a
    copy is needed raises ValueError, as numpy 2 does."""
    needs_copy = not t.device.kind == "cpu" or (
        dtype is not None and _np.dtype(dtype) != t.dtype)
    if copy is False and needs_copy:
        where = "on %s" % t.device.id if t.device.kind != "cpu" else \
            "of dtype %s, not %s" % (t.dtype, _np.dtype(dtype))
        raise ValueError("Unable to avoid copy while creating an array as "
                         "requested: the tensor is %s" % where)
    a = _host(t)
    if dtype is not None:
        a = a.astype(dtype, copy=False)
    return a.copy() if copy else a


def _compare(op):
    def compare(self, other):
        if isinstance(other, Tensor):
            other = _host(other)
        return op(_host(self), other)
    return compare


def _block_until_ready(t):
    """Waits for the work that computes the tensor; returns it."""
    if t.device.kind != "cpu":
        t.device.synchronize()
    return t


def install():
    DType.__eq__ = _dtype_eq
    DType.__ne__ = _dtype_ne
    DType.__hash__ = lambda self: int(self)
    DType.dtype = property(numpy_dtype, doc="The numpy dtype.")

    Tensor.ndim = property(lambda t: len(t.shape))
    Tensor.size = property(lambda t: int(_np.prod(t.shape, dtype=_np.int64)))
    Tensor.itemsize = property(lambda t: t.dtype.itemsize)
    Tensor.nbytes = property(lambda t: t.size * t.dtype.itemsize)
    Tensor.__bool__ = _bool
    Tensor.__float__ = lambda t: _item(t, float, "float")
    Tensor.__int__ = lambda t: _item(t, int, "int")
    Tensor.__complex__ = lambda t: _item(t, complex, "complex")
    Tensor.__index__ = _index
    Tensor.__len__ = _len
    Tensor.__array__ = _array
    for name, op in (("__eq__", operator.eq), ("__ne__", operator.ne),
                     ("__lt__", operator.lt), ("__le__", operator.le),
                     ("__gt__", operator.gt), ("__ge__", operator.ge)):
        setattr(Tensor, name, _compare(op))
    # Elementwise == makes tensors unhashable, as numpy and JAX arrays are.
    Tensor.__hash__ = None
    Tensor.item = lambda t: _item(t, lambda v: v, "scalar")
    Tensor.tolist = lambda t: _host(t).tolist()
    Tensor.block_until_ready = _block_until_ready
