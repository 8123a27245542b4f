"""numpy's statistics, NaN-aware reductions, differences, histograms and
sorted-search functions in jitted code, each held to jax.numpy in float64
(values, reverse and forward mode, second order) by check_like_jax; a
group of functions shares one compiled program."""

import jax.numpy as jnp
import numpy as np
import pytest

import adjoint as adj

from numpy_reference import check_like_jax


def both(build):
    """check_like_jax's (ours, theirs) pair for a function of the numpy
    namespace: build(np) and build(jnp)."""
    ours = build(np)
    ours.__name__ = build.__name__
    return ours, build(jnp)


def check(build, *args, **kwargs):
    ours, theirs = both(build)
    return check_like_jax(ours, *args, jax_name=theirs, **kwargs)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# -- NaN-aware reductions -----------------------------------------------------

def test_nan_reductions_without_nans(rng):
    def nan_reductions(np):
        return lambda x: (
            np.nansum(x), np.nansum(x, axis=1, keepdims=True),
            np.nanprod(x, axis=0), np.nanmean(x, axis=(0, 1)),
            np.nanvar(x, axis=-1), np.nanstd(x, axis=0, ddof=1),
            np.nanmax(x, axis=1), np.nanmin(x), np.nancumsum(x, axis=1),
            np.nancumprod(x, axis=0))
    check(nan_reductions, rng.standard_normal((3, 4)))


def test_nan_reductions_with_nans(rng):
    x = rng.standard_normal((3, 4))
    x[0, 1] = x[2, 3] = np.nan
    x[1, :] = np.nan          # an all-NaN row

    def nan_values(np):
        return lambda x: (
            np.nansum(x, axis=1), np.nanprod(x, axis=1),
            np.nanmean(x, axis=1), np.nanvar(x, axis=1),
            np.nanstd(x, axis=0), np.nanmax(x, axis=1),
            np.nanmin(x, axis=0, keepdims=True), np.nancumsum(x),
            np.nancumprod(x, axis=1), np.nanmedian(x, axis=1),
            np.nanquantile(x, np.asarray([0.1, 0.7]), axis=0),
            np.nanpercentile(x, 30.0, axis=1))
    check(nan_values, x, order=0)

    def nan_args(np):
        return lambda x: (np.nanargmax(x, axis=1), np.nanargmin(x, axis=0),
                          np.nanargmax(x), np.nanargmin(x, keepdims=True))
    check(nan_args, x, order=0)
    # NaNs where they are not the result do not reach the derivative.
    y = rng.standard_normal((3, 4))
    y[0, 1] = y[2, 3] = np.nan

    def nan_grads(np):
        return lambda x: (
            np.nansum(x, axis=1), np.nanmean(x, axis=1),
            np.nanvar(x, axis=1), np.nanmax(x, axis=1),
            np.nanmin(x, axis=1), np.nanmedian(x, axis=1),
            np.nanquantile(x, 0.3, axis=1))
    check(nan_grads, y, order=1)


# -- quantiles ----------------------------------------------------------------

def test_median_quantile_percentile(rng):
    def quantiles(np):
        return lambda x: (
            np.median(x), np.median(x, axis=0), np.median(x, axis=(0, 2),
                                                          keepdims=True),
            np.quantile(x, 0.3),
            np.quantile(x, np.asarray([0.1, 0.55, 0.9]), axis=1),
            np.percentile(x, 37.0, axis=-1, keepdims=True),
            np.percentile(x, np.asarray([12.0, 81.0]), axis=(1, 2)))
    check(quantiles, rng.standard_normal((3, 4, 5)))


def test_quantile_methods(rng):
    methods = ["linear", "lower", "higher", "midpoint", "nearest"]

    def by_method(np):
        return lambda x: [(np.quantile(x, np.asarray([0.13, 0.62]), axis=1,
                                       method=m),
                           np.nanpercentile(x, 71.0, method=m))
                          for m in methods]
    check(by_method, rng.standard_normal((2, 6)))


