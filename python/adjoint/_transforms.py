"""Function transforms: ``grad``, ``value_and_grad``, ``jvp`` and ``vjp``,
from Python and inside jitted code alike.

Inside jitted code a transform is an AD request of the builder: the
differentiated function, applied to the arguments of the call, becomes an
``adj.lambda`` whose parameters are the Values of those arguments (tuples,
lists and dicts flattened; Python values stay build-time constants), and
``adj.grad``/``value_and_grad``/``jvp``/``vjp`` of it is called (_reify). The
lambda may capture Values of the enclosing code: -adj-grad differentiates
through free variables, so closures need nothing special, and a transform of
a transform nests requests (``grad(grad(f))``), which -adj-grad expands from
the inside out. Called from Python, a transform is a jitted function whose
body is that request (cached per transformed function and options).
"""

import copy
import weakref

from . import _adjoint as _adj
from ._adjoint import DType, Function, Value
from ._call_args import argnums_spec, positions
from ._tracebacks import api_boundary
from .frontend import JitFunction
from ._trees import _flatten, _is_number, _results, _unflatten

__all__ = ["grad", "value_and_grad", "jvp", "vjp"]

_DEFAULT = object()

# transformed function -> {transform: JitFunction}, so that grad(f)(x) in a
# loop builds and compiles once per signature.
_JITS = weakref.WeakKeyDictionary()


def _jit_of(transform):
    try:
        per_fn = _JITS.setdefault(transform.fn, {})
    except TypeError:  # not weakly referencable: cache on the transform
        per_fn = transform.__dict__.setdefault("_own_jits", {})
    jf = per_fn.get(transform)
    if jf is None:
        jf = per_fn[transform] = JitFunction(
            transform,
            static_ints=getattr(transform, "static_int_args", None))
    return jf


def _fn_name(fn):
    return getattr(fn, "__name__", None) or getattr(fn, "name", None) or "f"


# ---------------------------------------------------------------------------
# Differentiated functions as adj.lambda
# ---------------------------------------------------------------------------

#: How dtypes are named to users (numpy's names).
_DTYPE_NAMES = {"i1": "bool", "i32": "int32", "i64": "int64",
                "f16": "float16", "bf16": "bfloat16", "f32": "float32",
                "f64": "float64", "c64": "complex64", "c128": "complex128"}


def _dtype_name(t):
    return "%s (%s)" % (_DTYPE_NAMES.get(t.dtype.name, t.dtype.name), t)


def _diff_leaf(tr, x, node, frame, name, arg, in_tree):
    """Leaf `x` of argument `arg` (`in_tree`: whether the argument is a
    pytree) as a Value to differentiate: integers and booleans have no
    derivative, which is an error (as in JAX) rather than a zero."""
    if isinstance(x, Value) and (not x.type.is_tensor or x.dtype.is_float
                                 or x.dtype.is_complex):
        return x
    if isinstance(x, complex):
        return tr.materialize(x)
    if _is_number(x) and not isinstance(x, bool):
        return tr.materialize(float(x))
    what = "%sargument %d" % ("a leaf of " if in_tree else "", arg)
    if isinstance(x, Value) and x.type.is_tensor:
        got = "has dtype %s" % _dtype_name(x.type)
    else:
        got = "is a %s" % type(x).__name__
    raise frame.error(
        "%s requires floating-point inputs, but %s %s, which is not "
        "differentiable: cast it to a float dtype with astype, or leave it "
        "out of the differentiated arguments (argnums, or a closure over it)"
        % (name, what, got), node)


