"""numpy's stacking, splitting, reordering, resizing and padding functions
in jitted code (_np_shapes, _np_resizing, _np_pad) against jax.numpy in
float64: values, reverse and forward mode, second order where the function
is not linear (a linear one's Hessian is zero), and on OpenCL."""

import numpy as np
import jax.numpy as jnp
import pytest

import adjoint as adj
import adjoint.numpy as anp

from numpy_reference import check_like_jax


def both(make, *args, **kwargs):
    """check_like_jax of `make(np)` (adjoint's numpy in jitted code)
    against `make(jnp)`."""
    return check_like_jax(make(np), *args, jax_name=make(jnp), **kwargs)


def seq(m, v):
    """A static sequence argument: a list for numpy (as numpy code writes
    it), an array for jax.numpy (which refuses lists)."""
    return v if m is np else np.array(v)


@pytest.fixture
def xy():
    rng = np.random.default_rng(0)
    return rng.standard_normal((3, 4)), rng.standard_normal((3, 4))


def test_stacking_splitting_and_atleast(xy, opencl_device):
    both(lambda m: lambda a, b: (
        m.vstack([a, b[0]]), m.hstack([a, b]), m.hstack((a[0], 2.0 * b[1])),
        m.dstack([a, b]), m.column_stack([a[0], b[0], a[1]]),
        m.column_stack((a, b[:, :1])), m.atleast_1d(a[0, 0]),
        m.atleast_2d(a[0]), m.atleast_3d(a[0]), m.atleast_3d(a),
        m.atleast_2d(a[0, 0], b), m.block([[a, b], [b[:1], a[:1]]]),
        m.block([a[0], b[0, :2]]), m.block([[a[:2, :2]], [b[:1, :2]]]),
        m.append(a, b), m.append(a, b[:1], axis=0), m.append(a[0], 1.5),
        m.concat([a, b], axis=-1), m.unstack(a), m.unstack(a, axis=1),
        m.hsplit(a, 2), m.hsplit(a[0], [1, 3]), m.vsplit(a, 3),
        m.vsplit(b, [1]), m.dsplit(a[None], 2), m.dsplit(a[None], [1, 2]),
        m.vstack([a, b], dtype=m.float32)),
        *xy, order=1, devices=[opencl_device])
    # numpy's row_stack is vstack (jax.numpy has only the latter).
    check_like_jax(lambda a: np.row_stack([a, a[0]]), xy[0],
                   jax_name=lambda a: jnp.vstack([a, a[0]]), order=1)


def test_flips_rotations_rolls_and_axes(xy):
    rng = np.random.default_rng(1)
    t = rng.standard_normal((2, 3, 4))
    both(lambda m: lambda a, x: (
        m.flip(a), m.flip(a, 1), m.flip(x, (0, 2)), m.flip(x, axis=-1),
        m.fliplr(a), m.flipud(a), m.flipud(x[0, 0]),
        m.rot90(a), m.rot90(a, 2), m.rot90(a, -1), m.rot90(a, 7),
        m.rot90(x, 1, (2, 0)), m.rot90(x, k=3, axes=(-1, 1)),
        m.roll(a, 1), m.roll(a, -5), m.roll(a, 2, axis=1),
        m.roll(a, (1, -1), (0, 1)), m.roll(x, (1, 2), axis=(2, 2)),
        m.roll(x, 3, axis=(0, 1)), m.roll(a, 0, 0),
        m.moveaxis(x, 0, -1), m.moveaxis(x, [0, 1], [-1, -2]),
        m.moveaxis(x, -1, 0), m.rollaxis(x, 2), m.rollaxis(x, 0, 3),
        m.rollaxis(x, -1, 1), m.rollaxis(x, 1, 1), m.swapaxes(x, 0, 2),
        m.swapaxes(a, -1, 0), m.permute_dims(x, (1, 2, 0)),
        # numpy's axes=None default (jax.numpy requires axes):
        m.permute_dims(x) if m is np else m.transpose(x),
        m.matrix_transpose(x), m.copy(a),
        m.astype(a, m.float32), m.astype(a > 0, m.float64)),
        xy[0], t, order=1)


