"""`import torch` (or jax) before `import adjoint` (issue 13).

torch's libraries use up glibc's static TLS surplus; an extension marked
STATIC_TLS (initial-exec accesses to another library's thread-locals) then
fails to load with "cannot allocate memory in static TLS block". Each case
runs in a fresh interpreter, since the import order is what matters.
"""

import importlib.util
import os
import struct
import subprocess
import sys

import pytest

import adjoint

SCRIPT = """
import {first}
import numpy as np
import adjoint as adj

m = adj.Module()
m.function("f", [adj.Type.tensor(adj.f32, [3])],
           lambda x: adj.exp(x) * 2.0 + x)
x = np.arange(3, dtype=np.float32)
np.testing.assert_allclose(adj.compile(m, "f")(x), np.exp(x) * 2 + x,
                           rtol=1e-6)
print("compiled and ran after import {first}")
"""


@pytest.mark.parametrize("first", ["torch", "jax"])
def test_import_after(first, tmp_path):
    if importlib.util.find_spec(first) is None:
        pytest.skip(first + " is not installed (scripts/setup.sh installs it)")
    env = dict(os.environ, ADJOINT_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", SCRIPT.format(first=first)],
                       env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "compiled and ran after import " + first in r.stdout


DT_NULL, DT_FLAGS, DF_STATIC_TLS, PT_DYNAMIC = 0, 30, 0x10, 2


def dynamic_flags(path):
    """DT_FLAGS of a little-endian ELF64 shared object (0 when absent)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, path
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type != PT_DYNAMIC:
            continue
        for off in range(p_offset, p_offset + p_filesz, 16):
            tag, val = struct.unpack_from("<qQ", data, off)
            if tag == DT_NULL:
                break
            if tag == DT_FLAGS:
                return val
    return 0


@pytest.mark.skipif(sys.platform != "linux", reason="ELF only")
def test_extension_needs_no_static_tls():
    # The cause, checked without torch: whatever else is loaded first, the
    # extension must be loadable by dlopen at any time.
    ext = adjoint._adjoint.__file__
    assert not dynamic_flags(ext) & DF_STATIC_TLS, (
        ext + " is marked STATIC_TLS: some of its code uses the initial-exec "
        "TLS model (build it position-independent)")
