#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), then configures and builds
# Adjoint in ./build with Ninja and ccache, and installs the Python package
# `adjoint` for python3 with pip from that same build. Idempotent and quick
# when nothing changed. Used by demo.sh and test.sh; not meant to be run on
# its own.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build ccache git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libclang-rt-22-dev libfuzzer-22-dev
  libeigen3-dev catch2
  libdnnl2
  # LAPACK for the LinearAlgebra kernels (OpenBLAS: docs/cpu-backend.md).
  libopenblas0-pthread
  # FFTW for adj.fft on the CPU (docs/cpu-backend.md, "FFT").
  libfftw3-double3 libfftw3-single3
  python3-dev python3-pip pybind11-dev python3-numpy python3-pytest
  python3-venv
  ocl-icd-libopencl1 opencl-c-headers spirv-tools clinfo
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Python packages for python3, the interpreter first on PATH (the one CMake
# finds): ml_dtypes (numpy's name for bf16, as JAX's), pytest, scikit-build-core for the package below, and the reference
# peers of tests and benchmarks: PyTorch 2.13 for the CPU (the exact pin takes
# the CPU build; an unpinned torch pulls a multi-GB CUDA one) and JAX on the
# CPU; matplotlib for the charts of adjoint-bench --plot; mpmath, the exact
# reference of the f64 math accuracy test. Looked up without
# importing them (importing torch takes seconds); pip runs only for what is
# missing or at another version.
PYTHON=python3
export PIP_ROOT_USER_ACTION=ignore PIP_BREAK_SYSTEM_PACKAGES=1
mapfile -t pip_missing < <("$PYTHON" - <<'PY'
import importlib.metadata as md
import importlib.util

def have(module, dist, version):
    if importlib.util.find_spec(module) is None:
        return False
    try:
        found = md.version(dist)
    except md.PackageNotFoundError:
        return False
    return version is None or found.split("+")[0] == version

for module, dist, version, requirement in [
    ("numpy", "numpy", None, "numpy"),
    ("ml_dtypes", "ml-dtypes", None, "ml_dtypes"),
    ("pytest", "pytest", None, "pytest"),
    ("scikit_build_core", "scikit-build-core", None, "scikit-build-core>=0.11"),
    ("torch", "torch", "2.13.0", "torch==2.13.0"),
    ("jax", "jax", None, "jax"),
    ("jaxlib", "jaxlib", None, "jaxlib"),
    ("matplotlib", "matplotlib", None, "matplotlib"),
    ("mpmath", "mpmath", None, "mpmath"),
]:
    if not have(module, dist, version):
        print(requirement)
PY
)
if ((${#pip_missing[@]})); then
  echo "setup: pip installing ${pip_missing[*]} for $(command -v "$PYTHON")"
  "$PYTHON" -m pip install -q "${pip_missing[@]}"
fi

# Intel's CPU OpenCL runtime from PyPI: it runs the SPIR-V kernels of the
# OpenCL target on this CPU, so the GPU runtime's tests execute here (Debian's
# own OpenCL drivers take no SPIR-V). In its own venv (`pip install --target`
# drops the wheels' lib/ files); Debian's ICD loader finds it through the
# one-line .icd file below, in a folder that OCL_ICD_VENDORS names
# (test/CMakeLists.txt sets it for ctest; test.sh and demo.sh export it).
OPENCL_PREFIX=/opt/adjoint/intel-opencl
OPENCL_VERSION=2026.2.0
if ! "$OPENCL_PREFIX/bin/python" - "$OPENCL_VERSION" 2>/dev/null <<'PY'
import importlib.metadata as md, sys
sys.exit(any(md.version(d) != sys.argv[1]
             for d in ("intel-opencl-rt", "intel-cmplr-lib-rt")))
PY
then
  echo "setup: installing Intel's CPU OpenCL runtime $OPENCL_VERSION in $OPENCL_PREFIX"
  python3 -m venv "$OPENCL_PREFIX"
  "$OPENCL_PREFIX/bin/pip" install -q "intel-opencl-rt==$OPENCL_VERSION" \
    "intel-cmplr-lib-rt==$OPENCL_VERSION"
fi
mkdir -p "$OPENCL_PREFIX/icd"
icd_line="$OPENCL_PREFIX/lib/libintelocl.so"
if [ "$(cat "$OPENCL_PREFIX/icd/intel-cpu.icd" 2>/dev/null)" != "$icd_line" ]; then
  echo "$icd_line" > "$OPENCL_PREFIX/icd/intel-cpu.icd"
fi

# NVIDIA's compiler pieces from PyPI, not from a CUDA install: ptxas and
# fatbinary (nvidia-cuda-nvcc) and libdevice (nvidia-nvvm), pinned to CUDA
# 13.0, the driver version of the lent GPUs, so that cubins are built and
# checked on machines without a GPU. In a venv, like the OpenCL runtime;
# root/ arranges them as a CUDA toolkit folder (bin/, nvvm/libdevice/), the
# default of the ADJOINT_CUDA_TOOLKIT CMake variable. cuobjdump (which the
# tests use to list fatbins and report each kernel's registers, stack and
# shared memory) has no 13.0 wheel; it only reads the files, and 13.2
# reads those of 13.0.
CUDA_PREFIX=/opt/adjoint/cuda-toolkit
CUDA_VERSION=13.0
CUOBJDUMP_VERSION=13.2
if ! "$CUDA_PREFIX/bin/python" - "$CUDA_VERSION" "$CUOBJDUMP_VERSION" \
    2>/dev/null <<'PY'
import importlib.metadata as md, sys
wanted = {"nvidia-cuda-nvcc": sys.argv[1], "nvidia-nvvm": sys.argv[1],
          "nvidia-cuda-cuobjdump": sys.argv[2]}
sys.exit(any(not md.version(d).startswith(v + ".") for d, v in wanted.items()))
PY
then
  echo "setup: installing ptxas, libdevice (CUDA $CUDA_VERSION) and cuobjdump in $CUDA_PREFIX"
  python3 -m venv "$CUDA_PREFIX"
  "$CUDA_PREFIX/bin/pip" install -q "nvidia-cuda-nvcc==$CUDA_VERSION.*" \
    "nvidia-nvvm==$CUDA_VERSION.*" \
    "nvidia-cuda-cuobjdump==$CUOBJDUMP_VERSION.*"
fi
cuda_wheels=$("$CUDA_PREFIX/bin/python" -c \
  'import os, nvidia; print(os.path.join(list(nvidia.__path__)[0], "cu13"))')
mkdir -p "$CUDA_PREFIX/root/bin" "$CUDA_PREFIX/root/nvvm/libdevice"
for tool in ptxas fatbinary nvlink cuobjdump; do
  ln -sfn "$cuda_wheels/bin/$tool" "$CUDA_PREFIX/root/bin/$tool"
done
ln -sfn "$cuda_wheels/nvvm/libdevice/libdevice.10.bc" \
  "$CUDA_PREFIX/root/nvvm/libdevice/libdevice.10.bc"

# AMD code objects (HSACO) from Debian's archive alone: MLIR's ROCDL
# serializer links with <ROCm>/llvm/bin/ld.lld and takes the device
# libraries (ocml, for math functions) from <ROCm>/amdgcn/bitcode. root/
# arranges both: a link to Debian's ld.lld 22 (lld-22 above; 14 cannot link
# code object v5) and the bitcode of Debian's rocm-device-libs, unpacked
# here rather than installed (its folder under /usr/lib is not a ROCm
# layout). It is the default of the ADJOINT_ROCM_PATH CMake variable.
ROCM_PREFIX=/opt/adjoint/rocm
# Whatever version the archive serves (bookworm: 5.2.3), recorded in the
# stamp; unpacked once.
if [ ! -s "$ROCM_PREFIX/device-libs.version" ] ||
   [ ! -d "$ROCM_PREFIX/extract/usr/lib/x86_64-linux-gnu/amdgcn/bitcode" ]; then
  echo "setup: unpacking Debian's rocm-device-libs in $ROCM_PREFIX"
  rm -rf "$ROCM_PREFIX/debs" "$ROCM_PREFIX/extract"
  mkdir -p "$ROCM_PREFIX/debs"
  (cd "$ROCM_PREFIX/debs" &&
    apt-get download -qq rocm-device-libs 2>/dev/null ||
    { apt-get update -qq && apt-get download -qq rocm-device-libs; })
  deb=$(ls "$ROCM_PREFIX"/debs/rocm-device-libs_*.deb)
  dpkg-deb -x "$deb" "$ROCM_PREFIX/extract"
  dpkg-deb -f "$deb" Version > "$ROCM_PREFIX/device-libs.version"
fi
mkdir -p "$ROCM_PREFIX/root/llvm/bin" "$ROCM_PREFIX/root/amdgcn"
ln -sfn /usr/lib/llvm-22/bin/ld.lld "$ROCM_PREFIX/root/llvm/bin/ld.lld"
ln -sfn "$ROCM_PREFIX/extract/usr/lib/x86_64-linux-gnu/amdgcn/bitcode" \
  "$ROCM_PREFIX/root/amdgcn/bitcode"

# scripts/sanitize.sh needs the packages only; it builds elsewhere.
if [ "${1:-}" = "--packages-only" ]; then
  exit 0
fi

# Debian's cmake, not a pip-installed one that may shadow it on PATH.
CMAKE=/usr/bin/cmake
if [ ! -f build/build.ninja ]; then
  "$CMAKE" -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
"$CMAKE" --build build

# The Python package, installed for python3 as `pip install .` does
# (pyproject.toml) but with build/ as scikit-build-core's build directory, so
# that nothing is compiled again: it reconfigures build/, finds the target
# `adjoint-python` up to date and installs the CMake component `python`
# through a wheel, which pip manages (`pip uninstall adjoint` works). Skipped
# when the installed package is the one pip installed from this checkout and
# neither the built package nor its packaging changed since (the stamp).
stamp=build/python/.pip-installed
installed_here=yes
"$PYTHON" - <<'PY' || installed_here=no
import importlib.metadata as md, json, pathlib, sys
try:
    url = json.loads(md.distribution("adjoint").read_text("direct_url.json"))["url"]
except (md.PackageNotFoundError, TypeError, ValueError, KeyError):
    url = None
sys.exit(url != pathlib.Path.cwd().as_uri())
PY
if [ "$installed_here" = no ] || [ ! -f "$stamp" ] ||
   [ -n "$(find build/python/adjoint -name __pycache__ -prune -o -type f \
             -newer "$stamp" -print -quit)" ] ||
   [ -n "$(find python/adjoint pyproject.toml python/CMakeLists.txt \
             -name __pycache__ -prune -o -newer "$stamp" -print -quit)" ]; then
  echo "setup: pip installing the adjoint package for $(command -v "$PYTHON")"
  CMAKE_EXECUTABLE="$CMAKE" "$PYTHON" -m pip install -q --no-deps \
    --no-build-isolation -C build-dir="$PWD/build" .
  touch "$stamp"
fi