def _check_outputs(name, r, node, frame):
    """The differentiated outputs of `r` (aux excluded) must be floating
    point: a comparison or an integer result has no derivative, and the AD
    request on it would fail deep in the builder."""
    for i, t in enumerate(r.out_types):
        if not (t.dtype.is_float or t.dtype.is_complex):
            what = "the output" if r.out_tree is None else \
                "output leaf #%d" % i
            aux = "" if name == "jvp" else \
                ", or return it as auxiliary data with has_aux=True"
            raise frame.error(
                "%s requires floating-point outputs, but %s of %s() has "
                "dtype %s, which is not differentiable: a comparison or an "
                "integer result has no derivative (cast it to a float dtype "
                "with astype%s)" % (name, what, _fn_name(r.function),
                                     _dtype_name(t), aux), node)


class _Reified:
    """fn applied to args as an adj.lambda over the Values of args.

    `values` are the call's arguments for the lambda, `wrt` the indices of
    those of the differentiated arguments, `groups` their (tree, count) per
    differentiated argument, `out_tree` the structure of fn's result and
    `out_types` the types of its leaves. Keyword arguments (`kwargs`) are
    passed to fn as they are: the lambda captures their Values, so they
    are never differentiated (JAX's argnums name positional arguments
    only)."""

    def __init__(self, tr, fn, args, diff, node, frame, has_aux=False,
                 name=None, kwargs=None):
        trees, per_arg = [], []
        self.function = fn
        for i, a in enumerate(args):
            l = []
            trees.append(_flatten(a, l))
            if i in diff:
                l = [_diff_leaf(tr, x, node, frame, name, i,
                                trees[-1] is not None) for x in l]
            per_arg.append(l)
        self.values, indices = [], []
        for l in per_arg:
            indices.append([])
            for x in l:
                if isinstance(x, Value):
                    indices[-1].append(len(self.values))
                    self.values.append(x)
        # In argnums' order, which need not be the arguments' ((1, 0)).
        self.wrt = [j for i in diff for j in indices[i]]
        self.groups = [(trees[i], len(per_arg[i])) for i in diff]
        self._trees, self._per_arg = trees, per_arg
        self.has_aux = has_aux
        state = {"aux": []}

        def body(*params):
            out = tr.call(fn, self.rebuild(params), dict(kwargs or {}), node,
                          frame)
            if has_aux:
                out, aux = _split_aux(out, node, frame)
                state["aux_tree"], state["aux"] = tr.leaves(aux, node, frame)
            state["tree"], leaves = tr.leaves(out, node, frame)
            return leaves + state["aux"]

        self.fn = _adj.lambda_(tr.module, [v.type for v in self.values],
                               body)
        self.out_tree = state["tree"]
        self.aux_tree = state.get("aux_tree")
        self.n_aux = len(state["aux"])
        types = list(self.fn.type.results)
        self.out_types = types[:len(types) - self.n_aux]

    def rebuild(self, params, fill=None):
        """The arguments with `params` in place of their Values (in order);
        the other leaves stay, or become `fill` when it is given."""
        it = iter(params)
        return [_unflatten(t, [next(it) if isinstance(x, Value) else
                               (x if fill is None else fill) for x in l])
                for t, l in zip(self._trees, self._per_arg)]

    def n_out(self):
        return len(self.out_types)

    def split_aux(self, out):
        """Splits request results `out` that end with the aux leaves into
        (the others, aux in its structure)."""
        if not self.has_aux:
            return out, None
        n = len(out) - self.n_aux
        return out[:n], _unflatten(self.aux_tree, out[n:])


def _split_aux(out, node, frame):
    """(output, aux) of a function called with has_aux=True."""
    if not isinstance(out, (tuple, list)) or len(out) != 2:
        raise frame.error("has_aux=True: the function must return a pair "
                          "(output, auxiliary data)", node)
    return out[0], out[1]


def _group(leaves, groups, single):
    """Splits the leaves per differentiated argument, in its structure."""
    out, pos = [], 0
    for tree, n in groups:
        out.append(_unflatten(tree, leaves[pos:pos + n]))
        pos += n
    return out[0] if single else tuple(out)


