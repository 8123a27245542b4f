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
import time

import numpy as _np

from . import _adjoint as _adj
from . import _donation, _precision
from ._adjoint import Device, DType, Module, Tensor, Type
from ._arrays import Array, host_results, results as _host_or_device
from ._call_args import ArgSpec
from ._np_support import building
from ._source import FrontendError, _Source, _ADJ_TO_NP, _NP_TO_ADJ
from ._tree_nodes import node_of, rebuild
from ._tracebacks import user_frames_only
from ._trees import _flatten, _unflatten
from ._core import Jitted
from ._frame import _Frame
from ._translator import _Translator

__all__ = ["jit", "JitFunction", "FrontendError"]

#: Python frames a deeply nested translation may need.
_RECURSION_LIMIT = 20000


def _is_array(x):
    return isinstance(x, (_np.ndarray, _np.generic)) or \
        hasattr(x, "__array__") or hasattr(x, "__dlpack__")


#: DLPack device types of memory the host can read (CPU, CUDA and ROCm
#: pinned host memory): such arrays go through numpy.
_HOST_DLPACK_DEVICES = (1, 3, 11)

#: The part dtype of each complex dtype.
_PART_DTYPE = {DType.c64: DType.f32, DType.c128: DType.f64}


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
        _donation.check_alive(x)
        if x.dtype not in _NP_TO_ADJ:
            raise TypeError("adjoint.jit: unsupported argument dtype %s"
                            % x.dtype)
        return "A", (x.dtype, x.shape), x
    if (t is _np.ndarray or t is Array) and not static:  # kept quick
        if x.dtype not in _NP_TO_ADJ:
            if x.dtype.newbyteorder("=") in _NP_TO_ADJ:
                # Swapped bytes (">f4" from FITS, HDF5, netCDF): converted
                # to native order, as the Executable and device_put do.
                return _leaf(x.astype(x.dtype.newbyteorder("=")), False)
            raise TypeError("adjoint.jit: unsupported argument dtype %s"
                            % x.dtype)
        return "A", (x.dtype, x.shape), x
    # Exact types: numpy's float64 is a float but has its own dtype.
    if t in (bool, int, float, complex) and not static:
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
    if type(x) is complex:
        return _np.asarray(x, _np.complex128 if float_dtype == DType.f64
                           else _np.complex64)
    return _np.asarray(x, _ADJ_TO_NP[float_dtype])


