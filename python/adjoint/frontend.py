"""The Python front end: ``@adjoint.jit``.

A jitted function is not traced by running it: its source (``inspect`` +
``ast``) is translated statement by statement into adj IR with the builder
bindings, once per argument signature (the structure of the arguments and
the dtypes and shapes of their arrays). Translation is a build-time
evaluation of the AST in which tensors are ``adjoint.Value``\\ s and
everything else (numbers, tuples, functions, modules) stays a Python object:

- Python numbers are folded in Python and become rank-0 constants of the
  right element type only when they meet a Value or must be materialized
  (loop-carried, returned, branch results).
- ``if``/``while``/``for ... in range`` on Values become ``adj.if``/
  ``adj.while``/``adj.for`` (``if_``/``while_``/``for_``); the carried
  variables are the ones the body assigns that exist before it. Conditions
  that are Python values are decided at build time.
- Calls to other Python functions (``@jit`` or plain, globals, closures,
  nested ``def``/``lambda``) are inlined; recursion on tensors becomes an
  adj.func (_functions).
- ``grad``, ``jvp``, ... inside jitted code are the adj AD requests on an
  adj.lambda of the differentiated function (_transforms).

The translation lives in _translator (scopes, calls), _functions (inlining,
recursion), _statements and _expressions; _trees holds build-time values,
_source errors and sources. See docs/python.md, "Front end".
"""

import sys

import numpy as _np

from . import _adjoint as _adj
from . import _precision
from ._adjoint import Device, DType, Module, Tensor, Type
from ._np_support import building
from ._source import FrontendError, _Source, _NP_TO_ADJ
from ._tree_nodes import node_of, rebuild
from ._tracebacks import user_frames_only
from ._trees import _flatten, _results, _unflatten
from ._translator import _Frame, _Translator

__all__ = ["jit", "JitFunction", "FrontendError"]

#: Python frames a deeply nested translation may need.
_RECURSION_LIMIT = 20000


def _is_array(x):
    return isinstance(x, (_np.ndarray, _np.generic)) or \
        hasattr(x, "__array__") or hasattr(x, "__dlpack__")


#: DLPack device types of memory the host can read (CPU, CUDA and ROCm
#: pinned host memory): such arrays go through numpy.
_HOST_DLPACK_DEVICES = (1, 3, 11)


def _in_device_memory(x):
    """Whether `x` is a DLPack producer whose memory is on a device."""
    where = getattr(x, "__dlpack_device__", None)
    return where is not None and where()[0] not in _HOST_DLPACK_DEVICES


def _leaf(x, static, static_int=False):
    """How one leaf of the arguments enters the program, as (kind, key,
    payload): an array "A" (a parameter of its dtype and shape; payload the
    ndarray), a Python number "W" (a rank-0 parameter, "weakly typed":
    floats take the program's float dtype) or a static value "S" (part of
    the cache key, a Python value while building; so are Python ints and
    bools with `static_int`)."""
    t = type(x)
    if static_int and (t is int or t is bool):
        return "S", (t, x), x
    if t is Tensor and not static:
        # A runtime tensor, possibly on a device: passed as it is, so that
        # device arrays stay where they are.
        if x.dtype not in _NP_TO_ADJ:
            raise TypeError("adjoint.jit: unsupported argument dtype %s"
                            % x.dtype)
        return "A", (x.dtype, x.shape), x
    if t is _np.ndarray and not static:  # the common case, kept quick
        if x.dtype not in _NP_TO_ADJ:
            if x.dtype.newbyteorder("=") in _NP_TO_ADJ:
                # Swapped bytes (">f4" from FITS, HDF5, netCDF): converted
                # to native order, as the Executable and device_put do.
                return _leaf(x.astype(x.dtype.newbyteorder("=")), False)
            raise TypeError("adjoint.jit: unsupported argument dtype %s"
                            % x.dtype)
        return "A", (x.dtype, x.shape), x
    # Exact types: numpy's float64 is a float but has its own dtype.
    if t in (bool, int, float) and not static:
        return "W", t, x
    if not static and _is_array(x):
        if _in_device_memory(x):
            # A torch/JAX/CuPy array on a GPU: wrapped without a copy
            # (DLPack), so the computation follows it to its device.
            return _leaf(_adj.from_dlpack(x), False)
        return _leaf(_np.asarray(x), False)
    try:
        hash(x)
        return "S", (t, x), x
    except TypeError:
        return "S", id(x), x


