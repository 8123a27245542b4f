"""numpy indexing and JAX's x.at[idx] updates in jitted code, against JAX.

Each case is one Python function that both frameworks run unchanged (jax
on jnp arrays, adjoint translating its source): its value, its gradient
(jax.grad) and a forward-mode derivative (jax.jvp) must agree in f64, and
the gradient also with central finite differences. Index forms: ints,
slices of negative step, x[i:i + k] with a traced i (a loop index),
integer arrays and tensors (several, broadcast, with negative entries),
build-time boolean masks; updates set/add/mul/min/max/get.
"""

import numpy as np
import pytest

import adjoint as adj

from conftest import check_grads

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
jax.config.update("jax_enable_x64", True)

IDX = np.array([[2, -1], [0, 1]])        # negative entries wrap
ROWS = np.array([2, 0, -1])
COLS = np.array([1, 3, 0])
MASK = np.array([True, False, True, True, False])
DUP = np.array([1, 3, 1])                # a repeated index


def reverse(x, u):
    return (x[::-1] * u).sum() + (x[5:1:-2] ** 2.0).sum()


def reverse_2d(m, u):
    return (m[::-2, ::-1] * m[1]).sum() + (m[:, 3:0:-1] * u[:3]).sum()


def gather_arrays(m, u):
    return ((m[IDX] * 2.0).sum() + (m[ROWS, COLS] * u[:3]).sum()
            + (m[:, COLS] ** 2.0).sum() + (m[ROWS[:, None], COLS] * 1.5)
            .sum() + (m[1, ROWS] * u[2:5]).sum())


def gather_mask(x, u):
    return (x[MASK] * u[:3]).sum() + x[MASK][::-1][0]


def set_at(m, u):
    y = m.at[ROWS, COLS].set(u[:3] * 3.0)
    z = m.at[1:4:2, ::-1].set(u[:5])
    return (y * y).sum() + (z * m).sum()


def add_mul_at(x, u):
    y = x.at[DUP].add(u[:3])            # repeated index accumulates
    # JAX differentiates scatter_mul only for indices declared unique.
    z = x.at[::-2].mul(u[:3], unique_indices=True)
    w = x.at[MASK].mul(u[4], unique_indices=True)
    return (y * y).sum() + (z ** 3.0).sum() + (w * x).sum()


def min_max_at(x, u):
    y = x.at[DUP].max(u[:3])
    z = x.at[np.array([0, 4, 2])].min(u[2:5])
    return (y ** 2.0).sum() + (z * x).sum() + x.at[2:4].get().sum()


def set_repeated(x, u):
    # The last of the repeated updates wins (JAX on the CPU agrees).
    return (x.at[DUP].set(u[:3]) ** 2.0).sum()


CASES = [
    (reverse, [(8,), (8,)]),
    (reverse_2d, [(4, 5), (6,)]),
    (gather_arrays, [(3, 5), (6,)]),
    (gather_mask, [(5,), (6,)]),
    (set_at, [(4, 5), (6,)]),
    (add_mul_at, [(5,), (6,)]),
    (min_max_at, [(5,), (6,)]),
    (set_repeated, [(5,), (6,)]),
]


@pytest.mark.parametrize("fn,shapes", CASES, ids=[c[0].__name__
                                                  for c in CASES])
def test_against_jax(fn, shapes, rng):
    args = [rng.standard_normal(s) for s in shapes]
    f = adj.jit(fn)
    np.testing.assert_allclose(f(*args), fn(*map(jnp.asarray, args)),
                               rtol=1e-12)
    got = adj.grad(f, argnums=(0, 1))(*args)
    want = jax.grad(fn, argnums=(0, 1))(*map(jnp.asarray, args))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    tangents = [rng.standard_normal(s) for s in shapes]
    _, got_t = adj.jvp(f, args, tangents)
    _, want_t = jax.jvp(fn, tuple(map(jnp.asarray, args)),
                        tuple(map(jnp.asarray, tangents)))
    np.testing.assert_allclose(got_t, want_t, rtol=1e-10, atol=1e-12)
    check_grads(f, args, [0, 1], rtol=1e-5, atol=1e-7)


