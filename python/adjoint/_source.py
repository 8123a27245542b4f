"""Errors at the user's source position, the source of a function, and
numpy's dtypes in adjoint's terms."""

import ast
import inspect
import linecache
import textwrap

import numpy as _np

from ._adjoint import DType


class FrontendError(Exception):
    """Unsupported syntax, or a type/shape error of the program, reported at
    the user's source position (``filename``, ``lineno``, ``col``)."""

    def __init__(self, message, filename=None, lineno=None, col=None):
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.source_line = None
        text = message
        if filename is not None and lineno is not None:
            line = linecache.getline(filename, lineno)
            self.source_line = line.rstrip("\n") if line else None
            where = "%s:%d:%d" % (filename, lineno, (col or 0) + 1)
            text = "%s: %s" % (where, message)
            if self.source_line:
                text += "\n    " + self.source_line.strip()
                indent = len(self.source_line) - len(self.source_line.lstrip())
                if col is not None and col >= indent:
                    text += "\n    " + " " * (col - indent) + "^"
        super().__init__(text)


# ---------------------------------------------------------------------------
# dtypes and sources
# ---------------------------------------------------------------------------

_NP_TO_ADJ = {
    _np.dtype(_np.float64): DType.f64,
    _np.dtype(_np.float32): DType.f32,
    _np.dtype(_np.float16): DType.f16,
    _np.dtype(_np.int64): DType.i64,
    _np.dtype(_np.int32): DType.i32,
    _np.dtype(_np.bool_): DType.i1,
}


class _Source:
    """The parsed definition of a Python function, positions in its file."""

    _cache = {}

    def __init__(self, fn):
        self.filename = inspect.getsourcefile(fn) or "<unknown>"
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise FrontendError("cannot get the source of %r: %s" % (fn, e))
        source = "".join(lines)
        dedented = textwrap.dedent(source)
        first = next((l for l in lines if l.strip()), "")
        self.indent = len(first) - len(first.lstrip())
        tree = ast.parse(dedented)
        ast.increment_lineno(tree, start - 1)
        if self.indent:
            for node in ast.walk(tree):
                if hasattr(node, "col_offset"):
                    node.col_offset += self.indent
        node = tree.body[0]
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Lambda):
            node = node.value
        if not isinstance(node, (ast.FunctionDef, ast.Lambda)):
            # e.g. `f = lambda x: ...` written as an assignment.
            lams = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
            if len(lams) != 1:
                raise FrontendError("cannot find the definition of %r" % fn,
                                    self.filename, start)
            node = lams[0]
        self.node = node

    @classmethod
    def of(cls, fn):
        code = fn.__code__
        src = cls._cache.get(code)
        if src is None:
            src = cls._cache[code] = _Source(fn)
        return src