def test_repeat_tile_resize_delete_insert_broadcast(xy):
    both(lambda m: lambda a, b: (
        m.repeat(a, 2), m.repeat(a, seq(m, [1, 0, 2]), axis=0),
        m.repeat(a, 3, axis=-1), m.repeat(a[0, 0], 3),
        m.repeat(a, seq(m, [2]), axis=1),
        m.repeat(a, 2, axis=0, total_repeat_length=5),
        m.tile(a, 2), m.tile(a[0], (2, 1, 2)), m.tile(a, (2, 1)),
        m.tile(a[0, 0], 3), m.resize(a, (5, 3)), m.resize(a, 7),
        m.resize(a[0], (2, 2)), m.delete(a, 1, axis=1),
        m.delete(a, seq(m, [0, 2])), m.delete(a, slice(0, None, 2), 1),
        m.delete(a, -1, 0), m.insert(a, 1, b[0], axis=0),
        m.insert(a, seq(m, [1, 1, 3]), 5.0, axis=1),
        m.insert(a, 2, b[:2, :3], axis=1),
        m.insert(a, seq(m, [0]), b[0, :1], axis=1),
        m.insert(a, 3, b[0, 0]), m.insert(a, -1, b[:, 0], axis=1),
        m.insert(a, seq(m, [4, 0]), b[:2, 0], axis=1),
        m.broadcast_arrays(a, b[0], 1.0), m.broadcast_arrays(a[:, :1], b[0]),
        m.broadcast_to(a[0], m.broadcast_shapes((3, 1), (4,)))),
        *xy, order=1)


def test_pad_every_mode(xy):
    both(lambda m: lambda a: (
        m.pad(a, 1), m.pad(a, (1, 2)), m.pad(a, ((1, 2), (0, 3)),
                                           constant_values=((1., 2.),
                                                            (3., 4.))),
        m.pad(a, (0, 1), constant_values=a[0, 0]),
        m.pad(a, (2, 1), "edge"), m.pad(a, ((5, 7), (2, 3)), "reflect"),
        m.pad(a, ((5, 7), (4, 9)), "symmetric"),
        m.pad(a, ((4, 7), (5, 9)), "wrap"),
        m.pad(a, ((5, 3), (4, 9)), "reflect", reflect_type="odd"),
        m.pad(a, ((5, 3), (4, 9)), "symmetric", reflect_type="odd"),
        m.pad(a[:1], ((0, 0), (2, 2)), "reflect"),
        m.pad(a[:1], 2, "reflect"),
        m.pad(a, ((2, 3), (1, 2)), "linear_ramp",
              end_values=((1., -1.), (2., .5))),
        m.pad(a, 2, "linear_ramp")), xy[0], order=1)
    # The statistics are not linear: second order too.
    both(lambda m: lambda a: (
        m.pad(a, 2, "maximum"), m.pad(a, 2, "minimum", stat_length=2),
        m.pad(a, ((1, 2), (3, 1)), "mean", stat_length=((1, 2), (3, 2))),
        m.pad(a, 2, "median"),
        m.pad(a, ((0, 2), (1, 1)), "median", stat_length=3)), xy[0])


def test_pad_integers_and_empty_mode(opencl_device):
    x = np.random.default_rng(3).integers(-9, 9, (3, 4))
    both(lambda m: lambda a: (
        m.pad(a, ((1, 2), (2, 3)), "mean"),
        m.pad(a, ((1, 2), (2, 3)), "linear_ramp", end_values=5),
        m.pad(a, 2, "median"), m.pad(a, [2], "reflect", reflect_type="odd"),
        m.pad(a, ((1, 1),), constant_values=7)), x, order=0,
        devices=[opencl_device])
    # numpy's (n,) per axis, which jax.numpy refuses.
    f = adj.jit(lambda a: np.pad(a, ((1,), (2,)), constant_values=-1))
    np.testing.assert_array_equal(f(x), np.pad(x, ((1,), (2,)),
                                                constant_values=-1))
    # numpy leaves 'empty' pads undefined; the shape is numpy's.
    got = adj.jit(lambda a: np.pad(a, ((1, 0), (2, 2)), "empty"))(x)
    assert got.shape == (4, 8) and got.dtype == x.dtype
    np.testing.assert_array_equal(got[1:, 2:-2], x)


