"""numpy.vectorize (jax.numpy.vectorize): a Python function of scalars (or,
with `signature`, of arrays with core dimensions) applied over the
broadcast leading dimensions of its arguments, through adjoint.vmap, so
the function is traced once and batched, never looped in Python.

The arguments' loop dimensions broadcast together and are flattened into
one mapped axis (vmap's), and the results are reshaped back. `excluded`
positions and names are passed as they are; keyword arguments are passed
unmapped (as JAX does for the keywords it is given). A numpy.vectorize
object made outside jitted code (``@np.vectorize`` on a function) is
mapped the same way when jitted code calls it on traced arrays
(_numpy_calls makes the same vectorize of its function).

Being built on vmap, this module is above the translator and the
transforms (and only adjoint.numpy imports it).
"""

import functools
import re

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import Value
from ._np_support import _TRANSLATOR, as_value
from ._vmap import _Vmap, vmap

_DIMS = r"\(\s*(?:\w+(?:\s*,\s*\w+)*)?\s*\)"
_SIGNATURE = re.compile(r"^%s(?:\s*,\s*%s)*\s*->\s*%s(?:\s*,\s*%s)*$"
                        % ((_DIMS,) * 4))


def _parse(signature):
    """'(m,n),(n)->(m)' as ([('m', 'n'), ('n',)], [('m',)])."""
    if not _SIGNATURE.match(signature):
        raise ValueError("adjoint.numpy.vectorize: not a valid gufunc "
                         "signature: %r" % signature)
    ins, outs = signature.split("->")

    def groups(text):
        return [tuple(d.strip() for d in g.split(",") if d.strip())
                for g in re.findall(r"\(([^)]*)\)", text)]
    return groups(ins), groups(outs)


def vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False,
              signature=None):
    """numpy.vectorize: a callable that maps pyfunc over the arguments'
    broadcast dimensions (otypes and cache are accepted and have no
    effect: dtypes come from pyfunc's results)."""
    return _Vectorized(pyfunc, doc, excluded, signature)


class _Vectorized:
    """The function numpy.vectorize returns (a value of the jitted code
    whose calls build, with the call's position for vmap's errors)."""

    def __init__(self, pyfunc, doc, excluded, signature):
        self.pyfunc = pyfunc
        self.excluded = set(excluded or ())
        self.signature = None if signature is None else _parse(signature)
        self.__doc__ = doc if doc is not None else getattr(
            pyfunc, "__doc__", None)

    # In jitted code: vmap's own build, at the user's call.
    def _adjoint_build(self, tr, args, kwargs, node, frame):
        def mapped(fn, in_axes, values):
            return _Vmap(fn, in_axes, 0)._adjoint_build(
                tr, list(values), {}, node, frame)
        return self._apply(args, kwargs, mapped)

    # From Python, on numpy arrays: adjoint.vmap compiles.
    def __call__(self, *args, **kwargs):
        return self._apply(args, kwargs, lambda fn, in_axes, values: vmap(
            fn, in_axes)(*values))

    def _apply(self, args, kwargs, mapped):
        traced = _TRANSLATOR.get() is not None
        cores_in, cores_out = self.signature or (None, None)
        positions = [i for i in range(len(args)) if i not in self.excluded]
        if cores_in is not None and len(cores_in) != len(positions):
            raise TypeError("adjoint.numpy.vectorize: the signature has %d "
                            "inputs, the call %d" % (len(cores_in),
                                                      len(positions)))
        arrays = {i: as_value(args[i], "vectorize") if traced
                  else _np.asarray(args[i]) for i in positions}
        sizes, loops = {}, []
        for k, i in enumerate(positions):
            shape = tuple(arrays[i].shape)
            core = cores_in[k] if cores_in is not None else ()
            if len(shape) < len(core):
                raise ValueError("adjoint.numpy.vectorize: argument %d has "
                                 "%d dimensions, its core signature %d"
                                 % (i, len(shape), len(core)))
            for name, d in zip(core, shape[len(shape) - len(core):]):
                if sizes.setdefault(name, d) != d:
                    raise ValueError("adjoint.numpy.vectorize: dimension "
                                     "%r is %d and %d" % (name,
                                                          sizes[name], d))
            loops.append(shape[:len(shape) - len(core)])
        loop = tuple(_np.broadcast_shapes(*loops)) if loops else ()
        n = int(_np.prod(loop, dtype=_np.int64))
        values, in_axes = list(args), [None] * len(args)
        for k, i in enumerate(positions):
            core = tuple(arrays[i].shape)[len(loops[k]):]
            values[i] = _reshape(_broadcast(arrays[i], loop + core),
                                 (n,) + core)
            in_axes[i] = 0
        fn = functools.partial(self.pyfunc, **kwargs) if kwargs \
            else self.pyfunc
        out = mapped(fn, tuple(in_axes), values)
        many = isinstance(out, (tuple, list))
        outs = list(out) if many else [out]
        if cores_out is not None and len(cores_out) != len(outs):
            raise ValueError("adjoint.numpy.vectorize: the signature has %d "
                             "outputs, the function returned %d"
                             % (len(cores_out), len(outs)))
        shaped = [_reshape(o, loop + tuple(o.shape)[1:]) for o in outs]
        return tuple(shaped) if many else shaped[0]


def _broadcast(x, shape):
    if isinstance(x, Value):
        return x if tuple(x.shape) == shape else _adj.broadcast_to(
            x, list(shape))
    return _np.broadcast_to(x, shape)


def _reshape(x, shape):
    if isinstance(x, Value):
        return x if tuple(x.shape) == tuple(shape) else _adj.reshape(
            x, list(shape))
    return _np.reshape(_np.asarray(x), shape)
