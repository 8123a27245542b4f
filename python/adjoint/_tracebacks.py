"""Tracebacks that show the user's code, not the front end's.

An error in jitted code passes through dozens of the translator's frames
(one per nested expression, statement and call) that say nothing to the
user, while the user's functions, being translated and never run, have no
frame at all. At the API boundary (``api_boundary``) the front end's frames
are dropped from the traceback and, for a FrontendError, frames are made for
the user's chain of calls (FrontendError.calls), so that the traceback reads
as if the jitted function had run in Python: caller, ``f``, ``g``, ``h``.
``ADJOINT_TRACEBACK=full`` keeps every frame (to debug the front end).
"""

import ast
import functools
import os
import sys

from ._source import FrontendError

#: Frames of files under this folder are the front end's own.
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def full_tracebacks():
    return os.environ.get("ADJOINT_TRACEBACK", "").lower() == "full"


def api_boundary(fn):
    """Wraps a public entry point so that the exceptions it raises carry the
    user's frames only (unless ADJOINT_TRACEBACK=full)."""

    @functools.wraps(fn)
    def boundary(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            user_frames_only(e)
            # A bare raise adds no entry for this frame to the traceback.
            raise

    return boundary


def user_frames_only(e):
    """Gives e the user's traceback (see the module), unless
    ADJOINT_TRACEBACK=full. The caller re-raises e with a bare ``raise``."""
    if full_tracebacks():
        return
    if isinstance(e, FrontendError):
        # Its message holds the message of the error it was made from,
        # whose traceback is all front end.
        e.__cause__ = None
        e.__suppress_context__ = True
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        e.with_traceback(_user_traceback(e))
        e = e.__cause__ or (None if e.__suppress_context__
                            else e.__context__)


def _user_traceback(e):
    """e's traceback without the front end's frames, with frames for the
    user's translated calls appended when e is a FrontendError (once: an
    inner boundary may have made them already)."""
    kept = []
    tb = e.__traceback__
    while tb is not None:
        filename = os.path.abspath(tb.tb_frame.f_code.co_filename)
        if not filename.startswith(_PACKAGE):
            kept.append(tb)
        tb = tb.tb_next
    if isinstance(e, FrontendError) and \
            not getattr(e, "_frames_made", False):
        e._frames_made = True
        entries = e.calls[::-1]
        if e.filename is not None and e.lineno is not None:
            entries.append(e.where())
        kept += [t for t in (_made_frame(*x) for x in entries) if t]
    head = None
    for tb in reversed(kept):
        tb.tb_next = head
        head = tb
    return head


def _made_frame(filename, lineno, col, end, function):
    """A traceback entry at line `lineno` (columns col to end) of `filename`
    named `function`: made by running a `raise` compiled at that position,
    so that Python prints the user's source line there (with carets under
    the call) as for a frame that ran it. None if it cannot be made."""
    end_line, end_col = end if end is not None else (lineno, col)
    node = ast.Raise(exc=ast.Name("_adjoint_error", ast.Load()), cause=None)
    for n in (node, node.exc):
        n.lineno, n.col_offset = lineno, col or 0
        n.end_lineno, n.end_col_offset = end_line, end_col or 0
    try:
        code = compile(ast.Module([node], []), filename, "exec")
        code = code.replace(co_name=function or "<jit>")
        if sys.version_info >= (3, 11):
            code = code.replace(co_qualname=function or "<jit>")
        exec(code, {"_adjoint_error": _Marker()})
    except _Marker:
        return sys.exc_info()[2].tb_next
    except Exception:  # an odd position (a file without lines): no frame
        return None
    return None


class _Marker(Exception):
    """The exception raised to make a frame (never seen by the user)."""