def windows(x, w):
    acc = x[0:3] * 0.0
    for i in range(5):
        acc = acc + x[i:i + 3] * w[i]
    return (acc * acc).sum()


def update_windows(x, v):
    for i in range(4):
        x = x.at[i:i + 2].add(v * (i + 1.0))
        x = x.at[i + 1:i + 3].set(x[i:i + 2] * 0.5)
    return (x * x).sum()


@pytest.mark.parametrize("fn", [windows, update_windows])
def test_dynamic_slices_in_loops(fn, rng):
    """x[i:i + k] with i an adj.for index: a gather (dynamic_slice) and a
    scatter (dynamic_update_slice); JAX unrolls the Python loop."""
    x, w = rng.standard_normal(7), rng.standard_normal(5)
    if fn is update_windows:
        w = w[:2]
    f = adj.jit(fn)
    np.testing.assert_allclose(f(x, w), fn(jnp.asarray(x), jnp.asarray(w)),
                               rtol=1e-12)
    got = adj.grad(f, argnums=(0, 1))(x, w)
    want = jax.grad(fn, argnums=(0, 1))(jnp.asarray(x), jnp.asarray(w))
    for g, ww in zip(got, want):
        np.testing.assert_allclose(g, ww, rtol=1e-10, atol=1e-12)
    tx, tw = rng.standard_normal(x.shape), rng.standard_normal(w.shape)
    _, got_t = adj.jvp(f, (x, w), (tx, tw))
    _, want_t = jax.jvp(fn, (jnp.asarray(x), jnp.asarray(w)),
                        (jnp.asarray(tx), jnp.asarray(tw)))
    np.testing.assert_allclose(got_t, want_t, rtol=1e-10, atol=1e-12)


def test_dynamic_slice_start_is_clamped(rng):
    """As lax.dynamic_slice: a start past the end reads the last window."""
    @adj.jit
    def f(x, i):
        return x[i:i + 3], x.at[i:i + 2].set(-1.0)

    x = rng.standard_normal(6)
    for i in (0, 2, 5, 9):
        got = f(x, np.array(i, np.int64))
        s = min(i, 3)
        np.testing.assert_array_equal(got[0], x[s:s + 3])
        np.testing.assert_array_equal(
            got[1], np.asarray(jnp.asarray(x).at[min(i, 4):min(i, 4) + 2]
                               .set(-1.0)))


def test_traced_index_tensors(rng):
    """Index tensors passed as arguments: several, broadcast, negative."""
    @adj.jit
    def f(m, i, j):
        return m[i, j], m[i[:, None], j], m[:, j], m.at[i, j].add(1.0)

    m = rng.standard_normal((4, 5))
    i, j = np.array([0, -1, 2]), np.array([4, 1, -5])
    for got, want in zip(f(m, i, j), (m[i, j], m[i[:, None], j], m[:, j],
                                      np.asarray(jnp.asarray(m).at[i, j]
                                                 .add(1.0)))):
        np.testing.assert_array_equal(got, want)


def test_traced_mask_updates(rng):
    """x.at[mask] with a mask computed in the program is a select (as
    jnp.where); gradients flow to the kept values and the updates."""
    def fn(x, v):
        m = x > 0.0
        y = x.at[m].set(v[0]) + x.at[m].add(v[1]) + x.at[m].mul(v[2])
        return (y * x).sum() + x.at[m].max(v[3]).sum()

    def ref(x, v):
        m = x > 0.0
        y = (jnp.where(m, v[0], x) + jnp.where(m, x + v[1], x)
             + jnp.where(m, x * v[2], x))
        return (y * x).sum() + jnp.where(m, jnp.maximum(x, v[3]), x).sum()

    x, v = rng.standard_normal(7), rng.standard_normal(4)
    f = adj.jit(fn)
    np.testing.assert_allclose(f(x, v), ref(x, v), rtol=1e-12)
    got = adj.grad(f, argnums=(0, 1))(x, v)
    want = jax.grad(ref, argnums=(0, 1))(jnp.asarray(x), jnp.asarray(v))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)