def _weak_array(x, float_dtype):
    if type(x) is bool:
        return _np.asarray(x)
    if type(x) is int:
        return _np.asarray(x, _np.int64)
    return _np.asarray(x, _DTYPE_TO_NP[float_dtype])


_DTYPE_TO_NP = {v: k for k, v in _NP_TO_ADJ.items()}


class JitFunction:
    """A function compiled per argument signature.

    Arguments are arrays (anything ``numpy.asarray`` takes, torch CPU
    tensors included; arrays in GPU memory such as torch CUDA tensors are
    taken through DLPack without a copy and run there), Python numbers, and pytrees of them
    (adjoint.tree_util: results keep their node types);
    the arguments at ``static_argnums`` and any leaf that is not an array or
    a number (a function, a string) are static: Python values while
    the program is built, part of the cache key. ``builds`` counts the
    modules built (one per new signature).

    ``device`` ("cpu", "opencl:0", an adjoint.Device) is where the compiled
    code runs; None: where the arguments' device arrays are (adjoint.Tensor
    from device_put or from an earlier call), else the CPU. On a GPU,
    numpy arguments are copied there and the results are device arrays
    (adjoint.Tensor) that stay there: pass them to the next call, read them
    with adjoint.to_numpy. On cuda, f32 matmuls use TF32 when the matmul
    precision in effect at the call is "tf32" (adjoint.matmul_precision);
    each precision has its own compiled code."""

    def __init__(self, fn, static_argnums=(), device=None, static_ints=None):
        self.fn = fn
        self.static_argnums = tuple(static_argnums)
        #: nargs -> the arguments whose Python ints are static (transforms:
        #: those not differentiated), or None.
        self.static_ints = static_ints
        self.device = None if device is None else _device(device)
        self.__name__ = getattr(fn, "__name__", type(fn).__name__)
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self.builds = 0
        self._cache = {}
        #: The quick path's cache: _quick_key -> (executable, output
        #: builder, weak leaves to convert, device).
        self._quick = {}

    # Signatures ------------------------------------------------------------

    def _signature(self, args):
        trees, leaves = [], []
        ints = self.static_ints(len(args)) if self.static_ints else ()
        for i, a in enumerate(args):
            l = []
            trees.append(_flatten(a, l))
            static = i in self.static_argnums
            leaves += [_leaf(x, static, i in ints) for x in l]
        float_dtype = next((_NP_TO_ADJ[c[0]] for k, c, _ in leaves
                            if k == "A" and c[0].kind == "f"), DType.f32)
        device = self.device or _argument_device(leaves)
        # The target with the matmul precision in effect (+tf32 on cuda):
        # a new precision compiles anew.
        target = _precision.target_for(device.kind)
        key = (tuple(trees), float_dtype, device.id, target) + \
            tuple((k, c) for k, c, _ in leaves)
        return key, tuple(trees), leaves, float_dtype, device

    @staticmethod
    def _arrays(leaves, float_dtype):
        """The compiled function's inputs: the arrays and weak numbers."""
        return [p if k == "A" else _weak_array(p, float_dtype)
                for k, _, p in leaves if k != "S"]

    def _types(self, leaves, float_dtype):
        types = []
        for k, c, p in leaves:
            if k == "A":
                types.append(Type.tensor(_NP_TO_ADJ[c[0]], list(c[1])))
            elif k == "W":
                a = _weak_array(p, float_dtype)
                types.append(Type.tensor(_NP_TO_ADJ[a.dtype], list(a.shape)))
        return types

    # Building --------------------------------------------------------------

    def _translate(self, module, trees, leaves, float_dtype):
        """Defines this function in `module`; returns (Function, out tree)."""
        tr = _Translator(module, float_dtype)
        tr.names.add(self.__name__)
        state = {}

        def body(*params):
            it = iter(params)
            vals = [p if k == "S" else next(it) for k, _, p in leaves]
            pos = [0]
            args = [_unflatten(t, vals, pos) for t in trees]
            node, frame = None, _Frame(tr, "<jit>", {}, {})
            try:
                src = _Source.of(self.fn)
                node = src.node
                frame = _Frame(tr, src.filename, {}, {})
            except (AttributeError, TypeError, FrontendError):
                pass  # a transform or a callable without source
            value = tr.call(self.fn, args, {}, node, frame)
            state["tree"], out = tr.leaves(value, node, frame)
            return out

        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, _RECURSION_LIMIT))
        try:
            with building(tr):
                fn = module.function(self.__name__,
                                     self._types(leaves, float_dtype), body)
        finally:
            sys.setrecursionlimit(limit)
        return fn, state["tree"]

    def lower(self, *args):
        """The adj module built for these arguments (not compiled)."""
        try:
            return self._lower(args)
        except Exception as e:
            user_frames_only(e)  # see __call__
            raise

    def _lower(self, args):
        _, trees, leaves, float_dtype, _ = self._signature(args)
        m = Module()
        self._translate(m, trees, leaves, float_dtype)
        return m

    def _compiled(self, args):
        key, trees, leaves, float_dtype, device = self._signature(args)
        entry = self._cache.get(key)
        if entry is None:
            m = Module()
            self.builds += 1
            fn, tree = self._translate(m, trees, leaves, float_dtype)
            exe = _adj.compile(m, fn.name,
                               target=_precision.target_for(device.kind))
            entry = self._cache[key] = (exe, tree)
        return entry, self._arrays(leaves, float_dtype), device

    def __call__(self, *args):
        try:
            return self._call(args)
        except Exception as e:
            # The translator's frames are dropped (the bare raise adds
            # none): the traceback shows the user's code (_tracebacks).
            user_frames_only(e)
            raise

    def _call(self, args):
        # The quick path: arguments made of numpy arrays, numpy scalars and
        # Python numbers in dicts, tuples and lists (what training steps
        # pass), looked up by one key built in a single walk.
        leaves = []
        key = None if self.static_argnums else self._quick_key(args, leaves)
        if key is not None:
            key = (key, _precision.get_matmul_precision())
            entry = self._quick.get(key)
            if entry is not None:
                exe, build, weak, device = entry
                if weak:
                    for i, dtype in weak:
                        leaves[i] = _np.asarray(leaves[i], dtype)
                return build(_results(exe(*leaves, device=device)))
        (exe, tree), arrays, device = self._compiled(args)
        if key is not None:
            weak = tuple((i, a.dtype) for i, a in enumerate(arrays)
                         if type(leaves[i]) in (bool, int, float))
            self._quick[key] = (exe, _builder(tree), weak, device)
        return _unflatten(tree, _results(exe(*arrays, device=device)))

    def _quick_key(self, args, leaves):
        ints = self.static_ints(len(args)) if self.static_ints else ()
        if not ints:
            return _quick_key(args, leaves)
        parts = tuple(_quick_key(a, leaves, i in ints)
                      for i, a in enumerate(args))
        return None if any(p is None for p in parts) else parts

    def __repr__(self):
        return "<adjoint.jit %s>" % self.__name__


