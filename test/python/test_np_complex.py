"""Complex numbers in jitted code (issue 26, part 4): complex64/complex128
arguments and results, the parts (real, imag, conj, angle, abs), complex
arithmetic, math, reductions and products, Python complex numbers, and
derivatives with JAX's convention (grad of a real function of complex
inputs, jvp and vjp of complex functions), held to numpy and jax.numpy."""

import numpy as np
import pytest

import jax
import jax.numpy as jnp

import adjoint as adj
import adjoint.numpy as anp
import numpy_reference  # noqa: F401  (jax in float64)

RNG = np.random.default_rng(426)


def crandn(*shape, dtype=np.complex128):
    z = RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)
    return z.astype(dtype)


def close(got, want, rtol=1e-12, atol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# Functions of one complex array, written once for both namespaces.
UNARY = {
    "neg": lambda np_, z: -z,
    "exp": lambda np_, z: np_.exp(z),
    "log": lambda np_, z: np_.log(z),
    "log1p": lambda np_, z: np_.log1p(z),
    "expm1": lambda np_, z: np_.expm1(z),
    "sqrt": lambda np_, z: np_.sqrt(z),
    "sin": lambda np_, z: np_.sin(z),
    "cos": lambda np_, z: np_.cos(z),
    "tanh": lambda np_, z: np_.tanh(z),
    "tan": lambda np_, z: np_.tan(z),
    "sinh": lambda np_, z: np_.sinh(z * 2),
    "cosh": lambda np_, z: np_.cosh(z * 2),
    "arctanh": lambda np_, z: np_.arctanh(z),
    "arcsin": lambda np_, z: np_.arcsin(z),
    "arccos": lambda np_, z: np_.arccos(z),
    "arctan": lambda np_, z: np_.arctan(z),
    "arcsinh": lambda np_, z: np_.arcsinh(z),
    "arccosh": lambda np_, z: np_.arccosh(z),
    "rint": lambda np_, z: np_.rint(z * 3),
    "exp2": lambda np_, z: np_.exp2(z),
    "log10": lambda np_, z: np_.log10(z),
    "square": lambda np_, z: z * z,
    "reciprocal": lambda np_, z: 1 / z,
    "power": lambda np_, z: z ** (0.5 + 0.25j),
    "conj": lambda np_, z: np_.conj(z),
    "sum": lambda np_, z: np_.sum(z, axis=0),
    "mean": lambda np_, z: np_.mean(z),
    "matmul": lambda np_, z: z @ z.T,
}

# Real results of complex arrays.
REAL = {
    "real": lambda np_, z: np_.real(z),
    "imag": lambda np_, z: np_.imag(z),
    "abs": lambda np_, z: np_.abs(z),
    "angle": lambda np_, z: np_.angle(z),
}


@pytest.mark.parametrize("name", sorted(UNARY) + sorted(REAL))
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_values_like_numpy(name, dtype):
    fn = {**UNARY, **REAL}[name]
    z = crandn(3, 3, dtype=dtype)
    want = fn(np, z)
    got = adj.jit(lambda z: fn(anp, z))(z)
    tight = dtype == np.complex128
    close(got, np.asarray(want),
          rtol=1e-12 if tight else 2e-6, atol=1e-12 if tight else 2e-6)


def test_results_are_complex_arrays_of_the_arguments_dtype():
    z = crandn(4)
    got = adj.jit(lambda z: z * 2)(z)
    assert got.dtype == np.complex128
    got = adj.jit(lambda z: z * 2)(z.astype(np.complex64))
    assert got.dtype == np.complex64


def test_binary_broadcasting_and_promotion():
    z, w = crandn(2, 3), crandn(3, dtype=np.complex64)
    x = RNG.standard_normal((2, 1))
    close(adj.jit(lambda z, w: z / w)(z, w), z / w)
    # complex64 with float64 is complex128, as in numpy and JAX.
    close(adj.jit(lambda w, x: w * x)(w, x), w * x, rtol=1e-6)
    close(adj.jit(lambda z, x: z - x)(z, x), z - x)


def test_python_complex_numbers_are_weakly_typed():
    w = crandn(3, dtype=np.complex64)
    got = adj.jit(lambda w: w * (2 - 1j) + 1j)(w)
    assert got.dtype == np.complex64
    close(got, (w * (2 - 1j) + 1j).astype(np.complex64), rtol=1e-6)
    # A complex number meeting a float array makes it complex of the
    # array's precision.
    x = RNG.standard_normal(3)
    got = adj.jit(lambda x: x * 1j)(x)
    close(got, x * 1j)
    got = adj.jit(lambda x: x + 1j)(x.astype(np.float32))
    assert got.dtype == np.complex64
    # A complex literal as np.r_'s step is still a point count.
    close(adj.jit(lambda x: np.r_[x, 0:1:3j])(x), np.r_[x, 0:1:3j])


def test_constants_and_casts():
    c = np.array([1 + 2j, -3j])

    @adj.jit
    def f(x):
        return x * c, anp.real(x.astype(np.complex128)), (x * c).astype(
            np.float64)

    x = RNG.standard_normal(2)
    a, b, d = f(x)
    close(a, x * c)
    close(b, x)
    close(d, np.real(x * c))


def test_equality_and_ordering():
    z = crandn(4)
    w = z.copy()
    w[1] = 0
    close(adj.jit(lambda z, w: z == w)(z, w), z == w)
    close(adj.jit(lambda z, w: z != w)(z, w), z != w)
    with pytest.raises(Exception, match="complex"):
        adj.jit(lambda z, w: z < w)(z, w)
    with pytest.raises(Exception, match="complex"):
        adj.jit(lambda z: anp.maximum(z, z))(z)


def test_special_values_follow_numpy():
    z = np.array([0j, 1j, -1 + 0j, np.inf + 0j, complex(0, np.inf)])
    close(adj.jit(lambda z: anp.abs(z))(z), np.abs(z))
    close(adj.jit(lambda z: z ** 0)(z[:3]), z[:3] ** 0)
    close(adj.jit(lambda z: anp.sqrt(z))(z[:3]), np.sqrt(z[:3]))


def test_tests_and_rounding_follow_numpy():
    z = np.array([1.26 + 2.5j, complex(np.nan, 1), complex(0, np.inf),
                  complex(-np.inf, 2)])

    def f(np_):
        return lambda z: (np_.isnan(z), np_.isinf(z), np_.isfinite(z),
                          np_.round(z * 1.3, 1), np_.iscomplex(z),
                          np_.isreal(z - 1j * np_.imag(z)))

    with np.errstate(all="ignore"):
        wants = f(np)(z)
    for got, want in zip(adj.jit(f(anp))(z), wants):
        close(got, want)
    # astype keeps the real part, as numpy's does.
    with np.errstate(all="ignore"), pytest.warns(np.exceptions.ComplexWarning):
        want = z.astype(np.float32)
    close(adj.jit(lambda z: z.astype(np.float32))(z), want)


# Functions numpy defines for real numbers only, or that adjoint computes
# for real numbers only so far: an error, never a real part silently taken.
REAL_ONLY = {
    "floor": lambda z: np.floor(z), "ceil": lambda z: np.ceil(z),
    "trunc": lambda z: np.trunc(z), "cbrt": lambda z: np.cbrt(z),
    "fabs": lambda z: np.fabs(z), "deg2rad": lambda z: np.deg2rad(z),
    "erf": lambda z: anp.erf(z), "percentile":
    lambda z: np.percentile(z, 30), "hypot": lambda z: np.hypot(z, z),
    "logaddexp": lambda z: np.logaddexp(z, z), "maximum":
    lambda z: np.maximum(z, z),
    "argmax": lambda z: np.argmax(z), "clip": lambda z: np.clip(z, 0, 1),
}


@pytest.mark.parametrize("name", sorted(REAL_ONLY))
def test_real_only_functions_refuse_complex_arrays(name):
    z = crandn(4)
    with pytest.raises(Exception, match="complex"):
        adj.jit(REAL_ONLY[name])(z)


# On and next to the branch cuts, with signed zeros, and at the branch
# points and poles: numpy's values (C99's), to a few ulp.
CUTS = np.array([2 + 0j, -2 + 0j, complex(2, -0.0), complex(-2, -0.0), 3j,
                 -3j, complex(-0.0, 3), complex(-0.0, -3), 1 + 0j, -1 + 0j,
                 0j, 1j, -1j, 0.5 + 0j, complex(1.5, -0.0), 1e-8 + 1e-8j,
                 1e6 + 1e6j, -1e6 + 2j, 1 + 1e-300j])


@pytest.mark.parametrize("name", ["arcsin", "arccos", "arctan", "arcsinh",
                                  "arccosh", "arctanh"])
def test_inverse_functions_on_their_branch_cuts_like_numpy(name):
    fn = getattr(np, name)
    with np.errstate(all="ignore"):
        want = fn(CUTS)
    got = np.asarray(adj.jit(lambda z: fn(z))(CUTS))
    finite = np.isfinite(want)
    # A few ulp: the math approximations' instruction selection is the
    # host CPU's (FMA, vector width).
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-15,
                               atol=0)
    # Poles: the same infinities, the same finite other part.
    np.testing.assert_array_equal(got[~finite], want[~finite])


