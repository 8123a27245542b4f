"""Adjoint from Python: build adj programs, run pass pipelines, compile and run.

Everything here is the C++ API exposed by the ``_adjoint`` extension (the
bindings hold no logic); see docs/python.md. A small example::

    import numpy as np
    import adjoint as adj

    m = adj.Module()
    x3 = adj.Type.tensor(adj.f32, [3])
    m.function("f", [x3], lambda x: adj.sum(adj.exp(x) * 2.0))
    df = m.function("df", [x3], lambda x: adj.grad(m.lookup("f"))(x))
    exe = adj.compile(m, "df")
    exe(np.ones(3, np.float32))  # -> 2 * e, three times
"""

from . import _cuda_libraries
_cuda_libraries.point_runtime_at_wheels()
from . import _adjoint  # noqa: E402
from ._adjoint import *  # noqa: F401,F403
from ._adjoint import Error, DType, Type, Module, Function, Value, Tensor
from ._adjoint import Device, devices, device, device_put  # noqa: F401

from . import frontend, numpy  # noqa: F401
from . import random, nn  # noqa: F401,E402
from . import tree_util, tree, flatten_util  # noqa: F401,E402
from . import _numpy_calls, _np_rounding, _arrays, _donation
from ._arrays import Array, block_until_ready  # noqa: F401
from ._donation import to_numpy  # noqa: F401
from .frontend import jit, FrontendError, JitFunction  # noqa: F401
from ._transforms import grad, value_and_grad, jvp, vjp  # noqa: F401
from ._jacobians import jacfwd, jacrev, hessian  # noqa: F401
from ._vmap import vmap  # noqa: F401
from ._eager import eager as _compiled_on_numpy
from ._custom import (stop_gradient, custom_vjp, custom_jvp,  # noqa: F401
                      checkpoint, remat)
# compile() with the matmul precision in effect, over the extension's.
from ._precision import (compile, set_matmul_precision,  # noqa: F401
                         get_matmul_precision, matmul_precision)

__all__ = [name for name in dir(_adjoint) if not name.startswith("_")] + [
    "jit", "grad", "value_and_grad", "jvp", "vjp", "hessian", "jacfwd",
    "jacrev", "stop_gradient", "custom_vjp", "custom_jvp", "checkpoint",
    "remat",
    "FrontendError", "JitFunction", "numpy", "set_matmul_precision",
    "get_matmul_precision", "matmul_precision", "vmap", "random",
    "tree_util", "tree", "flatten_util", "nn", "Array", "block_until_ready"]

_numpy_calls.install(Value)
from . import _tensor  # noqa: E402
_tensor.install()
_donation.install()


def _run_eagerly_on_numpy():
    """The tensor functions, called on numpy arrays outside jitted code,
    run compiled and return numpy arrays (_eager)."""
    for name in ("abs", "exp", "log", "tanh", "sigmoid", "relu", "sqrt",
                 "rsqrt", "sign", "sin", "cos", "erf", "gelu", "neg",
                 "softmax", "log_softmax", "sum", "mean", "max", "transpose",
                 "matmul", "maximum", "minimum", "layer_norm",
                 "cross_entropy", "linear", "conv2d", "max_pool2d",
                 "avg_pool2d", "reshape", "broadcast_to", "cast", "pow",
                 "add", "sub", "mul", "div", "select", "concat", "reverse",
                 "pad", "slice"):
        globals()[name] = _compiled_on_numpy(getattr(_adjoint, name))


_run_eagerly_on_numpy()
_np_rounding.install(Value)

#: The element types, also reachable as adjoint.DType.<name>.
f64, f32, f16, bf16 = DType.f64, DType.f32, DType.f16, DType.bf16
i64, i32, i1 = DType.i64, DType.i32, DType.i1


def tensor_type(dtype, shape):
    """``Type.tensor(dtype, shape)``."""
    return Type.tensor(dtype, list(shape))