def _diff_args(argnums, nargs, node, frame):
    """(positions, single) of `argnums` among `nargs` positional
    arguments; JAX's errors (_call_args.positions) at the call."""
    try:
        return positions(argnums, nargs)
    except (TypeError, ValueError) as e:
        raise frame.error(str(e), node) from None


def _no_kwargs_at(name, kwargs, node, frame):
    """jvp, vjp and their internal forms take no keywords: one is refused
    (naming it, as Python does) rather than ignored."""
    if kwargs:
        raise frame.error("%s() got an unexpected keyword argument '%s'"
                          % (name, next(iter(kwargs))), node)


def _as_like(tr, x, like, node, frame):
    """A cotangent or tangent leaf given for the Value `like`."""
    if isinstance(x, Value):
        return x
    if _is_number(x):
        s = tr.materialize(x if isinstance(x, complex) else float(x),
                           like=like)
        return _adj.broadcast_to(s, like.shape) if like.rank else s
    raise frame.error("a %s cannot be a tangent or cotangent"
                      % type(x).__name__, node)


# ---------------------------------------------------------------------------
# Transforms that return a function: grad, value_and_grad, hessian
# ---------------------------------------------------------------------------

class _Transform:
    """A transformed function: a build-time callable in jitted code
    (``_adjoint_build``) and a compiled function from Python."""

    prefix = "t"
    #: Whether the arguments outside argnums are not differentiated.
    has_nondiff_args = False

    def __init__(self, fn, argnums=0, has_aux=False):
        self.fn = fn
        self.argnums = argnums_spec(argnums)
        self.has_aux = bool(has_aux)
        self.__name__ = "%s_%s" % (self.prefix, _fn_name(fn))

    @property
    def jit_function(self):
        """The JitFunction that compiles this transform per signature."""
        return _jit_of(self)

    @api_boundary
    def __call__(self, *args, **kwargs):
        if self.has_nondiff_args:  # argnums names positional arguments
            positions(self.argnums, len(args))
        return self.jit_function(*args, **kwargs)

    def static_int_args(self, nargs):
        """The arguments whose Python ints and bools are static when called
        from Python: those not differentiated stay Python values, as in
        JAX, so that code can branch and recurse on them (a parse tree of
        ints, a count)."""
        if not self.has_nondiff_args:
            return ()
        argnums = self.argnums
        diff = {argnums} if isinstance(argnums, int) else set(argnums)
        return {i for i in range(nargs)
                if i not in diff and i - nargs not in diff}

    def __eq__(self, other):
        return type(self) is type(other) and self.fn == other.fn and \
            self.argnums == other.argnums and self.has_aux == other.has_aux

    def __hash__(self):
        return hash((type(self), self.fn, self.argnums, self.has_aux))

    def __repr__(self):
        return "<adjoint.%s of %r>" % (self.prefix, self.fn)

    # The protocol of build-time values (_functions): the values it holds,
    # a copy with them replaced, and a specialization key.
    def _adjoint_children(self):
        return [self.fn]

    def _adjoint_subst(self, f):
        new = copy.copy(self)
        new.fn = f(self.fn)
        return new

    def _adjoint_key(self, key):
        return ("X", type(self).__name__, key(self.fn), self.argnums,
                self.has_aux)

    def _no_kwargs(self, kwargs, node, frame):
        _no_kwargs_at(self.__name__, kwargs, node, frame)