def test_quantile_of_traced_q_and_nan_input(rng):
    check_like_jax("quantile", rng.standard_normal(7), np.array([0.25, 0.8]))
    x = rng.standard_normal((2, 5))
    x[1, 2] = np.nan
    check_like_jax("median", x, axis=1, order=0)
    with pytest.raises(adj.FrontendError, match="range"):
        adj.jit(lambda x: np.quantile(x, 1.5))(x)


# -- average, ptp, count_nonzero, cov, corrcoef -------------------------------

def test_average_ptp_count_nonzero(rng):
    def averages(np):
        return lambda x, w, v: (
            np.average(x), np.average(x, axis=1, weights=w),
            np.average(x, axis=0, weights=v, returned=True),
            np.average(x, weights=x * x, keepdims=True),
            np.ptp(x), np.ptp(x, axis=1, keepdims=True))
    check(averages, rng.standard_normal((3, 4)), rng.uniform(0.5, 2, 4),
          rng.uniform(0.5, 2, 3))
    x = rng.integers(-1, 2, (3, 4)).astype(np.float64)
    x[0, 0] = np.nan

    def counts(np):
        return lambda x: (np.count_nonzero(x), np.count_nonzero(x, axis=1),
                          np.count_nonzero(x > 0, axis=(0, 1),
                                           keepdims=True))
    check(counts, x, order=0)
    with pytest.raises(adj.FrontendError, match="axis must be specified"):
        adj.jit(lambda x, w: np.average(x, weights=w))(
            np.ones((2, 3)), np.ones(3))


def test_cov_corrcoef(rng):
    def covariances(np):
        return lambda m, y, aw: (
            np.cov(m), np.cov(m, rowvar=False), np.cov(m, y),
            np.cov(m, bias=True), np.cov(m, ddof=2), np.cov(m[0]),
            np.cov(m, aweights=aw),
            np.cov(m, fweights=np.asarray([1, 2, 1, 3, 1]), aweights=aw),
            np.corrcoef(m), np.corrcoef(m, y), np.corrcoef(m, rowvar=False))
    check(covariances, rng.standard_normal((3, 5)), rng.standard_normal(5),
          rng.uniform(0.5, 2.0, 5), rtol=1e-9, order=1)

    def second_order(np):
        return lambda m, aw: (np.cov(m, aweights=aw), np.corrcoef(m))
    check(second_order, rng.standard_normal((2, 4)), rng.uniform(0.5, 2, 4),
          rtol=1e-9)


# -- differences, integrals, scans --------------------------------------------

def test_diff_ediff1d_trapezoid_cumulative(rng):
    def differences(np):
        return lambda x, t: (
            np.diff(x), np.diff(x, n=2, axis=0), np.diff(x, axis=-2,
                                                          prepend=0.5),
            np.diff(x, append=x[:, :1], prepend=np.asarray([[1.0]] * 4)),
            np.ediff1d(x), np.ediff1d(t, to_end=np.asarray([2.0, 3.0]),
                                      to_begin=-1.0),
            np.trapezoid(x), np.trapezoid(x, dx=0.3, axis=0),
            np.trapezoid(t, x=np.cumsum(t * t)), np.trapezoid(x, x=x * 2.0),
            np.cumulative_sum(t), np.cumulative_sum(x, axis=1,
                                                    include_initial=True),
            np.cumulative_prod(x, axis=0, include_initial=True))
    check(differences, rng.standard_normal((4, 5)), rng.standard_normal(6))

    def booleans(np):
        return lambda x: (np.diff(x > 0), np.diff(x, n=0))
    check(booleans, rng.standard_normal(6), order=0)


def test_gradient(rng):
    def gradients(np):
        return lambda f, c: (
            np.gradient(f), np.gradient(f, 0.5), np.gradient(f, 0.5, 2.0),
            np.gradient(f, c, axis=0), np.gradient(f, axis=-1),
            np.gradient(f[:, 0], c))
    check(gradients, rng.standard_normal((5, 6)),
          np.cumsum(rng.uniform(0.5, 1.5, 5)))
    # numpy's second-order edges (JAX has only edge_order=1): against
    # numpy's values and finite differences.
    f = rng.standard_normal((5, 6))
    c = np.cumsum(rng.uniform(0.5, 1.5, 5))
    got = adj.jit(lambda f, c: (np.gradient(f, c, 0.7, edge_order=2),
                                np.gradient(f, 2.0, axis=1, edge_order=2)))(
        f, c)
    want = (np.gradient(f, c, 0.7, edge_order=2),
            np.gradient(f, 2.0, axis=1, edge_order=2))
    for g, w in zip(adj.tree_util.tree_leaves(got),
                    adj.tree_util.tree_leaves(want)):
        np.testing.assert_allclose(g, w, rtol=1e-12)


