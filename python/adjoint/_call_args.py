"""JAX's ways of naming the arguments of a call: ``argnums`` of the
transforms (an int or any sequence of ints, negative ones counted from the
end, positional arguments only) and the static or donated arguments of
``jit``, by position and by name (each completed from the other through the
function's signature, as jax.jit does)."""

import inspect
import operator

__all__ = ["argnums_spec", "positions", "ArgSpec"]


def argnums_spec(argnums, what="argnums"):
    """`argnums` as a transform keeps it: an int, or a tuple of ints made
    from any sequence (a list is hashable then, for the compile cache).
    Anything else is a TypeError now rather than at the first call."""
    try:
        return operator.index(argnums)
    except TypeError:
        pass
    if isinstance(argnums, (str, bytes)):
        items = None
    else:
        try:
            items = tuple(argnums)
        except TypeError:
            items = None
    if items is None:
        raise TypeError("%s must be an int or a sequence of ints, not %r"
                        % (what, argnums))
    out = []
    for i in items:
        try:
            out.append(operator.index(i))
        except TypeError:
            raise TypeError("%s must be an int or a sequence of ints, not %r"
                            % (what, argnums)) from None
    return tuple(out)


def positions(argnums, nargs, what="argnums"):
    """(the positions `argnums` names among `nargs` positional arguments,
    whether it is a single int). JAX's errors: a position past the
    arguments is a TypeError (the caller passed too few), a negative one
    before the first a ValueError; so are an empty or repeated argnums."""
    single = not isinstance(argnums, tuple)
    nums = (argnums,) if single else argnums
    if not nums:
        raise ValueError("%s is empty: name at least one positional "
                         "argument to differentiate" % what)
    out = []
    for i in nums:
        if i >= nargs:
            raise TypeError(
                "differentiating with respect to %s=%r requires at least %d "
                "positional arguments to be passed by the caller, but got "
                "only %d (keyword arguments are never differentiated)"
                % (what, argnums, i + 1, nargs))
        if i < -nargs:
            raise ValueError(
                "%s=%r: negative positions count from the end and must be "
                "at least -%d for %d positional arguments"
                % (what, argnums, nargs, nargs))
        p = i % nargs
        if p in out:
            raise ValueError("%s=%r names the positional argument %d twice"
                             % (what, argnums, p))
        out.append(p)
    return tuple(out), single


def _names(names, what):
    if isinstance(names, str):
        return (names,)
    names = tuple(names)
    for n in names:
        if not isinstance(n, str):
            raise TypeError("%s must be a string or a sequence of strings, "
                            "not %r" % (what, names))
    return names


class ArgSpec:
    """Arguments of a jitted function chosen by position (`nums`) and by
    name (`names`), as jax.jit's static_argnums/static_argnames and
    donate_argnums/donate_argnames: a name that is a positional parameter
    adds its position and a position adds its name, so that an argument
    counts whether it is passed by position or by keyword (a negative
    position counts from the end of a call's positional arguments). A name the
    function does not take, or a position past its positional parameters,
    is a ValueError (unless it takes ``**kwargs`` or ``*args``)."""

    def __init__(self, fn, nums, names, kind):
        nums = argnums_spec(nums, kind + "_argnums")
        nums = (nums,) if isinstance(nums, int) else nums
        names = _names(names, kind + "_argnames")
        params = None  # no signature (or nothing chosen): taken as given
        if nums or names:
            try:
                params = list(inspect.signature(fn).parameters.values())
            except (TypeError, ValueError):
                pass
        if params is not None:
            P = inspect.Parameter
            positional = [p.name for p in params if p.kind in
                          (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
            keyword = {p.name for p in params if p.kind in
                       (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)}
            var_pos = any(p.kind == P.VAR_POSITIONAL for p in params)
            var_kw = any(p.kind == P.VAR_KEYWORD for p in params)
            bad = [n for n in names if n not in keyword]
            if bad and not var_kw:
                raise ValueError(
                    "jit: %s_argnames names %s, which %s does not take"
                    % (kind, ", ".join(repr(n) for n in bad),
                       getattr(fn, "__name__", "the function")))
            n = len(positional)
            for i in nums:
                if (i >= n or i < -n) and not var_pos:
                    raise ValueError(
                        "jit: %s_argnums=%r, but the function takes only %d "
                        "positional arguments" % (kind, nums, n))
            # A negative position counts from the end of each call's
            # positional arguments (as in JAX), so it has no name.
            names = tuple(dict.fromkeys(
                names + tuple(positional[i] for i in nums if 0 <= i < n)))
            nums = tuple(sorted(set(nums) | {positional.index(m) for m in
                                             names if m in positional}))
        self.nums = tuple(nums)
        self.names = tuple(names)
        self._nums = frozenset(self.nums)
        self._names = frozenset(self.names)

    def __bool__(self):
        return bool(self.nums or self.names)

    def at(self, i, nargs):
        """Whether positional argument i (of nargs) is chosen; negative
        positions count from the end of the call's arguments."""
        return i in self._nums or (i - nargs) in self._nums

    def named(self, name):
        return name in self._names
