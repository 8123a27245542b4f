"""Library functions that jitted code calls as they are, at build time.

User code is translated from its source, but the standard library and the
pytree utilities of JAX and optree are library code written for any Python
object: translating them would meet statements the front end does not take
(try, raise, yield) for no gain. They run on the build-time values
(Values are leaves to them: jax.tree_util treats unknown objects as leaves),
and the user functions passed to them (``jax.tree_util.tree_map(lambda
...)``, ``dataclasses.replace``'s callbacks, ``sorted(key=...)``) are called
back through the translator, so that their bodies are translated as usual.
"""

import functools
import os
import sysconfig

#: Top-level packages whose Python functions run at build time, besides
#: the standard library.
_HOST_PACKAGES = ("jax", "optree")
_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep


@functools.lru_cache(maxsize=None)
def _in_stdlib(filename):
    # By the file, not the module name: a user's package may be named like
    # a standard module ("test", "types").
    path = os.path.realpath(filename)
    return path.startswith(_STDLIB) and "-packages" + os.sep not in path


def runs_on_host(fn):
    """Whether `fn` (a Python function) belongs to a host library."""
    mod = getattr(fn, "__module__", None) or ""
    if mod.split(".", 1)[0] in _HOST_PACKAGES:
        return True
    code = getattr(fn, "__code__", None)
    return code is not None and _in_stdlib(code.co_filename)


class _Callback:
    """A function of the jitted code as the host library sees it: a Python
    callable whose calls are translated."""

    def __init__(self, tr, fn, node, frame):
        self._tr, self._fn = tr, fn
        self._node, self._frame = node, frame

    def __call__(self, *args, **kwargs):
        return self._tr.call(self._fn, list(args), kwargs, self._node,
                             self._frame)


def host_arguments(tr, args, kwargs, node, frame):
    """`args` and `kwargs` with the functions that must be translated
    wrapped as _Callback."""
    def wrap(a):
        if tr.is_python_function(a) or hasattr(a, "_adjoint_build"):
            return _Callback(tr, a, node, frame)
        return a

    return [wrap(a) for a in args], {k: wrap(v) for k, v in kwargs.items()}
