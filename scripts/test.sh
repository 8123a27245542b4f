#!/usr/bin/env bash
# README command (2): install, build, run every test through ctest (lit,
# Catch2; later pytest). Prints ctest's summary; non-zero exit on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The OpenCL devices of Intel's CPU runtime (installed by setup.sh).
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-/opt/adjoint/intel-opencl/icd}"
cd build
/usr/bin/ctest --output-on-failure -j"$(nproc)"
