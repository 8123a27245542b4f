"""The registry of adjoint.numpy: the functions numpy and jax.numpy have,
which of them adjoint.numpy implements (under every spelling), in which
family module, and why the others are missing.

docs/python.md's table of numpy functions is generated from it
(``python3 -m adjoint._np_registry`` prints the table;
scripts/update-numpy-table.py writes it between the markers in
docs/python.md), and test/python/test_numpy_registry.py keeps the registry,
adjoint.numpy and the document in agreement: a function added to a family
module and to adjoint.numpy shows up in the table, and a name of jax.numpy
that is neither implemented nor explained fails the test.
"""

import adjoint.numpy as _anp

#: jax.numpy's public functions (jax 0.10.2): the set adjoint.numpy covers.
#: Frozen here, so that the table does not change with the installed jax.
JAX_NUMPY = tuple("""
    abs absolute acos acosh add all allclose amax amin angle any append
    apply_along_axis apply_over_axes arange arccos arccosh arcsin arcsinh
    arctan arctan2 arctanh argmax argmin argpartition argsort argwhere
    around array array_equal array_equiv array_repr array_split array_str
    asarray asin asinh astype atan atan2 atanh atleast_1d atleast_2d
    atleast_3d average bartlett bincount bitwise_and bitwise_count
    bitwise_invert bitwise_left_shift bitwise_not bitwise_or
    bitwise_right_shift bitwise_xor blackman block broadcast_arrays
    broadcast_shapes broadcast_to can_cast cbrt ceil choose clip
    column_stack compress concat concatenate conj conjugate convolve copy
    copysign corrcoef correlate cos cosh count_nonzero cov cross cumprod
    cumsum cumulative_prod cumulative_sum deg2rad degrees delete diag
    diag_indices diag_indices_from diagflat diagonal diff digitize divide
    divmod dot dsplit dstack ediff1d einsum einsum_path empty empty_like
    equal exp exp2 expand_dims expm1 extract eye fabs fill_diagonal
    flatnonzero flip fliplr flipud float_power floor floor_divide fmax fmin
    fmod frexp from_dlpack frombuffer fromfile fromfunction fromiter
    frompyfunc fromstring full full_like gcd geomspace get_printoptions
    gradient greater greater_equal hamming hanning heaviside histogram
    histogram2d histogram_bin_edges histogramdd hsplit hstack hypot i0
    identity imag indices inner insert interp intersect1d invert isclose
    iscomplex iscomplexobj isdtype isfinite isin isinf isnan isneginf
    isposinf isreal isrealobj isscalar issubdtype iterable ix_ kaiser kron
    lcm ldexp left_shift less less_equal lexsort linspace load log log10
    log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or
    logical_xor logspace mask_indices matmul matrix_transpose matvec max
    maximum mean median meshgrid min minimum mod modf moveaxis multiply
    nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax nanmean
    nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum nanvar
    ndim negative nextafter nonzero not_equal ones ones_like outer packbits
    pad partition percentile permute_dims piecewise place poly polyadd
    polyder polydiv polyfit polyint polymul polysub polyval positive pow
    power printoptions prod promote_types ptp put put_along_axis quantile
    rad2deg radians ravel ravel_multi_index real reciprocal remainder
    repeat reshape resize result_type right_shift rint roll rollaxis roots
    rot90 round save savez searchsorted select set_printoptions setdiff1d
    setxor1d shape sign signbit sin sinc sinh size sort sort_complex
    spacing split sqrt square squeeze stack std subtract sum swapaxes take
    take_along_axis tan tanh tensordot tile trace transpose trapezoid tri
    tril tril_indices tril_indices_from trim_zeros triu triu_indices
    triu_indices_from true_divide trunc union1d unique unique_all
    unique_counts unique_inverse unique_values unpackbits unravel_index
    unstack unwrap vander var vdot vecdot vecmat vectorize vsplit vstack
    where zeros zeros_like
""".split())

#: numpy's own spellings of a computation that jax.numpy does not have.
NUMPY_ONLY = ("asanyarray", "ascontiguousarray", "asfortranarray", "fix",
              "row_stack")

#: Functions of adjoint.numpy that neither numpy nor jax.numpy has at its
#: top level (scipy's special functions that jitted code often needs).
EXTRAS = ("erf", "finfo", "iinfo", "logsumexp")

_HOST = ("host-side: files, printing and buffers are not traced "
         "computations (use numpy outside jitted code)")
_TODO = "not implemented yet (issue 26)"

#: Why a name of JAX_NUMPY or NUMPY_ONLY is missing, for the special
#: classes; any other missing name is _TODO.
_REASONS = dict(
    [(n, _HOST) for n in (
        "array_repr", "array_str", "frombuffer", "fromfile", "fromiter",
        "fromstring", "get_printoptions", "load", "printoptions", "save",
        "savez", "set_printoptions", "from_dlpack")] +
    [("frompyfunc", "numpy's object ufuncs have no traced form: use "
      "vectorize")])

#: The family each module stands for in the table.
FAMILIES = {
    "adjoint._adjoint": "core tensor functions",
    "adjoint._np_core": "core tensor functions",
}


def implemented():
    """{name: function} of adjoint.numpy (eager wrappers unwrapped, so that
    a function's family is the module that defines it)."""
    out = {}
    for name in _anp.NAMES:
        fn = getattr(_anp, name)
        out[name] = getattr(fn, "__wrapped__", fn)
    return out


def missing():
    """{name: reason} of jax.numpy's and numpy's names not implemented."""
    have = implemented()
    return {n: _REASONS.get(n, _TODO) for n in JAX_NUMPY + NUMPY_ONLY
            if n not in have}


def family(fn):
    module = getattr(fn, "__module__", None) or "adjoint._adjoint"
    if module in FAMILIES:
        return FAMILIES[module]
    # adjoint._np_rounding -> rounding
    return module.rsplit(".", 1)[-1].lstrip("_").replace("np_", "", 1) \
        .replace("_", " ")


def spellings():
    """{family: [[name, alias...], ...]}: names bound to one function
    grouped, the first in sorted order leading."""
    groups = {}
    for name, fn in sorted(implemented().items()):
        groups.setdefault(id(fn), (fn, []))[1].append(name)
    out = {}
    for fn, names in groups.values():
        out.setdefault(family(fn), []).append(names)
    for names in out.values():
        names.sort()
    return dict(sorted(out.items()))


def table():
    """The Markdown that docs/python.md holds between its markers."""
    lines = ["| family | functions (other spellings after a slash) |",
             "| --- | --- |"]
    for fam, groups in spellings().items():
        cells = ", ".join("`%s`" % "/".join(g) for g in groups)
        lines.append("| %s | %s |" % (fam, cells))
    lines.append("")
    gaps = missing()
    lines.append("Not implemented: %d of jax.numpy's %d functions and of "
                 "numpy's own %d spellings:" % (
                     len(gaps), len(JAX_NUMPY), len(NUMPY_ONLY)))
    lines.append("")
    by_reason = {}
    for name, reason in sorted(gaps.items()):
        by_reason.setdefault(reason, []).append(name)
    for reason, names in sorted(by_reason.items()):
        lines.append("- %s: %s." % (reason[0].upper() + reason[1:],
                                    ", ".join("`%s`" % n for n in names)))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(table(), end="")
