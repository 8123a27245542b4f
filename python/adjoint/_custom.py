"""``stop_gradient``, ``custom_vjp``, ``custom_jvp`` and ``checkpoint``.

Inside jitted code each becomes its adj op (adj.stop_gradient,
adj.custom_vjp, adj.custom_jvp, adj.checkpoint) on adj.lambda functions
built from the Python functions at the call's argument Values (pytrees
flattened as for grad), so -adj-grad applies the rules and they compose with
every transform: the rules are adj code, differentiated like any other
(grad of grad through a custom_vjp differentiates bwd). Called from Python,
each function is compiled with jit like a transformed function.
"""

import inspect

from . import _adjoint as _adj
from ._adjoint import Value
from ._core import at_build_time
from ._tracebacks import api_boundary
from ._transforms import _as_like, _fn_name, _Reified, _jit_of, _split_aux
from ._trees import (_flatten, _is_number, _leaves_up_to, _results,
                     _unflatten)

__all__ = ["stop_gradient", "custom_vjp", "custom_jvp", "checkpoint"]


# ---------------------------------------------------------------------------
# stop_gradient
# ---------------------------------------------------------------------------

def stop_gradient(x):
    """`x` (a pytree of arrays), through which no derivative flows: reverse
    mode gives it a zero cotangent, forward mode a zero tangent. Outside
    jitted code it returns `x`."""
    return x


def _stop_gradient_in_jit(tr, args, kwargs, node, frame):
    if len(args) != 1 or kwargs:
        raise frame.error("stop_gradient() takes one argument", node)
    leaves = []
    tree = _flatten(args[0], leaves)
    return _unflatten(tree, [_adj.stop_gradient(l) if isinstance(l, Value)
                             else l for l in leaves])


stop_gradient._adjoint_build = _stop_gradient_in_jit


# ---------------------------------------------------------------------------
# Functions with rules of their own
# ---------------------------------------------------------------------------

class _Annotated:
    """A Python function with a derivative annotation: jit-compiled when
    called from Python, its adj op when called in jitted code."""

    prefix = "annotated"

    def __init__(self, fun):
        self.fun = fun
        self._in_rule = False
        self.__name__ = _fn_name(fun)
        self.__doc__ = getattr(fun, "__doc__", None)

    # _jit_of caches per `fn` and the object itself.
    @property
    def fn(self):
        return self.fun

    @api_boundary
    def __call__(self, *args, **kwargs):
        return _jit_of(self)(*args, **kwargs)

    def _positional(self, args, kwargs):
        """The arguments by position: the rules (fwd, bwd, the jvp rule)
        see one entry per parameter, so keywords are resolved through the
        function's signature, defaults included, as JAX does."""
        try:
            bound = inspect.signature(self.fun).bind(*args, **kwargs)
        except (TypeError, ValueError) as e:
            raise TypeError("%s(): %s" % (self.__name__, e)) from None
        bound.apply_defaults()
        if bound.kwargs:
            raise TypeError("%s(): keyword-only arguments (%s) cannot be "
                            "given to a function with custom derivatives; "
                            "make them positional" %
                            (self.__name__, ", ".join(bound.kwargs)))
        return list(bound.args)

    def _function_value(self, tr, args, node, frame):
        """f at `args` as an adj.lambda over their Values."""
        return _Reified(tr, self.fun, args, (), node, frame)

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        if self._in_rule:
            # A rule that calls the function itself (for its primal output,
            # as JAX rules do) gets the plain function: the rule's own code
            # is what gets differentiated.
            return tr.call(self.fun, list(args), kwargs, node, frame)
        if kwargs:
            try:
                args = self._positional(args, kwargs)
            except TypeError as e:
                raise frame.error(str(e), node) from None
        r = self._function_value(tr, list(args), node, frame)
        self._in_rule = True
        try:
            g = self._annotate(tr, r, node, frame)
        finally:
            self._in_rule = False
        return _unflatten(r.out_tree, _results(g(*r.values)))

    # Build-time value protocol (see _transforms._Transform).
    def _adjoint_children(self):
        return []

    def _adjoint_subst(self, f):
        return self

    def _adjoint_key(self, key):
        return ("A", id(self))


def _check_tree(got, expected, what, node, frame):
    if got != expected:
        raise frame.error("%s must have the structure of the function's "
                          "output" % what, node)


def _cotangent_leaves(tr, ct, r, node, frame):
    """The cotangent of each argument Value of `r` from `ct`, one entry per
    argument in the arguments' structure (None or 0 for zero)."""
    if not isinstance(ct, (tuple, list)) or len(ct) != len(r._trees):
        raise frame.error("custom_vjp: bwd must return a tuple with one "
                          "cotangent per argument (%d)" % len(r._trees),
                          node)
    out = []
    for c, tree, leaves in zip(ct, r._trees, r._per_arg):
        # None is a zero cotangent for a whole argument or any of its leaves.
        c_leaves = [None] * len(leaves) if c is None else \
            _leaves_up_to(tree, c)
        if c_leaves is None:
            raise frame.error("custom_vjp: each cotangent that bwd "
                              "returns must have its argument's "
                              "structure", node)
        for x, c in zip(leaves, c_leaves):
            if not isinstance(x, Value):
                continue
            if c is None:
                out.append(_adj.zeros(tr.module, x.shape, x.dtype))
            else:
                out.append(_as_like(tr, c, x, node, frame))
    return out


