"""numpy.fft in jitted code: ``adjoint.numpy.fft`` (jax.numpy.fft's
functions).

Every transform is one primitive, adj.fft (JAX's lax.fft: fft, ifft, rfft
or irfft over up to three trailing axes), with numpy's arguments around
it: the axes moved last and back, each cropped or zero-padded to its
length in `n` or `s`, and the scale of `norm` ("backward", the default,
divides the inverse by the number of points, "ortho" both directions by
its square root, "forward" the forward transform). Derivatives and
batching come from the primitive's rules (JAX's). Dtypes follow JAX:
integers and booleans compute in the program's float dtype, f32 gives
complex64 and f64 complex128, and rfft takes real input only.

More than three axes run as several transforms, as in JAX. hfft and ihfft
are irfft and rfft of the conjugate, as numpy defines them. fftfreq,
rfftfreq, fftshift and ifftshift are index arithmetic and rolls.
"""

import math
import operator

import numpy as _np

from . import _adjoint as _adj
from ._adjoint import DType, Value
from ._np_arithmetic import conjugate
from ._np_shapes import roll
from ._np_support import (as_value, cast_to, complex_dtype, float_dtype,
                          normalize_axes, to_dtype)

_NORMS = (None, "backward", "ortho", "forward")


def _operand(a, name, real):
    """`a` as a Value the transform takes: floats (or complex) of f32/f64
    precision, integers and booleans in the program's float dtype."""
    x = as_value(a, "fft." + name)
    if x.dtype.is_complex:
        if real:
            raise TypeError("adjoint.numpy.fft.%s: expected a real array, "
                            "got %s (numpy's %s takes real input only)"
                            % (name, x.dtype, name))
        return x
    if not x.dtype.is_float:
        return _adj.cast(x, float_dtype())
    if x.dtype not in (DType.f32, DType.f64):
        return _adj.cast(x, DType.f32)
    return x


def _length(n, name, what="n"):
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("adjoint.numpy.fft.%s: %s must be an int or None, "
                        "not %s" % (name, what, type(n).__name__)) from None
    if n < 1:
        raise ValueError("adjoint.numpy.fft.%s: invalid number of data "
                         "points (%d) specified" % (name, n))
    return n


def _resize(x, axis, size):
    """x cropped or zero-padded to `size` along `axis`."""
    have = x.shape[axis]
    if have > size:
        limit = list(x.shape)
        limit[axis] = size
        return _adj.slice(x, [0] * x.rank, limit)
    if have < size:
        high = [0] * x.rank
        high[axis] = size - have
        return _adj.pad(x, [0] * x.rank, high)
    return x


def _scale(x, norm, points, forward, name):
    """The factor `norm` puts on a transform that adj.fft computes with
    numpy's default ("backward") scaling."""
    if norm not in _NORMS:
        raise ValueError('adjoint.numpy.fft.%s: invalid norm value %r; '
                         'should be "backward", "ortho" or "forward"'
                         % (name, norm))
    if norm is None or norm == "backward" or points == 0:
        return x
    if norm == "ortho":
        factor = 1 / math.sqrt(points) if forward else math.sqrt(points)
    else:
        factor = 1 / points if forward else points
    return x * factor


def _transform(x, fft_type, axes, lengths):
    """adj.fft of `fft_type` over `axes` (at most three, the last one
    last), moved to the end and back."""
    rank = x.rank
    rest = [d for d in range(rank) if d not in axes]
    perm = rest + list(axes)
    if perm != list(range(rank)):
        x = _adj.transpose(x, perm)
    y = _adj.fft(x, fft_type, list(lengths))
    if perm != list(range(rank)):
        y = _adj.transpose(y, [int(i) for i in _np.argsort(perm)])
    return y


def _core(name, fft_type, a, s, axes, norm):
    """numpy's fftn family: `s` lengths over `axes` (numpy's defaults)."""
    x = _operand(a, name, real=fft_type == "rfft")
    if s is not None:
        s = [_length(n, name, "s") for n in (
            s if isinstance(s, (tuple, list)) else [s])]
        if axes is None:
            if len(s) > x.rank:
                raise ValueError("adjoint.numpy.fft.%s: s has more entries "
                                 "than the array has axes" % name)
            axes = list(range(x.rank - len(s), x.rank))
    if axes is not None and isinstance(axes, (int, _np.integer)):
        axes = [axes]
    axes = normalize_axes(axes, x.rank, "fft." + name)
    if s is None:
        s = [x.shape[ax] for ax in axes]
        if fft_type == "irfft" and axes:
            s[-1] = 2 * (x.shape[axes[-1]] - 1)
    elif len(s) != len(axes):
        raise ValueError("adjoint.numpy.fft.%s: shape and axes have "
                         "different lengths" % name)
    if not axes:
        return x if x.dtype.is_complex or fft_type == "irfft" else \
            _adj.cast(x, complex_dtype(x.dtype))
    for ax, n in zip(axes, s):
        if n < 1:
            raise ValueError("adjoint.numpy.fft.%s: invalid number of data "
                             "points (%d) specified" % (name, n))
    # The input's sizes: s, except irfft's last axis, a half spectrum.
    for i, (ax, n) in enumerate(zip(axes, s)):
        last = i == len(axes) - 1
        x = _resize(x, ax, n // 2 + 1 if last and fft_type == "irfft" else n)
    # Up to three axes per adj.fft: the real transform takes the last
    # group (rfft first, irfft last), complex ones the others.
    groups = [axes[max(0, i - 3):i] for i in range(len(axes), 0, -3)]
    lengths = {ax: n for ax, n in zip(axes, s)}
    if fft_type == "rfft":
        x = _transform(x, "rfft", groups[0], [lengths[a] for a in groups[0]])
        for g in groups[1:]:
            x = _transform(x, "fft", g, [x.shape[a] for a in g])
    elif fft_type == "irfft":
        for g in groups[1:]:
            x = _transform(x, "ifft", g, [x.shape[a] for a in g])
        x = _transform(x, "irfft", groups[0], [lengths[a] for a in groups[0]])
    else:
        for g in groups:
            x = _transform(x, fft_type, g, [x.shape[a] for a in g])
    forward = fft_type in ("fft", "rfft")
    return _scale(x, norm, math.prod(s), forward, name)


def _one_axis(name, fft_type, a, n, axis, norm):
    if n is not None:
        n = [_length(n, name)]
    return _core(name, fft_type, a, n, [axis], norm)


def fft(a, n=None, axis=-1, norm=None):
    """The 1-D discrete Fourier transform."""
    return _one_axis("fft", "fft", a, n, axis, norm)


def ifft(a, n=None, axis=-1, norm=None):
    """The 1-D inverse discrete Fourier transform."""
    return _one_axis("ifft", "ifft", a, n, axis, norm)


def rfft(a, n=None, axis=-1, norm=None):
    """The 1-D transform of real input: the n // 2 + 1 non-negative
    frequencies."""
    return _one_axis("rfft", "rfft", a, n, axis, norm)


def irfft(a, n=None, axis=-1, norm=None):
    """The inverse of rfft: n real points (2 (m - 1) by default) from a
    half spectrum of m."""
    return _one_axis("irfft", "irfft", a, n, axis, norm)


_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho",
            "forward": "backward"}


