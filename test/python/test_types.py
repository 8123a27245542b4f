"""Types in the front end: dtype promotion of every pair of dtypes, weak
Python scalars in every binary operator, and the joins of conditional
results, loop-carried values and recursive results (values and gradients,
against closed forms and central differences)."""

import inspect
import itertools
import operator

import numpy as np
import pytest

import adjoint as adj
from conftest import check_grads


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, l in enumerate(lines) if text in l)


# The lattice (docs/python.md, "Types"), written out: numpy's name of each
# dtype the front end takes, in the order i1 < i32 < i64 < f16 < f32 < f64.
_ORDER = [np.bool_, np.int32, np.int64, np.float16, np.float32, np.float64]


def _lattice(a, b):
    return _ORDER[max(_ORDER.index(a), _ORDER.index(b))]


# -- item 1: conditionals whose branches have different types ---------------

def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def _fact(n):
    return 1.0 if n <= 1 else n * _fact(n - 1)


@pytest.mark.parametrize("n", [3.5, 4.25, 0.5])  # not at a jump
def test_recursive_factorial_of_a_float(n):
    # The base case is the int 1, a weak scalar that joins the float paths.
    got = adj.jit(fact)(n)
    assert np.asarray(got).dtype == np.float32
    np.testing.assert_allclose(got, _fact(n), rtol=1e-6)
    # d/dn of n (n - 1) ... (n - k): the product rule, in closed form.
    factors = []
    m = n
    while m > 1:
        factors.append(m)
        m -= 1
    want = sum(np.prod([f for j, f in enumerate(factors) if j != i])
               for i in range(len(factors)))
    np.testing.assert_allclose(adj.grad(fact)(np.float32(n)), want,
                               rtol=1e-5)
    check_grads(fact, [np.float64(n)], [0], rtol=1e-6)


def int_or_double(c, x):
    return 1 if c else x * 2.0


def test_int_branch_joins_a_float_branch():
    f = adj.jit(int_or_double)
    x = np.float32(3.0)
    assert f(np.array(True), x) == 1.0
    assert f(np.array(False), x) == 6.0
    assert np.asarray(f(np.array(False), x)).dtype == np.float32
    # The gradient: 0 through the constant branch, 2 through the other.
    g = adj.grad(int_or_double, argnums=1)
    assert g(np.array(True), x) == 0.0
    assert g(np.array(False), x) == 2.0


def test_weak_branch_results_take_the_other_branch_dtype():
    @adj.jit
    def f(c, x16, i32, y64):
        a = 0.5 if c else x16        # weak float, then an f16
        b = i32 if c else 7          # an i32, then a weak int
        d = 2 if c else 3.5          # two weak numbers: a float (of the
        e = x16 * 2.0 if c else y64  # first float argument); f16 v f64
        return a, b, d, e

    args = (np.float16(1.25), np.int32(4), np.float64(8.0))
    for c, want in [(True, (0.5, 4, 2.0, 2.5)), (False, (1.25, 7, 3.5, 8.0))]:
        got = f(np.array(c), *args)
        assert [np.asarray(g).dtype for g in got] == \
            [np.float16, np.int32, np.float16, np.float64]
        np.testing.assert_allclose([float(g) for g in got], want)


def test_branch_results_broadcast_and_join_through_tuples():
    @adj.jit
    def f(c, v):
        p = (0, v) if c else (v * 2.0, 1)
        return p[0] + p[1]

    v = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_allclose(f(np.array(True), v), v)
    np.testing.assert_allclose(f(np.array(False), v), v * 2 + 1)


def conflicting_branches(c, v, w):
    r = v if c else w  # shapes [2] and [3]
    return r


def tensor_or_tuple(c, v):
    if c:
        r = v
    else:
        r = (v, v)
    return r


def test_true_conflicts_in_conditionals_name_the_line():
    with pytest.raises(adj.FrontendError, match="do not join") as info:
        adj.jit(conflicting_branches)(np.array(True), np.ones(2), np.ones(3))
    assert info.value.lineno == _line_of(conflicting_branches, "shapes [2]")
    with pytest.raises(adj.FrontendError, match="structure") as info:
        adj.jit(tensor_or_tuple)(np.array(True), np.ones(2))
    assert info.value.lineno == _line_of(tensor_or_tuple, "if c:")


# -- item 2: loop-carried values --------------------------------------------

def while_sum(n, y):
    rval = 0
    i = 0
    while i < n:
        rval = rval + y
        i = i + 1
    return rval


def for_sum(y):
    rval = 0
    for i in range(4):
        rval = rval + y * i
    return rval