def test_python_values_and_numpy_arrays_outside_jit():
    """adjoint.numpy's functions on numpy arrays run compiled; shapes are
    numpy's answers."""
    a = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(anp.tile(a, (2, 1)), np.tile(a, (2, 1)))
    np.testing.assert_array_equal(anp.roll(a, 1, 1), np.roll(a, 1, 1))
    np.testing.assert_array_equal(anp.pad(a, 1, "wrap"), np.pad(a, 1, "wrap"))
    assert anp.broadcast_shapes((2, 1), (3,)) == (2, 3)
    # A list argument (numpy accepts it) is a constant of the program.
    got = adj.jit(lambda x: np.vstack([x, [1.0, 2.0, 3.0]]))(a)
    np.testing.assert_array_equal(got, np.vstack([a, [1.0, 2.0, 3.0]]))


@pytest.mark.parametrize("call, error, words", [
    (lambda a: np.roll(a, np.sum(a > 0), axis=(0, 1)), TypeError, "shift"),
    (lambda a: np.roll(a, np.sum(a), axis=0), TypeError, "shift"),
    (lambda a: np.repeat(a, np.asarray(a > 0, np.int64)), TypeError,
     "repeats"),
    (lambda a: np.rot90(a, 1, (0, 0)), ValueError, "different"),
    (lambda a: np.moveaxis(a, [0, 1], [0]), ValueError, "same number"),
    (lambda a: np.vsplit(a[0], 2), ValueError, "2 or more"),
    (lambda a: np.hsplit(a, 3), ValueError, "equal division"),
    (lambda a: np.block([[a], a]), ValueError, "depths"),
    (lambda a: np.block((a, a)), TypeError, "tuple"),
    (lambda a: np.pad(a, 1, "bogus"), ValueError, "bogus"),
    (lambda a: np.pad(a, -1), ValueError, "negative"),
    (lambda a: np.pad(a, 1, "edge", constant_values=1), ValueError,
     "constant_values"),
    (lambda a: np.insert(a, 9, 0.0, axis=0), IndexError, "out of bounds"),
    (lambda a: np.delete(a, [0, 7], axis=1), IndexError, "out of bounds"),
    (lambda a: np.tile(a, -1), ValueError, "negative"),
    (lambda a: np.matrix_transpose(a[0]), ValueError, "two-dimensional"),
])
def test_errors_name_the_function(call, error, words):
    with pytest.raises(adj.FrontendError) as info:
        adj.jit(call)(np.ones((2, 4)))
    assert isinstance(info.value.__cause__, error) or words in str(
        info.value), str(info.value)
    assert words in str(info.value)


def test_roll_by_a_traced_shift(xy):
    """JAX's traced shift: a gather at (i - shift) mod n."""
    both(lambda m: lambda a, k: (m.roll(a, k, axis=1), m.roll(a, -k, 0),
                                 m.roll(a, k * 5)),
         xy[0], np.array(3), order=1)


def test_vmap_batches_through_the_composed_ops():
    """vmap of a function using several of these (the batching rules are
    the adj ops')."""
    import jax

    def make(m):
        def f(a):
            return (m.pad(m.roll(a, 1, 0), 1, "reflect"), m.tile(a, 2),
                    m.diagonal(m.kron(a, a)), m.insert(a, 1, 0.5, axis=1),
                    m.flip(m.rot90(a), 0), m.repeat(a, 2, axis=1))
        return f
    x = np.random.default_rng(5).standard_normal((3, 2, 3))
    got = adj.vmap(make(np))(x)
    want = jax.vmap(make(jnp))(x)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-12)
