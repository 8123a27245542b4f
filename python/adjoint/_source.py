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
        self.filename = inspect.getsourcefile(fn) or \
            fn.__code__.co_filename or "<unknown>"
        if fn.__code__.co_name == "<lambda>":
            self.node = _lambda_node(fn, self.filename)
            return
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise FrontendError("cannot get the source of %r: %s" % (fn, e))
        source = "".join(lines)
        dedented = textwrap.dedent(source)
        first = next((l for l in lines if l.strip()), "")
        indent = len(first) - len(first.lstrip())
        tree = ast.parse(dedented)
        ast.increment_lineno(tree, start - 1)
        if indent:
            for node in ast.walk(tree):
                if hasattr(node, "col_offset"):
                    node.col_offset += indent
        node = tree.body[0]
        if not isinstance(node, ast.FunctionDef):
            raise FrontendError("cannot find the definition of %r" % fn,
                                self.filename, start)
        self.node = node

    @classmethod
    def of(cls, fn):
        code = fn.__code__
        src = cls._cache.get(code)
        if src is None:
            src = cls._cache[code] = _Source(fn)
        return src


# ---------------------------------------------------------------------------
# Lambdas, found by their code object
# ---------------------------------------------------------------------------

# filename -> (the lines parsed, their module's AST)
_FILES = {}


def _file_tree(filename, lines):
    cached = _FILES.get(filename)
    if cached is not None and cached[0] == lines:
        return cached[1]
    tree = ast.parse("".join(lines), filename)
    _FILES[filename] = (lines, tree)
    return tree


def _spans(code):
    """The source spans (line, col, end line, end col) of the code's
    instructions, zero-width ones (the function's entry) left out."""
    out = set()
    for line, end_line, col, end_col in code.co_positions():
        if None in (line, end_line, col, end_col):
            continue
        if (line, col) == (end_line, end_col):
            continue
        out.add((line, col, end_line, end_col))
    return out


def _inside(span, node):
    line, col, end_line, end_col = span
    return (node.lineno, node.col_offset) <= (line, col) and \
        (end_line, end_col) <= (node.end_lineno, node.end_col_offset)


def _lambda_node(fn, filename):
    """The ast.Lambda that compiled to fn's code: of the lambdas of the
    file, the innermost one whose body holds every instruction position of
    the code (two lambdas on one line, nested lambdas and lambdas of
    comprehensions are told apart; line numbers alone cannot)."""
    code = fn.__code__
    where = "the lambda at %s:%d" % (filename, code.co_firstlineno)
    lines = linecache.getlines(filename, getattr(fn, "__globals__", None))
    if not lines:
        raise FrontendError("cannot get the source of %s (no source file; "
                            "define it in a file or use def)" % where,
                            filename, code.co_firstlineno)
    try:
        tree = _file_tree(filename, lines)
    except SyntaxError as e:
        raise FrontendError("cannot parse the source of %s: %s" % (where, e),
                            filename, code.co_firstlineno)
    spans = _spans(code)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)
             and n.lineno == code.co_firstlineno
             and spans and all(_inside(s, n.body) for s in spans)]
    if not found:
        raise FrontendError("cannot find the source of %s (was the file "
                            "changed after it was imported?)" % where,
                            filename, code.co_firstlineno)
    # They all hold the spans, so they nest: the innermost starts last.
    return max(found, key=lambda n: (n.lineno, n.col_offset))