@at_build_time
class custom_vjp(_Annotated):
    """A function with a reverse-mode rule, as ``jax.custom_vjp``::

        @adjoint.custom_vjp
        def f(x): ...
        def f_fwd(x): return f(x), residuals
        def f_bwd(residuals, ct): return (ct_x,)   # one per argument
        f.defvjp(f_fwd, f_bwd)

    Arguments, outputs and residuals are pytrees of arrays; a cotangent may
    be None (zero). Values that f, fwd and bwd close over get no gradient
    through f. jvp of f is an error (as in JAX); grad of grad differentiates
    bwd."""

    prefix = "custom_vjp"

    def __init__(self, fun):
        super().__init__(fun)
        self.fwd = self.bwd = None

    @at_build_time
    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd

    def _annotate(self, tr, r, node, frame):
        if self.fwd is None:
            raise frame.error("custom_vjp function %s has no rule: call "
                              "defvjp(fwd, bwd) first" % self.__name__, node)
        types = [v.type for v in r.values]
        state = {}

        def fwd_body(*params):
            out = tr.call(self.fwd, r.rebuild(params), {}, node, frame)
            y, res = _split_aux(out, node, frame)
            tree, y_leaves = tr.leaves(y, node, frame)
            _check_tree(tree, r.out_tree, "custom_vjp: fwd's output", node,
                        frame)
            state["res"], res_leaves = tr.leaves(res, node, frame)
            return y_leaves + res_leaves

        fwd = _adj.lambda_(tr.module, types, fwd_body)
        n_out = r.n_out()
        res_types = list(fwd.type.results)[n_out:]

        def bwd_body(*params):
            res = _unflatten(state["res"], list(params[:len(res_types)]))
            ct = _unflatten(r.out_tree, list(params[len(res_types):]))
            out = tr.call(self.bwd, [res, ct], {}, node, frame)
            return _cotangent_leaves(tr, out, r, node, frame)

        bwd = _adj.lambda_(tr.module, res_types + r.out_types, bwd_body)
        return _adj.custom_vjp(r.fn, fwd, bwd)


@at_build_time
class custom_jvp(_Annotated):
    """A function with a forward-mode rule, as ``jax.custom_jvp``::

        @adjoint.custom_jvp
        def f(x): ...
        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return f(x), tangent_out          # linear in the tangents

    Reverse mode transposes the rule, so grad, vjp and their compositions
    (grad of grad, jvp of grad) all use it. Values the rule closes over get
    no derivative through it."""

    prefix = "custom_jvp"

    def __init__(self, fun):
        super().__init__(fun)
        self.jvp = None

    @at_build_time
    def defjvp(self, jvp):
        self.jvp = jvp
        return jvp

    def _annotate(self, tr, r, node, frame):
        if self.jvp is None:
            raise frame.error("custom_jvp function %s has no rule: call "
                              "defjvp(rule) first" % self.__name__, node)
        n = len(r.values)

        def rule_body(*params):
            primals = r.rebuild(params[:n])
            # Tangents of the arguments that are not Values are zero.
            tangents = r.rebuild(params[n:], fill=0.0)
            out = tr.call(self.jvp, [tuple(primals), tuple(tangents)], {},
                          node, frame)
            y, t = _split_aux(out, node, frame)
            tree, y_leaves = tr.leaves(y, node, frame)
            _check_tree(tree, r.out_tree, "custom_jvp: the rule's output",
                        node, frame)
            t_leaves = []
            _check_tree(_flatten(t, t_leaves), r.out_tree,
                        "custom_jvp: the rule's output tangent", node, frame)
            return y_leaves + [_as_like(tr, x, y, node, frame)
                               for x, y in zip(t_leaves, y_leaves)]

        types = [v.type for v in r.values]
        rule = _adj.lambda_(tr.module, types + types, rule_body)
        return _adj.custom_jvp(r.fn, rule)


class _Checkpoint(_Annotated):
    prefix = "checkpoint"

    def _annotate(self, tr, r, node, frame):
        return _adj.checkpoint(r.fn)


@at_build_time
def checkpoint(fun):
    """``jax.checkpoint`` (remat): `fun` computed as usual, but reverse mode
    keeps only its arguments and recomputes its forward pass when the
    backward pass needs it, trading compute for memory. Also a decorator."""
    return _Checkpoint(fun)


#: JAX's other name for checkpoint.
remat = checkpoint
