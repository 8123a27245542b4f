"""numpy's functions called in jitted code.

A numpy function given a traced array (a Value, also inside a list or a
keyword argument) must not run: numpy would turn the Value into an object
array and return a constant (``np.argmax(x)`` is 0) or fail inside its own
code. It resolves to adjoint.numpy's function of the same name, or is an
error naming ``numpy.<name>``. "numpy's" is any callable of the numpy
package: its functions and those of its submodules (numpy.fft,
numpy.linalg, ...), ufuncs and their methods, methods of numpy objects
(numpy.random) and numpy's scalar types (``np.float32(x)`` is a cast).

The array creation functions (zeros, eye, arange, ...) resolve even with
only Python arguments, so that they build into the program. Other numpy
functions of Python values run at build time; an array they return is a
constant of the program, as a global array is.

The translator imports this module, and adjoint.numpy is above the
translator (its functions run compiled through jit outside jitted code;
vectorize and apply_along_axis are built on vmap): adjoint.numpy hands
itself over when it is imported (use_namespace), and the map from numpy's
functions to its functions is built from that on the first call.
"""

import types

import sys

import numpy as _np

from ._adjoint import Value
from ._np_support import cast_to, to_dtype
from ._trees import _flatten

_MAP = None
_NAMESPACE = None

_CREATION = ("zeros", "ones", "full", "empty", "eye", "identity", "arange",
             "linspace",
             # numpy's would call a function of the jitted code itself.
             "fromfunction", "geomspace", "logspace", "bartlett", "blackman",
             "hamming", "hanning", "kaiser", "vectorize")

def _scalar_type(dtype):
    def convert(x):
        return cast_to(x, to_dtype(dtype, dtype.__name__)) \
            if isinstance(x, Value) else dtype(x)
    return convert


def use_namespace(namespace):
    """Makes numpy's functions resolve to those of `namespace`
    (adjoint.numpy, which calls this at its import)."""
    global _NAMESPACE, _MAP
    _NAMESPACE, _MAP = namespace, None


def _build_map():
    anp = _NAMESPACE
    out = {}
    for name in anp.NAMES:
        fn = getattr(_np, name, None)
        if fn is not None and callable(fn) and not isinstance(fn, type):
            out[fn] = getattr(anp, name)
    # Classes, so not among the functions above.
    for name in ("vectorize", "finfo", "iinfo"):
        out[getattr(_np, name)] = getattr(anp, name)
    for module, ours in ((_np.linalg, anp.linalg), (_np.fft, anp.fft)):
        for name in ours.NAMES:
            fn = getattr(module, name, None)
            if fn is not None:
                out[fn] = getattr(ours, name)
    for t in (_np.float64, _np.float32, _np.float16, _np.int64, _np.int32,
              _np.bool_):
        out[t] = _scalar_type(t)
    return out


def _mapped(fn):
    global _MAP
    if _MAP is None:
        _MAP = _build_map()
    try:
        return _MAP.get(fn)
    except TypeError:   # unhashable
        return None


def _is_numpy_module(name):
    return name == "numpy" or (name or "").startswith("numpy.")


def numpy_name(fn):
    """'numpy.<name>' when `fn` is numpy's, else None."""
    if isinstance(fn, _np.ufunc):
        return "numpy." + fn.__name__
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        if isinstance(owner, _np.ufunc):
            return "numpy.%s.%s" % (owner.__name__, fn.__name__)
        mod = type(owner).__module__
        if _is_numpy_module(mod):
            if mod.startswith("numpy.random"):
                return "numpy.random." + fn.__name__
            return "numpy.%s.%s" % (type(owner).__name__, fn.__name__)
        return None
    objclass = getattr(fn, "__objclass__", None)   # ndarray.sum
    if isinstance(objclass, type) and _is_numpy_module(objclass.__module__):
        return "numpy.%s.%s" % (objclass.__name__, fn.__name__)
    mod = getattr(fn, "__module__", None)
    if isinstance(mod, str) and _is_numpy_module(mod):
        # A callable object (numpy.vectorize(f)) is named by its class.
        name = getattr(fn, "__qualname__", None) or type(fn).__qualname__
        return "%s.%s" % (mod, name)
    return None


