"""numpy.linalg and scipy.linalg in jitted code, held to jax.numpy.linalg
and jax.scipy.linalg in float64 by check_like_jax: values, reverse and
forward mode, second order; a group of functions shares one compiled
program. Eigen- and singular vectors are compared through quantities that
do not depend on their signs (v * v, u diag(s) vh, projectors), since
LAPACK implementations may choose different signs."""

import os
import subprocess
import sys
import textwrap

import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest
import scipy.linalg as sl

import adjoint as adj
import adjoint.numpy as anp

from numpy_reference import check_built, check_like_jax


@pytest.fixture
def rng():
    return np.random.default_rng(0)


def spd(rng, *shape):
    """Well-conditioned symmetric positive definite matrices."""
    m = rng.standard_normal(shape)
    return m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])


def test_solvers_and_determinants(rng):
    def solvers(np):
        return lambda a, b, v, s: (
            np.linalg.solve(a, b), np.linalg.solve(a, v), np.linalg.inv(a),
            np.linalg.det(a), np.linalg.slogdet(a)[1],
            np.linalg.slogdet(a)[0], np.linalg.matrix_power(a[0], 3),
            np.linalg.matrix_power(a[1], -2), np.linalg.cholesky(s),
            np.linalg.cholesky(s, upper=True),
            np.linalg.tensorinv(np.reshape(a[0] @ a[1], (3, 1, 3)), 2),
            np.linalg.tensorsolve(a[0], v))
    a = rng.standard_normal((2, 3, 3)) + 3.0 * np.eye(3)
    check_built(solvers, a, rng.standard_normal((2, 3, 2)),
                rng.standard_normal(3), spd(rng, 2, 3, 3), rtol=1e-9)


def test_decompositions_up_to_signs(rng):
    def decompositions(np):
        def f(s, m, w):
            vals, vecs = np.linalg.eigh(s)
            u, sv, vh = np.linalg.svd(m, full_matrices=False)
            q, r = np.linalg.qr(w)
            return (vals, vecs * vecs, np.linalg.eigvalsh(s),
                    sv, u * u, vh * vh, (u * sv[..., None, :]) @ vh,
                    np.linalg.svd(m, compute_uv=False), np.abs(r),
                    q @ r, np.abs(np.linalg.qr(w, mode="r")))
        return f
    check_built(decompositions, spd(rng, 2, 4, 4),
                rng.standard_normal((2, 4, 3)), rng.standard_normal((5, 3)),
                rtol=1e-8, atol=1e-10)


def test_pseudo_inverse_least_squares_norms(rng):
    def spectral(np):
        return lambda m, b, x: (
            np.linalg.pinv(m), np.linalg.lstsq(m, b)[0],
            np.linalg.lstsq(m, b)[1], np.linalg.lstsq(m, b[:, 0])[3],
            np.linalg.norm(m, 2), np.linalg.norm(m, -2),
            np.linalg.norm(m, "nuc"), np.linalg.norm(m, "fro"),
            np.linalg.norm(m, 1), np.linalg.norm(m, -np.inf),
            np.linalg.norm(x, axis=0), np.linalg.norm(x, 3, axis=1),
            np.linalg.norm(x, np.inf, axis=1, keepdims=True),
            np.linalg.norm(x, 2, axis=(1, 0)), np.linalg.cond(m[:3]),
            np.linalg.cond(m[:3], 1), np.linalg.matrix_norm(x),
            np.linalg.vector_norm(x, ord=1), np.linalg.multi_dot(
                [m.T, m, m.T, b]))
    check_built(spectral, rng.standard_normal((5, 3)),
                rng.standard_normal((5, 2)), rng.standard_normal((3, 4)),
                rtol=1e-8, atol=1e-10)
    ranks = adj.jit(lambda m: (np.linalg.matrix_rank(m),
                               np.linalg.lstsq(m, m[:, 0])[2]))(
        np.outer(np.arange(1.0, 4.0), np.arange(1.0, 5.0)))
    assert [int(r) for r in ranks] == [1, 1]