class _Grad(_Transform):
    prefix = "grad"
    has_nondiff_args = True

    def _scalar(self, r, node, frame):
        t = r.out_types
        if r.out_tree is None and len(t) == 1 and t[0].rank == 0:
            _check_outputs(self.prefix, r, node, frame)
        if r.out_tree is None and len(t) == 1 and t[0].dtype.is_complex:
            raise frame.error(
                "%s requires real-valued outputs, but the output of %s() "
                "has dtype %s: the gradient of a complex function exists "
                "only for holomorphic ones; for any complex output, use "
                "vjp with the cotangent you need" % (
                    self.prefix, _fn_name(r.function), _dtype_name(t[0])),
                node)
        if r.out_tree is not None or t[0].rank != 0 or not t[0].dtype.is_float:
            raise frame.error(
                "%s: the differentiated function must return one floating "
                "point scalar (rank 0), not %s"
                % (self.prefix, ", ".join(str(x) for x in t) or "nothing"),
                node)

    @staticmethod
    def _request(fn, wrt, has_aux):
        return _adj.grad(fn, wrt=wrt, has_aux=has_aux)

    @staticmethod
    def _shape(out, groups, single, r):
        # With aux, the request returns (gradients..., aux...).
        grads, aux = r.split_aux(out)
        g = _group(grads, groups, single)
        return (g, aux) if r.has_aux else g

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        diff, single = _diff_args(self.argnums, len(args), node, frame)
        r = _Reified(tr, self.fn, args, diff, node, frame, self.has_aux,
                     self.prefix, kwargs)
        self._scalar(r, node, frame)
        out = _results(self._request(r.fn, r.wrt, self.has_aux)(*r.values))
        return self._shape(out, r.groups, single, r)


class _ValueAndGrad(_Grad):
    prefix = "value_and_grad"

    @staticmethod
    def _request(fn, wrt, has_aux):
        return _adj.value_and_grad(fn, wrt=wrt, has_aux=has_aux)

    @staticmethod
    def _shape(out, groups, single, r):
        # With aux, the request returns (value, aux..., gradients...).
        if not r.has_aux:
            return out[0], _group(out[1:], groups, single)
        aux = _unflatten(r.aux_tree, out[1:1 + r.n_aux])
        return (out[0], aux), _group(out[1 + r.n_aux:], groups, single)


# ---------------------------------------------------------------------------
# jvp and vjp: the function and its arguments at once
# ---------------------------------------------------------------------------

def _jvp_build(tr, fn, primals, tangents, node, frame, name="jvp"):
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise frame.error("jvp: %d primals but %d tangents"
                          % (len(primals), len(tangents)), node)
    r = _Reified(tr, fn, primals, tuple(range(len(primals))), node, frame,
                 name=name)
    _check_outputs(name, r, node, frame)
    t_leaves = []
    for p, t in zip(primals, tangents):
        if _flatten(p, []) != _flatten(t, t_leaves):
            raise frame.error("jvp: the tangents must have the structure "
                              "of the primals", node)
    ts = [_as_like(tr, t, v, node, frame) for t, v in zip(t_leaves, r.values)]
    out = _results(_adj.jvp(r.fn, wrt=r.wrt)(*r.values, *ts))
    n = r.n_out()
    return _unflatten(r.out_tree, out[:n]), _unflatten(r.out_tree, out[n:])


class _Pullback:
    """The function vjp returns inside jitted code: calls the pullback
    closure (a Value) on a cotangent of the structure of the output."""

    def __init__(self, value, out_tree, outs, groups, extra=()):
        self.value = value
        self.out_tree = out_tree
        self.outs = outs
        self.groups = groups
        # Cotangents passed after the given ones: zeros for aux outputs.
        self.extra = list(extra)

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        if len(args) != 1 or kwargs:
            raise frame.error("a vjp function takes one cotangent", node)
        leaves = []
        if _flatten(args[0], leaves) != self.out_tree:
            raise frame.error("vjp: the cotangent must have the structure "
                              "of the function's result", node)
        cts = [_as_like(tr, c, o, node, frame)
               for c, o in zip(leaves, self.outs)]
        return _group(_results(self.value(*cts, *self.extra)), self.groups,
                      False)

    def _adjoint_children(self):
        return [self.value] + list(self.outs) + self.extra

    def _adjoint_subst(self, f):
        return _Pullback(f(self.value), self.out_tree,
                         [f(o) for o in self.outs], self.groups,
                         [f(e) for e in self.extra])

    def _adjoint_key(self, key):
        return ("P", key(self.value), self.out_tree)


