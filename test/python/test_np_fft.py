"""numpy.fft in jitted code (issue 26, part 3), held to numpy's values and
to jax.numpy.fft's derivatives in float64 with check_like_jax (reverse and
forward mode, second order): every function, numpy's n/s, axes and norm
arguments, one to four axes, odd and even real lengths, dtypes, errors,
vmap, and the generated FFT on the OpenCL device. Complex results are
compared through their real and imaginary parts, so that every output is
weighted and differentiated; complex inputs are built from two real ones
inside the function, so that both parts are differentiated."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import adjoint as adj
import adjoint.numpy as anp
from numpy_reference import check_built


@pytest.fixture
def rng():
    return np.random.default_rng(26)


def parts(np_, y):
    return np_.real(y), np_.imag(y)


# name -> build(np) of a function of two real arrays (a complex input's
# parts) or of one real array.
COMPLEX_CASES = {
    "fft": lambda np: lambda re, im: parts(np, np.fft.fft(re + 1j * im)),
    "fft_n_pad": lambda np: lambda re, im: parts(
        np, np.fft.fft(re + 1j * im, n=11, axis=0)),
    "fft_n_crop": lambda np: lambda re, im: parts(
        np, np.fft.fft(re + 1j * im, n=5)),
    "fft_ortho": lambda np: lambda re, im: parts(
        np, np.fft.fft(re + 1j * im, norm="ortho")),
    "fft_forward": lambda np: lambda re, im: parts(
        np, np.fft.fft(re + 1j * im, norm="forward")),
    "ifft": lambda np: lambda re, im: parts(np, np.fft.ifft(re + 1j * im)),
    "ifft_ortho": lambda np: lambda re, im: parts(
        np, np.fft.ifft(re + 1j * im, axis=0, norm="ortho")),
    "ifft_forward": lambda np: lambda re, im: parts(
        np, np.fft.ifft(re + 1j * im, n=6, norm="forward")),
    "irfft": lambda np: lambda re, im: np.fft.irfft(re + 1j * im),
    "irfft_odd": lambda np: lambda re, im: np.fft.irfft(re + 1j * im, n=13),
    "irfft_ortho": lambda np: lambda re, im: np.fft.irfft(
        re + 1j * im, n=6, axis=0, norm="ortho"),
    "hfft": lambda np: lambda re, im: np.fft.hfft(re + 1j * im),
    "hfft_odd_forward": lambda np: lambda re, im: np.fft.hfft(
        re + 1j * im, n=9, norm="forward"),
    "fft2": lambda np: lambda re, im: parts(np, np.fft.fft2(re + 1j * im)),
    "fft2_s": lambda np: lambda re, im: parts(
        np, np.fft.fft2(re + 1j * im, s=(3, 9))),
    "ifft2_axes": lambda np: lambda re, im: parts(
        np, np.fft.ifft2(re + 1j * im, axes=(1, 0), norm="ortho")),
    "irfft2": lambda np: lambda re, im: np.fft.irfft2(re + 1j * im),
    "fftn": lambda np: lambda re, im: parts(np, np.fft.fftn(re + 1j * im)),
    "ifftn_axes": lambda np: lambda re, im: parts(
        np, np.fft.ifftn(re + 1j * im, axes=[0])),
    "irfftn_s": lambda np: lambda re, im: np.fft.irfftn(
        re + 1j * im, s=(4, 7), axes=(0, 1)),
}

REAL_CASES = {
    "rfft": lambda np: lambda x: parts(np, np.fft.rfft(x)),
    "rfft_odd_n": lambda np: lambda x: parts(np, np.fft.rfft(x, n=7)),
    "rfft_axis0_forward": lambda np: lambda x: parts(
        np, np.fft.rfft(x, axis=0, norm="forward")),
    "ihfft": lambda np: lambda x: parts(np, np.fft.ihfft(x)),
    "ihfft_ortho": lambda np: lambda x: parts(
        np, np.fft.ihfft(x, n=5, norm="ortho")),
    "rfft2": lambda np: lambda x: parts(np, np.fft.rfft2(x)),
    "rfftn_axes": lambda np: lambda x: parts(
        np, np.fft.rfftn(x, axes=(1, 0))),
    "fft_of_real": lambda np: lambda x: parts(np, np.fft.fft(x, axis=0)),
    "roundtrip": lambda np: lambda x: np.fft.irfft(np.fft.rfft(x),
                                                   n=x.shape[-1]),
    "power_spectrum": lambda np: lambda x: np.abs(np.fft.rfft(x)) ** 2,
    "fftshift": lambda np: lambda x: np.fft.fftshift(x),
    "ifftshift_axes": lambda np: lambda x: np.fft.ifftshift(x, axes=1),
    "shifted_spectrum": lambda np: lambda x: parts(
        np, np.fft.fftshift(np.fft.fft2(x), axes=(0,))),
}


@pytest.mark.parametrize("name", sorted(COMPLEX_CASES))
def test_complex_input_like_numpy_and_jax(name, rng):
    build = COMPLEX_CASES[name]
    re, im = rng.standard_normal((2, 4, 8))
    build.__name__ = name
    got = check_built(build, re, im)
    want = build(np)(re, im)
    for g, w in zip(got if isinstance(got, tuple) else [got],
                    want if isinstance(want, tuple) else [want]):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(REAL_CASES))
def test_real_input_like_numpy_and_jax(name, rng):
    build = REAL_CASES[name]
    x = rng.standard_normal((6, 10))
    build.__name__ = name
    got = check_built(build, x)
    want = build(np)(x)
    for g, w in zip(got if isinstance(got, tuple) else [got],
                    want if isinstance(want, tuple) else [want]):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-10, atol=1e-12)


def test_more_than_three_axes_run_as_several_transforms(rng):
    """fftn over four axes: adj.fft takes three at most, so the first axis
    is a second transform (rfftn: the real one over the last three)."""
    x = rng.standard_normal((3, 2, 4, 5))

    def build(np):
        return lambda x: (*parts(np, np.fft.fftn(x)),
                          *parts(np, np.fft.rfftn(x)),
                          np.fft.irfftn(np.fft.rfftn(x), s=x.shape))
    build.__name__ = "four_axes"
    check_built(build, x, order=1)
    got = adj.jit(lambda x: np.fft.fftn(x))(x)
    np.testing.assert_allclose(got, np.fft.fftn(x), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 16, 17, 60, 97, 128, 1000])
def test_lengths_like_numpy(n, rng):
    """Lengths of every class: 1, primes, powers of two, products."""
    z = rng.standard_normal((3, n)) + 1j * rng.standard_normal((3, n))
    x = rng.standard_normal((3, n))
    f = adj.jit(lambda z, x: (np.fft.fft(z), np.fft.ifft(z), np.fft.rfft(x),
                              np.fft.irfft(np.fft.rfft(x), n)))
    got = f(z, x)
    want = (np.fft.fft(z), np.fft.ifft(z), np.fft.rfft(x),
            np.fft.irfft(np.fft.rfft(x), n))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-11, atol=1e-11 * n)


def test_dtypes_follow_jax(rng):
    x32 = rng.standard_normal(8).astype(np.float32)
    z64 = (x32 + 1j * x32[::-1]).astype(np.complex64)
    f = adj.jit(lambda x, z, i: (np.fft.fft(x), np.fft.rfft(x),
                                 np.fft.ifft(z), np.fft.irfft(z),
                                 np.fft.fft(i), np.fft.fft(x.astype(
                                     np.float64))))
    got = f(x32, z64, np.arange(8))
    kinds = [np.complex64, np.complex64, np.complex64, np.float32,
             np.complex64, np.complex128]
    assert [np.asarray(g).dtype for g in got] == kinds
    np.testing.assert_allclose(got[0], np.fft.fft(x32), rtol=2e-6,
                               atol=2e-6)
    np.testing.assert_allclose(got[3], np.fft.irfft(z64), rtol=2e-6,
                               atol=2e-6)
    np.testing.assert_allclose(got[4], np.fft.fft(np.arange(8.0)),
                               rtol=1e-6, atol=1e-5)


def test_frequencies_like_numpy():
    for n in (1, 2, 7, 8):
        for d in (1.0, 0.25):
            f = adj.jit(lambda: (np.fft.fftfreq(n, d), np.fft.rfftfreq(n, d)))
            got = f()
            np.testing.assert_allclose(got[0], np.fft.fftfreq(n, d),
                                       rtol=1e-7)
            np.testing.assert_allclose(got[1], np.fft.rfftfreq(n, d),
                                       rtol=1e-7)
    # A traced spacing, and an explicit dtype.
    got = adj.jit(lambda d: np.fft.fftfreq(6, d))(np.float64(0.5))
    np.testing.assert_allclose(got, np.fft.fftfreq(6, 0.5), rtol=1e-15)
    got = adj.jit(lambda: anp.fft.rfftfreq(5, dtype=np.float64))()
    assert np.asarray(got).dtype == np.float64
    np.testing.assert_allclose(got, np.fft.rfftfreq(5), rtol=1e-15)


def test_shifts_like_numpy(rng):
    x = rng.standard_normal((5, 6, 3))
    for axes in (None, 0, (0, 2), [-1]):
        got = adj.jit(lambda x: (np.fft.fftshift(x, axes),
                                 np.fft.ifftshift(x, axes)))(x)
        np.testing.assert_array_equal(got[0], np.fft.fftshift(x, axes))
        np.testing.assert_array_equal(got[1], np.fft.ifftshift(x, axes))


def test_outside_jit_on_numpy_arrays(rng):
    z = rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))
    np.testing.assert_allclose(anp.fft.fft2(z), np.fft.fft2(z), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(anp.fft.irfft(z, 9), np.fft.irfft(z, 9),
                               rtol=1e-12, atol=1e-12)


def test_vmap_like_jax(rng):
    x = rng.standard_normal((5, 3, 8))

    def f(np):
        return lambda x: np.abs(np.fft.fft2(x)) + np.real(np.fft.ifft(x)) \
            + np.sum(np.abs(np.fft.rfft(x)))

    np.testing.assert_allclose(adj.vmap(f(np))(x),
                               jax.vmap(f(jnp))(x), rtol=1e-12, atol=1e-12)


def test_complex_gradient_convention_like_jax(rng):
    """grad of a real loss of a complex input: JAX's convention (the
    cotangent is conjugated relative to the holomorphic derivative)."""
    z = rng.standard_normal((3, 8)) + 1j * rng.standard_normal((3, 8))
    w = rng.standard_normal((3, 8))

    def loss(np):
        return lambda z: np.sum(np.real(np.fft.fft(z) * w)) + \
            np.sum(np.abs(np.fft.ifft(z)) ** 2)

    np.testing.assert_allclose(adj.grad(loss(np))(z),
                               jax.grad(loss(jnp))(z), rtol=1e-12,
                               atol=1e-12)


def test_errors_say_what_is_wrong(rng):
    """numpy's exception types (outside jitted code; inside, the same
    messages as a FrontendError at the call)."""
    z = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    with pytest.raises(TypeError, match="rfft: expected a real array"):
        anp.fft.rfft(z)
    with pytest.raises(ValueError, match="invalid norm value 'both'"):
        anp.fft.fft(z, norm="both")
    with pytest.raises(ValueError, match=r"invalid number of data points "
                       r"\(0\)"):
        anp.fft.fft(z, n=0)
    with pytest.raises(ValueError, match="shape and axes have different "
                       "lengths"):
        anp.fft.fftn(z, s=(2, 2), axes=[0])
    with pytest.raises(TypeError, match="n must be an int"):
        anp.fft.ifft(z, n=2.5)
    with pytest.raises(adj.FrontendError, match="rfft: expected a real "
                       "array"):
        adj.jit(lambda z: np.fft.rfft(z))(z)


@pytest.mark.parametrize("route", ["kernels", "library"])
def test_on_opencl(opencl_device, rng, monkeypatch, route):
    """The OpenCL device against numpy on either route of its transforms:
    the generated FFT (-adj-expand-fft: DFT products, the four steps,
    Bluestein's algorithm) and
    the library (there FFTW on the host, through copies of the buffers):
    complex and real transforms, norms and a gradient."""
    monkeypatch.setenv("ADJOINT_GPU_LINALG", route)
    z = rng.standard_normal((2, 8, 24)) + 1j * rng.standard_normal(
        (2, 8, 24))
    x = rng.standard_normal((3, 128))

    def f(z, x):
        return (np.fft.fft(z), np.fft.ifft2(z, norm="ortho"),
                np.fft.rfft(x), np.fft.irfft(np.fft.rfft(x), 128),
                np.fft.fftn(x + 0j, s=(3, 67), axes=(0, 1)),
                adj.grad(lambda x: np.sum(np.abs(np.fft.rfft(x))))(x),
                # Primes over 256: Bluestein's algorithm, its chirp filter
                # a constant (263: 1024 points) or computed (8209).
                np.fft.fft(x, n=263), np.fft.ifft(z[0, 0], n=8209))

    got = adj.jit(f, device=opencl_device)(z, x)
    want = adj.jit(f)(z, x)
    want_np = (np.fft.fft(z), np.fft.ifft2(z, norm="ortho"), np.fft.rfft(x),
               x, np.fft.fftn(x, s=(3, 67), axes=(0, 1)), None,
               np.fft.fft(x, n=263), np.fft.ifft(z[0, 0], n=8209))
    for g, w in zip(got, want):
        np.testing.assert_allclose(adj.to_numpy(g), w, rtol=1e-9,
                                   atol=1e-10)
    for g, w in zip(got, want_np):
        if w is not None:
            np.testing.assert_allclose(adj.to_numpy(g), w, rtol=1e-9,
                                       atol=1e-10)


def test_fftw_chosen_missing_or_wrong_and_the_planner(tmp_path):
    """ADJOINT_FFTW names the double-precision FFTW to load; a library
    that is missing or lacks FFTW's routines is an "unavailable" error
    naming it from the call, not a crash. ADJOINT_FFTW_PLANNER=estimate
    plans without measuring, with the same results. A process loads FFTW
    once, so each case runs in its own."""
    script = tmp_path / "spectrum.py"
    script.write_text(textwrap.dedent("""
        import numpy as np, adjoint as adj
        def spectrum(x):
            return np.fft.rfft(x)
        x = np.arange(6.0)
        try:
            got = np.asarray(adj.jit(spectrum)(x))
            print("ok" if np.allclose(got, np.fft.rfft(x), rtol=1e-12,
                                      atol=1e-12) else got)
        except adj.Error as e:
            print("error:", e)
        """))
    cases = [({"ADJOINT_FFTW": "/nonexistent/libfftw3.so.3"},
              "error: @spectrum: unavailable: adj.fft on the CPU needs "
              "FFTW: /nonexistent/libfftw3.so.3 not found"),
             ({"ADJOINT_FFTW": "libm.so.6"},
              "error: @spectrum: unavailable: adj.fft on the CPU needs "
              "FFTW: libm.so.6 lacks fftw_plan_guru64_dft"),
             ({"ADJOINT_FFTW_PLANNER": "estimate"}, "ok"),
             ({}, "ok")]
    for variables, expected in cases:
        env = dict(os.environ, **variables)
        out = subprocess.run([sys.executable, str(script)], env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(expected), (variables, out.stdout)