def test_scipy_linalg(rng):
    a = rng.standard_normal((4, 4)) + 4.0 * np.eye(4)
    s = spd(rng, 4, 4)
    b = rng.standard_normal((4, 2))

    # scipy's solve(assume_a="pos") and eigh are defined on symmetric
    # matrices only, and JAX's second derivatives of them in non-symmetric
    # directions are artifacts of its implementation (custom_linear_solve
    # with symmetric=True; eigh's rule recomputing the vectors of the
    # symmetrized input): they are compared along symmetric directions,
    # on (s + s^T) / 2.
    def solves(a, s, b):
        h = (s + s.T) * 0.5
        return (sl.solve_triangular(a, b, lower=True),
                sl.solve_triangular(a, b[:, 0], trans="T"),
                sl.solve_triangular(a, b, lower=True, unit_diagonal=True),
                sl.cho_solve(sl.cho_factor(s), b),
                sl.cho_solve(sl.cho_factor(s, lower=True), b[:, 1]),
                sl.cholesky(s), sl.solve(h, b, assume_a="pos"),
                sl.solve(a, b), sl.det(a), sl.lu(a)[1] @ sl.lu(a)[2],
                sl.lu(a)[0], sl.lu(a, permute_l=True)[0],
                sl.eigh(h, eigvals_only=True), sl.qr(a)[1] * 0.0 +
                np.abs(sl.qr(a, mode="economic")[1]))

    def reference(a, s, b):
        h = (s + s.T) * 0.5
        return (jsl.solve_triangular(a, b, lower=True),
                jsl.solve_triangular(a, b[:, 0], trans="T"),
                jsl.solve_triangular(a, b, lower=True, unit_diagonal=True),
                jsl.cho_solve(jsl.cho_factor(s), b),
                jsl.cho_solve(jsl.cho_factor(s, lower=True), b[:, 1]),
                jsl.cholesky(s), jsl.solve(h, b, assume_a="pos"),
                jsl.solve(a, b), jsl.det(a), jsl.lu(a)[1] @ jsl.lu(a)[2],
                jsl.lu(a)[0], jsl.lu(a, permute_l=True)[0],
                jsl.eigh(h, eigvals_only=True), jsl.qr(a)[1] * 0.0 +
                jnp.abs(jsl.qr(a, mode="economic")[1]))
    check_like_jax(solves, a, s, b, jax_name=reference, rtol=1e-9)


def test_batched_under_vmap_and_eagerly(rng):
    s = spd(rng, 3, 3, 3)
    got = adj.jit(adj.vmap(lambda x: jnp_free_eigh_solve(x)))(s)
    for g, x in zip(got, s):
        np.testing.assert_allclose(g, np.linalg.solve(x, np.linalg.eigvalsh(x)),
                                   rtol=1e-10)
    np.testing.assert_allclose(anp.linalg.inv(s), np.linalg.inv(s),
                               rtol=1e-10)
    w, v = anp.linalg.eigh(s)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(s), rtol=1e-10)
    assert isinstance(anp.linalg.eigh(s), anp.linalg.EighResult)


def jnp_free_eigh_solve(x):
    return np.linalg.solve(x, np.linalg.eigvalsh(x))


def test_errors_name_the_function():
    f = adj.jit(lambda a: np.linalg.inv(a))
    with pytest.raises(Exception, match="square"):
        f(np.ones((2, 3)))
    with pytest.raises(Exception, match="two-dimensional"):
        adj.jit(lambda a: np.linalg.det(a))(np.ones(3))
    with pytest.raises(Exception, match="mode"):
        adj.jit(lambda a: np.linalg.qr(a, mode="economic"))(np.eye(2))
    with pytest.raises(Exception, match="f16|float16|unsupported"):
        adj.jit(lambda a: np.linalg.inv(a))(np.eye(2, dtype=np.float16))


def test_not_positive_definite_gives_nans():
    got = adj.jit(lambda a: np.linalg.cholesky(a))(-np.eye(3))
    assert np.isnan(np.asarray(got)).all()


def test_polyfit(rng):
    def fits(np):
        return lambda x, y, y2, w: (
            np.polyfit(x, y, 2), np.polyfit(x, y2, 3, w=w),
            np.polyfit(x, y, 1, full=True)[:2],
            np.polyfit(x, y, 1, full=True)[3],
            np.polyfit(x, y, 2, cov=True)[1],
            np.polyfit(x, y2, 1, cov="unscaled"))
    # No x at 0: JAX's Vandermonde matrix differentiates x ** 0 there as
    # 0 * x ** -1, a NaN (adjoint's derivative is 0).
    x = np.linspace(-1.0, 2.0, 7) + 0.05
    check_built(fits, x, x ** 2 - x + rng.standard_normal(7) * 0.1,
                rng.standard_normal((7, 2)), rng.uniform(0.5, 1.5, 7),
                rtol=1e-8)
    # The rank (an integer, not differentiated) as numpy's.
    rank = adj.jit(lambda x: np.polyfit(x, x ** 2, 1, full=True)[2])(x)
    assert int(rank) == np.polyfit(x, x ** 2, 1, full=True)[2] == 2