class JitFunction(Jitted):
    """A function compiled per argument signature.

    Arguments are arrays (anything ``numpy.asarray`` takes, torch CPU
    tensors included; arrays in GPU memory such as torch CUDA tensors are
    taken through DLPack without a copy and run there), Python numbers,
    and pytrees of them (adjoint.tree_util: results keep their node types),
    by position or by keyword (keyword arguments are traced like positional
    ones). The arguments at ``static_argnums`` or named by
    ``static_argnames`` (names and positions map to each other through the
    signature, as in jax.jit) and any leaf that is not an array or a number
    (a function, a string) are static: Python values while the program is
    built, part of the cache key. ``donate_argnums`` and
    ``donate_argnames`` donate arguments (_donation: outputs are computed
    into the memory of their adjoint.Tensor leaves, which the call
    deletes). ``builds`` counts the modules built (one per new signature)
    and ``compile_seconds`` the time spent building and compiling them
    (``JitFunction.total_compile_seconds``: every jit's, in the process).
    CPU results are adjoint.Array (numpy arrays
    with ``block_until_ready``).

    ``device`` ("cpu", "opencl:0", an adjoint.Device) is where the compiled
    code runs; None: where the arguments' device arrays are (adjoint.Tensor
    from device_put or from an earlier call), else the CPU. On a GPU,
    numpy arguments are copied there and the results are device arrays
    (adjoint.Tensor) that stay there: pass them to the next call, read them
    with adjoint.to_numpy. On cuda, f32 matmuls use TF32 when the matmul
    precision in effect at the call is "tf32" (adjoint.matmul_precision);
    each precision has its own compiled code."""

    #: Seconds every JitFunction of the process spent building and
    #: compiling.
    total_compile_seconds = 0.0

    def __init__(self, fn, static_argnums=(), device=None, static_ints=None,
                 static_argnames=(), donate_argnums=(), donate_argnames=()):
        self.fn = fn
        self._static = ArgSpec(fn, static_argnums, static_argnames, "static")
        self._donate = ArgSpec(fn, donate_argnums, donate_argnames, "donate")
        both = set(self._static.nums) & set(self._donate.nums) or \
            set(self._static.names) & set(self._donate.names)
        if both:
            raise ValueError("jit: argument %r is both static and donated"
                             % sorted(both)[0])
        self.static_argnums, self.static_argnames = \
            self._static.nums, self._static.names
        self.donate_argnums, self.donate_argnames = \
            self._donate.nums, self._donate.names
        # Static and donated arguments need the full path.
        self._plain = not (self._static or self._donate)
        #: nargs -> the arguments whose Python ints are static (transforms:
        #: those not differentiated), or None; keyword arguments are never
        #: differentiated, so theirs are static too then.
        self.static_ints = static_ints
        self.device = None if device is None else _device(device)
        self.__name__ = getattr(fn, "__name__", type(fn).__name__)
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self.builds = 0
        self.compile_seconds = 0.0
        self._cache = {}
        #: The quick path's cache: _quick_key -> (executable, output
        #: builder, weak leaves to convert, device).
        self._quick = {}

    # Signatures ------------------------------------------------------------

    def _parts(self, args, kwargs):
        """The arguments as one list (positional ones, then keyword ones in
        the order of their sorted names), the names, and for each whether
        it is static, whether its Python ints are, and whether donated."""
        names = tuple(sorted(kwargs))
        n = len(args)
        ints = self.static_ints(n) if self.static_ints else ()
        flags = [(self._static.at(i, n), i in ints, self._donate.at(i, n))
                 for i in range(n)]
        kw_ints = self.static_ints is not None
        flags += [(self._static.named(k), kw_ints, self._donate.named(k))
                  for k in names]
        return list(args) + [kwargs[k] for k in names], names, flags

    def _signature(self, args, kwargs=None):
        parts, names, flags = self._parts(args, kwargs or {})
        trees, leaves = [], []
        for a, (static, ints, _) in zip(parts, flags):
            l = []
            trees.append(_flatten(a, l))
            leaves += [_leaf(x, static, ints) for x in l]
        # The first float argument's dtype, or the part dtype of the first
        # complex one (complex128 programs compute in f64).
        float_dtype = next((_PART_DTYPE.get(_NP_TO_ADJ[c[0]],
                                            _NP_TO_ADJ[c[0]])
                            for k, c, _ in leaves
                            if k == "A" and c[0].kind in "fc"), DType.f32)
        device = self.device or _argument_device(leaves)
        # The target with the matmul precision in effect (+tf32 on cuda):
        # a new precision compiles anew.
        target = _precision.target_for(device.kind)
        key = (tuple(trees), names, float_dtype, device.id, target) + \
            tuple((k, c) for k, c, _ in leaves)
        return key, (tuple(trees), names), leaves, float_dtype, device

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

    def _translate(self, module, layout, leaves, float_dtype):
        """Defines this function in `module`; returns (Function, out tree).
        `layout`: the argument trees and the keyword names (_signature)."""
        trees, names = layout
        tr = _Translator(module, float_dtype)
        tr.names.add(self.__name__)
        state = {}

        def body(*params):
            it = iter(params)
            vals = [p if k == "S" else next(it) for k, _, p in leaves]
            pos = [0]
            parts = [_unflatten(t, vals, pos) for t in trees]
            n = len(parts) - len(names)
            args, kwargs = parts[:n], dict(zip(names, parts[n:]))
            node, frame = None, _Frame(tr, "<jit>", {}, {})
            try:
                src = _Source.of(self.fn)
                node = src.node
                frame = _Frame(tr, src.filename, {}, {})
            except (AttributeError, TypeError, FrontendError):
                pass  # a transform or a callable without source
            value = tr.call(self.fn, args, kwargs, node, frame)
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

    def lower(self, *args, **kwargs):
        """The adj module built for these arguments (not compiled)."""
        try:
            return self._lower(args, kwargs)
        except Exception as e:
            user_frames_only(e)  # see __call__
            raise

    def _lower(self, args, kwargs):
        _, layout, leaves, float_dtype, _ = self._signature(args, kwargs)
        m = Module()
        self._translate(m, layout, leaves, float_dtype)
        return m

    def _donated(self, args, kwargs):
        """The positions among the compiled function's inputs of the
        donated adjoint.Tensor leaves, and those tensors."""
        parts, _, flags = self._parts(args, kwargs)
        index, inputs, tensors = 0, [], []
        for a, (static, ints, donated) in zip(parts, flags):
            leaves = []
            _flatten(a, leaves)
            for x in leaves:
                if static or _leaf(x, False, ints)[0] == "S":
                    continue
                if donated and type(x) is Tensor:
                    inputs.append(index)
                    tensors.append(x)
                index += 1
        return inputs, tensors

    def _compiled(self, args, kwargs):
        key, layout, leaves, float_dtype, device = \
            self._signature(args, kwargs)
        # Which inputs are donated tensors (not numpy arrays) is part of
        # what is compiled.
        donated = self._donated(args, kwargs)[0] if self._donate else []
        if donated:
            key += (("donate",) + tuple(donated),)
        entry = self._cache.get(key)
        if entry is None:
            start = time.perf_counter()
            m = Module()
            self.builds += 1
            fn, tree = self._translate(m, layout, leaves, float_dtype)
            # Outputs of a donated tensor's dtype and shape are computed
            # into its memory (_donation).
            exe = _adj.compile(m, fn.name, donate=donated,
                               target=_precision.target_for(device.kind))
            entry = self._cache[key] = (exe, tree)
            spent = time.perf_counter() - start
            self.compile_seconds += spent
            JitFunction.total_compile_seconds += spent
        return entry, self._arrays(leaves, float_dtype), device

    def __call__(self, *args, **kwargs):
        try:
            return self._call(args, kwargs)
        except Exception as e:
            # The translator's frames are dropped (the bare raise adds
            # none): the traceback shows the user's code (_tracebacks).
            user_frames_only(e)
            raise

    def _call(self, args, kwargs):
        # The quick path: arguments made of numpy arrays, numpy scalars and
        # Python numbers in dicts, tuples and lists (what training steps
        # pass), looked up by one key built in a single walk.
        leaves = []
        if not self._plain:
            key = None
        elif self.static_ints is None:
            key = _quick_key(args, leaves)
        else:
            key = self._quick_key_static_ints(args, leaves)
        if kwargs and key is not None:
            named = _quick_key(kwargs, leaves, self.static_ints is not None)
            key = None if named is None else (key, named)
        if key is not None:
            key = (key, _precision.get_matmul_precision())
            entry = self._quick.get(key)
            if entry is not None:
                exe, build, weak, device, wrap = entry
                if weak:
                    for i, dtype in weak:
                        leaves[i] = _np.asarray(leaves[i], dtype)
                return build(wrap(exe(*leaves, device=device)))
        (exe, tree), arrays, device = self._compiled(args, kwargs)
        if key is not None:
            weak = tuple((i, a.dtype) for i, a in enumerate(arrays)
                         if type(leaves[i]) in (bool, int, float))
            wrap = host_results if device.kind == "cpu" else _host_or_device
            self._quick[key] = (exe, _builder(tree), weak, device, wrap)
        out = _host_or_device(exe(*arrays, device=device))
        if self._donate:
            for t in self._donated(args, kwargs)[1]:
                _donation.delete(t)
        return _unflatten(tree, out)

    def _quick_key_static_ints(self, args, leaves):
        ints = self.static_ints(len(args))
        if not ints:
            return _quick_key(args, leaves)
        parts = tuple(_quick_key(a, leaves, i in ints)
                      for i, a in enumerate(args))
        return None if any(p is None for p in parts) else parts

    def __repr__(self):
        return "<adjoint.jit %s>" % self.__name__


