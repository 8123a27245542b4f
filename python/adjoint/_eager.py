"""adjoint's tensor functions called on numpy arrays outside jitted code:
``adjoint.relu(a)``, ``adjoint.numpy.tanh(a)``, ``adjoint.numpy.zeros(3)``
run as compiled code and return numpy arrays, as jax.numpy's functions do
eagerly (and as ``grad`` and ``vmap`` do outside jit).

Each call is a jitted function whose body is the call: the arguments that
hold arrays are its parameters, everything else (axes, shapes, dtypes,
keyword options) is static. The jitted function is cached per function and
static options, and compiles once per signature, so a loop of eager calls
builds once.
"""

import functools

import numpy as _np

from ._adjoint import Function, Module, Tensor, Value
from .frontend import JitFunction
from ._np_support import _TRANSLATOR
from ._trees import _flatten

# (function, static positions, static keywords) -> JitFunction
_JITS = {}


class _Call:
    """`fn` applied to the traced arguments and the static keywords, a
    build-time callable of the front end."""

    def __init__(self, fn, kwargs, traced_keywords):
        self.fn, self.kwargs = fn, kwargs
        self.traced_keywords = traced_keywords
        self.__name__ = getattr(fn, "__name__", "call")

    def _adjoint_build(self, tr, args, kwargs, node, frame):
        if self.traced_keywords:
            *args, traced = args
            kwargs = dict(self.kwargs, **traced)
        else:
            kwargs = self.kwargs
        return self.fn(*args, **kwargs)


def _leaves(x):
    out = []
    _flatten(x, out)
    return out


def _holds_array(x):
    return any(isinstance(l, (_np.ndarray, _np.generic, Tensor))
               for l in _leaves(x))


def _direct(args, kwargs):
    """Whether to call the function as it is: while a program is built, or
    with a builder Value, Module or Function among the arguments."""
    if _TRANSLATOR.get() is not None:
        return True
    return any(isinstance(l, (Value, Module, Function))
               for l in _leaves((args, kwargs)))


def run(fn, args, kwargs):
    """fn(*args, **kwargs) compiled for the CPU, with numpy results."""
    static_kw = {k: v for k, v in kwargs.items() if not _holds_array(v)}
    traced_kw = {k: v for k, v in kwargs.items() if k not in static_kw}
    call_args = list(args) + ([traced_kw] if traced_kw else [])
    static = tuple(i for i, a in enumerate(args) if not _holds_array(a))
    key = (fn, static, tuple(sorted(static_kw.items())), tuple(traced_kw))
    try:
        jf = _JITS.get(key)
    except TypeError:   # an unhashable option: built for this call only
        key, jf = None, None
    if jf is None:
        jf = JitFunction(_Call(fn, static_kw, bool(traced_kw)), static)
        if key is not None:
            _JITS[key] = jf
    return jf(*call_args)


def eager(fn):
    """`fn` that runs compiled on numpy arrays outside jitted code and as
    it is on Values."""
    @functools.wraps(fn)
    def function(*args, **kwargs):
        if _direct(args, kwargs):
            return fn(*args, **kwargs)
        return run(fn, args, kwargs)
    return function
