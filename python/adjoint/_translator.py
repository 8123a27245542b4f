"""The translator's core: values and the dispatch of calls (Python functions, AD transforms, adjoint's tensor
functions, function Values)."""

import operator
import functools
import inspect

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value, DType
from ._conditionals import _Conditionals
from ._core import Jitted, runs_at_build_time
from ._dtypes import _COMPLEX, _Types, _number_kind
from ._expressions import _Expressions
from ._frame import _Frame
from ._functions import _Functions
from ._host_calls import calls_back, host_arguments, runs_on_host
from ._iteration import _TracedRange, is_iteration_call, iteration_builtin
from ._loops import _Loops
from ._numpy_calls import numpy_name, resolve as resolve_numpy, scipy_mapped
from ._source import FrontendError
from ._statements import _Statements
from ._trees import _InlineFn, _flatten, _is_integer, _is_number


def _exact_int(x):
    """A Python or numpy integer as a Python int for adj.scalar, which
    keeps all 64 bits of one (a float would keep 53)."""
    n = int(x)
    if not -2 ** 63 <= n < 2 ** 64:
        raise OverflowError("the integer %d does not fit in 64 bits" % n)
    return n if n < 2 ** 63 else n - 2 ** 64


class _Translator(_Statements, _Loops, _Expressions, _Functions,
                  _Conditionals, _Types):
    """Translates function bodies into the region being built."""

    def __init__(self, module, float_dtype):
        self.module = module
        self.float_dtype = float_dtype
        _Functions.__init__(self)
        _Types.__init__(self)
        _Loops.__init__(self)

    # -- values -----------------------------------------------------------

    def materialize(self, x, like=None):
        if isinstance(x, Value):
            return x
        if _is_number(x):
            if isinstance(x, (bool, _np.bool_)):
                return _adj.scalar(self.module, float(x), DType.i1)
            if isinstance(x, (int, _np.integer)) and like is None:
                return _adj.scalar(self.module, _exact_int(x), DType.i64)
            dtype = like.dtype if like is not None else self.float_dtype
            if _number_kind(x) == _COMPLEX:
                dtype = self.weak_dtype(_COMPLEX, dtype)
            if dtype.is_complex:
                return _adj.scalar(self.module, complex(x), dtype)
            exact = _is_integer(x) and not dtype.is_float
            return _adj.scalar(self.module,
                               _exact_int(x) if exact else float(x), dtype)
        if isinstance(x, _np.ndarray):
            return self.constant(x)
        if callable(x) or isinstance(x, _InlineFn):
            raise TypeError(
                "a function cannot be a tensor value here: function values "
                "must be known while the program is built (they cannot be "
                "returned from a compiled function, carried by a loop or "
                "chosen by a tensor condition)")
        raise TypeError("a %s cannot be a value of the program"
                        % type(x).__name__)

    def constant(self, array):
        """A numpy array of the jitted code (a global, a closure cell) as an
        adj.constant; floating arrays take the program's float dtype, like
        Python floats."""
        a = _np.asarray(array)
        if a.dtype.kind == "f":
            dtype = self.float_dtype
        elif a.dtype.kind == "b":
            dtype = DType.i1
        elif a.dtype.kind in "iu":
            dtype = DType.i64 if a.dtype.itemsize == 8 else DType.i32
        elif a.dtype.kind == "c":
            dtype = self.default_dtype(_COMPLEX)
        else:
            raise TypeError("a numpy array of dtype %s cannot be a value of "
                            "the program" % a.dtype)
        # Integers stay int64 (exact), floats go through float64.
        data = a.astype(_np.int64 if a.dtype.kind in "iub" else
                        _np.complex128 if a.dtype.kind == "c" else _np.float64)
        return _adj.constant(self.module, data, list(a.shape), dtype)

    def leaves(self, x, node, frame):
        leaves = []
        tree = _flatten(x, leaves)
        try:
            return tree, [self.materialize(l) for l in leaves]
        except TypeError as e:
            raise frame.error(str(e), node)

    # -- calls ------------------------------------------------------------

    def call(self, fn, args, kwargs, node, frame):
        while isinstance(fn, Jitted):
            fn = fn.fn
        if runs_at_build_time(fn):  # custom_vjp(f), f.defvjp(fwd, bwd), ...
            return fn(*args, **kwargs)
        if hasattr(fn, "_adjoint_build"):  # AD transforms, pullbacks
            return fn._adjoint_build(self, list(args), kwargs, node, frame)
        if isinstance(fn, functools.partial):
            return self.call(fn.func, list(fn.args) + list(args),
                             {**fn.keywords, **kwargs}, node, frame)
        if numpy_name(fn) is not None or scipy_mapped(fn) is not None:
            return self.call_numpy(fn, args, kwargs, node, frame)
        if self.is_python_function(fn):
            return self.call_function(fn, list(args), kwargs, node, frame)
        # Methods and callable objects of user classes: `self` is a static
        # argument (its array attributes become constants).
        if inspect.ismethod(fn) and self.is_python_function(fn.__func__):
            return self.call_function(fn.__func__, [fn.__self__] + list(args),
                                      kwargs, node, frame)
        call = getattr(type(fn), "__call__", None)
        if not isinstance(fn, type) and self.is_python_function(call):
            return self.call_function(call, [fn] + list(args), kwargs, node,
                                      frame)
        if fn is range:
            if any(isinstance(a, Value) for a in args):
                return _TracedRange(args)
            return range(*args)
        if fn is divmod and len(args) == 2 and not kwargs:
            # Promoted as the // and % operators are.
            return (self.binop(operator.floordiv, *args),
                    self.binop(operator.mod, *args))
        if is_iteration_call(fn, args):  # over tensors, ranges (_iteration)
            return iteration_builtin(fn, args, kwargs)
        if fn is len and len(args) == 1 and isinstance(args[0], Value) \
                and args[0].type.is_tensor:
            if args[0].rank == 0:
                raise TypeError("len() of a rank-0 tensor")
            return args[0].shape[0]
        if isinstance(fn, Value):
            return fn(*[self.materialize(a) for a in args])
        self.check_mutation(fn, node, frame)  # ys.append(h) in a loop
        if calls_back(fn):
            # A library function (jax.tree_util.tree_map, sorted, map): the
            # functions it is given call back into the translation.
            args, kwargs = host_arguments(self, args, kwargs, node, frame)
        return fn(*args, **kwargs)

    def call_numpy(self, fn, args, kwargs, node, frame):
        """numpy's functions run as they are (never translated from their
        source), as adjoint.numpy's on traced arrays (_numpy_calls)."""
        resolved = resolve_numpy(fn, args, kwargs, node, frame)
        if resolved is not fn and hasattr(resolved, "_adjoint_build"):
            # It calls functions of the program (np.apply_along_axis).
            return resolved._adjoint_build(self, list(args), kwargs, node,
                                           frame)
        result = resolved(*args, **kwargs)
        if resolved is fn and isinstance(result, _np.ndarray):
            # numpy run on Python values: its array is a constant.
            return self.host(result)
        return result

    @staticmethod
    def is_python_function(fn):
        """User code, translated from its source (adjoint's own Python
        functions, such as the tensor functions, and those of host
        libraries (_host_calls) run as they are)."""
        if isinstance(fn, _InlineFn):
            return True
        if not inspect.isfunction(fn) or runs_on_host(fn):
            return False
        mod = getattr(fn, "__module__", "") or ""
        return not (mod == "adjoint" or mod.startswith("adjoint."))