def jit(fn=None, *, static_argnums=(), device=None):
    """Compiles `fn` from its Python source, per argument signature. Use as
    ``@jit``, ``@jit(static_argnums=(1,))`` or ``jit(f, device="opencl:0")``
    (JitFunction says where the code runs)."""
    if fn is None:
        return lambda f: jit(f, static_argnums=static_argnums, device=device)
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    if isinstance(fn, JitFunction) and \
            fn.static_argnums == tuple(static_argnums) and \
            fn.device == (None if device is None else _device(device)):
        return fn
    return JitFunction(fn, static_argnums, device)


def _quick_key(x, leaves, static_int=False):
    """A key for `x` that determines its whole signature (structure, dict
    keys, dtypes and shapes, the kinds of Python numbers) when every leaf is
    a numpy array, a numpy scalar or a Python number in pytree nodes
    (_tree_nodes), appending the leaves as the compiled function takes them
    (numpy scalars as arrays; Python ints and bools are in the key instead
    with `static_int`); None for anything else (device arrays, static
    values), which takes the full path."""
    t = type(x)
    if t is _np.ndarray:
        leaves.append(x)
        return x.dtype, x.shape
    if t is dict:
        keys = tuple(sorted(x))
        parts = [dict, keys]
        for k in keys:
            part = _quick_key(x[k], leaves, static_int)
            if part is None:
                return None
            parts.append(part)
        return tuple(parts)
    if t is tuple or t is list:
        parts = [t]
        for e in x:
            part = _quick_key(e, leaves, static_int)
            if part is None:
                return None
            parts.append(part)
        return tuple(parts)
    if static_int and (t is bool or t is int):
        return "S", t, x
    if t is bool or t is int or t is float:
        leaves.append(x)
        return t
    if isinstance(x, _np.generic) and x.dtype in _NP_TO_ADJ:
        a = _np.asarray(x)
        leaves.append(a)
        return a.dtype, ()
    # Other nodes (namedtuples, dataclasses, None, registered types): their
    # head names their type, so that two namedtuples of one arity differ.
    node = node_of(x)
    if node is None:
        return None
    parts = [node[0]]
    for e in node[1]:
        part = _quick_key(e, leaves, static_int)
        if part is None:
            return None
        parts.append(part)
    return tuple(parts)


