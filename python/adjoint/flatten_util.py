"""``ravel_pytree`` as in ``jax.flatten_util``: a pytree of arrays as one
flat vector, and the function that rebuilds the pytree from such a vector.

It works on numpy arrays from Python and on traced arrays inside jitted
code; the unravel function of either kind takes either kind of vector, so
that ``unravel`` from Python can be applied to the traced vector of a
``grad`` (``grad(lambda v: loss(unravel(v)))(flat)``).
"""

import numpy as _np

from ._adjoint import DType, Value
from ._np_support import as_value, cast_to
from ._source import _ADJ_TO_NP, _NP_TO_ADJ
from .numpy import concatenate, ravel, reshape, split
from .tree_util import tree_flatten

__all__ = ["ravel_pytree"]


def _np_dtype(dtype):
    return _ADJ_TO_NP.get(dtype, _np.dtype(_np.float32)) \
        if isinstance(dtype, DType) else _np.dtype(dtype)


def _adj_dtype(dtype):
    if isinstance(dtype, DType):
        return dtype
    if _np.dtype(dtype) not in _NP_TO_ADJ:
        raise TypeError("ravel_pytree: arrays of dtype %s cannot be traced"
                        % dtype)
    return _NP_TO_ADJ[_np.dtype(dtype)]


def ravel_pytree(pytree):
    """``(flat, unravel)``: the leaves of `pytree` raveled and concatenated
    into one 1-D vector of their common dtype, and ``unravel(flat)``, which
    gives back the pytree (each leaf in its shape and dtype)."""
    leaves, treedef = tree_flatten(pytree)
    if any(isinstance(l, Value) for l in leaves):
        xs = [as_value(l, "ravel_pytree") for l in leaves]
        specs = [(tuple(x.shape), x.dtype) for x in xs]
        dtype = _common([d for _, d in specs])
        flat = concatenate([ravel(cast_to(x, _adj_dtype(dtype)))
                            for x in xs])
    else:
        xs = [_np.asarray(l) for l in leaves]
        specs = [(x.shape, x.dtype) for x in xs]
        dtype = _common([d for _, d in specs]) if xs else _np.float32
        flat = _np.concatenate([x.ravel().astype(dtype) for x in xs]) \
            if xs else _np.zeros(0, dtype)
    sizes = [int(_np.prod(s, dtype=_np.int64)) for s, _ in specs]

    def unravel(vector):
        shape = tuple(getattr(vector, "shape", _np.shape(vector)))
        if shape != (sum(sizes),):
            raise ValueError("unravel: expected a vector of shape (%d,), "
                             "got %s" % (sum(sizes), shape))
        return treedef.unflatten(_pieces(vector, specs, sizes))

    return flat, unravel


def _common(dtypes):
    """The dtype of the flat vector, as JAX promotes: the widest float when
    there is one (float32 with int32 stays float32), else numpy's (as DType
    for traced arrays)."""
    if all(d == dtypes[0] for d in dtypes):
        return dtypes[0]
    nps = [_np_dtype(d) for d in dtypes]
    floats = [d for d in nps if d.kind == "f"]
    common = max(floats, key=lambda d: d.itemsize) if floats else \
        _np.result_type(*nps)
    return _adj_dtype(common) if isinstance(dtypes[0], DType) else common


def _pieces(vector, specs, sizes):
    """The leaves cut from `vector`, in their shapes and dtypes."""
    offsets = _np.cumsum([0] + sizes)
    if isinstance(vector, Value):
        parts = split(vector, [int(o) for o in offsets[1:-1]]) \
            if specs else []
        return [cast_to(reshape(p, list(s)), _adj_dtype(d))
                for p, (s, d) in zip(parts, specs)]
    vector = _np.asarray(vector)
    return [vector[a:b].reshape(s).astype(_np_dtype(d))
            for a, b, (s, d) in zip(offsets[:-1], offsets[1:], specs)]
