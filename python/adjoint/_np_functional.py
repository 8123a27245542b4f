"""numpy's functions that apply the user's functions, in jitted code:
apply_along_axis (the function vmapped over every 1-D slice),
apply_over_axes (applied once per axis) and piecewise (every function
evaluated on the whole array, the results chosen by the conditions).

They call functions of the jitted program, which the translator calls at
the user's line: each is a function with an `_adjoint_build(tr, args,
kwargs, node, frame)` attribute, which the translator uses for numpy's
function (and which the eager wrapper carries over). apply_along_axis
vmaps, so this module is above the translator and the transforms (and
only adjoint.numpy imports it).
"""

import functools

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_support import as_value, cast_to, normalize_axis, size, truth
from ._vmap import vmap


def _with_build(build):
    """A function of numpy's signature whose calls in jitted code go to
    `build(call, *args, **kwargs)`, `call(fn, *args, **kwargs)` calling a
    function of the program at the user's line."""
    def function(*args, **kwargs):
        raise TypeError("adjoint.numpy.%s calls functions of the program: "
                        "use it inside an @adjoint.jit function"
                        % build.__name__)

    def adjoint_build(tr, args, kwargs, node, frame):
        def call(fn, *a, **kw):
            return tr.call(fn, list(a), kw, node, frame)
        return build(call, *args, **kwargs)

    function.__name__ = function.__qualname__ = build.__name__
    function.__doc__ = build.__doc__
    function._adjoint_build = adjoint_build
    return function


def _apply_along_axis(call, func1d, axis, arr, *args, **kwargs):
    """func1d applied to every 1-D slice along `axis` (vmapped over the
    others); its result's dimensions replace `axis`, as numpy."""
    x = as_value(arr, "apply_along_axis")
    ax = normalize_axis(axis, x.rank, "apply_along_axis")
    batch = [d for i, d in enumerate(x.shape) if i != ax]
    rows = _adj.transpose(x, [i for i in range(x.rank) if i != ax] + [ax])
    rows = _adj.reshape(rows, [size(batch), x.shape[ax]])
    fn = functools.partial(func1d, **kwargs) if kwargs else func1d
    out = call(vmap(fn, in_axes=(0,) + (None,) * len(args)), rows, *args)
    out = as_value(out, "apply_along_axis")
    inner = list(out.shape[1:])
    out = _adj.reshape(out, batch + inner)
    if inner and ax != len(batch):
        k = len(batch)
        perm = list(range(ax)) + list(range(k, k + len(inner))) + \
            list(range(ax, k))
        out = _adj.transpose(out, perm)
    return out


_apply_along_axis.__name__ = "apply_along_axis"
apply_along_axis = _with_build(_apply_along_axis)


def _apply_over_axes(call, func, a, axes):
    """func(a, axis) for each axis in turn, a result one dimension short
    getting the axis back (size 1)."""
    x = as_value(a, "apply_over_axes")
    for axis in [axes] if isinstance(axes, int) else list(axes):
        ax = normalize_axis(axis, x.rank, "apply_over_axes")
        res = as_value(call(func, x, axis), "apply_over_axes")
        if res.rank == x.rank - 1:
            shape = list(res.shape)
            shape.insert(ax, 1)
            res = _adj.reshape(res, shape)
        elif res.rank != x.rank:
            raise ValueError("adjoint.numpy.apply_over_axes: function is "
                             "not returning an array of the correct shape")
        x = res
    return x


_apply_over_axes.__name__ = "apply_over_axes"
apply_over_axes = _with_build(_apply_over_axes)


def _piecewise(call, x, condlist, funclist, *args, **kw):
    """funclist[i](x) where condlist[i] holds (a later condition over an
    earlier one), funclist[n] (or a number) where none holds, else 0;
    x's dtype."""
    x = as_value(x, "piecewise")
    # numpy's rule: conditions whose items are not arrays are one
    # condition (a boolean array of x's shape, for a 1-D x).
    if isinstance(condlist, Value):
        if condlist.rank <= 1 or x.rank == 0:
            condlist = [condlist]
    elif not isinstance(condlist, (list, tuple)) or x.rank != 0 and \
            condlist and not isinstance(condlist[0], (list, tuple, Value,
                                                      _np.ndarray)):
        condlist = [condlist]
    if isinstance(condlist, Value):
        condlist = [_adj.reshape(_adj.slice(
            condlist, [i] + [0] * x.rank, [i + 1] + list(x.shape)),
            list(x.shape)) for i in range(condlist.shape[0])]
    conds = [_bool(c, x) for c in condlist]
    funcs = list(funclist)
    if len(funcs) not in (len(conds), len(conds) + 1):
        raise ValueError("adjoint.numpy.piecewise: with %d condition(s), "
                         "either %d or %d functions are expected"
                         % (len(conds), len(conds), len(conds) + 1))
    if len(funcs) == len(conds) + 1:
        some = conds[0]
        for c in conds[1:]:
            some = _adj.select(some, some, c)
        conds.append(_adj.cast(some, DType.i32) == 0.0)
    y = _adj.broadcast_to(_adj.fill(x.module, 0.0, [], x.dtype),
                          list(x.shape))
    for c, f in zip(conds, funcs):
        value = f if _is_constant(f) else call(f, x, *args, **kw)
        value = cast_to(as_value(value, "piecewise", like=x), x.dtype)
        y = _adj.select(c, value, y)
    return y


def _is_constant(f):
    """A number or array in funclist (the program's functions, lambdas
    included, are called)."""
    return isinstance(f, (bool, int, float, _np.generic, _np.ndarray,
                          Value, list, tuple))


def _bool(c, x):
    c = truth(as_value(c, "piecewise"))
    c = c if c.dtype == DType.i1 else c != 0.0
    return _adj.broadcast_to(c, list(x.shape)) \
        if list(c.shape) != list(x.shape) else c


_piecewise.__name__ = "piecewise"
piecewise = _with_build(_piecewise)
