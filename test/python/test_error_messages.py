"""Errors in jitted code name the user's whole chain of calls, and their
tracebacks show the user's frames, not the front end's
(ADJOINT_TRACEBACK=full shows everything)."""

import os
import traceback

import numpy as np
import pytest

import adjoint as adj
from adjoint import FrontendError

HERE = os.path.abspath(__file__)
PACKAGE = os.path.dirname(os.path.abspath(adj.__file__)) + os.sep


def line_of(fn, text):
    """The line number of the first line of fn's source holding `text`."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError("%r not in %s" % (text, fn.__name__))


# -- the user's functions ---------------------------------------------------

def h(x):
    return x + np.ones(4, np.float32)


def g(x):
    return h(x) * 2.0


def f(x):
    return g(x) + 1.0


def with_nested(x):
    def inner(y):
        scale = lambda z: z @ np.ones((5, 2), np.float32)
        return scale(y)
    return inner(x)


def countdown(x, n):
    # n is a tensor: the recursion becomes an adj.func.
    if n > 0:
        return countdown(x, n - 1)
    return x + np.ones(4, np.float32)


def loss(x):
    return np.sum(h(x))


def grad_caller(x):
    return adj.grad(loss)(x)


def per_example(row):
    return row @ np.ones((7, 2), np.float32)


def vmap_caller(x):
    return adj.vmap(per_example)(x)


X3 = np.ones(3, np.float32)


def error_of(fn, *args):
    with pytest.raises(FrontendError) as info:
        fn(*args)
    return info.value


def chain(e):
    """(line, function) of the error's calls, outermost first, then its
    own position."""
    return [(c[1], c[4]) for c in e.calls[::-1]] + [(e.lineno, e.function)]


def tb_files(e):
    return [os.path.abspath(fs.filename)
            for fs in traceback.extract_tb(e.__traceback__)]


def test_helper_chain_is_listed_outermost_first():
    e = error_of(adj.jit(f), X3)
    assert chain(e) == [(line_of(f, "g(x)"), "f"), (line_of(g, "h(x)"), "g"),
                        (line_of(h, "x + np.ones"), "h")]
    text = str(e)
    # The innermost position first (where the shapes disagree) ...
    assert text.startswith("%s:%d:" % (HERE, line_of(h, "x + np.ones")))
    assert "do not broadcast" in text
    # ... then every call, outermost first, with its source line.
    calls = text[text.index("In the calls"):]
    positions = [calls.index(s) for s in (
        'line %d, in f\n    return g(x) + 1.0' % line_of(f, "g(x)"),
        'line %d, in g\n    return h(x) * 2.0' % line_of(g, "h(x)"),
        'line %d, in h\n    return x + np.ones(4, np.float32)'
        % line_of(h, "x + np.ones"))]
    assert positions == sorted(positions)


def test_traceback_shows_user_frames_only():
    e = error_of(adj.jit(f), X3)
    files = tb_files(e)
    assert not [p for p in files if p.startswith(PACKAGE)]
    # The frames read as if the jitted code had run: the test calling f,
    # then f, g and h at the lines of the calls.
    frames = traceback.extract_tb(e.__traceback__)
    assert [(fs.name, fs.lineno) for fs in frames[-3:]] == [
        ("f", line_of(f, "g(x)")), ("g", line_of(g, "h(x)")),
        ("h", line_of(h, "x + np.ones"))]
    assert frames[0].name == "error_of"
    # Its message says everything: the error it was made from (all front
    # end frames) is not chained to it.
    assert e.__cause__ is None and e.__suppress_context__


def test_full_traceback_on_request(monkeypatch):
    monkeypatch.setenv("ADJOINT_TRACEBACK", "full")
    e = error_of(adj.jit(f), X3)
    assert [p for p in tb_files(e) if p.startswith(PACKAGE)]
    assert e.__cause__ is not None  # the builder's own error


def test_nested_def_and_lambda():
    e = error_of(adj.jit(with_nested), np.ones((2, 3), np.float32))
    assert chain(e) == [
        (line_of(with_nested, "return inner(x)"), "with_nested"),
        (line_of(with_nested, "return scale(y)"), "inner"),
        (line_of(with_nested, "scale = lambda"), "<lambda>")]
    assert not [p for p in tb_files(e) if p.startswith(PACKAGE)]


def test_recursion_on_tensors():
    e = error_of(adj.jit(lambda x, n: countdown(x, n)), X3, np.int64(3))
    calls = chain(e)
    assert calls[-1] == (line_of(countdown, "x + np.ones"), "countdown")
    assert (line_of(countdown, "countdown(x, n - 1)"), "countdown") in calls
    assert calls[0][1] == "<lambda>"
    assert "do not broadcast" in str(e)
    assert not [p for p in tb_files(e) if p.startswith(PACKAGE)]


def test_grad_of_a_helper():
    # Called in jitted code and from Python: both name loss and h.
    e = error_of(adj.jit(grad_caller), X3)
    assert chain(e) == [
        (line_of(grad_caller, "adj.grad(loss)(x)"), "grad_caller"),
        (line_of(loss, "np.sum(h(x))"), "loss"),
        (line_of(h, "x + np.ones"), "h")]
    e = error_of(adj.grad(loss), X3)
    assert chain(e)[-2:] == [(line_of(loss, "np.sum(h(x))"), "loss"),
                             (line_of(h, "x + np.ones"), "h")]
    assert not [p for p in tb_files(e) if p.startswith(PACKAGE)]


def test_vmap_of_a_helper():
    x = np.ones((4, 3), np.float32)
    e = error_of(adj.jit(vmap_caller), x)
    assert chain(e) == [
        (line_of(vmap_caller, "adj.vmap(per_example)(x)"), "vmap_caller"),
        (line_of(per_example, "row @"), "per_example")]
    e = error_of(adj.vmap(per_example), x)
    assert chain(e)[-1] == (line_of(per_example, "row @"), "per_example")
    assert not [p for p in tb_files(e) if p.startswith(PACKAGE)]


def deep(x, n):
    # n is a Python int: the recursion unrolls while building.
    if n == 0:
        return x + np.ones(4, np.float32)
    return deep(x, n - 1)


def test_unrolled_recursion_is_cut_like_python():
    e = error_of(adj.jit(deep, static_argnums=1), X3, 50)
    assert len(e.calls) == 50
    text = str(e)
    assert "[Previous line repeated 47 more times]" in text
    assert text.count('in deep\n    return deep(x, n - 1)') == 3


def test_errors_that_are_not_frontend_errors_lose_front_end_frames():
    # A signature error is raised by jit itself, before any translation.
    with pytest.raises(TypeError) as info:
        adj.jit(f)(np.array(["a"]))
    files = tb_files(info.value)
    assert files == [HERE]


# -- transforms of what has no derivative -----------------------------------

def is_positive(x):
    return x > 0


def count_positive(x):
    return np.sum(x * 2.0), np.sum((x > 0).astype(np.int32))


def total(x):
    return np.sum(x * 2.0)


XF = np.array([1.0, -2.0, 3.0], np.float32)
XI = np.array([1, -2, 3], np.int32)

#: Each transform on a function with a non-float output, as JAX names them:
#: (call from Python, name, the output described, dtype).
NOT_DIFFERENTIABLE_OUTPUTS = [
    # From Python, vjp runs the forward pass and its pullback the rest.
    (lambda: adj.vjp(is_positive, XF)[1](XF), "vjp", "the output", "bool"),
    (lambda: adj.vjp(count_positive, XF)[1]((1.0, 1)), "vjp",
     "output leaf #1", "int64"),
    (lambda: adj.jvp(is_positive, (XF,), (XF,)), "jvp", "the output",
     "bool"),
    (lambda: adj.grad(lambda x: np.sum(x) > 0)(XF), "grad", "the output",
     "bool"),
    (lambda: adj.value_and_grad(lambda x: np.sum(x).astype(np.int64))(XF),
     "value_and_grad", "the output", "int64"),
    (lambda: adj.jacrev(is_positive)(XF), "jacrev", "the output", "bool"),
    (lambda: adj.jacfwd(is_positive)(XF), "jacfwd", "the output", "bool"),
    # numpy sums int32 into the platform's int64.
    (lambda: adj.jacrev(count_positive)(XF), "jacrev", "output leaf #1",
     "int64"),
]


@pytest.mark.parametrize("case", range(len(NOT_DIFFERENTIABLE_OUTPUTS)))
def test_non_float_output_is_not_differentiable(case):
    call, name, what, dtype = NOT_DIFFERENTIABLE_OUTPUTS[case]
    with pytest.raises(FrontendError) as info:
        call()
    text = str(info.value)
    assert text.startswith("%s requires floating-point outputs, but %s of "
                           % (name, what)), text
    assert "has dtype %s (tensor<" % dtype in text
    assert "not differentiable" in text
    assert "adj.call" not in text
    assert not [p for p in tb_files(info.value) if p.startswith(PACKAGE)]


def vjp_in_jit(x):
    out, pullback = adj.vjp(is_positive, x)
    return pullback(np.ones(3, np.float32))


def test_non_float_output_in_jitted_code_is_at_the_users_line():
    e = error_of(adj.jit(vjp_in_jit), XF)
    assert (e.filename, e.lineno) == (HERE, line_of(vjp_in_jit, "adj.vjp"))
    assert e.message.startswith("vjp requires floating-point outputs, but "
                                "the output of is_positive() has dtype bool")


NOT_DIFFERENTIABLE_INPUTS = [
    (lambda: adj.grad(total)(XI), "grad", "argument 0", "int32"),
    (lambda: adj.grad(total)(XI > 0), "grad", "argument 0", "bool"),
    (lambda: adj.grad(lambda a, b: np.sum(a * b), argnums=(0, 1))(XF, XI),
     "grad", "argument 1", "int32"),
    (lambda: adj.grad(lambda d: total(d["w"]))({"w": XI}), "grad",
     "a leaf of argument 0", "int32"),
    (lambda: adj.grad(lambda n: n * 2.0)(3), "grad", "argument 0", "int64"),
    (lambda: adj.value_and_grad(total)(XI), "value_and_grad", "argument 0",
     "int32"),
    (lambda: adj.vjp(lambda x: x * 2.0, XI)[1](XF), "vjp", "argument 0",
     "int32"),
    (lambda: adj.jvp(lambda x: x * 2.0, (XI,), (XI,)), "jvp", "argument 0",
     "int32"),
    (lambda: adj.jacrev(lambda x: x * 2.0)(XI), "jacrev", "argument 0",
     "int32"),
    (lambda: adj.jacfwd(lambda x: x * 2.0)(XI), "jacfwd", "argument 0",
     "int32"),
]


@pytest.mark.parametrize("case", range(len(NOT_DIFFERENTIABLE_INPUTS)))
def test_non_float_input_is_not_differentiable(case):
    call, name, what, dtype = NOT_DIFFERENTIABLE_INPUTS[case]
    with pytest.raises(FrontendError) as info:
        call()
    text = str(info.value)
    assert text.startswith("%s requires floating-point inputs, but %s has "
                           "dtype %s (tensor<" % (name, what, dtype)), text
    assert "not differentiable" in text


def grad_of_int_in_jit(x, n):
    return adj.grad(lambda a, b: np.sum(a * b), argnums=1)(x, n)


def test_non_float_input_in_jitted_code_is_at_the_users_line():
    e = error_of(adj.jit(grad_of_int_in_jit), XF, XI)
    assert (e.filename, e.lineno) == (HERE,
                                      line_of(grad_of_int_in_jit, "adj.grad"))
    assert e.message.startswith("grad requires floating-point inputs, but "
                                "argument 1 has dtype int32")


def test_integer_arguments_left_out_of_argnums_still_work():
    # Only the differentiated arguments must be floating point (JAX's rule).
    gx = adj.grad(lambda a, n: np.sum(a * n))(XF, XI)
    np.testing.assert_allclose(gx, XI.astype(np.float32))


def returns_a_closure(x):
    return lambda y: y * x


def test_a_function_result_is_named_a_function():
    e = error_of(adj.jit(returns_a_closure), X3)
    assert "a function cannot be a tensor value here" in e.message
    assert "_InlineFn" not in str(e)


# -- docs/python.md, "Not supported": each item is a clear error -----------

def uses_break(x):
    for i in range(3):
        if np.sum(x) > 4.0:  # a tensor condition: not known while building
            break  # marker
        x = x + 1.0
    return x


def uses_return_in_loop(x):
    for i in range(3):  # marker
        if np.sum(x) > 100.0:
            return x
        x = x + 1.0
    return x


def scaled(a, b=1.0):
    return a * b


def uses_double_star_on_a_list(x):
    options = [2.0]
    return scaled(x, **options)  # marker


def test_double_star_unpacks_a_mapping_at_a_call():
    @adj.jit
    def f(x, w):
        options = {"b": w}
        return scaled(x, **options), scaled(**{"a": x}, b=3.0)

    y, z = f(X3, np.float64(2.0))
    np.testing.assert_allclose(y, X3 * 2.0)
    np.testing.assert_allclose(z, X3 * 3.0)
    e = error_of(adj.jit(lambda x: scaled(x, b=1.0, **{"b": 2.0})), X3)
    assert "multiple values for keyword argument 'b'" in str(e)


def carries_a_function(x):
    f = lambda y: y
    while np.sum(x) < 100.0:  # marker
        f = lambda y: y * 2.0
        x = x + 10.0
    return f(x)


@pytest.mark.parametrize("fn", [uses_break, uses_return_in_loop,
                                uses_double_star_on_a_list,
                                carries_a_function,
                                returns_a_closure])
def test_what_is_not_supported_is_an_error_at_its_line(fn):
    e = error_of(adj.jit(fn), X3)
    # A result is checked once the function returned: at its def.
    line = line_of(fn, "# marker") if fn is not returns_a_closure else \
        line_of(fn, "def returns_a_closure")
    assert (e.filename, e.lineno) == (HERE, line)


def test_what_the_list_no_longer_names_works():
    x = np.arange(12.0).reshape(3, 4)
    i, j = np.array([0, 2]), np.array([1, 3])
    np.testing.assert_array_equal(adj.jit(lambda x: x[::-1, ::-2])(x),
                                  x[::-1, ::-2])
    np.testing.assert_array_equal(adj.jit(lambda x, i, j: x[i, j])(x, i, j),
                                  x[i, j])
    np.testing.assert_array_equal(
        adj.jit(lambda x, i, j: x[i[:, None], j])(x, i, j), x[i[:, None], j])


def calls_scaled_badly(x):
    return g(scaled(x, 1.0, 2.0))


def test_an_error_of_the_call_itself_is_listed_once():
    e = error_of(adj.jit(calls_scaled_badly), X3)
    assert "scaled(): too many positional arguments" in e.message
    assert e.lineno == line_of(calls_scaled_badly, "scaled(x")
    assert e.calls == []
