#!/usr/bin/env bash
# README command (1): install what is missing, build, run the main demo: an
# MLP classifier's training step (forward, grad, SGD update) built with the
# C++ API, compiled for this CPU, and trained on a synthetic dataset.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The OpenCL devices of Intel's CPU runtime (installed by setup.sh).
export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-/opt/adjoint/intel-opencl/icd}"
echo "=== Training an MLP classifier compiled by Adjoint ==="
./build/bin/example-train-mlp
