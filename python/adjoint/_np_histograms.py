"""numpy's histograms in jitted code: histogram_bin_edges, histogram,
histogram2d and histogramdd, for traced data with a static number of bins
(edges from `range`, or from the data's min and max) or given edges.

A value's bin is the number of edges at or below it, minus one (the last
edge closes the last bin, as numpy); values outside the edges (and NaN)
are not counted. Counts are one-hot sums over the bins (int64, as numpy,
or summed weights), so weights carry a derivative, and edges computed from
the data carry that of min and max.
"""

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_searching import searchsorted
from ._np_support import as_value, cast_to, float_dtype, ravel

_range = range   # histogram's keyword of that name hides the builtin


def _float(x):
    return x if x.dtype.is_float else _adj.cast(x, float_dtype())


def _scalar(v):
    return _adj.reshape(v, [])


def _edges(x, bins, range_, name):
    """The edges for the 1-D data x: `bins` edges given, or bins + 1 evenly
    spaced over range_ (or the data's min and max, widened by 0.5 each
    way when equal, as numpy)."""
    if isinstance(bins, str):
        raise ValueError("adjoint.numpy.%s: bins=%r (an estimator chosen "
                         "from the data) is not supported: pass a number of "
                         "bins or the edges" % (name, bins))
    if not isinstance(bins, (int, _np.integer)):
        edges = cast_to(_float(as_value(bins, name, like=x)), x.dtype)
        if edges.rank != 1:
            raise ValueError("adjoint.numpy.%s: bins must be 1d, when an "
                             "array" % name)
        return edges
    if bins < 1:
        raise ValueError("adjoint.numpy.%s: `bins` must be positive, when "
                         "an integer" % name)
    if range_ is None:
        lo = _scalar(_adj.max(-x, None, False)) * -1.0
        hi = _scalar(_adj.max(x, None, False))
    else:
        lo, hi = range_
        if not isinstance(lo, Value) and not isinstance(hi, Value):
            if lo > hi:
                raise ValueError("adjoint.numpy.%s: max must be larger than "
                                 "min in range parameter." % name)
        lo = _scalar(cast_to(as_value(lo, name, like=x), x.dtype))
        hi = _scalar(cast_to(as_value(hi, name, like=x), x.dtype))
    same = lo == hi
    lo = _adj.select(same, lo - 0.5, lo)
    hi = _adj.select(same, hi + 0.5, hi)
    steps = _adj.constant(x.module, _np.linspace(0.0, 1.0, bins + 1),
                          [bins + 1], x.dtype)
    return lo + (hi - lo) * steps


def _bin_of(x, edges):
    """(bin index i64, whether x falls in a bin) for the 1-D data x."""
    nb = edges.shape[0] - 1
    index = searchsorted(edges, x, "right") - 1.0
    first = _scalar(_adj.slice(edges, [0], [1]))
    last = _scalar(_adj.slice(edges, [nb], [nb + 1]))
    index = _adj.select(x == last, float(nb - 1), index)
    inside = _adj.select(x >= first, x <= last, x >= first)
    return index, inside


def _weights(weights, n, like, name):
    if weights is None:
        return None
    w = as_value(weights, name, like=like)
    w = ravel(w)
    if w.shape[0] != n:
        raise ValueError("adjoint.numpy.%s: weights should have the same "
                         "shape as a" % name)
    return w


def _counts(flat_index, inside, total, w):
    """Per bin, the number (or summed weights) of the in-range values."""
    n = flat_index.shape[0]
    hit = _adj.reshape(flat_index, [n, 1]) == \
        _adj.iota(flat_index.module, [1, total], 1, DType.i64)
    counted = _adj.reshape(inside, [n, 1])
    hit = _adj.select(counted, hit, counted)   # hit and counted
    if w is None:
        return _adj.sum(_adj.cast(hit, DType.i64), [0], False)
    w = w if w.dtype.is_float else _adj.cast(w, float_dtype())
    return _adj.sum(_adj.select(hit, _adj.reshape(w, [n, 1]), 0.0), [0],
                    False)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    x = _float(ravel(as_value(a, "histogram_bin_edges")))
    return _edges(x, bins, range, "histogram_bin_edges")


def histogram(a, bins=10, range=None, density=None, weights=None):
    """(counts, edges) of the flattened data."""
    x = _float(ravel(as_value(a, "histogram")))
    edges = _edges(x, bins, range, "histogram")
    index, inside = _bin_of(x, edges)
    w = _weights(weights, x.shape[0], x, "histogram")
    counts = _counts(index, inside, edges.shape[0] - 1, w)
    if density:
        counts = _float(counts)
        width = _adj.slice(edges, [1], [edges.shape[0]]) - \
            _adj.slice(edges, [0], [edges.shape[0] - 1])
        counts = counts / _adj.sum(counts, None, False) / width
    return counts, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """(counts of shape [bins per dimension], [edges per dimension]) of N
    points in D dimensions (an (N, D) array, or D 1-D arrays)."""
    if isinstance(sample, (list, tuple)):
        cols = [_float(ravel(as_value(s, "histogramdd"))) for s in sample]
    else:
        s = _float(as_value(sample, "histogramdd"))
        if s.rank == 1:
            s = _adj.reshape(s, [s.shape[0], 1])
        cols = [_adj.reshape(_adj.slice(s, [0, d], [s.shape[0], d + 1]),
                             [s.shape[0]]) for d in _range(s.shape[1])]
    dims = len(cols)
    if isinstance(bins, (int, _np.integer)) or isinstance(bins, Value):
        bins = [bins] * dims
    if len(bins) != dims:
        raise ValueError("adjoint.numpy.histogramdd: The dimension of bins "
                         "must be equal to the dimension of the sample x.")
    ranges = [None] * dims if range is None else list(range)
    edges, flat, inside, stride = [], None, None, 1
    sizes = []
    for col, b, r in reversed(list(zip(cols, bins, ranges))):
        e = _edges(col, b, r, "histogramdd")
        index, ok = _bin_of(col, e)
        edges.insert(0, e)
        sizes.insert(0, e.shape[0] - 1)
        term = index * float(stride)
        flat = term if flat is None else flat + term
        inside = ok if inside is None else _adj.select(inside, ok, inside)
        stride *= e.shape[0] - 1
    w = _weights(weights, cols[0].shape[0], cols[0], "histogramdd")
    counts = _adj.reshape(_counts(flat, inside, stride, w), sizes)
    if density:
        counts = _float(counts)
        counts = counts / _adj.sum(counts, None, False)
        for d, e in enumerate(edges):
            width = _adj.slice(e, [1], [e.shape[0]]) - \
                _adj.slice(e, [0], [e.shape[0] - 1])
            shape = [1] * dims
            shape[d] = e.shape[0] - 1
            counts = counts / _adj.reshape(width, shape)
    return counts, edges



def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """(counts, x edges, y edges) of the points (x, y)."""
    if isinstance(bins, (int, _np.integer)):
        bins = [bins, bins]
    elif not isinstance(bins, (list, tuple)) or len(bins) != 2:
        bins = [bins, bins]   # one array of edges for both
    counts, edges = histogramdd([x, y], bins, range, density, weights)
    return counts, edges[0], edges[1]
