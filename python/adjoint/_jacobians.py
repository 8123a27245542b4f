"""Jacobians and Hessians over pytrees: ``jacfwd``, ``jacrev``, ``hessian``.

Each is one vmap over basis vectors, never a Python loop over them. jacrev
maps the pullback over the rows of an identity as large as the flattened
output (one cotangent per output element); jacfwd maps the pushforward over
an identity as large as the flattened differentiated arguments (one tangent
per input element). The vjp or jvp is built inside the mapped function, so
the batching transform sees its whole body: the primal computation does not
depend on the basis vector and stays unbatched (it runs once), only the
linear part is batched. hessian is jacfwd of jacrev (forward over reverse).

Results have JAX's structure: the output's tree, each leaf replaced by the
differentiated argument's tree (a tuple of them for a tuple argnums) whose
leaves have shape ``out_leaf.shape + in_leaf.shape``.
"""

from . import _adjoint as _adj
from ._adjoint import DType, Function, Value
from ._transforms import (_DEFAULT, _Reified, _Transform, _check_outputs,
                          _diff_args, _diff_leaf, _fn_name, _jvp_build,
                          _vjp_build)
from ._trees import _flatten, _results, _unflatten
from ._vmap import vmap

__all__ = ["jacfwd", "jacrev", "hessian"]


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def _basis(tr, like, n):
    """eye(n) cut into a batch of basis vectors per leaf of `like`: leaf i
    gets columns [off_i, off_i + size_i), as [n] + its shape and dtype."""
    eye = _adj.iota(tr.module, [n, n], 0, DType.i64) == \
        _adj.iota(tr.module, [n, n], 1, DType.i64)
    out, off = [], 0
    for x in like:
        m = _size(x.shape)
        part = eye if m == n else _adj.slice(eye, [0, off], [n, off + m],
                                              [1, 1])
        out.append(_adj.reshape(_adj.cast(part, x.dtype),
                                [n] + list(x.shape)))
        off += m
    return out


def _rows(x, off, m):
    """Rows [off, off + m) of x along its first axis."""
    if off == 0 and m == x.shape[0]:
        return x
    rest = list(x.shape[1:])
    return _adj.slice(x, [off] + [0] * len(rest), [off + m] + rest,
                      [1] * (1 + len(rest)))


def _to_back(x, lead):
    """[*a, *b] -> [*b, *a] where a is the first `lead` axes."""
    if lead in (0, x.rank):
        return x
    return _adj.transpose(x, list(range(lead, x.rank)) + list(range(lead)))


def _structure(out_tree, blocks, groups, single):
    """blocks[j][i]: the Jacobian block of output leaf j and input leaf i;
    returns the output tree of (argument tree or tuple of them)."""
    per_out = []
    for row in blocks:
        args, pos = [], 0
        for tree, count in groups:
            args.append(_unflatten(tree, row[pos:pos + count]))
            pos += count
        per_out.append(args[0] if single else tuple(args))
    return _unflatten(out_tree, per_out)


class _Jacobian(_Transform):
    """The shared part of jacfwd and jacrev: the differentiated arguments,
    the function of them alone, its output structure and the aux split.
    Keyword arguments go to the function as they are (not
    differentiated)."""

    has_nondiff_args = True

    def __init__(self, fn, argnums=0, has_aux=False):
        super().__init__(fn, argnums)
        self.has_aux = bool(has_aux)

    def __eq__(self, other):
        return super().__eq__(other) and self.has_aux == other.has_aux

    def __hash__(self):
        return hash((super().__hash__(), self.has_aux))

    def _adjoint_key(self, key):
        return super()._adjoint_key(key) + (self.has_aux,)

    def _main(self, out, node, frame):
        if not self.has_aux:
            return out
        if not (isinstance(out, tuple) and len(out) == 2):
            raise frame.error("%s(has_aux=True): the function must return "
                              "a pair (output, aux)" % self.prefix, node)
        return out[0]

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        diff, single = _diff_args(self.argnums, len(args), node, frame)
        args = list(args)
        for i in diff:
            leaves = []
            tree = _flatten(args[i], leaves)
            args[i] = _unflatten(tree, [
                _diff_leaf(tr, x, node, frame, self.prefix, i,
                           tree is not None) for x in leaves])
        primals = tuple(args[i] for i in diff)

        def of_diff(*d):
            a = list(args)
            for i, x in zip(diff, d):
                a[i] = x
            return self._main(tr.call(self.fn, a, dict(kwargs), node,
                                      frame), node, frame)
        of_diff.__name__ = _fn_name(self.fn)  # what errors name

        in_leaves, groups = [], []
        for p in primals:
            before = len(in_leaves)
            groups.append((_flatten(p, in_leaves), len(in_leaves) - before))
        out_tree, jac = self._jacobian(tr, of_diff, primals,
                                       in_leaves, node, frame)
        result = _structure(out_tree, jac, groups, single)
        if self.has_aux:
            aux = tr.call(self.fn, args, dict(kwargs), node, frame)[1]
            return result, aux
        return result


