"""Donated arguments of ``jit(donate_argnums=..., donate_argnames=...)``.

Donating an argument hands its buffer to the call: an output of the same
dtype and shape is computed into it (the compiler's -adj-reuse-donated; the
output then is that memory, neither allocated nor copied), and the caller
must not use it again. As in JAX, a donated ``adjoint.Tensor`` is marked
deleted after the call: passing it to a jitted function, reading it
(``numpy()``, ``np.asarray``, ``to_numpy``, DLPack) or moving it (``to``)
raises ``RuntimeError`` naming it.

Only ``adjoint.Tensor`` leaves are donated (device arrays: results of GPU
code, ``device_put``). numpy arrays, ``adjoint.Array`` CPU results
included, are never donated: they are the caller's, cannot be marked
deleted, and views of them (``w[:, 0]``, which JAX would have copied) would
silently change; JAX likewise copies numpy arguments and ignores their
donation. A Tensor that borrows caller memory, is read-only, or shares
memory with another argument is copied by the runtime before the call
writes it.
"""

import weakref

from . import _adjoint as _adj
from ._adjoint import Tensor

__all__ = ["check_alive", "delete"]

# Tensors donated to a call, by identity (tensors are unhashable, as numpy
# arrays): id -> a weak reference whose callback forgets the id when the
# tensor dies, so that a new tensor at the same address is not deleted.
_DELETED = {}


def delete(tensor):
    """Marks `tensor` deleted (JAX's ``Array.delete``)."""
    key = id(tensor)
    _DELETED[key] = weakref.ref(tensor, lambda _: _DELETED.pop(key, None))


def is_deleted(tensor):
    """Whether `tensor` was donated (JAX's ``Array.is_deleted``)."""
    ref = _DELETED.get(id(tensor))
    return ref is not None and ref() is tensor


def check_alive(tensor, what="adjoint.Tensor"):
    if _DELETED and is_deleted(tensor):
        raise RuntimeError(
            "%s %s has been deleted: it was donated to a jitted function "
            "(donate_argnums/donate_argnames), whose outputs may reuse its "
            "buffer; use the call's result instead"
            % (what, tensor.__str__()))


def _guarded(method):
    def call(*args, **kwargs):
        if args and type(args[0]) is Tensor:
            check_alive(args[0])
        return method(*args, **kwargs)
    call.__name__ = method.__name__
    call.__doc__ = method.__doc__
    return call


def install():
    """Adds ``delete()`` and ``is_deleted()`` to adjoint.Tensor and makes
    its readers refuse a deleted tensor (as _numpy_calls.install adds
    numpy's methods to Value). The buffer protocol (memoryview of a host
    tensor) is not guarded: its memory stays valid, it only holds what the
    call that reused it wrote."""
    Tensor.delete = delete
    Tensor.is_deleted = is_deleted
    for name in ("numpy", "__array__", "to", "__dlpack__"):
        setattr(Tensor, name, _guarded(getattr(Tensor, name)))


def to_numpy(x):
    """``adjoint.to_numpy`` refusing a deleted tensor."""
    if type(x) is Tensor:
        check_alive(x)
    return _adj.to_numpy(x)


to_numpy.__doc__ = _adj.to_numpy.__doc__
