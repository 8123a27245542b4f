"""numpy's products beyond matmul/dot/einsum in jitted code: tensordot,
inner, vdot, vecdot, matvec, vecmat, cross, convolve, correlate and
einsum_path.

Contractions go through einsum (batched adj.matmul); cross is arithmetic
on the components; a 1-D convolution is one gather of the zero-padded
signal at the constant [output, tap] offsets followed by a product with
the taps, so its derivatives are the gather's (scatter_add) and matmul's.
"""

import string

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType
from ._np_contraction import einsum
from ._np_support import (as_value, binop, normalize_axis, ravel)


def _letters(n, skip=0):
    return string.ascii_letters[skip:skip + n]


def _axes_list(axes, rank, name):
    axes = [axes] if isinstance(axes, int) else list(axes)
    return [normalize_axis(a, rank, name) for a in axes]


def tensordot(a, b, axes=2):
    """The sum over a's `axes[0]` and b's `axes[1]` (or a's last `axes`
    and b's first `axes`)."""
    a, b = as_value(a, "tensordot"), as_value(b, "tensordot")
    if isinstance(axes, int):
        if axes < 0 or axes > min(a.rank, b.rank):
            raise ValueError("adjoint.numpy.tensordot: axes=%d out of range"
                             % axes)
        ax_a = list(range(a.rank - axes, a.rank))
        ax_b = list(range(axes))
    else:
        if len(axes) != 2:
            raise ValueError("adjoint.numpy.tensordot: axes must be an int "
                             "or a pair of axis lists")
        ax_a = _axes_list(axes[0], a.rank, "tensordot")
        ax_b = _axes_list(axes[1], b.rank, "tensordot")
    if len(ax_a) != len(ax_b):
        raise ValueError("adjoint.numpy.tensordot: shape-mismatch for sum")
    for i, j in zip(ax_a, ax_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError("adjoint.numpy.tensordot: shape-mismatch for "
                             "sum (%d and %d)" % (a.shape[i], b.shape[j]))
    la = list(_letters(a.rank))
    lb = list(_letters(b.rank, a.rank))
    for i, j in zip(ax_a, ax_b):
        lb[j] = la[i]
    out = [c for i, c in enumerate(la) if i not in ax_a] + \
        [c for j, c in enumerate(lb) if j not in ax_b]
    return einsum("%s,%s->%s" % ("".join(la), "".join(lb), "".join(out)),
                  a, b)


def inner(a, b):
    """The sum over the last axes of a and b (a product for scalars)."""
    a, b = as_value(a, "inner"), as_value(b, "inner")
    if a.rank == 0 or b.rank == 0:
        return binop(lambda u, v: u * v, a, b)
    return tensordot(a, b, ([-1], [-1]))


def vdot(a, b):
    """The dot product of the flattened arrays (real: no conjugate)."""
    a, b = ravel(as_value(a, "vdot")), ravel(as_value(b, "vdot"))
    if a.shape[0] != b.shape[0]:
        raise ValueError("adjoint.numpy.vdot: the arrays must have the same "
                         "number of elements")
    return _adj.sum(binop(lambda u, v: u * v, a, b), None, False)


def vecdot(x1, x2, /, *, axis=-1):
    """The dot product of vectors along `axis` (the others broadcast)."""
    a, b = as_value(x1, "vecdot"), as_value(x2, "vecdot")
    if a.rank == 0 or b.rank == 0:
        raise ValueError("adjoint.numpy.vecdot: the operands must be at "
                         "least 1-D")
    p = binop(lambda u, v: u * v, a, b)
    return _adj.sum(p, [normalize_axis(axis, p.rank, "vecdot")], False)


def matvec(x1, x2, /):
    """[..., m, n] matrices times [..., n] vectors (broadcast)."""
    m, v = as_value(x1, "matvec"), as_value(x2, "matvec")
    if m.rank < 2 or v.rank < 1:
        raise ValueError("adjoint.numpy.matvec: need a matrix and a vector")
    p = binop(lambda u, w: u * w, m, _adj.reshape(
        v, list(v.shape[:-1]) + [1, v.shape[-1]]))
    return _adj.sum(p, [p.rank - 1], False)


def vecmat(x1, x2, /):
    """[..., n] vectors times [..., n, m] matrices (broadcast)."""
    v, m = as_value(x1, "vecmat"), as_value(x2, "vecmat")
    if m.rank < 2 or v.rank < 1:
        raise ValueError("adjoint.numpy.vecmat: need a vector and a matrix")
    p = binop(lambda u, w: u * w, _adj.reshape(
        v, list(v.shape) + [1]), m)
    return _adj.sum(p, [p.rank - 2], False)


# -- cross --------------------------------------------------------------------

def _vectors(x, axis, name):
    """x with its vectors along `axis` moved last and given 3 components
    (a 2-vector's third is 0)."""
    ax = normalize_axis(axis, x.rank, name)
    n = x.shape[ax]
    if n not in (2, 3):
        raise ValueError("adjoint.numpy.cross: incompatible dimensions for "
                         "cross product (dimension must be 2 or 3)")
    if ax != x.rank - 1:
        x = _adj.transpose(x, [d for d in range(x.rank) if d != ax] + [ax])
    if n == 2:
        x = _adj.pad(x, [0] * x.rank, [0] * (x.rank - 1) + [1], 0.0)
    return x, n


def _rolled(x, order):
    """x's last axis permuted to `order` (a gather of the components)."""
    return _adj.gather(x, _adj.constant(x.module, _np.array(order, float),
                                        [3], DType.i64), x.rank - 1)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-vectors along axisa/axisb (or `axis`),
    the other axes broadcast: c = roll1(a) roll2(b) - roll2(a) roll1(b) on
    the components; two 2-vectors give the z component only, as numpy."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, na = _vectors(as_value(a, "cross"), axisa, "cross")
    b, nb = _vectors(as_value(b, "cross"), axisb, "cross")
    up, down = [1, 2, 0], [2, 0, 1]
    c = binop(lambda p, q: p - q,
              binop(lambda p, q: p * q, _rolled(a, up), _rolled(b, down)),
              binop(lambda p, q: p * q, _rolled(a, down), _rolled(b, up)))
    last = c.rank - 1
    if na == 2 and nb == 2:
        return _adj.reshape(_adj.slice(c, [0] * last + [2], list(c.shape)),
                            list(c.shape[:-1]))
    axc = normalize_axis(axisc, c.rank, "cross")
    if axc != last:
        perm = list(range(last))
        perm.insert(axc, last)
        c = _adj.transpose(c, perm)
    return c


# -- convolution --------------------------------------------------------------

def _full_convolution(a, v):
    """sum_j a[k - j] v[j] for k in [0, n + m - 1)."""
    n, m = a.shape[0], v.shape[0]
    length = n + m - 1
    padded = _adj.pad(a, [m - 1], [m - 1], 0.0)
    offsets = _np.arange(length)[:, None] + (m - 1) - _np.arange(m)[None, :]
    taps = _adj.gather(padded, _adj.constant(
        a.module, offsets.astype(_np.float64), [length, m], DType.i64), 0)
    return _adj.sum(taps * _adj.reshape(v, [1, m]), [1], False)


def _operands(a, v, name):
    a, v = as_value(a, name), as_value(v, name, like=a)
    if a.dtype != v.dtype:
        dtype = _adj.promote_types(a.dtype, v.dtype)
        a = a if a.dtype == dtype else _adj.cast(a, dtype)
        v = v if v.dtype == dtype else _adj.cast(v, dtype)
    if a.rank != 1 or v.rank != 1:
        raise ValueError("adjoint.numpy.%s: the operands must be 1-D" % name)
    if a.shape[0] == 0 or v.shape[0] == 0:
        raise ValueError("adjoint.numpy.%s: %s cannot be empty"
                         % (name, "a" if a.shape[0] == 0 else "v"))
    return a, v


def _window(full, n, m, mode, same_start, name):
    if mode == "full":
        return full
    short, long_ = min(n, m), max(n, m)
    if mode == "same":
        start, length = same_start, long_
    elif mode == "valid":
        start, length = short - 1, long_ - short + 1
    else:
        raise ValueError("adjoint.numpy.%s: mode must be 'full', 'same' or "
                         "'valid', not %r" % (name, mode))
    return _adj.slice(full, [start], [start + length])


def convolve(a, v, mode="full", *, precision=None,
             preferred_element_type=None):
    """The discrete linear convolution of two 1-D arrays."""
    a, v = _operands(a, v, "convolve")
    n, m = a.shape[0], v.shape[0]
    return _window(_full_convolution(a, v), n, m, mode,
                   (min(n, m) - 1) // 2, "convolve")


def correlate(a, v, mode="valid", *, precision=None,
              preferred_element_type=None):
    """sum_n a[n + k] v[n]: the convolution with v reversed; for 'same'
    with the longer v, the window numpy's swapped operands give."""
    a, v = _operands(a, v, "correlate")
    n, m = a.shape[0], v.shape[0]
    full = _full_convolution(a, _adj.reverse(v, [0]))
    same = (m - 1) // 2 if n >= m else n + m - 1 - (n - 1) // 2 - m
    return _window(full, n, m, mode, same, "correlate")


def einsum_path(subscripts, *operands, optimize="greedy"):
    """numpy's contraction order and its report for operands of these
    shapes: they depend on the shapes only, known while building, so
    numpy plans with placeholder arrays of those shapes."""
    def placeholder(x):
        if isinstance(x, (str, list, tuple)):
            return x   # the subscripts, or a sublist
        return _np.empty(tuple(_np.shape(x) if not hasattr(x, "shape")
                               else x.shape))
    return _np.einsum_path(*[placeholder(x) for x in (subscripts,)
                             + operands], optimize=optimize)