def test_interp_unwrap(rng):
    def interpolations(np):
        return lambda x, xp, fp: (
            np.interp(x, xp, fp), np.interp(x, xp, fp, left=-2.0, right=7.0),
            np.interp(x, xp, fp, period=2.5))
    xp = np.cumsum(rng.uniform(0.3, 0.8, 6)) - 1.0
    check(interpolations, rng.uniform(-1.5, 3.5, (2, 5)), xp,
          rng.standard_normal(6))

    def unwraps(np):
        return lambda p: (np.unwrap(p), np.unwrap(p, axis=0),
                          np.unwrap(p, discont=4.0),
                          np.unwrap(p, period=5.0))
    check(unwraps, rng.uniform(-8.0, 8.0, (4, 6)))


# -- searches and sets --------------------------------------------------------

def test_searchsorted_digitize_bincount_isin(rng):
    a = np.sort(rng.standard_normal(7))
    v = np.concatenate([rng.standard_normal(5), a[2:4], [np.nan]])

    def searches(np):
        return lambda a, v: (
            np.searchsorted(a, v), np.searchsorted(a, v, side="right"),
            np.searchsorted(a[::-1], v, sorter=np.arange(6, -1, -1)),
            np.digitize(v, a), np.digitize(v, a, right=True),
            np.digitize(v, a[::-1]), np.digitize(v, a[::-1], right=True),
            np.isin(v, a[1:4]), np.isin(a, v, invert=True),
            np.bincount(np.asarray([0, 3, 1, 3, 3]), length=5))
    check(searches, a, v, order=0)

    def weighted(np):
        return lambda w: (np.bincount(np.asarray([0, 3, 1, 3, 3]), w,
                                      length=4),
                          np.bincount(np.asarray([2, 0, 6, 1, 2]), w,
                                      minlength=3, length=5))
    check(weighted, rng.standard_normal(5))
    with pytest.raises(adj.FrontendError, match="length="):
        adj.jit(lambda i: np.bincount(i))(np.array([1, 2]))


def test_partition_lexsort(rng):
    def partitions(np):
        return lambda x: (
            np.partition(x, 2)[..., 2], np.sort(np.partition(x, 3, axis=0),
                                               axis=0),
            np.take_along_axis(x, np.argpartition(x, 1), -1)[:, 1])
    x = rng.standard_normal((4, 5))
    check(partitions, x)

    def lexsorts(np):
        return lambda x, k: (np.lexsort((x[0], k)),
                             np.lexsort(np.stack([x[1], x[0]])),
                             np.lexsort((k, x[2] > 0)))
    check(lexsorts, x, np.array([1.0, 0.0, 1.0, 0.0, 1.0]), order=0)


def test_unique_and_sets(rng):
    x = rng.integers(0, 4, (2, 5)).astype(np.float64)
    y = rng.integers(2, 7, 4).astype(np.float64)

    def uniques(np):
        return lambda x, y: (
            np.unique(x, size=6), np.unique(x, size=3, fill_value=-1.0),
            np.unique(x, return_index=True, return_inverse=True,
                      return_counts=True, size=6),
            tuple(np.unique_all(x, size=6)),
            tuple(np.unique_counts(y, size=5)),
            tuple(np.unique_inverse(x, size=6)), np.unique_values(y, size=5),
            np.union1d(x, y, size=9), np.intersect1d(x, y, size=4),
            np.setdiff1d(x, y, size=5, fill_value=9.0),
            np.setxor1d(x, y, size=7))
    check(uniques, x, y, order=0)
    with pytest.raises(adj.FrontendError, match="pass size="):
        adj.jit(lambda x: np.unique(x))(x)
    with pytest.raises(adj.FrontendError, match="trim_zeros"):
        adj.jit(lambda x: np.trim_zeros(x))(x[0])