def _swapped(norm, name):
    if norm not in _NORMS:
        raise ValueError('adjoint.numpy.fft.%s: invalid norm value %r; '
                         'should be "backward", "ortho" or "forward"'
                         % (name, norm))
    return _SWAPPED[norm]


def hfft(a, n=None, axis=-1, norm=None):
    """The transform of a signal with Hermitian symmetry (a real spectrum):
    irfft of the conjugate, scaled as a forward transform."""
    x = as_value(a, "fft.hfft")
    return _one_axis("hfft", "irfft", conjugate(x), n, axis,
                     _swapped(norm, "hfft"))


def ihfft(a, n=None, axis=-1, norm=None):
    """The inverse of hfft: the conjugate of rfft, scaled as an inverse."""
    return conjugate(_one_axis("ihfft", "rfft", a, n, axis,
                               _swapped(norm, "ihfft")))


def fft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D discrete Fourier transform."""
    return _core("fft2", "fft", a, s, axes, norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D inverse discrete Fourier transform."""
    return _core("ifft2", "ifft", a, s, axes, norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D transform of real input."""
    return _core("rfft2", "rfft", a, s, axes, norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    """The inverse of rfft2."""
    return _core("irfft2", "irfft", a, s, axes, norm)


def fftn(a, s=None, axes=None, norm=None):
    """The N-D discrete Fourier transform (every axis by default)."""
    return _core("fftn", "fft", a, s, axes, norm)


def ifftn(a, s=None, axes=None, norm=None):
    """The N-D inverse discrete Fourier transform."""
    return _core("ifftn", "ifft", a, s, axes, norm)


def rfftn(a, s=None, axes=None, norm=None):
    """The N-D transform of real input (the last axis halved)."""
    return _core("rfftn", "rfft", a, s, axes, norm)


def irfftn(a, s=None, axes=None, norm=None):
    """The inverse of rfftn."""
    return _core("irfftn", "irfft", a, s, axes, norm)


def _frequencies(name, k, n, d, dtype):
    """The integer frequencies `k` times 1 / (n d), numpy's formula, in
    `dtype` (the program's float dtype by default)."""
    dtype = to_dtype(dtype, name) or float_dtype()
    k = cast_to(as_value(k.astype(_np.int64), name), dtype)
    if isinstance(d, Value):
        return k * (1.0 / (cast_to(d, dtype) * float(n)))
    return k * (1.0 / (n * d))


def fftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of fft's outputs: [0, 1, ..., -1] / (d n)."""
    n = _length(n, "fftfreq")
    k = _np.concatenate([_np.arange(0, (n - 1) // 2 + 1),
                         _np.arange(-(n // 2), 0)])
    return _frequencies("fft.fftfreq", k, n, d, dtype)


def rfftfreq(n, d=1.0, *, dtype=None, device=None):
    """The sample frequencies of rfft's outputs: [0, 1, ..., n // 2] /
    (d n)."""
    n = _length(n, "rfftfreq")
    return _frequencies("fft.rfftfreq", _np.arange(0, n // 2 + 1), n, d,
                        dtype)


def _shift(x, axes, name, sign):
    x = as_value(x, "fft." + name)
    axes = normalize_axes(axes, x.rank, "fft." + name)
    if not axes:
        return x
    return roll(x, [sign * (x.shape[ax] // 2) for ax in axes], axes)


def fftshift(x, axes=None):
    """The zero frequency moved to the middle (a roll by n // 2)."""
    return _shift(x, axes, "fftshift", +1)


def ifftshift(x, axes=None):
    """The inverse of fftshift (a roll by -(n // 2))."""
    return _shift(x, axes, "ifftshift", -1)


NAMES = ("fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft",
         "ifft2", "ifftn", "ifftshift", "ihfft", "irfft", "irfft2", "irfftn",
         "rfft", "rfft2", "rfftfreq", "rfftn")