def test_log1p_is_accurate_near_minus_one_and_zero():
    """|1 + z| tiny (numpy and MLIR's complex.log1p lose it) and z tiny
    (numpy's log(1 + z) rounds it away), against mpmath."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.prec = 120
    z = np.array([-1 + 1e-300j, -1 + 1e-8j, 1e-20 + 0j, 1e-10 + 1e-10j,
                  -1e-16 + 1e-16j, 1e300 + 1e300j, -1 + 0j])
    got = np.asarray(adj.jit(lambda z: np.log1p(z))(z))
    want = [complex(mpmath.log(1 + mpmath.mpc(v.real, v.imag)))
            for v in z[:-1]]
    np.testing.assert_allclose(got[:-1], want, rtol=1e-15, atol=0)
    assert got[-1] == complex(-np.inf, 0)


# Complex numbers sort as numpy's: by real part, then imaginary part, those
# with a NaN after the others (R + Rj, R + nanj, nan + Rj, nan + nanj).
NAN = np.nan
TO_SORT = np.array([complex(1, NAN), 2 + 0j, complex(NAN, 1),
                    complex(NAN, 0), complex(NAN, NAN), 1 + 0j, 1 - 1j,
                    complex(0, NAN), 1 + 0j, 2 - 3j, -1 + 5j,
                    complex(NAN, -2)])


def same_bits(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(np.stack([got.real, got.imag]),
                                  np.stack([want.real, want.imag]))


@pytest.mark.parametrize("shape", [(12,), (3, 40), (2, 1500)])
def test_sort_and_argsort_like_numpy(shape):
    """Short rows (the rank sort) and long ones (the bitonic network, padded
    with nan + nanj), NaNs in every group, ties kept stable."""
    if shape == (12,):
        z = TO_SORT
    else:
        z = (RNG.integers(-3, 3, shape) + 1j * RNG.integers(-3, 3, shape))
        z[..., ::7] = complex(NAN, 1)
        z[..., 3::11] = complex(2, NAN)
    same_bits(adj.jit(lambda z: np.sort(z))(z), np.sort(z))
    np.testing.assert_array_equal(
        adj.jit(lambda z: np.argsort(z, kind="stable"))(z),
        np.argsort(z, kind="stable"))
    same_bits(adj.jit(lambda z: np.sort_complex(z))(z), np.sort_complex(z))


def test_searchsorted_and_partition_in_numpy_order():
    s = np.sort(TO_SORT)
    for side in ("left", "right"):
        np.testing.assert_array_equal(
            adj.jit(lambda s, v: np.searchsorted(s, v, side=side))(s,
                                                                   TO_SORT),
            np.searchsorted(s, TO_SORT, side=side))
    # The k-th in place, the smaller ones before it, the others after (in
    # no particular order, which numpy's and adjoint's differ in).
    z = crandn(9)
    got, want = np.asarray(adj.jit(lambda z: np.partition(z, 4))(z)), \
        np.partition(z, 4)
    same_bits(got[4], want[4])
    same_bits(np.sort(got[:4]), np.sort(want[:4]))
    same_bits(np.sort(got[5:]), np.sort(want[5:]))
    order = np.asarray(adj.jit(lambda z: np.argpartition(z, 4))(z))
    same_bits(z[order][4], np.sort(z)[4])
    with pytest.raises(Exception, match="may not be complex"):
        adj.jit(lambda z, s: np.digitize(z, s))(z, s)


def test_sort_complex_of_real_arrays_is_complex():
    x = np.array([3.0, -1.0, 2.0])
    same_bits(adj.jit(lambda x: np.sort_complex(x))(x), np.sort_complex(x))
    # JAX's dtype: the complex type of the float type (numpy's is always
    # complex128 for float32).
    got = adj.jit(lambda x: np.sort_complex(x))(x.astype(np.float32))
    assert np.asarray(got).dtype == np.complex64
    np.testing.assert_array_equal(got, np.sort_complex(x))


def test_sort_gradient_is_the_permutation_like_jax():
    z = crandn(6)
    w = crandn(6)

    def loss(np_):
        return lambda z: np_.sum(np_.real(np_.sort(z) * w))

    close(adj.grad(loss(anp))(z), jax.grad(loss(jnp))(z))


@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 0,
                                                     "keepdims": True}])
def test_median_like_numpy(kwargs):
    """The middle number or the mean of the middle two in numpy's order;
    where a slice holds a NaN, its last number, which holds one."""
    z = np.array([[3 + 1j, 1 + 2j, 5j, 2 - 1j],
                  [2 + 0j, 2 - 1j, complex(0, NAN), 1 + 1j],
                  [complex(NAN, 0), 1j, 2 + 2j, -1 + 0j]])
    same_bits(adj.jit(lambda z: np.median(z, **kwargs))(z),
              np.median(z, **kwargs))
    odd = z[:, :3]
    same_bits(adj.jit(lambda z: np.median(z, **kwargs))(odd),
              np.median(odd, **kwargs))
    # An infinite middle number: numpy's mean divides by 2 as a complex
    # number, which makes inf + nanj of (inf + 2j) / 2; so does adjoint.
    inf = np.array([complex(np.inf, 1), complex(np.inf, 2), 0j, 1j])
    with np.errstate(invalid="ignore"):
        want = np.median(inf)
    same_bits(adj.jit(lambda z: np.median(z))(inf), want)


# -- derivatives: JAX's convention --------------------------------------------

def weights(shape):
    return crandn(*shape)


# JAX's derivative of complex arccosh is 1 / sqrt(z^2 - 1), whose branch
# is the wrong one where Re z < 0 (the sign flips): there the derivative is
# held to finite differences instead (test_grad_like_finite_differences).
JAX_WRONG_BRANCH = {"arccosh"}


@pytest.mark.parametrize("name", sorted(set(UNARY) - JAX_WRONG_BRANCH))
def test_grad_of_a_real_loss_like_jax(name):
    fn = UNARY[name]
    z = crandn(3, 3)
    w = weights(np.shape(fn(np, z)))

    def loss(np_):
        return lambda z: np_.sum(np_.real(fn(np_, z) * w))

    close(adj.grad(loss(anp))(z), jax.grad(loss(jnp))(z), rtol=1e-10,
          atol=1e-12)


@pytest.mark.parametrize("name", ["arcsin", "arccos", "arctan", "arcsinh",
                                  "arccosh", "arctanh", "log1p"])
def test_grad_like_finite_differences(name):
    """grad of Re(sum(w f(z))) in JAX's convention, dL/dx - i dL/dy, against
    central differences of numpy's f in each part of each entry."""
    fn = UNARY[name]
    z = crandn(3, 3)
    w = weights((3, 3))

    def loss(z):
        return np.sum(np.real(fn(np, z) * w))

    want = np.zeros_like(z)
    h = 1e-6
    for k in np.ndindex(z.shape):
        for step, unit in ((h, 1.0), (1j * h, -1j)):
            up, down = z.copy(), z.copy()
            up[k] += step
            down[k] -= step
            want[k] += unit * (loss(up) - loss(down)) / (2 * h)
    got = adj.grad(lambda z: anp.sum(anp.real(fn(anp, z) * w)))(z)
    close(got, want, rtol=1e-7, atol=1e-8)