def scipy_mapped(fn):
    """adjoint.scipy.linalg's function for scipy.linalg's of that name.
    scipy wraps some of them (batching decorators defined in scipy._lib),
    so a function counts as scipy.linalg's when scipy.linalg exports it
    under its name, whatever its __module__."""
    scipy_linalg = sys.modules.get("scipy.linalg")
    name = getattr(fn, "__name__", None)
    if scipy_linalg is None or not isinstance(name, str) or \
            getattr(scipy_linalg, name, None) is not fn:
        return None
    # Here, not at the top: adjoint.scipy is loaded only once user code
    # has imported scipy.linalg and calls it (not by `import adjoint`).
    from .scipy import linalg
    return getattr(linalg, name) if name in linalg.__all__ else None


def holds_value(args, kwargs):
    leaves = []
    _flatten((tuple(args), dict(kwargs)), leaves)
    return any(isinstance(a, Value) for a in leaves)


def resolve(fn, args, kwargs, node, frame):
    """The function to call for ``fn(*args, **kwargs)`` in jitted code:
    adjoint.numpy's for a numpy function on traced arrays (or a creation
    function), `fn` itself otherwise; an unsupported numpy function on
    traced arrays is an error at the call."""
    name = numpy_name(fn)
    if name is None:
        scipy_function = scipy_mapped(fn)
        if scipy_function is not None and holds_value(args, kwargs):
            return scipy_function
        return fn
    if isinstance(fn, _np.vectorize) and holds_value(args, kwargs):
        # numpy.vectorize(f) made outside jitted code (a decorator): the
        # same vectorization by adjoint.numpy.vectorize, whose build the
        # translator runs at the user's call.
        return _NAMESPACE.vectorize(fn.pyfunc, doc=fn.__doc__,
                                    excluded=fn.excluded,
                                    signature=fn.signature)
    mapped = _mapped(fn)
    traced = holds_value(args, kwargs)
    if mapped is not None and (traced or getattr(
            fn, "__name__", None) in _CREATION):
        return mapped
    if traced:
        raise frame.error(
            "%s is not supported on traced arrays in jitted code (adjoint."
            "numpy does not implement it; docs/python.md lists the numpy "
            "functions it does)" % name, node)
    return fn


# ---------------------------------------------------------------------------
# numpy's dispatch protocols on Values (the builder API, numpy's operators)
# ---------------------------------------------------------------------------

def _unsupported(name):
    return TypeError("%s is not supported on adjoint Values (adjoint.numpy "
                     "does not implement it; docs/python.md lists the numpy "
                     "functions it does)" % name)


def _array_function(self, func, types_, args, kwargs):
    """numpy's functions given a Value outside the front end's resolution
    (a builder body: ``np.argmax(v)``) resolve the same way."""
    mapped = _mapped(func)
    if mapped is None:
        raise _unsupported(numpy_name(func) or repr(func))
    return mapped(*args, **kwargs)


def _array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """numpy's ufuncs given a Value, also through an operator of an ndarray
    (``array + v`` calls numpy.add)."""
    mapped = _mapped(ufunc) if method == "__call__" else None
    if mapped is None:
        name = "numpy." + ufunc.__name__
        raise _unsupported(name if method == "__call__" else
                           "%s.%s" % (name, method))
    return mapped(*inputs, **kwargs)


def install(value_type):
    """Makes numpy dispatch its functions and ufuncs on `value_type` here,
    instead of making an object array of it (np.argmax(v) was 0)."""
    value_type.__array_function__ = _array_function
    value_type.__array_ufunc__ = _array_ufunc
