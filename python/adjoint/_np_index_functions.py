"""numpy's index construction and selection functions in jitted code:
indices, meshgrid, ix_, ravel_multi_index, unravel_index, choose, select,
put, place, put_along_axis, and the index arrays of diagonals and triangles
(diag_indices, tril_indices, triu_indices, their _from forms,
mask_indices).

Index arrays that depend only on shapes are numpy arrays, known while
building (an index with them is a static gather). Traced indices cannot
be checked while the program is built: numpy's mode='raise' of choose and
ravel_multi_index is an error, as in JAX under jit; put and
unravel_index clamp out-of-range indices and put_along_axis drops them,
as JAX does.
"""

import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_elementwise import where
from ._np_movement import take
from ._np_reductions import cumsum
from ._np_resizing import broadcast_arrays, gather_static
from ._np_rounding import floor_divide, remainder
from ._np_shapes import unstack
from ._np_support import (as_value, binop, cast_to, iota, normalize_axis,
                          ravel, size, to_dtype, translator)


def _int_index(v, name):
    """An integer index argument as an i64 Value."""
    idx = as_value(v, name)
    if idx.dtype.is_float or idx.dtype == DType.i1:
        raise TypeError("adjoint.numpy.%s: indices must be integers" % name)
    return cast_to(idx, DType.i64)


def _clamp(idx, lo, hi):
    return _adj.select(idx < float(lo), float(lo),
                       _adj.select(idx > float(hi), float(hi), idx))


def _wrap(idx, n):
    return remainder(idx, n)


def indices(dimensions, dtype=None, sparse=False):
    """The grid of indices of an array of shape `dimensions`: one array per
    axis, stacked (or, `sparse`, each with ones on the other axes)."""
    dims = [int(d) for d in dimensions]
    dtype = to_dtype(dtype, "indices") or DType.i64
    module = translator("indices").module
    if sparse:
        return tuple(cast_to(iota(module, [d if j == i else 1 for j, d in
                                           enumerate(dims)], i), dtype)
                     for i in range(len(dims)))
    if not dims:
        return _adj.fill(module, 0.0, [0], dtype)
    return _adj.concat([cast_to(_adj.reshape(iota(module, dims, i),
                                             [1] + dims), dtype)
                        for i in range(len(dims))], 0)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """Coordinate arrays of the grid of the 1-d (flattened) inputs;
    'xy' indexing swaps the first two axes of the grid (Cartesian)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("adjoint.numpy.meshgrid: Valid values for `indexing`"
                         " are 'xy' and 'ij'.")
    xs = [ravel(as_value(x, "meshgrid")) for x in xi]
    n = len(xs)
    axes = list(range(n))
    if indexing == "xy" and n > 1:
        axes[0], axes[1] = 1, 0
    out = []
    for x, ax in zip(xs, axes):
        shape = [1] * n
        shape[ax] = x.shape[0]
        out.append(_adj.reshape(x, shape))
    if not sparse and n:
        full = [1] * n
        for x, ax in zip(xs, axes):
            full[ax] = x.shape[0]
        out = [_adj.broadcast_to(o, full) if list(o.shape) != full else o
               for o in out]
    return tuple(out)


def ix_(*args):
    """Open-mesh index arrays: the k-th sequence along the k-th of N axes
    (booleans known while building become their positions)."""
    out = []
    for k, a in enumerate(args):
        if isinstance(a, Value):
            if a.dtype == DType.i1:
                raise ValueError("adjoint.numpy.ix_: a traced boolean "
                                 "sequence has data-dependent positions "
                                 "(the result's shape depends on it)")
            x = a
        else:
            arr = _np.asarray(a)
            if arr.dtype.kind == "b":
                arr = _np.nonzero(arr)[0]
            elif arr.size == 0:
                arr = arr.astype(_np.int64)
            x = as_value(arr, "ix_")
        if x.rank != 1:
            raise ValueError("adjoint.numpy.ix_: Cross index must be 1 "
                             "dimensional")
        shape = [1] * len(args)
        shape[k] = x.shape[0]
        out.append(_adj.reshape(x, shape))
    return tuple(out)


def _strides(dims, order):
    if order not in ("C", "F"):
        raise ValueError("adjoint.numpy: order must be 'C' or 'F'")
    seq = list(range(len(dims)))
    if order == "C":
        seq.reverse()
    strides, s = [0] * len(dims), 1
    for d in seq:
        strides[d] = s
        s *= dims[d]
    return strides


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Flat indices of the coordinate arrays in an array of shape `dims`.
    Traced coordinates cannot be checked: mode 'raise' is an error (as in
    JAX under jit); 'clip' and 'wrap' bring them into range."""
    dims = [int(d) for d in dims]
    if len(multi_index) != len(dims):
        raise ValueError("adjoint.numpy.ravel_multi_index: parameter "
                         "multi_index must be a sequence of length %d"
                         % len(dims))
    modes = [mode] * len(dims) if isinstance(mode, str) else list(mode)
    total = None
    for idx, d, m, s in zip(multi_index, dims, modes,
                            _strides(dims, order)):
        i = _int_index(idx, "ravel_multi_index")
        if m == "clip":
            i = _clamp(i, 0, d - 1)
        elif m == "wrap":
            i = _wrap(i, d)
        elif m == "raise":
            raise ValueError("adjoint.numpy.ravel_multi_index: mode='raise' "
                             "cannot check traced indices; pass "
                             "mode='clip' or mode='wrap'")
        else:
            raise ValueError("adjoint.numpy.ravel_multi_index: clipmode not "
                             "understood: %r" % (m,))
        term = i * float(s)
        total = term if total is None else binop(operator.add, total, term)
    return total