@pytest.mark.parametrize("name", sorted(REAL))
def test_grad_of_real_parts_like_jax(name):
    fn = REAL[name]
    z = crandn(3, 3)
    w = RNG.standard_normal((3, 3))

    def loss(np_):
        return lambda z: np_.sum(fn(np_, z) * w)

    close(adj.grad(loss(anp))(z), jax.grad(loss(jnp))(z), rtol=1e-10,
          atol=1e-12)


def test_abs_squared_gradient_is_twice_the_conjugate():
    # JAX's convention: grad of |z|^2 is 2 conj(z) (df/dx - i df/dy).
    z = crandn(4)
    close(adj.grad(lambda z: anp.sum(anp.abs(z) ** 2))(z), 2 * np.conj(z),
          rtol=1e-12)


def test_grad_through_parts_and_back():
    x, y = RNG.standard_normal(3), RNG.standard_normal(3)

    def f(np_):
        def loss(x, y):
            z = x + 1j * y
            return np_.sum(np_.abs(np_.exp(z) * z)) + np_.sum(np_.angle(z))
        return loss

    got = adj.grad(f(anp), argnums=(0, 1))(x, y)
    want = jax.grad(f(jnp), argnums=(0, 1))(x, y)
    for g, w in zip(got, want):
        close(g, np.asarray(w), rtol=1e-10)


