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
    the user's source position (``filename``, ``lineno``, ``col``), in the
    user's function ``function``, with ``calls``: the user's calls that led
    there, innermost first, as (filename, lineno, col, end, function) where
    end is (end line, end column) or None. The message lists those calls
    outermost first, as a Python traceback does: functions are inlined while
    they are translated, so the error of a helper would otherwise name only
    the helper's line."""

    def __init__(self, message, filename=None, lineno=None, col=None):
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.function = None
        self.end = None
        self.calls = []
        self.source_line = None
        if filename is not None and lineno is not None:
            line = linecache.getline(filename, lineno)
            self.source_line = line.rstrip("\n") if line else None
        super().__init__(self._text())

    def called_from(self, filename, node, function):
        """Records the user's call `node` (in `function` of `filename`) that
        led to the error."""
        end = (getattr(node, "end_lineno", None),
               getattr(node, "end_col_offset", None))
        self.calls.append((filename, node.lineno, node.col_offset,
                           None if None in end else end, function))
        self.args = (self._text(),)

    def _text(self):
        text = self.message
        located = self.filename is not None and self.lineno is not None
        if located:
            where = "%s:%d:%d" % (self.filename, self.lineno,
                                  (self.col or 0) + 1)
            text = "%s: %s" % (where, self.message)
        if self.source_line:
            text += "\n    " + self.source_line.strip()
            indent = len(self.source_line) - len(self.source_line.lstrip())
            if self.col is not None and self.col >= indent:
                text += "\n    " + " " * (self.col - indent) + "^"
        if self.calls:
            text += "\nIn the calls (most recent call last):"
            own = [self.where()] if located else []
            for filename, lineno, _, _, function in _collapsed(
                    self.calls[::-1] + own):
                if filename is None:  # a repeat marker
                    text += "\n  [Previous line repeated %d more times]" \
                        % lineno
                    continue
                text += '\n  File "%s", line %d, in %s' % (
                    filename, lineno, function or "?")
                line = linecache.getline(filename, lineno).strip()
                if line:
                    text += "\n    " + line
        return text

    def where(self):
        """The error's own position, as an entry of `calls`."""
        return (self.filename, self.lineno, self.col, self.end,
                self.function)


# Tracebacks name it as users reach it.
FrontendError.__module__ = "adjoint"


def _collapsed(entries):
    """`entries` with runs of one entry repeated more than 3 times cut as
    Python's tracebacks cut them (an unrolled recursion would list each of
    its levels): (None, count, ...) stands for the repeats left out."""
    out, run = [], 0
    for i, e in enumerate(entries):
        run = run + 1 if i and e[:2] == entries[i - 1][:2] and \
            e[4] == entries[i - 1][4] else 1
        if run <= 3:
            out.append(e)
        elif run == 4:
            out.append((None, 1, None, None, None))
        else:
            out[-1] = (None, run - 3, None, None, None)
    return out


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
    _np.dtype(_np.complex64): DType.c64,
    _np.dtype(_np.complex128): DType.c128,
}
#: Its inverse (bf16, which numpy lacks, is not in either).
_ADJ_TO_NP = {v: k for k, v in _NP_TO_ADJ.items()}


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
