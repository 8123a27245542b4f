"""The Python front end: ``@adjoint.jit``, ``adjoint.grad`` and
``adjoint.value_and_grad``.

A jitted function is not traced by running it: its source (``inspect`` +
``ast``) is translated statement by statement into adj IR with the builder
bindings, once per argument signature (dtypes and shapes). Translation is a
build-time evaluation of the AST in which tensors are ``adjoint.Value``\\ s and
everything else (numbers, tuples, functions, modules) stays a Python object:

- Python numbers are folded in Python and become rank-0 constants of the
  right element type only when they meet a Value or must be materialized
  (loop-carried, returned, branch results).
- ``if``/``while``/``for ... in range`` on Values become ``adj.if``/
  ``adj.while``/``adj.for`` (``if_``/``while_``/``for_``); the carried
  variables are the ones the body assigns that exist before it. Conditions
  that are Python values are decided at build time.
- Calls to other Python functions (``@jit`` or plain, globals, closures,
  nested ``def``/``lambda``) are inlined.

The translation lives in _translator (scopes, calls), _statements and
_expressions; _trees holds build-time values, _source errors and sources.
See docs/python.md, "Front end", for what is supported.
"""

from . import _adjoint as _adj
from ._adjoint import Value, Function, DType, Module
from ._source import FrontendError, _Source, _arg_type, _as_array
from ._trees import _flatten, _results, _unflatten
from ._translator import _Frame, _Translator

__all__ = ["jit", "grad", "value_and_grad", "FrontendError", "JitFunction"]


# ---------------------------------------------------------------------------
# jit, grad, value_and_grad
# ---------------------------------------------------------------------------

class JitFunction:
    """A function compiled per argument signature (dtypes and shapes).

    ``builds`` counts the modules built (one per new signature)."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", "f")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self.builds = 0
        self._cache = {}

    # Building ------------------------------------------------------------

    def _translate(self, module, types):
        """Defines this function in `module`; returns (Function, tree)."""
        floats = [t.dtype for t in types if t.dtype.is_float]
        tr = _Translator(module, floats[0] if floats else DType.f32)
        state = {}

        def body(*args):
            frame = _Frame(tr, "<jit>", {}, {})
            value = tr.call_python(self.fn, list(args), {}, None, frame)
            src = _Source.of(self.fn)
            f = _Frame(tr, src.filename, {}, {})
            tree, leaves = tr.leaves(value, src.node, f)
            state["tree"] = tree
            return leaves

        fn = module.function(self.__name__, list(types), body)
        return fn, state["tree"]

    def lower(self, *args):
        """The adj module built for these arguments (not compiled)."""
        types = [_arg_type(_as_array(a)) for a in args]
        m = Module()
        self._translate(m, types)
        return m

    def _compiled(self, kind, args, extra=None):
        arrays = [_as_array(a) for a in args]
        key = (kind, extra) + tuple((a.dtype.str, a.shape) for a in arrays)
        entry = self._cache.get(key)
        if entry is None:
            types = [_arg_type(a) for a in arrays]
            m = Module()
            self.builds += 1
            fn, tree = self._translate(m, types)
            if kind == "value":
                exe = _adj.compile(m, fn.name)
                entry = (exe, tree)
            else:
                wrt, is_int = extra
                request = _adj.grad if kind == "grad" else _adj.value_and_grad
                state = {}

                def main(*xs):
                    r = request(fn, wrt=list(wrt))(*xs)
                    leaves = []
                    state["tree"] = _flatten(r if not isinstance(r, list)
                                             else tuple(r), leaves)
                    return leaves

                name = kind + "_" + fn.name
                m.function(name, types, main)
                exe = _adj.compile(m, name)
                entry = (exe, state["tree"])
            self._cache[key] = entry
        return entry, arrays

    def __call__(self, *args):
        (exe, tree), arrays = self._compiled("value", args)
        return _unflatten(tree, _results(exe(*arrays)))

    def __repr__(self):
        return "<adjoint.jit %s>" % self.__name__


def jit(fn):
    """Compiles `fn` from its Python source, per argument signature."""
    if isinstance(fn, JitFunction):
        return fn
    return JitFunction(fn)


def _argnums(argnums):
    if isinstance(argnums, int):
        return (argnums,), True
    return tuple(argnums), False


def _ad_callable(kind, f, argnums):
    jf = jit(f)
    wrt, is_int = _argnums(argnums)

    def run(*args):
        (exe, tree), arrays = jf._compiled(kind, args, (wrt, is_int))
        leaves = _results(exe(*arrays))
        if kind == "grad":
            return leaves[0] if is_int else tuple(leaves)
        value, grads = leaves[0], leaves[1:]
        return value, (grads[0] if is_int else tuple(grads))

    run.__name__ = "%s_%s" % (kind, jf.__name__)
    run.jit_function = jf
    return run


_DEFAULT = object()


def grad(fn, argnums=_DEFAULT, *args, **kwargs):
    """``grad(f, argnums=0)``: the gradient of a scalar-valued @jit (or plain
    Python) function, compiled. On a builder ``Function`` or ``Value`` it is
    the adj AD request (``adjoint.grad(fn, wrt=..., custom_sens=...)``)."""
    if isinstance(fn, (Value, Function)):
        if argnums is not _DEFAULT:
            args = (argnums,) + args
        return _adj.grad(fn, *args, **kwargs)
    return _ad_callable("grad", fn, 0 if argnums is _DEFAULT else argnums)


def value_and_grad(fn, argnums=_DEFAULT, *args, **kwargs):
    """Like ``grad``, returning ``(value, gradient)``."""
    if isinstance(fn, (Value, Function)):
        if argnums is not _DEFAULT:
            args = (argnums,) + args
        return _adj.value_and_grad(fn, *args, **kwargs)
    return _ad_callable("value_and_grad", fn,
                        0 if argnums is _DEFAULT else argnums)