def _vjp_build(tr, fn, primals, node, frame, has_aux=False, name="vjp"):
    """(output, pullback), and aux last with has_aux (whose cotangents are
    zeros)."""
    primals = tuple(primals)
    r = _Reified(tr, fn, primals, tuple(range(len(primals))), node, frame,
                 has_aux, name)
    _check_outputs(name, r, node, frame)
    out = _results(_adj.vjp(r.fn, wrt=r.wrt)(*r.values))
    outs, aux = r.split_aux(out[:-1])
    zeros = [_adj.zeros(tr.module, a.shape, a.dtype)
             for a in out[len(outs):-1]]
    result = (_unflatten(r.out_tree, outs),
              _Pullback(out[-1], r.out_tree, outs, r.groups, zeros))
    return result + (aux,) if has_aux else result


class _JvpApply(_Transform):
    """``(primals, tangents) -> jvp(fn, primals, tangents)``."""

    prefix = "jvp"

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        self._no_kwargs(kwargs, node, frame)
        return _jvp_build(tr, self.fn, args[0], args[1], node, frame)


class _Apply(_Transform):
    """``args -> fn(*args)`` (the primal output of vjp)."""

    prefix = "apply"

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        return tr.call(self.fn, args, kwargs, node, frame)


class _VjpApply(_Transform):
    """``(primals, cotangent) -> vjp(fn, *primals)[1](cotangent)``."""

    prefix = "vjp"

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        self._no_kwargs(kwargs, node, frame)
        pullback = _vjp_build(tr, self.fn, args[0], node, frame,
                              self.has_aux)[1]
        return pullback._adjoint_build(tr, [args[1]], {}, node, frame)


class _HostPullback:
    """The function vjp returns from Python: each call compiles (once per
    signature) and runs the forward and backward pass."""

    def __init__(self, fn, primals, has_aux=False):
        self.fn = fn
        self.primals = tuple(primals)
        self.has_aux = has_aux

    @api_boundary
    def __call__(self, cotangent):
        return _VjpApply(self.fn, 0, self.has_aux)(self.primals, cotangent)


# ---------------------------------------------------------------------------
# The public functions
# ---------------------------------------------------------------------------

def _builder_request(request, fn, argnums, wrt, **options):
    """The builder's AD request on a Function or Value: `wrt` given by
    keyword or, as before, in argnums' place."""
    if argnums is not _DEFAULT and wrt is not _DEFAULT:
        raise TypeError("%s() got both argnums and wrt" % request.__name__)
    wrt = argnums if wrt is _DEFAULT else wrt
    options = {k: v for k, v in options.items() if v is not _DEFAULT}
    return request(fn, None if wrt is _DEFAULT else wrt, **options)


def _no_builder_options(name, **options):
    """Python functions take argnums; the builder's options are refused
    (not ignored) with Python's message for an unexpected keyword."""
    for key, value in options.items():
        if value is not _DEFAULT:
            raise TypeError("%s() got an unexpected keyword argument '%s' "
                            "(it applies to a builder Function or Value "
                            "only)" % (name, key))


def grad(fn, argnums=_DEFAULT, *, has_aux=False, wrt=_DEFAULT,
         custom_sens=_DEFAULT):
    """``grad(f, argnums=0)``: the gradient of a function that returns one
    floating-point scalar, with respect to the arguments at `argnums` (an
    int gives one gradient, a tuple a tuple; each of the structure of its
    argument). `f` is a @jit or plain Python function, or a transform of
    one, so transforms nest; usable from Python (compiled) and inside
    jitted code. With ``has_aux=True``, `f` returns ``(output, aux)`` and
    the result is ``(gradient, aux)``: aux is returned as computed, not
    differentiated. On a builder ``Function`` or ``Value`` it is the adj AD
    request (``grad(fn, wrt=..., custom_sens=..., has_aux=...)``)."""
    if isinstance(fn, (Value, Function)):
        return _builder_request(_adj.grad, fn, argnums, wrt,
                                custom_sens=custom_sens, has_aux=has_aux)
    _no_builder_options("grad", wrt=wrt, custom_sens=custom_sens)
    return _Grad(fn, 0 if argnums is _DEFAULT else argnums, has_aux)


