"""Matmul precision: whether f32 products on NVIDIA GPUs may use TensorFloat-32.

``"highest"`` (the default) keeps f32 matmuls exact f32; ``"tf32"`` lets
them round their inputs to TF32 (10-bit mantissas, f32 range, f32
accumulation), which tensor cores run several times faster. The same
switch as ``torch.backends.cuda.matmul.allow_tf32`` and
``jax.default_matmul_precision``: a benchmark sets the same one in every
framework. It changes code compiled for ``cuda`` only (the target gets the
feature ``+tf32``); on the CPU, OpenCL and Level Zero f32 stays f32.
"""

import contextlib
import contextvars

from . import _adjoint

_CHOICES = ("highest", "tf32")
_default = "highest"
# Set inside `with matmul_precision(...)`, per thread and async task.
_scoped = contextvars.ContextVar("adjoint_matmul_precision", default=None)


def _check(precision):
    if precision not in _CHOICES:
        raise ValueError(
            "adjoint: matmul precision %r: expected one of %s" %
            (precision, ", ".join(repr(c) for c in _CHOICES)))
    return precision


def set_matmul_precision(precision):
    """Sets the precision of f32 matmuls compiled from now on, outside any
    ``with matmul_precision(...)``: ``"highest"`` (exact f32, the default)
    or ``"tf32"`` (TensorFloat-32 on cuda; no effect on other devices)."""
    global _default
    _default = _check(precision)


def get_matmul_precision():
    """The precision in effect: the innermost ``matmul_precision`` block's,
    else the one set_matmul_precision set."""
    scoped = _scoped.get()
    return _default if scoped is None else scoped


@contextlib.contextmanager
def matmul_precision(precision):
    """``with adjoint.matmul_precision("tf32"): ...`` compiles the f32
    matmuls of the block's jit calls and compile() calls for cuda with
    TF32; the precision before it comes back after the block."""
    token = _scoped.set(_check(precision))
    try:
        yield
    finally:
        _scoped.reset(token)


def target_for(target):
    """`target` ("cuda", "cuda:sm_90", "cpu", ...) with the features the
    precision in effect adds: ``+tf32`` for a cuda target under "tf32"
    (unless the target names tf32 itself); other targets unchanged."""
    kind = target.split(",", 1)[0].split(":", 1)[0]
    if kind != "cuda" or get_matmul_precision() != "tf32":
        return target
    features = target.split(",")[1:]
    if any(f.strip()[1:] == "tf32" for f in features):
        return target
    return target + ",+tf32"


def compile(module, function, *, target="cpu", optimize=True,  # noqa: A001
            opt_level=3, cache=True, cache_dir=""):
    return _adjoint.compile(module, function, target=target_for(target),
                            optimize=optimize, opt_level=opt_level,
                            cache=cache, cache_dir=cache_dir)


compile.__doc__ = _adjoint.compile.__doc__ + (
    "\n\nOn cuda, f32 matmuls use TF32 when the matmul precision in effect "
    "is \"tf32\" (adjoint.set_matmul_precision, adjoint.matmul_precision); "
    "Executable.target says what was compiled.")
