#!/usr/bin/env bash
# README command (1): install, build, run the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
./build/bin/adjoint-demo