def jit(fn=None, *, static_argnums=(), static_argnames=(), donate_argnums=(),
        donate_argnames=(), device=None):
    """Compiles `fn` (a Python function, a functools.partial, a transform,
    any callable whose source can be read) from its Python source, per
    argument signature. Use as ``@jit``, ``@jit(static_argnums=(1,))``,
    ``@partial(jit, static_argnames="n")`` or ``jit(f, device="opencl:0")``
    (JitFunction says how arguments and results are passed)."""
    options = dict(static_argnums=static_argnums,
                   static_argnames=static_argnames,
                   donate_argnums=donate_argnums,
                   donate_argnames=donate_argnames, device=device)
    if fn is None:
        return lambda f: jit(f, **options)
    new = JitFunction(fn, **options)
    if isinstance(fn, JitFunction) and all(
            getattr(fn, k) == getattr(new, k) for k in
            ("static_argnums", "static_argnames", "donate_argnums",
             "donate_argnames", "device")):
        return fn  # keeps its compiled signatures
    return new


def _quick_key(x, leaves, static_int=False):
    """A key for `x` that determines its whole signature (structure, dict
    keys, dtypes and shapes, the kinds of Python numbers) when every leaf is
    a numpy array, a numpy scalar or a Python number in pytree nodes
    (_tree_nodes), appending the leaves as the compiled function takes them
    (numpy scalars as arrays; Python ints and bools are in the key instead
    with `static_int`); None for anything else (device arrays, static
    values), which takes the full path."""
    t = type(x)
    if t is _np.ndarray or t is Array:  # results passed back are Arrays
        leaves.append(x)
        return x.dtype, x.shape
    if t is dict:
        keys = tuple(sorted(x))
        parts = [dict, keys]
        for k in keys:
            v = x[k]
            tv = type(v)
            if tv is Array or tv is _np.ndarray:  # no call per parameter
                leaves.append(v)
                parts.append((v.dtype, v.shape))
                continue
            part = _quick_key(v, leaves, static_int)
            if part is None:
                return None
            parts.append(part)
        return tuple(parts)
    if t is tuple or t is list:
        parts = [t]
        for e in x:
            te = type(e)
            if te is Array or te is _np.ndarray:
                leaves.append(e)
                parts.append((e.dtype, e.shape))
                continue
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
