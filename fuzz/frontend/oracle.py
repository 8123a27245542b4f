"""Checks one generated program against its references.

A program's source defines ``f(x, y)``. It is written to a file (the front
end reads source through ``inspect``) and imported, then:

1. numpy: ``f`` runs as plain Python on float64 arrays, with ``a op= b``
   read as ``a = a op b`` (arrays are values in jitted code, as in JAX; in
   numpy the update would change every alias of ``a``). A program whose
   reference raises or is not finite is skipped (a generator bug, not a
   finding).
2. compiled: ``adjoint.jit(f)(x, y)`` (every other seed ``(x, y=y)``)
   must equal the reference.
3. interpreter: the module ``jit(f).lower(x, y)`` evaluated by the
   reference interpreter must equal it too.
4. gradient: ``adjoint.jit(adjoint.grad(f, argnums=(0, 1)))`` against
   central differences of the numpy function along a random direction,
   where the function is smooth (two step sizes agree).

The front end may reject a program only with a clear exception: a
``FrontendError`` naming the line, or ``adjoint.Error``. Anything else
(``AttributeError``, ``KeyError``, an assertion, numpy's own errors from
inside the translator, ...) is a finding, and so is a wrong value.
"""

import ast
import importlib.util
import os
import traceback

import numpy as np

import adjoint

RTOL, ATOL = 1e-9, 1e-9
GRAD_RTOL, GRAD_ATOL = 1e-5, 1e-7


class Finding(Exception):
    """A wrong answer or an unclear rejection."""


def load(source, path):
    """Writes `source` to `path` and imports its ``f``."""
    with open(path, "w") as out:
        out.write("import numpy as np\n\n" + source)
    spec = importlib.util.spec_from_file_location(
        "fuzzprog_%d" % abs(hash(path)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


class _Functional(ast.NodeTransformer):
    """``a op= b`` -> ``a = a op b``: arrays are values in jitted code (as
    in JAX), where numpy's in-place update would also change every alias
    of ``a`` (an argument, another variable)."""

    def visit_AugAssign(self, node):
        load = ast.Name(id=node.target.id, ctx=ast.Load())
        value = ast.BinOp(left=load, op=node.op, right=node.value)
        return ast.copy_location(
            ast.Assign(targets=[node.target], value=value), node)


def numpy_reference_function(source):
    """``f`` with value semantics, to run on numpy arrays."""
    tree = ast.fix_missing_locations(_Functional().visit(ast.parse(source)))
    scope = {"np": np}
    exec(compile(tree, "<numpy reference>", "exec"), scope)
    return scope["f"]


def arguments(seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((3, 4)), rng.standard_normal(4)


def reference(f, x, y):
    """The numpy result, or None when the program is not a fair test."""
    with np.errstate(all="ignore"):
        try:
            out = f(x, y)
        except Exception:
            return None
    out = np.asarray(out, dtype=np.float64)
    return out if out.shape == () and np.isfinite(out) else None


def central_difference(f, x, y, dx, dy, eps):
    with np.errstate(all="ignore"):
        hi = f(x + eps * dx, y + eps * dy)
        lo = f(x - eps * dx, y - eps * dy)
    return (float(hi) - float(lo)) / (2 * eps)


def close(a, b, rtol, atol):
    return abs(a - b) <= atol + rtol * abs(b)


def clear_rejection(error):
    """Whether the front end refused the program in a way a user can act
    on: its own error with a location, or the C++ library's error."""
    if isinstance(error, adjoint.FrontendError):
        return error.lineno is not None
    return isinstance(error, adjoint.Error)


def check(source, path, seed):
    """'ok', 'skipped' or 'rejected: ...'; raises Finding."""
    f = load(source, path)
    ref = numpy_reference_function(source)
    x, y = arguments(seed)
    want = reference(ref, x.copy(), y.copy())
    if want is None:
        return "skipped"
    try:
        jitted = adjoint.jit(f)
        # Keyword arguments are arguments as in JAX: same signature.
        got = float(np.asarray(jitted(x, y=y) if seed % 2 else
                               jitted(x, y)))
        module = jitted.lower(x, y)
        interpreted = float(np.asarray(adjoint.interpret(module, "f", x, y)))
        grads = adjoint.jit(adjoint.grad(f, argnums=(0, 1)))(x, y)
    except Exception as e:  # noqa: BLE001 - classified below
        if clear_rejection(e):
            return "rejected: %s" % str(e).splitlines()[0]
        raise Finding("unclear rejection %s:\n%s" % (
            type(e).__name__, traceback.format_exc())) from None
    if not close(got, float(want), RTOL, ATOL):
        raise Finding("compiled %r, numpy %r" % (got, float(want)))
    if not close(interpreted, float(want), RTOL, ATOL):
        raise Finding("interpreter %r, numpy %r" % (interpreted, float(want)))

    rng = np.random.default_rng(seed + 1)
    dx, dy = rng.standard_normal(x.shape), rng.standard_normal(y.shape)
    directional = float(np.sum(np.asarray(grads[0]) * dx) +
                        np.sum(np.asarray(grads[1]) * dy))
    fd1 = central_difference(ref, x, y, dx, dy, 1e-5)
    fd2 = central_difference(ref, x, y, dx, dy, 1e-6)
    # Near a kink (where, maximum, abs, a tensor condition) the two step
    # sizes disagree: no reference there.
    if close(fd1, fd2, 1e-6, 1e-8) and \
            not close(directional, fd1, GRAD_RTOL, GRAD_ATOL):
        raise Finding("gradient along a random direction %r, central "
                      "difference %r" % (directional, fd1))
    return "ok"


def remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