def test_errors():
    def traced_mask(x):
        return x[x > 0.0]

    with pytest.raises(adj.FrontendError, match="numpy.where"):
        adj.jit(traced_mask)(np.ones(3))

    def traced_stop(x, n):
        return x[1:n]

    with pytest.raises(adj.FrontendError, match=r"x\[i:i \+ k\]"):
        adj.jit(traced_stop)(np.ones(3), np.array(2))

    def out_of_bounds(x):
        return x.at[np.array([0, 3])].set(1.0)

    with pytest.raises(adj.FrontendError, match="out of bounds"):
        adj.jit(out_of_bounds)(np.ones(3))

    def float_index(x):
        return x[np.array([0.5])]

    with pytest.raises(adj.FrontendError, match="integer"):
        adj.jit(float_index)(np.ones(3))


def test_scatter_builder_modes():
    """adjoint.scatter on builder Values, evaluated by the interpreter."""
    m = adj.Module()
    types = [adj.tensor_type(adj.f64, [4]), adj.tensor_type(adj.i64, [3]),
             adj.tensor_type(adj.f64, [3])]
    modes = ("set", "add", "mul", "min", "max")
    m.function("f", types, lambda x, i, u: tuple(
        adj.scatter(mode, x, i, u) for mode in modes))
    text = str(m)
    for mode in ("set", "mul", "min", "max"):
        assert "adj.scatter %s" % mode in text
    assert "adj.scatter_add" in text
    x, i = np.array([1.0, 2.0, 3.0, 4.0]), np.array([1, 2, 1])
    u = np.array([3.0, -1.0, 4.0])
    got = adj.interpret(m, "f", x, i, u)
    want = [[1, 4, -1, 4], [1, 9, 2, 4], [1, 24, -3, 4], [1, 2, -1, 4],
            [1, 4, 3, 4]]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(adj.Error, match="mode must be"):
        m.function("g", types, lambda x, i, u: adj.scatter("sum", x, i, u))


def test_min_max_ties_share_the_sensitivity_as_in_jax():
    def fn(x, u):
        return x.at[np.array([0, 0])].max(u).sum() + \
            x.at[np.array([1, 1])].min(u).sum()

    for x, u in ((np.array([1.0, 2.0]), np.array([1.0, 1.0])),
                 (np.array([1.0, 2.0]), np.array([3.0, 2.0]))):
        got = adj.grad(adj.jit(fn), argnums=(0, 1))(x, u)
        want = jax.grad(fn, argnums=(0, 1))(jnp.asarray(x), jnp.asarray(u))
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-12)


@pytest.mark.parametrize("i,j", [(1, 5), (1, -6), (0, 4), (3, 0), (-1, 2)])
def test_traced_indices_out_of_range_stay_in_their_axis(i, j):
    """Each traced coordinate is clamped in its own axis for reads, and an
    update at an out-of-range index is dropped, as JAX does: neither may
    reach a neighbouring row through the flattened position."""
    x = np.arange(12.0).reshape(3, 4)

    def read(x, i, j):
        return x[i, j] * 1.0 + x[1, j]

    def write(x, i, j):
        return x.at[i, j].set(100.0).at[i, 1].add(5.0)

    for f in (read, write):
        np.testing.assert_array_equal(
            np.asarray(adj.jit(f)(x, np.array(i), np.array(j))),
            np.asarray(f(jnp.asarray(x), i, j)))


@pytest.mark.parametrize("i", [-1, -3, -6, 3])
def test_a_negative_traced_start_counts_from_the_end(i):
    x = np.arange(1.0, 5.0)

    def f(x, i):
        return x[i:i + 3] * 2.0, x.at[i:i + 2].set(0.0)

    def f_ref(x, i):
        return (jax.lax.dynamic_slice(x, (i,), (3,)) * 2.0,
                jax.lax.dynamic_update_slice(x, jnp.zeros(2), (i,)))

    got, want = adj.jit(f)(x, np.array(i)), f_ref(jnp.asarray(x), i)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
