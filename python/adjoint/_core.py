"""What the translator and the layers above it (the frontend's jit, the
transforms, custom rules) share without importing one another: the base
class of jitted functions and the registry of functions that jitted code
calls as Python while the program is built. The translator imports this
module, never the layers that fill it."""

_AT_BUILD_TIME = set()


class Jitted:
    """A function compiled per signature when called from Python
    (frontend.JitFunction). Jitted code calls the Python function it wraps,
    `fn`, directly."""

    __slots__ = ()


def at_build_time(fn):
    """Registers `fn` (a decorator of custom rules, or a rule-defining
    method such as defvjp) as one that jitted code calls as Python while it
    is built, since it only records functions. Returns `fn`, so it is a
    decorator too."""
    _AT_BUILD_TIME.add(fn)
    return fn


def runs_at_build_time(fn):
    """Whether jitted code calls `fn` as Python while it is built: a
    registered function, or a method bound from one."""
    try:
        return getattr(fn, "__func__", fn) in _AT_BUILD_TIME
    except TypeError:  # unhashable: not a function
        return False
