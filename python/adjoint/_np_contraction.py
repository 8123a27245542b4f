"""numpy's products in jitted code: matmul and dot (numpy's rules for 1-D
and N-D operands), outer, and einsum.

einsum takes diagonals of repeated labels with a strided slice, sums out
labels no later operand or the output needs, and contracts operands from
left to right, each pair as one batched adj.matmul ([batch, left,
contracted] x [batch, contracted, right]), as numpy's tensordot does, so no
pairwise outer product is materialized.
"""

import string

from . import _adjoint as _adj
from ._np_support import as_value, ravel, size


def matmul(x1, x2):
    """numpy's matmul: a 1-D operand is a row (left) or a column (right)
    vector, removed from the result."""
    a, b = as_value(x1, "matmul"), as_value(x2, "matmul")
    ra, rb = a.rank, b.rank
    if ra == 0 or rb == 0:
        raise ValueError("adjoint.numpy.matmul: an operand is a scalar "
                         "(use *)")
    if ra == 1:
        a = _adj.reshape(a, [1] + list(a.shape))
    if rb == 1:
        b = _adj.reshape(b, list(b.shape) + [1])
    out = _adj.matmul(a, b)
    if ra == 1 or rb == 1:
        shape = list(out.shape)
        if rb == 1:
            shape.pop(-1)
        if ra == 1:
            shape.pop(-2 if rb != 1 else -1)
        out = _adj.reshape(out, shape)
    return out


def dot(a, b):
    """numpy's dot: a product for scalars, matmul up to 2-D, else the sum
    over a's last axis and b's second-to-last."""
    a, b = as_value(a, "dot"), as_value(b, "dot")
    if a.rank == 0 or b.rank == 0:
        return a * b
    if a.rank <= 2 and b.rank <= 2:
        return matmul(a, b)
    la = string.ascii_letters[:a.rank]
    lb = string.ascii_letters[a.rank:a.rank + b.rank]
    lb = lb[:-2] + la[-1] + lb[-1] if b.rank >= 2 else la[-1]
    out = la[:-1] + lb.replace(la[-1], "")
    return einsum("%s,%s->%s" % (la, lb, out), a, b)


def outer(a, b):
    a, b = as_value(a, "outer"), as_value(b, "outer")
    return _adj.reshape(ravel(a), [size(a.shape), 1]) * \
        _adj.reshape(ravel(b), [1, size(b.shape)])


# -- einsum -----------------------------------------------------------------

def _sublists(args):
    """(subscripts, operands) of the sublist form: operand, labels, ...,
    [output labels]; a label is an int (below 52) or Ellipsis."""
    operands, terms = list(args[0::2]), list(args[1::2])
    output = None
    if len(args) % 2:
        operands.pop()
        output = args[-1]
    if len(terms) != len(operands):
        raise ValueError("adjoint.numpy.einsum: each operand needs its list "
                         "of subscripts")
    spec = ",".join(_sublist_term(t) for t in terms)
    if output is not None:
        spec += "->" + _sublist_term(output)
    return spec, operands


def _sublist_term(labels):
    if isinstance(labels, str) or not hasattr(labels, "__iter__"):
        raise TypeError("adjoint.numpy.einsum: subscripts must be lists of "
                        "ints, not %r" % (labels,))
    out = []
    for l in labels:
        if l is Ellipsis:
            out.append("...")
        elif isinstance(l, int) and not isinstance(l, bool) and \
                0 <= l < len(string.ascii_letters):
            out.append(string.ascii_letters[l])
        else:
            raise ValueError("adjoint.numpy.einsum: subscript %r is not an "
                             "int in [0, 52)" % (l,))
    return "".join(out)


def _parse(subscripts, ranks):
    """(labels per operand, output labels); '...' becomes labels '.k',
    right-aligned, so that the dimensions it stands for broadcast."""
    spec = subscripts.replace(" ", "")
    lhs, arrow, rhs = spec.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ranks):
        raise ValueError("adjoint.numpy.einsum: %d operands for %d "
                         "subscripts" % (len(ranks), len(terms)))
    inputs, widest = [], 0
    for term, rank in zip(terms, ranks):
        inputs.append(_term(term, rank))
        widest = max(widest, rank - len(term.replace("...", "")))
    if arrow:
        out = _term(rhs, None, widest)
    else:
        counts = {}
        for t in inputs:
            for l in t:
                counts[l] = counts.get(l, 0) + 1
        ell = [".%d" % k for k in range(widest - 1, -1, -1)]
        out = ell + sorted(l for l, c in counts.items()
                           if c == 1 and not l.startswith("."))
    seen = set(l for t in inputs for l in t)
    for l in out:
        if l not in seen:
            raise ValueError("adjoint.numpy.einsum: output subscript %r "
                             "does not appear in the inputs" % l)
    if len(set(out)) != len(out):
        raise ValueError("adjoint.numpy.einsum: output subscript repeated")
    return inputs, out


