"""Neural-network functions under jax.nn's names and defaults:
``adjoint.nn.gelu(x)`` is JAX's tanh approximation (as jax.nn.gelu's
default approximate=True), while the builder's ``adjoint.gelu`` is the
exact erf form.
"""

import math

from . import _adjoint as _adj
from ._eager import eager as _eager
from ._np_elementwise import float_function as _float_function
from ._np_support import as_value as _as_value, float_dtype as _float_dtype
from .numpy import logsumexp  # noqa: F401

relu, sigmoid, softmax, log_softmax = (
    _eager(getattr(_adj, n)) for n in ("relu", "sigmoid", "softmax",
                                       "log_softmax"))

__all__ = ["gelu", "logsumexp", "relu", "sigmoid", "softmax", "log_softmax"]

_exact_gelu = _float_function(_adj.gelu, "gelu")


@_eager
def gelu(x, approximate=True):
    """x * Phi(x); with `approximate`, Phi through tanh as in the GPT-2 and
    BERT code (and jax.nn.gelu's default)."""
    if not approximate:
        return _exact_gelu(x)
    x = _as_value(x, "gelu")
    if not x.dtype.is_float:
        x = _adj.cast(x, _float_dtype())
    inner = (x + x * x * x * 0.044715) * math.sqrt(2.0 / math.pi)
    return x * 0.5 * (_adj.tanh(inner) + 1.0)
