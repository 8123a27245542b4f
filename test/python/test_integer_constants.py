"""Integer constants keep all 64 bits: Python ints, numpy integer scalars
and int64 arrays in jitted code, and ints combined with traced integers,
where a double (which the builder once took) holds integers only up to
2**53 (2**53 + 1 became 2**53, 2**63 - 1 became -2**63)."""

import numpy as np
import pytest

import adjoint as adj

BIG = [2 ** 53 + 1, 2 ** 62 + 1, 2 ** 63 - 1, -2 ** 63, -(2 ** 53) - 3]


def test_python_and_numpy_integers_are_exact():
    @adj.jit
    def f(x):
        return (x + (2 ** 53 + 1), x * 0 + np.int64(2 ** 62 + 1),
                x - (2 ** 63 - 1), (2 ** 62 + 3) - x, x * (2 ** 40 + 1),
                np.bitwise_and(x, 2 ** 61 + 3), np.full(2, 2 ** 62 + 1),
                np.asarray(BIG))
    got = [np.asarray(v).tolist() for v in f(np.int64(1))]
    assert got == [2 ** 53 + 2, 2 ** 62 + 1, 2 - 2 ** 63, 2 ** 62 + 2,
                   2 ** 40 + 1, 1, [2 ** 62 + 1] * 2, BIG]


def test_int32_and_out_of_range_integers_say_so():
    x32 = np.int32(5)
    assert int(adj.jit(lambda x: x + 7)(x32)) == 12
    with pytest.raises(Exception, match="64 bits|not a valid|too large"):
        adj.jit(lambda x: x + 2 ** 64)(np.int64(1))


def test_builder_integer_constants():
    m = adj.Module()
    values = np.array(BIG, dtype=np.int64)

    def body(x):
        return x + adj._adjoint.constant(m, values, [5], adj.DType.i64) + \
            adj._adjoint.scalar(m, 2 ** 62, adj.DType.i64)
    fn = m.function("f", [adj.Type.tensor(adj.DType.i64, [5])], body)
    out = np.asarray(adj.compile(m, fn.name)(np.zeros(5, np.int64)))
    want = (values.astype(object) + 2 ** 62)
    want = [(int(w) + 2 ** 63) % 2 ** 64 - 2 ** 63 for w in want]
    assert out.tolist() == want