def _term(term, rank, widest=None):
    """The labels of one term; `rank` checks an operand's term, `widest`
    sizes the output's ellipsis."""
    head, dots, tail = term.partition("...")
    for c in head + tail:
        if c not in string.ascii_letters:
            raise ValueError("adjoint.numpy.einsum: invalid subscript %r"
                             % c)
    letters = len(head) + len(tail)
    if rank is not None:
        if letters > rank or (not dots and letters != rank):
            raise ValueError("adjoint.numpy.einsum: subscripts %r do not "
                             "match an operand of rank %d" % (term, rank))
        e = rank - letters
    else:
        e = widest if dots else 0
    return list(head) + [".%d" % k for k in range(e - 1, -1, -1)] + \
        list(tail)


def _diagonals(x, labels):
    """x with each repeated label reduced to its diagonal: the repeated
    dimensions moved last and merged, then every (n^k - 1)/(n - 1)-th
    element taken."""
    while len(set(labels)) != len(labels):
        l = next(l for l in labels if labels.count(l) > 1)
        dims = [i for i, m in enumerate(labels) if m == l]
        n = x.shape[dims[0]]
        if any(x.shape[d] != n for d in dims):
            raise ValueError("adjoint.numpy.einsum: dimensions of repeated "
                             "subscript %r differ" % l)
        rest = [i for i in range(len(labels)) if i not in dims]
        x = _adj.transpose(x, rest + dims)
        keep = [x.shape[i] for i in range(len(rest))]
        k = len(dims)
        x = _adj.reshape(x, keep + [n ** k])
        stride = (n ** k - 1) // (n - 1) if n > 1 else 1
        start = [0] * (len(keep) + 1)
        limit = keep + [max(n - 1, 0) * stride + 1 if n else 0]
        x = _adj.slice(x, start, limit, [1] * len(keep) + [stride])
        labels = [labels[i] for i in rest] + [l]
    return x, labels


def _sum_out(x, labels, needed):
    axes = [i for i, l in enumerate(labels) if l not in needed]
    if not axes:
        return x, labels
    return _adj.sum(x, axes, False), [l for l in labels if l in needed]


def _broadcast_shared(a, la, b, lb):
    """Broadcasts size-1 dimensions (of ellipsis labels) against the other
    operand's."""
    def grown(x, lx, ly, y):
        shape = list(x.shape)
        for i, l in enumerate(lx):
            if l in ly and shape[i] == 1:
                shape[i] = y.shape[ly.index(l)]
        return x if shape == list(x.shape) else _adj.broadcast_to(x, shape)
    a2, b2 = grown(a, la, lb, b), grown(b, lb, la, a)
    for l in set(la) & set(lb):
        if a2.shape[la.index(l)] != b2.shape[lb.index(l)]:
            raise ValueError("adjoint.numpy.einsum: dimensions of subscript "
                             "%r differ" % l)
    return a2, b2


def _arranged(x, labels, groups):
    """x transposed to the concatenation of `groups` (label lists) and
    reshaped to one dimension per group."""
    dims = dict(zip(labels, x.shape))
    order = [labels.index(l) for g in groups for l in g]
    if order != list(range(len(order))):
        x = _adj.transpose(x, order)
    return _adj.reshape(x, [size([dims[l] for l in g]) for g in groups]), dims


def _contract(a, la, b, lb, keep):
    a, b = _broadcast_shared(a, la, b, lb)
    a, la = _sum_out(a, la, set(lb) | keep)
    b, lb = _sum_out(b, lb, set(la) | keep)
    batch = [l for l in la if l in lb and l in keep]
    summed = [l for l in la if l in lb and l not in keep]
    left = [l for l in la if l not in lb]
    right = [l for l in lb if l not in la]
    am, da = _arranged(a, la, [batch, left, summed])
    bm, db = _arranged(b, lb, [batch, summed, right])
    out = _adj.matmul(am, bm)
    dims = {**da, **db}
    labels = batch + left + right
    return _adj.reshape(out, [dims[l] for l in labels]), labels


def einsum(*operands, out=None, optimize=False):
    """numpy's einsum: the string form, explicit ('ij,jk->ik') or implicit
    output, repeated labels (diagonals), '...' broadcasting; or the sublist
    form einsum(a, [0, 1], b, [1, 2], [0, 2])."""
    if out is not None:
        raise TypeError("adjoint.numpy.einsum: out= is not supported (arrays "
                        "are immutable values; use the result)")
    if not operands:
        raise ValueError("adjoint.numpy.einsum: no operands")
    if isinstance(operands[0], str):
        subscripts, operands = operands[0], operands[1:]
    else:
        subscripts, operands = _sublists(operands)
    xs = [as_value(x, "einsum") for x in operands]
    if not xs:
        raise ValueError("adjoint.numpy.einsum: no operands")
    inputs, out = _parse(subscripts, [x.rank for x in xs])
    terms = [_diagonals(x, l) for x, l in zip(xs, inputs)]
    while len(terms) > 1:
        (a, la), (b, lb) = terms[0], terms[1]
        keep = set(out) | {l for _, lr in terms[2:] for l in lr}
        terms = [_contract(a, la, b, lb, keep)] + terms[2:]
    x, labels = _sum_out(*terms[0], set(out))
    perm = [labels.index(l) for l in out]
    return _adj.transpose(x, perm) if perm != list(range(len(perm))) else x
