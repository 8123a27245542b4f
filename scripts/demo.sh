#!/usr/bin/env bash
# README command (1): install what is missing, build, run the main demo.
# Until the compiler lands, the demo is the two builder-API examples: each
# builds a program, prints its IR and evaluates it in the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "=== An MLP classifier loss, built with the C++ API ==="
./build/bin/example-mlp-loss
echo
echo "=== Closures, higher-order functions, recursion, loops, tuples ==="
./build/bin/example-closures
