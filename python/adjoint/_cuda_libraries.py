"""Where the CUDA libraries of PyPI's wheels are, for the runtime.

The runtime opens cuBLASLt with dlopen on the first GEMM of a cuda device.
The nvidia-cublas wheel (pulled in by torch and jax CUDA builds) puts
libcublasLt.so.13 under site-packages/nvidia/cu13/lib, a folder no library
path names: unless torch loaded it first, dlopen would not find it and
every GEMM would take the generated kernel. So on import the package points
ADJOINT_CUBLASLT at the wheel's copy when one is installed and the variable
is not set already. Nothing is loaded here.
"""

import importlib.machinery
import importlib.util
import os

# Newest first: CUDA 13's wheel layout, then CUDA 12's (nvidia-cublas-cu12).
_CANDIDATES = (("cu13", "lib", "libcublasLt.so.13"),
               ("cublas", "lib", "libcublasLt.so.12"))


def find_cublaslt(search_path=None):
    """The path of the nvidia-cublas wheel's libcublasLt, or None.
    `search_path` (for tests) replaces sys.path."""
    try:
        spec = (importlib.util.find_spec("nvidia") if search_path is None
                else importlib.machinery.PathFinder.find_spec("nvidia",
                                                              search_path))
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for root in spec.submodule_search_locations:
        for parts in _CANDIDATES:
            path = os.path.join(root, *parts)
            if os.path.isfile(path):
                return path
    return None


def point_runtime_at_wheels():
    if os.environ.get("ADJOINT_CUBLASLT"):
        return
    path = find_cublaslt()
    if path:
        os.environ["ADJOINT_CUBLASLT"] = path
