"""Where the CUDA libraries of PyPI's wheels are, for the runtime.

The runtime opens cuBLASLt with dlopen on the first GEMM of a cuda device,
and cuSOLVER, cuFFT and cuBLAS on its first decomposition or FFT. The
nvidia-cublas, nvidia-cusolver and nvidia-cufft wheels (pulled in by torch
and jax CUDA builds) put them
under site-packages/nvidia/cu13/lib, a folder no library path names: unless
torch loaded them first, dlopen would not find them and every GEMM and
decomposition would take the generated kernels. So on import the package
points ADJOINT_CUBLASLT, ADJOINT_CUBLAS, ADJOINT_CUSOLVER and ADJOINT_CUFFT
at the wheels' copies when they are installed and the variables are not set already.
Nothing is loaded here.
"""

import importlib.machinery
import importlib.util
import os

# Per variable, newest first: CUDA 13's wheel layout, then CUDA 12's
# (nvidia-cublas-cu12, nvidia-cusolver-cu12).
_CANDIDATES = {
    "ADJOINT_CUBLASLT": (("cu13", "lib", "libcublasLt.so.13"),
                         ("cublas", "lib", "libcublasLt.so.12")),
    "ADJOINT_CUBLAS": (("cu13", "lib", "libcublas.so.13"),
                       ("cublas", "lib", "libcublas.so.12")),
    "ADJOINT_CUSOLVER": (("cu13", "lib", "libcusolver.so.12"),
                         ("cusolver", "lib", "libcusolver.so.11")),
    "ADJOINT_CUFFT": (("cu13", "lib", "libcufft.so.12"),
                      ("cufft", "lib", "libcufft.so.11")),
}


def find_library(variable, search_path=None):
    """The path of the wheel's library that `variable` names, or None.
    `search_path` (for tests) replaces sys.path."""
    try:
        spec = (importlib.util.find_spec("nvidia") if search_path is None
                else importlib.machinery.PathFinder.find_spec("nvidia",
                                                              search_path))
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for parts in _CANDIDATES[variable]:
        for root in spec.submodule_search_locations:
            path = os.path.join(root, *parts)
            if os.path.isfile(path):
                return path
    return None


def point_runtime_at_wheels():
    for variable in _CANDIDATES:
        if os.environ.get(variable):
            continue
        path = find_library(variable)
        if path:
            os.environ[variable] = path