# -- histograms ---------------------------------------------------------------

def test_histograms(rng):
    x = rng.standard_normal(20)
    y = rng.standard_normal(20)

    def counts(np):
        return lambda x, y: (
            np.histogram(x)[0], np.histogram(x, bins=4, range=(-1.0, 1.0))[0],
            np.histogram(x, bins=np.asarray([-2.0, -0.5, 0.0, 0.7, 3.0]))[0],
            np.histogram2d(x, y, bins=3)[0],
            np.histogramdd(np.stack([x, y, x * y], 1), bins=(2, 3, 2))[0])
    check(counts, x, y, order=0)

    def weighted(np):
        return lambda x, y, w: (
            np.histogram(x, bins=5, weights=w),
            np.histogram(x, bins=3, range=(-1.0, 1.5), density=True),
            np.histogram_bin_edges(x, bins=6),
            np.histogram2d(x, y, bins=(2, 3), weights=w, density=True),
            np.histogramdd(np.stack([x, y], 1), bins=2, weights=w,
                           range=[(-2.0, 2.0), (-3.0, 3.0)]))
    check(weighted, x, y, rng.uniform(0.5, 2.0, 20), order=1)
    with pytest.raises(adj.FrontendError, match="estimator"):
        adj.jit(lambda x: np.histogram(x, bins="auto"))(x)


# -- functions of functions ---------------------------------------------------

def test_apply_along_over_axes_piecewise(rng):
    def applied(np):
        return lambda x: (
            np.apply_along_axis(lambda r: np.sum(r * r), 1, x),
            np.apply_along_axis(lambda r: np.cumsum(r)[::2], 0, x),
            np.apply_along_axis(lambda r, s: np.outer(r, r) * s, -1, x, 2.0),
            np.apply_over_axes(np.sum, x, [0, 1]),
            np.apply_over_axes(lambda a, ax: np.max(a, ax, keepdims=True),
                               x, [1]),
            np.piecewise(x, [x < -0.5, x > 0.5], [lambda v: v * v, np.sin,
                                                  lambda v: 2.0 * v]),
            np.piecewise(x, [x < 0.0], [np.exp]),
            np.piecewise(x, [x > 0.0], [lambda v, k: v * k, -1.0], 3.0))
    check(applied, rng.standard_normal((4, 5)))


# -- other devices, vmap, eager calls -----------------------------------------

def test_on_opencl(rng, opencl_device):
    def on_device(np):
        return lambda x: (
            np.nanmean(x, axis=1), np.nanmax(x, axis=0), np.median(x, axis=0),
            np.quantile(x, 0.3, axis=1, method="midpoint"), np.diff(x),
            np.gradient(x, axis=1), np.cov(x), np.average(x, axis=0),
            np.unique(x[0] > 0.0, size=2),
            np.histogram(x, bins=3, weights=x * x)[0])
    x = rng.standard_normal((3, 5))
    x[1, 1] = np.nan
    check(on_device, x, devices=[opencl_device], order=0)


def test_interp_on_opencl(rng, opencl_device):
    check_like_jax("interp", rng.uniform(-1.0, 2.0, 5),
                   np.cumsum(rng.uniform(0.3, 0.8, 4)) - 1.0,
                   rng.standard_normal(4), devices=[opencl_device], order=0)


def test_under_vmap_and_eagerly(rng):
    import adjoint.numpy as anp
    x = rng.standard_normal((4, 6))

    @adj.jit
    def rows(x):
        return adj.vmap(lambda r: (np.median(r), np.nanvar(r),
                                   np.quantile(r, 0.8),
                                   np.searchsorted(np.sort(r), 0.1),
                                   np.diff(r, 2)))(x)
    got = rows(x)
    want = (np.median(x, axis=1), np.nanvar(x, axis=1),
            np.quantile(x, 0.8, axis=1),
            [np.searchsorted(np.sort(r), 0.1) for r in x], np.diff(x, 2))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)
    np.testing.assert_allclose(anp.median(x, axis=0), np.median(x, axis=0),
                               rtol=1e-12)
    np.testing.assert_allclose(anp.cov(x), np.cov(x), rtol=1e-12)
