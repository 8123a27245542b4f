"""numpy's products (tensordot, inner, vdot, vecdot, matvec, vecmat,
cross, convolve, correlate, einsum_path) and polynomial functions in
jitted code, held to jax.numpy in float64 by check_like_jax (values,
reverse and forward mode, second order); a group of functions shares one
compiled program."""

import numpy as np
import pytest

import adjoint as adj

from numpy_reference import check_built, check_like_jax


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def test_contractions(rng):
    def contractions(np):
        return lambda a, b, v, m: (
            np.tensordot(a, b), np.tensordot(a, b, axes=1),
            np.tensordot(a, b, axes=([1, 2], [1, 0])),
            np.tensordot(a, b, axes=([2], [1])), np.tensordot(v, v, 0),
            np.inner(v, v), np.inner(m, a), np.inner(2.0, v),
            np.vdot(a, a * 0.5), np.vecdot(m, v), np.vecdot(m, m, axis=0),
            np.matvec(a, v), np.matvec(m, v), np.vecmat(v, a),
            np.vecmat(v, m.T))
    check_built(contractions, rng.standard_normal((3, 4, 4)),
                rng.standard_normal((4, 4, 2)), rng.standard_normal(4),
                rng.standard_normal((3, 4)))


def test_cross(rng):
    def crosses(np):
        return lambda a, b, c, d: (
            np.cross(a, b), np.cross(a[:, :2], b[:, :2]),
            np.cross(a, b[:, :2]), np.cross(a[:, :2], b),
            np.cross(c, d, axisa=0, axisb=0), np.cross(c, d, axis=0),
            np.cross(c, d, axisa=0, axisb=0, axisc=0),
            np.cross(a[0], b))
    check_built(crosses, rng.standard_normal((4, 3)),
                rng.standard_normal((4, 3)), rng.standard_normal((3, 2)),
                rng.standard_normal((3, 2)))


def test_convolve_correlate(rng):
    def convolutions(np):
        return lambda a, v, w: tuple(
            f(x, y, mode) for f in (np.convolve, np.correlate)
            for x, y in ((a, v), (v, a), (w, a))
            for mode in ("full", "same", "valid"))
    # Linear in each operand: second order is checked on the defaults.
    check_built(convolutions, rng.standard_normal(6), rng.standard_normal(3),
                rng.standard_normal(2), order=1)

    def defaults(np):
        return lambda a, v: (np.convolve(a, v), np.correlate(a, v))
    check_built(defaults, rng.standard_normal(5), rng.standard_normal(4))


def test_einsum_path(rng):
    a, b, c = (rng.standard_normal(s) for s in ((3, 4), (4, 5), (5, 2)))
    want = np.einsum_path("ij,jk,kl->il", a, b, c)

    def f(a, b, c):
        path, report = np.einsum_path("ij,jk,kl->il", a, b, c)
        assert path == want[0] and report == want[1]
        return np.einsum("ij,jk,kl->il", a, b, c)
    np.testing.assert_allclose(adj.jit(f)(a, b, c), a @ b @ c, rtol=1e-12)


def test_polynomials(rng):
    def polynomials(np):
        return lambda p, q, x, r: (
            np.polyval(p, x), np.polyval(p, 0.7), np.polyval(q, x[0]),
            np.polyadd(p, q), np.polyadd(q, p), np.polysub(p, q),
            np.polysub(q, p), np.polymul(p, q), np.polyder(p),
            np.polyder(p, 2), np.polyint(p), np.polyint(q, 2, k=0.5),
            np.polyint(q, 2, k=np.asarray([1.0, -2.0])),
            np.polyint(q, k=r[0]), np.vander(x[1]), np.vander(x[0], 5),
            np.vander(x[1], 2, increasing=True), np.poly(r),
            np.polydiv(p, q), np.polydiv(q, p), np.polydiv(p, r))
    check_built(polynomials, rng.standard_normal(4), rng.standard_normal(2),
                rng.standard_normal((2, 3)), rng.standard_normal(3))

    def integer_coefficients(np):
        return lambda x: np.polyval(np.asarray([2, -1, 3]), x)
    check_built(integer_coefficients, rng.standard_normal(3))

    def integer_results(np):
        return lambda p: (np.polyval(p, 2), np.polyder(p, 2),
                          np.polyder(p, 4),
                          np.polyadd(p, np.asarray([1, 1])),
                          np.polymul(p, p[:2]), np.vander(p, 3))
    check_built(integer_results, np.array([4, 3, 2, 1]), order=0)
    with pytest.raises(adj.FrontendError, match="square matrix"):
        adj.jit(lambda m: np.poly(m))(np.ones((2, 3)))


def test_polyval_on_opencl(rng, opencl_device):
    check_like_jax("polyval", rng.standard_normal(3), rng.standard_normal(4),
                   devices=[opencl_device], order=0)


def test_on_opencl_under_vmap_and_eagerly(rng, opencl_device):
    import adjoint.numpy as anp

    def on_device(np):
        return lambda a, v, x: (np.convolve(a, v), np.correlate(a, v, "same"),
                                np.cross(a[:3], v), np.tensordot(x, x.T, 1),
                                np.vander(v), np.polymul(a, v),
                                np.polyint(v, 2))
    check_built(on_device, rng.standard_normal(5), rng.standard_normal(3),
                rng.standard_normal((2, 3)), devices=[opencl_device], order=0)
    a, v = rng.standard_normal((4, 6)), rng.standard_normal((4, 3))
    got = adj.jit(lambda a, v: adj.vmap(np.convolve)(a, v))(a, v)
    np.testing.assert_allclose(got, [np.convolve(p, q) for p, q in zip(a, v)],
                               rtol=1e-12)
    np.testing.assert_allclose(anp.polyval(v[0], a), np.polyval(v[0], a),
                               rtol=1e-12)


def test_polydiv_like_numpy_and_array_conversions(rng):
    """numpy's quotient, and its remainder, which keeps len(u) coefficients
    here (as JAX's) where numpy drops the leading zeros; the as*array
    conversions are asarray (a Value has no subclass or memory order)."""
    u, v = rng.standard_normal(6), rng.standard_normal(3)
    q, r = adj.jit(lambda u, v: np.polydiv(u, v))(u, v)
    want_q, want_r = np.polydiv(u, v)
    np.testing.assert_allclose(q, want_q, rtol=1e-12)
    # The quotient's len(u) - len(v) + 1 steps zero as many leading
    # coefficients.
    steps = len(u) - len(v) + 1
    assert r.shape == u.shape
    np.testing.assert_allclose(r[:steps], 0.0, atol=1e-12)
    np.testing.assert_allclose(r[steps:], want_r, rtol=1e-12, atol=1e-12)
    with pytest.raises(adj.FrontendError, match="trim_leading_zeros"):
        adj.jit(lambda u: np.polydiv(u, v, trim_leading_zeros=True))(u)
    a = rng.standard_normal((2, 3))
    got = adj.jit(lambda a: (np.asanyarray(a), np.ascontiguousarray(
        a, dtype=np.float32), np.asfortranarray(a.T)))(a)
    np.testing.assert_array_equal(got[0], a)
    assert got[1].dtype == np.float32
    np.testing.assert_array_equal(got[2], a.T)