def test_an_int_carried_value_joins_a_float_in_while_and_for():
    y = np.float32(1.5)
    got = adj.jit(while_sum)(np.int64(3), y)
    assert np.asarray(got).dtype == np.float32 and got == 4.5
    g = adj.grad(while_sum, argnums=1)(np.int64(3), y)
    assert g == 3.0
    got = adj.jit(for_sum)(y)
    assert np.asarray(got).dtype == np.float32 and got == 9.0
    assert adj.grad(for_sum)(y) == 6.0            # 0 + 1 + 2 + 3
    check_grads(for_sum, [np.float64(0.7)], [0])


def test_a_scalar_carried_value_broadcasts_to_a_vector():
    def f(v):
        acc = 0.0
        k = 0
        while k < 3:
            acc = acc + v * v
            k = k + 1
        return adj.sum(acc)

    v = np.array([1.0, -2.0, 0.5], np.float32)
    np.testing.assert_allclose(adj.jit(f)(v), 3 * np.sum(v * v), rtol=1e-6)
    np.testing.assert_allclose(adj.grad(f)(v), 6 * v, rtol=1e-6)


def test_weak_carried_values_do_not_widen():
    @adj.jit
    def f(x16, j32, y64):
        acc = 0.0       # a weak float, though the program's floats are f64
        k = 0           # a weak int meeting an i32
        n = 0           # only ever weak: an i64
        for i in range(3):
            acc = acc + x16
            k = k + j32
            n = n + 1
        return acc, k, n, y64

    acc, k, n, _ = f(np.float16(0.5), np.int32(2), np.float64(1.0))
    assert (np.asarray(acc).dtype, np.asarray(k).dtype,
            np.asarray(n).dtype) == (np.float16, np.int32, np.int64)
    assert (float(acc), int(k), int(n)) == (1.5, 6, 3)


# Loops with a tensor trip count (a Python one is unrolled: Python's rules).
def shape_change(x, n):
    for i in range(n):
        x = adj.concat([x, x])  # [2] to [4]
    return x


def tuple_change(x):
    r = x
    k = adj.sum(x) * 0.0
    while k < 2:
        r = (r, r)  # a tuple of two tensors
        k = k + 1
    return r


def test_true_conflicts_in_loops_name_the_line():
    with pytest.raises(adj.FrontendError,
                       match="variable 'x'.*do not join") as info:
        adj.jit(shape_change)(np.ones(2), np.int64(3))
    assert info.value.lineno == _line_of(shape_change, "for i in")
    with pytest.raises(adj.FrontendError, match="structure of 'r'") as info:
        adj.jit(tuple_change)(np.ones(2))
    assert info.value.lineno == _line_of(tuple_change, "a tuple of two")


# -- recursion ----------------------------------------------------------------

def repeat_add(n, v):
    # The base case is a scalar int; the recursive path a vector float.
    return 0 if n <= 0 else v + repeat_add(n - 1, v)


def test_recursive_results_join_dtype_and_shape():
    v = np.array([1.0, 2.0, 4.0], np.float32)
    got = adj.jit(repeat_add)(np.int64(3), v)
    assert np.asarray(got).dtype == np.float32
    np.testing.assert_allclose(got, 3 * v)
    np.testing.assert_allclose(adj.grad(lambda n, v: adj.sum(
        repeat_add(n, v) * v), argnums=1)(np.int64(3), v), 6 * v)


def recursion_conflict(n, v, w):
    return v if n <= 0 else recursion_conflict(n - 1, w, w)  # [2] and [3]


def test_true_conflicts_in_recursion_name_the_call():
    with pytest.raises(adj.FrontendError, match="do not join") as info:
        adj.jit(recursion_conflict)(np.int64(2), np.ones(2), np.ones(3))
    assert info.value.lineno == _line_of(recursion_conflict, "[2] and [3]")


# -- item 3: every pair of dtypes --------------------------------------------

def _sample(dtype, first):
    if dtype is np.bool_:
        return np.array([True, False] if first else [True, True])
    return np.array([3, 1] if first else [2, 1], dtype)


@pytest.mark.parametrize("a,b", list(itertools.product(_ORDER, _ORDER)))
def test_every_pair_of_dtypes_promotes(a, b):
    @adj.jit
    def f(x, y):
        return x * y, x < y, adj.maximum(x, y)

    @adj.jit
    def g(x, y):  # i1 has no arithmetic: booleans are compared only
        return x > y, x < y, adj.maximum(x, y)

    x, y = _sample(a, True), _sample(b, False)
    want = _lattice(a, b)
    if want is np.bool_:
        prod, less, big = g(x, y)
        np.testing.assert_array_equal(prod, x > y)
    else:
        prod, less, big = f(x, y)
        assert prod.dtype == want
        np.testing.assert_array_equal(prod, x.astype(want) * y.astype(want))
    assert big.dtype == want and less.dtype == np.bool_
    np.testing.assert_array_equal(less, x.astype(want) < y.astype(want))
    np.testing.assert_array_equal(big, np.maximum(x.astype(want),
                                                  y.astype(want)))


