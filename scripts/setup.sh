#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), then configures and builds
# Adjoint in ./build with Ninja and ccache. Idempotent and quick when nothing
# changed. Used by demo.sh and test.sh; not meant to be run on its own.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build ccache git
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22
  libclang-rt-22-dev libfuzzer-22-dev
  libeigen3-dev catch2
  python3-dev pybind11-dev python3-numpy python3-pytest
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

# Debian's cmake, not a pip-installed one that may shadow it on PATH.
CMAKE=/usr/bin/cmake
if [ ! -f build/build.ninja ]; then
  "$CMAKE" -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
"$CMAKE" --build build
