#!/usr/bin/env bash
# README command (2): install, build, run every test through ctest (lit,
# Catch2; later pytest). Prints ctest's summary; non-zero exit on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd build
/usr/bin/ctest --output-on-failure -j"$(nproc)"