class _Jacrev(_Jacobian):
    """Reverse mode: vmap of the pullback over the output's basis."""

    prefix = "jacrev"

    def _jacobian(self, tr, of_diff, primals, in_leaves, node, frame):
        # The output's structure and types, from a lambda that is never
        # called (the optimizer removes it).
        shape = _Reified(tr, of_diff, primals, (), node, frame)
        _check_outputs(self.prefix, shape, node, frame)
        outs = shape.out_types
        m = sum(_size(t.shape) for t in outs)
        basis = _basis(tr, outs, m)

        def row(*cts):
            _, pullback = _vjp_build(tr, of_diff, primals, node, frame,
                                     name=self.prefix)
            ct = _unflatten(shape.out_tree, list(cts))
            leaves = []
            _flatten(pullback._adjoint_build(tr, [ct], {}, node, frame),
                     leaves)
            return tuple(leaves)

        rows = tr.call(vmap(row), basis, {}, node, frame)
        blocks, off = [], 0
        for t in outs:
            n = _size(t.shape)
            blocks.append([_adj.reshape(_rows(r, off, n),
                                        list(t.shape) + list(x.shape))
                           for r, x in zip(rows, in_leaves)])
            off += n
        return shape.out_tree, blocks


class _Jacfwd(_Jacobian):
    """Forward mode: vmap of the pushforward over the input's basis."""

    prefix = "jacfwd"

    def _jacobian(self, tr, of_diff, primals, in_leaves, node, frame):
        n = sum(_size(x.shape) for x in in_leaves)
        basis = _basis(tr, in_leaves, n)
        state = {}

        def column(*ts):
            it = iter(ts)
            tangents = tuple(_unflatten(_flatten(p, []),
                                        [next(it) for _ in range(_count(p))])
                             for p in primals)
            _, tout = _jvp_build(tr, of_diff, primals, tangents, node, frame,
                                 self.prefix)
            leaves = []
            state["tree"] = _flatten(tout, leaves)
            return tuple(leaves)

        cols = tr.call(vmap(column), basis, {}, node, frame)
        blocks = []
        for c in _results(cols):
            row, off = [], 0
            for x in in_leaves:
                k = _size(x.shape)
                block = _adj.reshape(_rows(c, off, k),
                                     list(x.shape) + list(c.shape[1:]))
                row.append(_to_back(block, x.rank))
                off += k
            blocks.append(row)
        return state["tree"], blocks


def _count(tree):
    leaves = []
    _flatten(tree, leaves)
    return len(leaves)


def _builder(name, fn, argnums, has_aux, wrt):
    """On a builder Function or Value: the C++ API's request (`wrt` the
    argument indices, all when empty)."""
    if argnums is not _DEFAULT or has_aux:
        raise TypeError("%s() of a builder function takes wrt only" % name)
    return getattr(_adj, name)(fn, [] if wrt is _DEFAULT else list(wrt))


def _python_only(name, wrt):
    if wrt is not _DEFAULT:
        raise TypeError("%s() got an unexpected keyword argument 'wrt' (it "
                        "applies to a builder Function or Value only)" % name)


def jacrev(fn, argnums=_DEFAULT, has_aux=False, *, wrt=_DEFAULT):
    """The Jacobian of `fn` by reverse mode, over pytrees (JAX's jacrev):
    one vmap of the pullback over the output's basis vectors. On a builder
    ``Function`` or ``Value``: ``api::jacrev(fn, wrt)``."""
    if isinstance(fn, (Value, Function)):
        return _builder("jacrev", fn, argnums, has_aux, wrt)
    _python_only("jacrev", wrt)
    return _Jacrev(fn, 0 if argnums is _DEFAULT else argnums, has_aux)


def jacfwd(fn, argnums=_DEFAULT, has_aux=False, *, wrt=_DEFAULT):
    """The Jacobian of `fn` by forward mode, over pytrees (JAX's jacfwd):
    one vmap of the pushforward over the input's basis vectors. On a
    builder ``Function`` or ``Value``: ``api::jacfwd(fn, wrt)``."""
    if isinstance(fn, (Value, Function)):
        return _builder("jacfwd", fn, argnums, has_aux, wrt)
    _python_only("jacfwd", wrt)
    return _Jacfwd(fn, 0 if argnums is _DEFAULT else argnums, has_aux)


def hessian(fn, argnums=_DEFAULT, has_aux=False, *, wrt=_DEFAULT):
    """The Hessian of a scalar function over pytrees, jacfwd of jacrev:
    shape ``x.shape + x.shape`` for one array argument. On a builder
    ``Function`` or ``Value``: ``api::hessian(fn, wrt)``."""
    if isinstance(fn, (Value, Function)):
        return _builder("hessian", fn, argnums, has_aux, wrt)
    _python_only("hessian", wrt)
    argnums = 0 if argnums is _DEFAULT else argnums
    return _Jacfwd(_Jacrev(fn, argnums, has_aux), argnums, has_aux)