def test_f32_plus_f64_gives_f64_with_gradients_in_each_dtype(rng):
    def f(x, y):
        return adj.sum(x * y + x)

    x = rng.standard_normal(3).astype(np.float32)
    y = rng.standard_normal(3)
    got = adj.jit(f)(x, y)
    assert np.asarray(got).dtype == np.float64
    np.testing.assert_allclose(got, np.sum(x.astype(np.float64) * y + x))
    gx, gy = adj.grad(f, argnums=(0, 1))(x, y)
    assert gx.dtype == np.float32 and gy.dtype == np.float64
    np.testing.assert_allclose(gx, y + 1, rtol=1e-6)
    np.testing.assert_allclose(gy, x, rtol=1e-6)


# -- weak Python scalars in every binary operator ----------------------------

def _forms(s):
    """Each binary operator with the Python number `s` on either side,
    written as operators (the front end translates the syntax)."""
    def add(x):
        return x + s

    def radd(x):
        return s + x

    def sub(x):
        return x - s

    def rsub(x):
        return s - x

    def mul(x):
        return x * s

    def rmul(x):
        return s * x

    def truediv(x):
        return x / s

    def rtruediv(x):
        return s / x

    def pow(x):
        return x ** s

    def rpow(x):
        return s ** x

    def lt(x):
        return x < s

    def rlt(x):
        return s < x

    def le(x):
        return x <= s

    def rle(x):
        return s <= x

    def gt(x):
        return x > s

    def rgt(x):
        return s > x

    def ge(x):
        return x >= s

    def rge(x):
        return s >= x

    def eq(x):
        return x == s

    def req(x):
        return s == x

    def ne(x):
        return x != s

    def rne(x):
        return s != x

    return {"add": (add, radd), "sub": (sub, rsub), "mul": (mul, rmul),
            "truediv": (truediv, rtruediv), "pow": (pow, rpow),
            "lt": (lt, rlt), "le": (le, rle), "gt": (gt, rgt),
            "ge": (ge, rge), "eq": (eq, req), "ne": (ne, rne)}


_OPS = list(_forms(0))
_ARITH = ["add", "sub", "mul", "truediv", "pow"]


def _weak_dtype(dtype, scalar):
    """The dtype of `array op scalar` (JAX's weak typing), written out:
    the array's dtype unless the scalar's kind is above it."""
    kinds = {np.bool_: 0, np.int32: 1, np.int64: 1}
    kind = kinds.get(dtype, 2)
    skind = 0 if isinstance(scalar, bool) else \
        1 if isinstance(scalar, int) else 2
    if skind <= kind:
        return dtype
    return np.int64 if skind == 1 else np.float32


@pytest.mark.parametrize("op", _OPS)
@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.int64, np.float16,
                                   np.float32, np.float64])
@pytest.mark.parametrize("scalar", [True, 2, 2.5])
def test_weak_scalars_in_every_binary_operator(op, dtype, scalar):
    x = np.array([3, 1, 2], dtype) if dtype is not np.bool_ else \
        np.array([True, False, True])
    arith = op in _ARITH
    want = _weak_dtype(dtype, scalar)
    if op == "truediv" and want not in (np.float16, np.float32, np.float64):
        want = np.float32  # integers divide as floats
    if arith and want is np.bool_:
        pytest.skip("i1 arithmetic is not an op")
    if op == "pow" and want in (np.int32, np.int64):
        pytest.skip("adj.pow takes floats")
    py = getattr(operator, op)
    for left, form in zip((True, False), _forms(scalar)[op]):
        got = adj.jit(form)(x)
        assert got.dtype == (want if arith else np.bool_), (left, got.dtype)
        xs = x.astype(want).astype(np.float64)
        s = float(np.asarray(scalar).astype(want))
        with np.errstate(divide="ignore"):  # x / False is inf here too
            expected = py(xs, s) if left else py(s, xs)
        np.testing.assert_allclose(got.astype(np.float64), expected,
                                   rtol=2e-3 if want is np.float16 else 1e-6)


def test_weak_scalars_keep_a_low_precision_array_low():
    @adj.jit
    def f(x16, y64):
        return x16 * 2.0 + 1, y64

    got, _ = f(np.array([0.5, 1.5], np.float16), np.float64(1.0))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, np.array([2.0, 4.0], np.float16))
    # The gradient of a weakly typed expression, against the closed form.
    g = adj.grad(lambda x: adj.sum((x * 2 + 1) ** 2))(
        np.array([0.5, -1.0], np.float32))
    np.testing.assert_allclose(g, 4 * (np.array([0.5, -1.0]) * 2 + 1))
