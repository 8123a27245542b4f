"""The call path of compiled code (docs/python.md, "The cost of a call"):
the quick paths for arguments that are already what the signature wants,
and the conversions of everything else, must give the same answers."""

import numpy as np
import pytest

import adjoint
from adjoint import Module, Type, DType

_DTYPES = [(np.float32, DType.f32), (np.float64, DType.f64),
           (np.float16, DType.f16), (np.int32, DType.i32),
           (np.int64, DType.i64)]


def _identity_plus(dtype):
    """A compiled (x: dtype[2, 3]) -> x + x."""
    m = Module()
    fn = m.function("twice", [Type.tensor(dtype, [2, 3])],
                    lambda x: adjoint.add(x, x))
    return adjoint.compile(m, fn.name)


@pytest.mark.parametrize("np_dtype,dtype", _DTYPES)
def test_every_layout_of_an_input_gives_the_same_result(np_dtype, dtype):
    exe = _identity_plus(dtype)
    base = np.arange(6).reshape(2, 3).astype(np_dtype)
    want = base + base
    swapped = base.astype(base.dtype.newbyteorder())
    layouts = {
        "c-contiguous": base,
        "fortran": np.asfortranarray(base),
        "strided view": np.repeat(base.ravel(), 2)[::2].reshape(2, 3),
        "byte-swapped": swapped,
        "transposed": np.ascontiguousarray(base.T).T,
        "list": base.tolist(),
    }
    for name, x in layouts.items():
        out = exe(x)
        assert out.dtype == base.dtype, name
        np.testing.assert_array_equal(out, want, err_msg=name)


def test_an_input_of_another_dtype_is_converted():
    exe = _identity_plus(DType.f32)
    out = exe(np.arange(6, dtype=np.int64).reshape(2, 3))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, 2 * np.arange(6).reshape(2, 3))


def test_a_bool_input_is_borrowed():
    m = Module()
    fn = m.function("pick", [Type.tensor(DType.i1, [4]),
                             Type.tensor(DType.f32, [4])],
                    lambda c, x: adjoint.select(c, x, adjoint.neg(x)))
    exe = adjoint.compile(m, fn.name)
    c = np.array([True, False, False, True])
    x = np.arange(1, 5, dtype=np.float32)
    want = np.where(c, x, -x)
    np.testing.assert_array_equal(exe(c, x), want)
    np.testing.assert_array_equal(exe(c.astype(np.int64), x), want)


def test_inputs_are_never_written_and_results_outlive_the_next_call():
    @adjoint.jit
    def step(p, lr):
        return {k: v - lr * v for k, v in p.items()}

    # Unaligned to a cache line (offset by one element): read in place.
    storage = np.arange(1, 9, dtype=np.float32)
    p = {"a": storage[1:5], "b": np.ones(3, np.float32)}
    before = {k: v.copy() for k, v in p.items()}
    first = step(p, 0.5)
    second = step(first, 0.5)
    third = step(p, 0.25)
    for k in p:
        np.testing.assert_array_equal(p[k], before[k])
        np.testing.assert_allclose(first[k], 0.5 * before[k])
        np.testing.assert_allclose(second[k], 0.25 * before[k])
        np.testing.assert_allclose(third[k], 0.75 * before[k])


def test_the_quick_path_misses_on_any_change_of_signature():
    @adjoint.jit
    def f(p, s):
        return {k: v * s for k, v in p.items()}, s + 1

    a = np.arange(3, dtype=np.float32)
    calls = [
        ({"x": a}, 2.0),                          # builds
        ({"x": a + 1}, 3.0),                      # same signature
        ({"x": a.astype(np.float64)}, 2.0),       # dtype
        ({"x": np.arange(4, dtype=np.float32)}, 2.0),  # shape
        ({"y": a}, 2.0),                          # dict keys
        ({"x": a, "y": a}, 2.0),                  # structure
        ({"x": a}, 2),                            # Python int, not float
        ({"x": a}, True),                         # bool
        ({"x": a}, np.float64(2.0)),              # numpy scalar: an array
        ({"x": a}, np.float32(2.0)),
    ]
    builds = []
    for p, s in calls:
        out, t = f(p, s)
        for k, v in p.items():
            np.testing.assert_allclose(out[k], v * s)
            # Python numbers are weakly typed, numpy scalars are arrays.
            assert out[k].dtype == np.result_type(v, s)
        np.testing.assert_allclose(t, s + 1)
        builds.append(f.builds)
    assert builds == [1, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    # Every signature seen is found again without a build.
    for p, s in calls:
        f(p, s)
    assert f.builds == 9


def test_tuples_lists_and_subclasses_keep_their_types():
    import collections

    @adjoint.jit
    def f(t):
        return t

    a, b = np.ones(2, np.float32), np.zeros(2, np.float32)
    assert type(f((a, [b]))) is tuple
    assert type(f((a, [b]))[1]) is list
    assert type(f([a, (b,)])) is list
    # Pytree nodes of other types come back with their type, from the
    # first (full path) and later (quick path) calls alike.
    pair = collections.namedtuple("pair", "x y")
    for _ in range(2):
        assert type(f(pair(a, b))) is pair
        out = f(collections.OrderedDict(y=b, x=a))
        assert type(out) is collections.OrderedDict
        assert list(out) == ["y", "x"]
        np.testing.assert_array_equal(out["x"], a)
        np.testing.assert_array_equal(out["y"], b)


def test_static_and_device_arguments_take_the_full_path():
    @adjoint.jit(static_argnums=(1,))
    def f(x, n):
        return x * n

    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(f(x, 2), 2 * x)
    np.testing.assert_array_equal(f(x, 3), 3 * x)
    assert f.builds == 2
    g = adjoint.jit(lambda x: x + 1)
    t = adjoint.Tensor.from_numpy(x)
    np.testing.assert_array_equal(adjoint.to_numpy(g(t)), x + 1)
    np.testing.assert_array_equal(g(x), x + 1)
    assert g.builds == 1