def test_jvp_and_vjp_of_a_complex_function_like_jax():
    z, t, c = crandn(2, 2), crandn(2, 2), crandn(2, 2)

    def f(np_):
        return lambda z: np_.sin(z) @ z + np_.conj(z) * 2j

    out, tan = adj.jvp(f(anp), (z,), (t,))
    jout, jtan = jax.jvp(f(jnp), (z,), (t,))
    close(out, np.asarray(jout))
    close(tan, np.asarray(jtan), rtol=1e-10)
    out, back = adj.vjp(f(anp), z)
    jout, jback = jax.vjp(f(jnp), z)
    close(back(c)[0], np.asarray(jback(c)[0]), rtol=1e-10)


def test_second_order_like_jax():
    z = crandn(3)

    def f(np_):
        def loss(z):
            return np_.sum(np_.real(np_.exp(z) * np_.conj(z)))
        return lambda z: np_.sum(np_.abs(jax_or_adj(np_).grad(loss)(z)) ** 2)

    def jax_or_adj(np_):
        return jax if np_ is jnp else adj

    close(adj.grad(f(anp))(z), jax.grad(f(jnp))(z), rtol=1e-9)


def test_grad_of_a_complex_output_says_what_to_do():
    z = crandn(3)
    with pytest.raises(Exception, match="real-valued outputs"):
        adj.grad(lambda z: anp.sum(z * z))(z)


