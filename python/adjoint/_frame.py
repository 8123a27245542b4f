"""The scopes of a function being translated."""

import builtins

from ._source import FrontendError


class _Frame:
    """Variables of one function being translated, with its scopes: its own
    variables, then its Python closure cells, then the frame of the
    function that defined it (`outer`), then its globals and builtins.
    `name` is the function's (what errors say they happened in)."""

    def __init__(self, ctx, filename, globals_, closure, outer=None,
                 name=None):
        self.ctx = ctx
        self.filename = filename
        self.name = name
        self.globals = globals_
        self.closure = closure
        self.outer = outer
        self.vars = {}

    def child(self):
        """A copy for a branch or loop body: same scopes, copied variables."""
        f = _Frame(self.ctx, self.filename, self.globals, self.closure,
                   self.outer, self.name)
        f.vars = dict(self.vars)
        return f

    def find(self, name):
        """(True, value) when a scope of the chain binds `name`, else
        (False, None); globals and builtins are not searched."""
        if name in self.vars:
            return True, self.vars[name]
        if name in self.closure:
            return True, self.closure[name]
        if self.outer is not None:
            return self.outer.find(name)
        return False, None

    def lookup(self, name, node):
        found, value = self.find(name)
        if found:
            return value
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error("name '%s' is not defined" % name, node)

    def error(self, message, node):
        e = FrontendError(message, self.filename,
                          getattr(node, "lineno", None),
                          getattr(node, "col_offset", None))
        e.function = self.name
        end = (getattr(node, "end_lineno", None),
               getattr(node, "end_col_offset", None))
        e.end = None if None in end else end
        return e