def value_and_grad(fn, argnums=_DEFAULT, *, has_aux=False, wrt=_DEFAULT,
                   custom_sens=_DEFAULT):
    """Like ``grad``, returning ``(value, gradient)``; with ``has_aux=True``,
    ``((value, aux), gradient)``."""
    if isinstance(fn, (Value, Function)):
        return _builder_request(_adj.value_and_grad, fn, argnums, wrt,
                                custom_sens=custom_sens, has_aux=has_aux)
    _no_builder_options("value_and_grad", wrt=wrt, custom_sens=custom_sens)
    return _ValueAndGrad(fn, 0 if argnums is _DEFAULT else argnums, has_aux)


@api_boundary
def jvp(fn, primals=_DEFAULT, tangents=_DEFAULT, *, wrt=_DEFAULT):
    """``jvp(f, primals, tangents) -> (f(*primals), tangent of the result)``
    (forward mode). On a builder ``Function`` or ``Value``: the adj request
    ``jvp(fn, wrt=...)``."""
    if isinstance(fn, (Value, Function)):
        if tangents is not _DEFAULT:
            raise TypeError("jvp() of a builder function takes wrt only")
        return _builder_request(_adj.jvp, fn, primals, wrt)
    _no_builder_options("jvp", wrt=wrt)
    if primals is _DEFAULT or tangents is _DEFAULT:
        raise TypeError("jvp() missing the primals and tangents")
    return _JvpApply(fn)(tuple(primals), tuple(tangents))


@api_boundary
def vjp(fn, *primals, has_aux=False, wrt=_DEFAULT):
    """``vjp(f, *primals) -> (f(*primals), vjp_fn)`` where ``vjp_fn(ct)``
    gives the cotangents of the primals (a tuple, one per primal). With
    ``has_aux=True``, `f` returns ``(output, aux)`` and vjp returns
    ``(output, vjp_fn, aux)``. On a builder ``Function`` or ``Value``: the
    adj request ``vjp(fn, wrt=..., has_aux=...)``."""
    if isinstance(fn, (Value, Function)):
        if len(primals) > 1:
            raise TypeError("vjp() of a builder function takes wrt only")
        return _builder_request(_adj.vjp, fn,
                                primals[0] if primals else _DEFAULT, wrt,
                                has_aux=has_aux)
    _no_builder_options("vjp", wrt=wrt)
    if has_aux:
        out, aux = _Apply(fn)(*primals)
        return out, _HostPullback(fn, primals, True), aux
    return _Apply(fn)(*primals), _HostPullback(fn, primals)


# Inside jitted code, jvp and vjp build the requests directly.
def _jvp_in_jit(tr, args, kwargs, node, frame):
    _no_kwargs_at("jvp", kwargs, node, frame)
    if len(args) != 3:
        raise frame.error("jvp() takes a function, primals and tangents",
                          node)
    return _jvp_build(tr, args[0], args[1], args[2], node, frame)


def _vjp_in_jit(tr, args, kwargs, node, frame):
    has_aux = kwargs.pop("has_aux", False) if kwargs else False
    _no_kwargs_at("vjp", kwargs, node, frame)
    if not args:
        raise frame.error("vjp() takes a function and its primals", node)
    return _vjp_build(tr, args[0], args[1:], node, frame, bool(has_aux))


jvp._adjoint_build = _jvp_in_jit
vjp._adjoint_build = _vjp_in_jit