# -- GPU targets: Intel's CPU OpenCL runtime runs the SPIR-V ------------------

GPU_CASES = {
    "arithmetic": lambda np_, z, w: (z * w - z / w) ** 2 + 1j,
    "math": lambda np_, z, w: np_.exp(z) + np_.sqrt(w) * np_.log1p(z),
    "parts": lambda np_, z, w: np_.abs(z) + np_.angle(w) + np_.real(z * w),
    "sum": lambda np_, z, w: np_.sum(z * w, axis=0),
    "matmul": lambda np_, z, w: z @ w.T,
    "casts": lambda np_, z, w: (np_.real(z) + 1j).astype(np.complex64),
}


@pytest.mark.parametrize("name", sorted(GPU_CASES))
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_on_opencl_like_numpy(opencl_device, name, dtype):
    fn = GPU_CASES[name]
    z, w = crandn(4, 3, dtype=dtype), crandn(4, 3, dtype=dtype)
    got = adj.to_numpy(adj.jit(lambda z, w: fn(anp, z, w),
                               device=opencl_device)(z, w))
    want = np.asarray(fn(np, z, w))
    tight = dtype == np.complex128 and got.dtype != np.complex64
    close(got, want.astype(got.dtype),
          rtol=1e-12 if tight else 2e-5, atol=1e-12 if tight else 2e-5)


def test_gradient_on_opencl_like_jax(opencl_device):
    z = crandn(3, 3)

    def loss(np_):
        return lambda z: np_.sum(np_.abs(np_.sin(z) @ z) ** 2)

    got = adj.to_numpy(adj.jit(adj.grad(loss(anp)), device=opencl_device)(z))
    close(got, np.asarray(jax.grad(loss(jnp))(z)), rtol=1e-10)