def unravel_index(indices, shape, order="C"):
    """The coordinate arrays of flat indices in an array of `shape`;
    negative indices count from the end and out-of-range ones are clamped,
    as JAX does (numpy raises, which traced indices cannot)."""
    dims = [int(d) for d in _np.atleast_1d(shape)]
    i = _int_index(indices, "unravel_index")
    n = size(dims)
    i = _clamp(_adj.select(i < 0.0, i + float(n), i), 0, max(n - 1, 0))
    out = []
    for d, s in zip(dims, _strides(dims, order)):
        out.append(_wrap(floor_divide(i, s), d) if d else i)
    return tuple(out)


def choose(a, choices, out=None, mode="raise"):
    """choices[a[i]][i] with a and every choice broadcast together: a
    chain of selects. A traced `a` cannot be checked: mode 'raise' is an
    error (as in JAX under jit); 'clip' and 'wrap' bring it into range."""
    if out is not None:
        raise TypeError("adjoint.numpy.choose: out= is not supported (arrays "
                        "are immutable values; use the result)")
    idx = _int_index(a, "choose")
    if isinstance(choices, Value):
        choices = unstack(choices)
    cs = [as_value(c, "choose") for c in choices]
    if not cs:
        raise ValueError("adjoint.numpy.choose: choices must not be empty")
    n = len(cs)
    if mode == "wrap":
        idx = _wrap(idx, n)
    elif mode == "clip":
        idx = _clamp(idx, 0, n - 1)
    elif mode == "raise":
        raise ValueError("adjoint.numpy.choose: mode='raise' cannot check "
                         "traced indices; pass mode='clip' or mode='wrap'")
    else:
        raise ValueError("adjoint.numpy.choose: clipmode not understood: %r"
                         % (mode,))
    result = cs[0]
    for k in range(1, n):
        result = where(idx == float(k), cs[k], result)
    # The index array's shape takes part in broadcasting too.
    return broadcast_arrays(result, idx)[0]


def select(condlist, choicelist, default=0):
    """The choice of the first true condition, else `default`."""
    if len(condlist) != len(choicelist):
        raise ValueError("adjoint.numpy.select: list of cases must be same "
                         "length as list of conditions")
    if not condlist:
        raise ValueError("adjoint.numpy.select with an empty condition list "
                         "is not possible")
    conds = [as_value(c, "select") for c in condlist]
    for k, c in enumerate(conds):
        if c.dtype != DType.i1:
            raise TypeError("adjoint.numpy.select: invalid entry %d in "
                            "condlist: should be boolean ndarray" % k)
    result = default
    for c, v in reversed(list(zip(conds, choicelist))):
        result = where(c, v, result)
    if not isinstance(result, Value):
        result = as_value(result, "select")
    return broadcast_arrays(result, *conds)[0]


def _inplace(inplace, name):
    if inplace:
        raise ValueError("adjoint.numpy.%s: arrays are immutable values; "
                         "pass inplace=False and use the result" % name)


def place(arr, mask, vals, *, inplace=True):
    """arr with the positions where `mask` holds (both flattened) set to
    vals in order, cycled (numpy's place): JAX's inplace=False form. An
    empty vals is refused (numpy refuses it only where mask holds
    somewhere, which is not known while building)."""
    _inplace(inplace, "place")
    x = as_value(arr, "place")
    chosen = ravel(as_value(mask, "place", like=x)) != 0
    if chosen.shape[0] != size(x.shape):
        raise ValueError("adjoint.numpy.place: mask and data must be the "
                         "same size, got %d and %d"
                         % (chosen.shape[0], size(x.shape)))
    vals = ravel(cast_to(as_value(vals, "place", like=x), x.dtype))
    if vals.shape[0] == 0:
        raise ValueError("adjoint.numpy.place: cannot place an empty array "
                         "of values")
    # The k-th chosen position takes vals[k mod len(vals)].
    order = cumsum(_adj.cast(chosen, DType.i32)) - 1
    taken = take(vals, order % vals.shape[0])
    return _adj.reshape(where(chosen, taken, ravel(x)), list(x.shape))


