"""numpy.linalg and scipy.linalg on complex matrices (complex64 and
complex128), and eig, eigvals, roots and poly (complex results of real
matrices too), in jitted code: values against numpy and scipy, derivatives
in JAX's convention against jax.numpy (reverse mode of a real loss,
forward mode along complex tangents, second order) and against finite
differences, the ops' phase convention for eigen- and singular vectors,
batching, and the OpenCL device, where a library (LAPACK on the host)
computes complex decompositions on either route. Functions of eigen- and
singular vectors are compared through quantities that do not depend on
the vectors' phases, as JAX's own tests do: the phase is a gauge that
JAX's derivative rules fix their own way."""

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
import pytest
import scipy.linalg as sl

import adjoint as adj
import adjoint.numpy as anp
import adjoint.scipy.linalg as asl

import numpy_reference  # noqa: F401  (jax in float64)

RNG = np.random.default_rng(2611)


def crandn(*shape):
    return RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)


def hpd(*shape):
    """Well-conditioned Hermitian positive definite matrices."""
    z = crandn(*shape)
    return z @ np.conj(np.swapaxes(z, -1, -2)) + shape[-1] * np.eye(shape[-1])


def close(got, want, rtol, atol):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


A = crandn(2, 4, 4) + 3.0 * np.eye(4)
H = hpd(2, 4, 4)
TALL = crandn(5, 3)
B = crandn(2, 4, 2)


def eigh_projector(np_):
    def f(a):
        w, v = np_.linalg.eigh(a)
        return (v * np_.sin(w)[..., None, :]) @ np_.conj(
            np_.swapaxes(v, -1, -2))
    return f


def svd_product(np_, a):
    u, s, vh = np_.linalg.svd(a, full_matrices=False)
    return (u * np_.cos(s)[..., None, :]) @ vh


# name: (function of numpy's namespace and one matrix, the matrix).
CASES = {
    "solve": (lambda np_: lambda a: np_.linalg.solve(a, B), A),
    "solve_vector": (lambda np_: lambda a: np_.linalg.solve(a[0], B[0, :, 0]),
                     A),
    "inv": (lambda np_: lambda a: np_.linalg.inv(a), A),
    "det": (lambda np_: lambda a: np_.linalg.det(a), A),
    "slogdet_sign": (lambda np_: lambda a: np_.linalg.slogdet(a)[0], A),
    "slogdet_log": (lambda np_: lambda a: np_.linalg.slogdet(a)[1], A),
    "matrix_power": (lambda np_: lambda a: np_.linalg.matrix_power(a[0], -3),
                     A),
    "cholesky": (lambda np_: lambda a: np_.linalg.cholesky(a), H),
    "cholesky_upper": (lambda np_: lambda a: np_.linalg.cholesky(
        a, upper=True), H),
    "eigvalsh": (lambda np_: lambda a: np_.linalg.eigvalsh(a), H),
    "eigh_projector": (eigh_projector, H),
    "eigh_moduli": (lambda np_: lambda a: np_.abs(np_.linalg.eigh(a)[1]), H),
    "qr_q": (lambda np_: lambda a: np_.linalg.qr(a)[0], TALL),
    "qr_r": (lambda np_: lambda a: np_.linalg.qr(a)[1], TALL),
    "svdvals": (lambda np_: lambda a: np_.linalg.svd(a, compute_uv=False),
                TALL),
    "svd_tall": (lambda np_: lambda a: svd_product(np_, a), TALL),
    "svd_wide": (lambda np_: lambda a: svd_product(np_, a.T), TALL),
    "svd_moduli": (lambda np_: lambda a: np_.abs(np_.linalg.svd(
        a, full_matrices=False)[0]), TALL),
    "pinv": (lambda np_: lambda a: np_.linalg.pinv(a), TALL),
    "lstsq": (lambda np_: lambda a: np_.linalg.lstsq(a, TALL[:, :2])[0],
              TALL),
    "norm_2": (lambda np_: lambda a: np_.linalg.norm(a, 2), TALL),
    "norm_fro": (lambda np_: lambda a: np_.linalg.norm(a), TALL),
    "norm_nuc": (lambda np_: lambda a: np_.linalg.norm(a, "nuc"), TALL),
    "norm_vector": (lambda np_: lambda a: np_.linalg.norm(a, 3, axis=0),
                    TALL),
    "cond": (lambda np_: lambda a: np_.linalg.cond(a), TALL),
    "solve_triangular_h": (lambda np_: lambda a: (
        jsl if np_ is jnp else asl).solve_triangular(
            a[0], B[0], trans="C", lower=True), H),
    "cho_solve": (lambda np_: lambda a: (jsl if np_ is jnp else asl).cho_solve(
        ((jsl if np_ is jnp else asl).cholesky(a[0]), False), B[0]), H),
}