def test_hessian_spectrum_in_one_jitted_function(rng):
    """The research idiom: the eigenvalues of a loss's Hessian, built with
    adj.hessian, in one compiled program, against JAX's."""
    import jax

    def loss(np):
        def f(w, x, y):
            h = np.tanh(x @ w[:12].reshape(3, 4)) @ w[12:]
            return np.mean((h - y) ** 2) + 0.01 * np.sum(w ** 4)
        return f

    w = rng.standard_normal(16) * 0.5
    x, y = rng.standard_normal((8, 3)), rng.standard_normal(8)
    spectrum = adj.jit(lambda w, x, y: np.linalg.eigvalsh(
        adj.hessian(loss(np))(w, x, y)))
    want = jax.jit(lambda w, x, y: jnp.linalg.eigvalsh(
        jax.hessian(loss(jnp))(w, x, y)))(w, x, y)
    np.testing.assert_allclose(spectrum(w, x, y), want, rtol=1e-9,
                               atol=1e-12)


@pytest.mark.parametrize("route", ["kernels", "library"])
def test_on_opencl(opencl_device, rng, monkeypatch, route):
    """The same functions on the OpenCL device, against JAX on the CPU, on
    either route of a GPU device's decompositions: the generated kernels
    (a workgroup per matrix) and the library (there LAPACK on the host,
    through copies of the operands and results)."""
    monkeypatch.setenv("ADJOINT_GPU_LINALG", route)
    def linalg(np):
        def f(a, b, s, m):
            vals, vecs = np.linalg.eigh(s)
            u, sv, vh = np.linalg.svd(m, full_matrices=False)
            q, r = np.linalg.qr(m)
            return (np.linalg.solve(a, b), np.linalg.inv(a),
                    np.linalg.slogdet(a)[1], np.linalg.cholesky(s), vals,
                    vecs * vecs, sv, (u * sv[..., None, :]) @ vh,
                    np.abs(r), q @ r, np.linalg.pinv(m))
        return f
    a = rng.standard_normal((2, 5, 5)) + 3.0 * np.eye(5)
    check_built(linalg, a, rng.standard_normal((2, 5, 2)), spd(rng, 2, 5, 5),
                rng.standard_normal((2, 6, 4)), order=0,
                devices=[opencl_device], rtol=1e-9, atol=1e-11)

    def loss(w, x):
        return np.sum(np.tanh(x @ w) ** 2) + 0.1 * np.sum(w ** 4)

    w, x = rng.standard_normal(6), rng.standard_normal((4, 6))
    spectrum = adj.jit(lambda w, x: np.linalg.eigvalsh(
        adj.hessian(loss)(w, x)), device=opencl_device)
    np.testing.assert_allclose(
        np.asarray(spectrum(w, x)),
        adj.jit(lambda w, x: np.linalg.eigvalsh(adj.hessian(loss)(w, x)))(
            w, x), rtol=1e-9, atol=1e-12)


def test_measured_route_on_opencl(opencl_device, rng, monkeypatch):
    """By default a GPU device measures both routes of each problem (the
    first four calls alternate between them) and keeps the faster: every
    call's results are the op's, whichever route computed them."""
    monkeypatch.delenv("ADJOINT_GPU_LINALG", raising=False)
    s = spd(rng, 3, 6, 6)
    m = rng.standard_normal((3, 7, 4))

    def f(s, m):
        w, v = np.linalg.eigh(s)
        # A full u's extra columns are any basis of the complement: each
        # route completes it its own way.
        u, sv, vh = np.linalg.svd(m, full_matrices=False)
        return w, v, np.linalg.cholesky(s), u, sv, vh

    on_gpu = adj.jit(f, device=opencl_device)
    expected = adj.jit(f)(s, m)
    for _ in range(6):
        for got, want in zip(on_gpu(s, m), expected):
            np.testing.assert_allclose(np.asarray(got), np.asarray(want),
                                       rtol=1e-9, atol=1e-11)


def test_lapack_chosen_missing_or_wrong(tmp_path):
    """ADJOINT_LAPACK names the LAPACK to load (to measure one against
    another); a library that is missing or lacks LAPACK's routines is an
    "unavailable" error naming it from the call, not a crash. A process
    loads LAPACK once, so each case runs in its own."""
    script = tmp_path / "chol.py"
    script.write_text(textwrap.dedent("""
        import numpy as np, adjoint as adj
        def chol(a):
            return np.linalg.cholesky(a)
        try:
            print(np.asarray(adj.jit(chol)(np.eye(2) * 4.0)).tolist())
        except adj.Error as e:
            print("error:", e)
        """))
    cases = [("/nonexistent/liblapack.so",
              "error: @chol: unavailable: the linear algebra kernels need "
              "LAPACK: ADJOINT_LAPACK=/nonexistent/liblapack.so: "),
             ("libm.so.6",
              "error: @chol: unavailable: the linear algebra kernels need "
              "LAPACK: ADJOINT_LAPACK=libm.so.6: libm.so.6 lacks spotrf_"),
             ("liblapack.so.3", "[[2.0, 0.0], [0.0, 2.0]]")]
    for library, expected in cases:
        env = dict(os.environ, ADJOINT_LAPACK=library)
        out = subprocess.run([sys.executable, str(script)], env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(expected), (library, out.stdout)
