"""``adjoint.Array``, what compiled code returns on the CPU, and
``block_until_ready``.

Results of jit, grad, vmap, ... called from Python are numpy arrays over the
runtime's buffers on the CPU and ``adjoint.Tensor`` device arrays on GPUs.
Code written for JAX ends a timed step with ``y.block_until_ready()``, so
CPU results are a thin ndarray subclass that has that method (the call has
finished when it returns: it is the identity). Anything numpy derives from
one (``y + 1``, ``np.exp(y)``) is a plain ndarray again, so the subclass
does not spread through user code; passed back to a jitted function it
takes the quick path like an ndarray. Device tensors have the method too
(_tensor): it waits for their device's queue.
"""

import itertools

import numpy as _np

__all__ = ["Array", "block_until_ready"]


class Array(_np.ndarray):
    """A numpy array returned by compiled code on the CPU (it is an
    ``np.ndarray`` in every respect), with JAX's ``block_until_ready``."""

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        # Made by compiled code only, as jax.Array (views and copies of one
        # are made by numpy without calling this).
        raise TypeError(
            "adjoint.Array() cannot be constructed%s: compiled code returns "
            "them; make arguments with numpy" %
            (" (unexpected keyword argument '%s')" % next(iter(kwargs))
             if kwargs else ""))

    def block_until_ready(self):
        """Returns the array: CPU results are complete when the call that
        made them returns."""
        return self

    def __array_wrap__(self, array, context=None, return_scalar=False):
        # numpy's results computed from an Array are plain arrays (views,
        # such as y[0] or y.T, stay Arrays: they are the same buffer).
        if return_scalar:
            return array[()]
        return array if type(array) is _np.ndarray else \
            array.view(_np.ndarray)


_view = _np.ndarray.view
_ARRAYS = itertools.repeat(Array)


def host_results(out):
    """The outputs of an Executable on the CPU (an ndarray or a tuple of
    them) as a list of Arrays (map: no Python frame per output)."""
    if type(out) is tuple:
        return list(map(_view, out, _ARRAYS))
    return [_view(out, Array)]


def results(out):
    """Outputs of an Executable on any device as a list: ndarrays become
    Arrays, device tensors stay."""
    out = out if type(out) is tuple else (out,)
    return [_view(a, Array) if type(a) is _np.ndarray else a for a in out]


def block_until_ready(x):
    """Waits until every array of the pytree `x` is computed and returns
    `x` (JAX's ``jax.block_until_ready``): device tensors wait for their
    device, CPU results are ready already; leaves that are not arrays are
    left alone."""
    if isinstance(x, (tuple, list)):
        for e in x:
            block_until_ready(e)
    elif isinstance(x, dict):
        for e in x.values():
            block_until_ready(e)
    else:
        wait = getattr(x, "block_until_ready", None)
        if callable(wait):
            wait()
    return x