# Hermitian inputs get Hermitian tangents (np.linalg symmetrizes anyway).
HERMITIAN = {"cholesky", "cholesky_upper", "eigvalsh", "eigh_projector",
             "eigh_moduli", "cho_solve"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_like_numpy(name):
    build, x = CASES[name]
    want = np.asarray(build(jnp)(x))
    close(adj.jit(build(anp))(x), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_derivatives_like_jax(name):
    """grad of Re(sum(w f(a))), the JVP along a complex tangent and the
    gradient of |grad|^2 (second order), each against JAX."""
    build, x = CASES[name]
    ours, theirs = build(anp), build(jnp)
    out = np.asarray(theirs(x))
    w = crandn(*out.shape) if np.iscomplexobj(out) else \
        RNG.standard_normal(out.shape)

    def loss(np_, f):
        return lambda a: np_.sum(np_.real(f(a) * w))

    close(adj.grad(loss(anp, ours))(x), jax.grad(loss(jnp, theirs))(x),
          rtol=1e-9, atol=1e-11)
    t = crandn(*x.shape)
    if name in HERMITIAN:
        t = t + np.conj(np.swapaxes(t, -1, -2))
    _, got = adj.jvp(ours, (x,), (t,))
    _, want = jax.jvp(theirs, (x,), (t,))
    close(got, want, rtol=1e-9, atol=1e-11)

    def second(np_, grad, f):
        return lambda a: np_.sum(np_.abs(grad(loss(np_, f))(a)) ** 2)

    close(adj.grad(second(anp, adj.grad, ours))(x),
          jax.grad(second(jnp, jax.grad, theirs))(x), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("name", ["eigh_projector", "svd_tall", "qr_q",
                                  "cholesky", "det"])
def test_grad_like_finite_differences(name):
    """JAX's convention, dL/dx - i dL/dy, against central differences of
    numpy's function in each part of each entry (Hermitian perturbations
    for Hermitian inputs, which is what np.linalg differentiates)."""
    build, x = CASES[name]
    x = x[0] if x.ndim == 3 else x
    f = build(np)
    w = crandn(*np.shape(f(x)))

    def loss(a):
        return np.sum(np.real(f(a) * w))

    hermitian = name in HERMITIAN
    want = np.zeros_like(x)
    h = 1e-6
    for k in np.ndindex(x.shape):
        for step, unit in ((h, 1.0), (1j * h, -1j)):
            d = np.zeros_like(x)
            d[k] = step
            if hermitian:
                d = (d + np.conj(d.T)) / 2
            want[k] += unit * (loss(x + d) - loss(x - d)) / (2 * h)
    got = adj.grad(lambda a: anp.sum(anp.real(build(anp)(a) * w)))(x)
    if hermitian:
        # The gradient of a Hermitian-input function, projected onto
        # Hermitian perturbations, as the differences see it.
        got = (np.asarray(got) + np.conj(np.asarray(got).T)) / 2
    close(got, want, rtol=1e-6, atol=1e-7)


def test_phases_and_real_values():
    """Eigenvalues and singular values are real arrays; each eigenvector
    and each column of u has its largest entry real and positive, the
    matching row of vh the conjugate phase (u diag(s) vh is a)."""
    w, v = adj.jit(anp.linalg.eigh)(H)
    assert w.dtype == np.float64 and v.dtype == np.complex128
    u, s, vh = adj.jit(anp.linalg.svd)(TALL)
    assert s.dtype == np.float64
    for vectors in (np.asarray(v[0]), np.asarray(v[1]), np.asarray(u)):
        for j in range(vectors.shape[1]):
            lead = vectors[np.argmax(np.abs(vectors[:, j])), j]
            assert abs(lead.imag) < 1e-14 and lead.real > 0
    close((np.asarray(u)[:, :3] * s) @ vh, TALL, rtol=1e-12, atol=1e-13)
    close(np.asarray(v) @ (np.asarray(w)[..., None] *
                           np.conj(np.swapaxes(v, -1, -2))), H,
          rtol=1e-12, atol=1e-12)


def test_complex64_in_single_precision():
    a, h, t = (x.astype(np.complex64) for x in (A, H, TALL))
    x = adj.jit(anp.linalg.solve)(a, B.astype(np.complex64))
    assert x.dtype == np.complex64
    close(x, np.linalg.solve(a, B.astype(np.complex64)), rtol=2e-5,
          atol=2e-5)
    w = adj.jit(anp.linalg.eigvalsh)(h)
    assert w.dtype == np.float32
    close(w, np.linalg.eigvalsh(h), rtol=2e-5, atol=2e-5)
    s = adj.jit(lambda t: anp.linalg.svd(t, compute_uv=False))(t)
    close(s, np.linalg.svd(t, compute_uv=False), rtol=2e-5, atol=2e-5)


def test_real_and_complex_operands_promote():
    """A complex matrix with a real right-hand side (and the reverse)
    solves in the complex dtype, as numpy."""
    b = RNG.standard_normal((2, 4, 2))
    close(adj.jit(anp.linalg.solve)(A, b), np.linalg.solve(A, b),
          rtol=1e-10, atol=1e-12)
    real = RNG.standard_normal((4, 4)) + 4 * np.eye(4)
    close(adj.jit(anp.linalg.solve)(real, B[0]), np.linalg.solve(real, B[0]),
          rtol=1e-10, atol=1e-12)


def test_scipy_decompositions_like_scipy():
    h = H[0]
    for lower in (True, False):
        close(adj.jit(lambda a: asl.cholesky(a, lower=lower))(h),
              sl.cholesky(h, lower=lower), rtol=1e-12, atol=1e-13)
    p, l, u = adj.jit(asl.lu)(A[0])
    wp, wl, wu = sl.lu(A[0])
    close(p, wp.astype(np.complex128), rtol=0, atol=0)
    close(l, wl, rtol=1e-12, atol=1e-13)
    close(u, wu, rtol=1e-12, atol=1e-13)
    for trans in ("N", "T", "C"):
        close(adj.jit(lambda a, b: asl.solve_triangular(
            a, b, trans=trans, lower=True))(np.tril(A[0]), B[0]),
            sl.solve_triangular(np.tril(A[0]), B[0], trans=trans,
                                lower=True), rtol=1e-12, atol=1e-13)
    q, r = adj.jit(asl.qr)(TALL)
    wq, wr = sl.qr(TALL)
    close(q @ r, TALL, rtol=1e-12, atol=1e-13)
    close(np.abs(r), np.abs(wr), rtol=1e-12, atol=1e-13)
    w = adj.jit(lambda a: asl.eigh(a, lower=False, eigvals_only=True))(h)
    close(w, sl.eigh(h, lower=False, eigvals_only=True), rtol=1e-12,
          atol=1e-12)


def test_batched_under_vmap():
    got = adj.jit(adj.vmap(lambda a, b: anp.linalg.solve(a, b)))(A, B)
    close(got, np.linalg.solve(A, B), rtol=1e-12, atol=1e-13)
    got = adj.jit(adj.vmap(anp.linalg.eigvalsh))(H)
    close(got, np.linalg.eigvalsh(H), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("route", ["kernels", "library"])
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_on_opencl(opencl_device, monkeypatch, route, dtype):
    """Complex matrices have no kernels: on either route a library (LAPACK
    on the host for OpenCL) computes them, and the results are the CPU's."""
    monkeypatch.setenv("ADJOINT_GPU_LINALG", route)

    def f(a, h, t):
        w, v = anp.linalg.eigh(h)
        u, s, vh = anp.linalg.svd(t, full_matrices=False)
        q, r = anp.linalg.qr(t)
        return (anp.linalg.solve(a, h), anp.linalg.det(a),
                anp.linalg.cholesky(h), w, v, u, s, vh, q, r)

    args = [x.astype(dtype) for x in (A, H, TALL)]
    want = adj.jit(f)(*args)
    got = adj.jit(f, device=opencl_device)(*args)
    for g, c in zip(got, want):
        close(adj.to_numpy(g), c, rtol=0, atol=0)
    grad = adj.jit(adj.grad(lambda h: anp.sum(anp.linalg.eigvalsh(h) ** 2)),
                   device=opencl_device)
    tight = dtype == np.complex128
    close(adj.to_numpy(grad(args[1])),
          np.asarray(jax.grad(lambda h: jnp.sum(jnp.linalg.eigvalsh(h) ** 2))(
              args[1])), rtol=1e-10 if tight else 1e-4,
          atol=1e-10 if tight else 1e-4)


# -- eig: general matrices ------------------------------------------------------

def sorted_like_adjoint(w):
    """numpy's (or JAX's) eigenvalues in the op's order: by real part, then
    imaginary part."""
    w = np.asarray(w)
    order = np.lexsort((w.imag, w.real), axis=-1)
    return np.take_along_axis(w, order, axis=-1)


def jax_sorted(w):
    order = jnp.lexsort((w.imag, w.real), axis=-1)
    return jnp.take_along_axis(w, order, axis=-1)


GENERAL = RNG.standard_normal((3, 5, 5))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32,
                                   np.complex64])
def test_eig_like_numpy(dtype):
    """Sorted eigenvalues, a v = v diag(w), unit vectors whose largest
    entry is real and positive; complex results of real matrices (as
    JAX's)."""
    a = GENERAL.astype(dtype)
    if np.iscomplexobj(a):
        a = (a + 1j * RNG.standard_normal(a.shape)).astype(dtype)
    result = adj.jit(anp.linalg.eig)(a)
    assert isinstance(result, anp.linalg.EigResult)
    w, v = (np.asarray(x) for x in result)
    single = np.dtype(dtype) in (np.float32, np.complex64)
    assert w.dtype == (np.complex64 if single else np.complex128)
    assert v.dtype == w.dtype
    tol = 2e-4 if single else 1e-11
    np.testing.assert_allclose(w, sorted_like_adjoint(np.linalg.eigvals(a)),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(a @ v, v * w[..., None, :], rtol=tol,
                               atol=tol)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, rtol=tol)
    lead = np.take_along_axis(v, np.argmax(np.abs(v), axis=-2)[..., None, :],
                              axis=-2)
    assert (np.abs(lead.imag) <= tol).all() and (lead.real > 0).all()
    close(adj.jit(anp.linalg.eigvals)(a), w, rtol=0, atol=0)


def test_eigvals_derivatives_like_jax():
    """JAX's rule, diag(V^-1 dA V), in reverse and forward mode, for real
    and complex matrices (JAX sorted as the op sorts)."""
    for a in (GENERAL, GENERAL + 1j * RNG.standard_normal(GENERAL.shape)):
        w = crandn(3, 5)

        def loss(np_, sort):
            return lambda a: np_.sum(np_.real(sort(np_.linalg.eigvals(a)) * w))

        close(adj.grad(loss(anp, lambda x: x))(a),
              jax.grad(loss(jnp, jax_sorted))(a), rtol=1e-9, atol=1e-11)
        t = RNG.standard_normal(a.shape).astype(a.dtype)
        _, got = adj.jvp(anp.linalg.eigvals, (a,), (t,))
        _, want = jax.jvp(lambda a: jax_sorted(jnp.linalg.eigvals(a)), (a,),
                          (t,))
        close(got, want, rtol=1e-9, atol=1e-11)


def test_eig_refuses_eigenvector_and_second_derivatives():
    """As JAX: only the eigenvalues have (first) derivatives."""
    a = GENERAL[0]
    with pytest.raises(Exception, match="eigenvalues"):
        adj.grad(lambda a: anp.sum(anp.abs(anp.linalg.eig(a)[1])))(a)
    with pytest.raises(Exception, match="second derivative"):
        adj.hessian(lambda a: anp.sum(anp.real(anp.linalg.eigvals(a))))(a)


def test_eig_batched_under_vmap_and_on_opencl(opencl_device, monkeypatch):
    got = adj.jit(adj.vmap(anp.linalg.eigvals))(GENERAL)
    close(got, sorted_like_adjoint(np.linalg.eigvals(GENERAL)), rtol=1e-11,
          atol=1e-11)
    want = adj.jit(anp.linalg.eig)(GENERAL)
    for route in ("kernels", "library"):
        monkeypatch.setenv("ADJOINT_GPU_LINALG", route)
        on = adj.jit(anp.linalg.eig, device=opencl_device)(GENERAL)
        for g, c in zip(on, want):
            close(adj.to_numpy(g), c, rtol=0, atol=0)


def test_roots_like_numpy():
    """The companion matrix's eigenvalues. Outside jitted code numpy's
    leading zeros are dropped; in it (as JAX under jit) that needs
    strip_zeros=False, which keeps len(p) - 1 roots, those of the leading
    zeros NaN."""
    p = np.array([2.0, -3.0, -11.0, 6.0])
    # numpy's roots are real when every imaginary part is zero: a dtype
    # that depends on the data; adjoint's (as JAX's) are complex.
    close(anp.roots(p), sorted_like_adjoint(np.roots(p)).astype(complex),
          rtol=1e-12, atol=1e-12)
    close(anp.roots([0.0, 0.0, 1.0, 0.0, 4.0]),
          sorted_like_adjoint(np.roots([0.0, 0.0, 1.0, 0.0, 4.0])),
          rtol=1e-12, atol=1e-12)
    got = adj.jit(lambda p: np.roots(p, strip_zeros=False))(
        np.array([0.0, 0.0, 1.0, -3.0, 2.0]))
    close(got, np.array([1, 2, complex(np.nan, np.nan),
                         complex(np.nan, np.nan)]), rtol=1e-12, atol=1e-12)
    with pytest.raises(Exception, match="strip_zeros=False"):
        adj.jit(lambda p: np.roots(p))(p)
    # Complex coefficients; a derivative that does not depend on the
    # roots' order, against JAX's.
    c = crandn(4)
    close(adj.jit(lambda c: np.roots(c, strip_zeros=False))(c),
          sorted_like_adjoint(np.roots(c)), rtol=1e-11, atol=1e-11)

    def total(np_):
        return lambda p: np_.sum(np_.abs(np_.roots(p, strip_zeros=False)) ** 2)

    close(adj.grad(total(anp))(p), jax.grad(total(jnp))(p), rtol=1e-9,
          atol=1e-11)


def test_poly_of_a_matrix_and_of_complex_roots():
    a = GENERAL[0]
    close(np.real(adj.jit(anp.poly)(a)), np.poly(a), rtol=1e-10, atol=1e-10)
    r = crandn(3)
    close(adj.jit(anp.poly)(r), np.poly(r), rtol=1e-12, atol=1e-12)