def put(a, ind, v, mode=None, *, inplace=True):
    """a (flattened positions `ind`) set to v, cycled over the indices:
    JAX's inplace=False form. Out-of-range indices are clamped
    (mode None or 'clip'; negative ones count from the end with None) or
    wrapped ('wrap')."""
    _inplace(inplace, "put")
    x = as_value(a, "put")
    flat = ravel(x)
    n = flat.shape[0]
    idx = ravel(_int_index(ind, "put"))
    if mode is None or mode == "raise":
        idx = _clamp(_adj.select(idx < 0.0, idx + float(n), idx), 0, n - 1)
    elif mode == "clip":
        idx = _clamp(idx, 0, n - 1)
    elif mode == "wrap":
        idx = _wrap(idx, n)
    else:
        raise ValueError("adjoint.numpy.put: mode must be one of 'clip', "
                         "'raise' or 'wrap', not %r" % (mode,))
    vals = ravel(cast_to(as_value(v, "put", like=x), x.dtype))
    k = idx.shape[0]
    if not k or not n:
        return x
    if vals.shape[0] == 0:
        raise ValueError("adjoint.numpy.put: cannot put an empty array of "
                         "values at non-empty indices")
    if vals.shape[0] != k:
        vals = gather_static(vals, _np.arange(k) % vals.shape[0], 0)
    return _adj.reshape(_adj.scatter("set", flat, idx, vals, 0),
                        list(x.shape))


def put_along_axis(arr, indices, values, axis, inplace=True, *, mode=None):
    """take_along_axis's positions of arr set to `values` (broadcast to
    them): JAX's inplace=False form, one scatter; negative indices count
    from the end and out-of-range ones are dropped, as in JAX."""
    _inplace(inplace, "put_along_axis")
    x = as_value(arr, "put_along_axis")
    if axis is None:
        x0, x = x, ravel(x)
        axis = 0
    else:
        x0 = None
    idx = _int_index(indices, "put_along_axis")
    if idx.rank != x.rank:
        raise ValueError("adjoint.numpy.put_along_axis: indices and arr must "
                         "have the same number of dimensions")
    ax = normalize_axis(axis, x.rank, "put_along_axis")
    shape = []
    for d, (n, m) in enumerate(zip(x.shape, idx.shape)):
        if d != ax and n != m and m != 1:
            raise ValueError("adjoint.numpy.put_along_axis: shape mismatch "
                             "in dimension %d (%d and %d)" % (d, n, m))
        shape.append(m if d == ax else n)
    if list(idx.shape) != shape:
        idx = _adj.broadcast_to(idx, shape)
    n = x.shape[ax]
    idx = _adj.select(idx < 0.0, idx + float(n), idx)
    # An out-of-range update is dropped, as JAX does: it lands in an extra
    # slot past the end of `axis`, cut off afterwards.
    idx = _adj.select(idx < 0.0, float(n), _adj.select(idx > float(n),
                                                        float(n), idx))
    extra = list(x.shape)
    extra[ax] = 1
    wide = _adj.concat([x, _adj.fill(x.module, 0.0, extra, x.dtype)], ax)
    coords = [idx if d == ax else iota(x.module, shape, d)
              for d in range(x.rank)]
    vals = cast_to(as_value(values, "put_along_axis", like=x), x.dtype)
    if list(vals.shape) != shape:
        vals = _adj.broadcast_to(vals, shape)
    out = _adj.index_update("set", wide, coords, vals)
    out = _adj.slice(out, [0] * x.rank, list(x.shape))
    return out if x0 is None else _adj.reshape(out, list(x0.shape))


# Index arrays of diagonals and triangles: functions of shapes only, so
# numpy arrays known while building.

def _square(arr, name):
    s = _np.shape(arr) if not isinstance(arr, Value) else tuple(arr.shape)
    if len(s) < 2:
        raise ValueError("adjoint.numpy.%s: input array must be at least "
                         "2-d" % name)
    if any(d != s[0] for d in s):
        raise ValueError("adjoint.numpy.%s: All dimensions of input must be "
                         "of equal length" % name)
    return s


def diag_indices(n, ndim=2):
    idx = _np.arange(int(n))
    return (idx,) * int(ndim)


def diag_indices_from(arr):
    s = _square(arr, "diag_indices_from")
    return diag_indices(s[0], len(s))


def tril_indices(n, k=0, m=None):
    return _np.nonzero(_np.tri(int(n), m, int(k), dtype=bool))


def triu_indices(n, k=0, m=None):
    return _np.nonzero(~_np.tri(int(n), m, int(k) - 1, dtype=bool))


def _matrix_shape(arr, name):
    s = _np.shape(arr) if not isinstance(arr, Value) else tuple(arr.shape)
    if len(s) != 2:
        raise ValueError("adjoint.numpy.%s: input array must be 2-d" % name)
    return s


def tril_indices_from(arr, k=0):
    n, m = _matrix_shape(arr, "tril_indices_from")
    return tril_indices(n, k, m)


def triu_indices_from(arr, k=0):
    n, m = _matrix_shape(arr, "triu_indices_from")
    return triu_indices(n, k, m)


def mask_indices(n, mask_func, k=0):
    """The positions where mask_func(ones((n, n)), k) is non-zero (numpy's
    triu/tril as mask_func run on the host)."""
    mask = mask_func(_np.ones((int(n), int(n)), int), k)
    if isinstance(mask, Value):
        raise TypeError("adjoint.numpy.mask_indices: mask_func must compute "
                        "on numpy arrays")
    return _np.nonzero(_np.asarray(mask) != 0)