def _builder(tree):
    """A function from a flat list of leaves to the pytree `tree` (from
    _trees._flatten) describes: _unflatten specialized once per tree, so
    that a call rebuilds its results without walking the description."""
    count = [0]

    def make(t):
        if t is None:
            i = count[0]
            count[0] += 1
            return lambda r: r[i]
        if t[:1] == ("dict",):
            keys, children = t[1], t[2:]
            if all(c is None for c in children):
                start = count[0]
                count[0] += len(keys)
                end = count[0]
                return lambda r: dict(zip(keys, r[start:end]))
            makers = [make(c) for c in children]
            return lambda r: {k: m(r) for k, m in zip(keys, makers)}
        if t[:1] == ("list",):
            makers = [make(c) for c in t[1:]]
            return lambda r: [m(r) for m in makers]
        if t[:1] == ("node",):
            head, makers = t[:3], [make(c) for c in t[3:]]
            return lambda r: rebuild(head, [m(r) for m in makers])
        makers = [make(c) for c in t]
        return lambda r: tuple(m(r) for m in makers)

    return make(tree)


def _device(spec):
    """An adjoint.Device from one or an id ("opencl:0")."""
    return spec if isinstance(spec, Device) else _adj.device(spec)


def _argument_device(leaves):
    """Where the device arrays among the arguments are: one device, else
    the CPU (numpy arguments go wherever the code runs)."""
    found = None
    for k, _, p in leaves:
        if k == "A" and type(p) is Tensor and p.device.kind != "cpu":
            if found is not None and p.device != found:
                raise ValueError(
                    "adjoint.jit: arguments on two devices (%s and %s); put "
                    "them on one with adjoint.device_put" %
                    (found.id, p.device.id))
            found = p.device
    return found or _adj.device("cpu")
