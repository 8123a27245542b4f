#!/usr/bin/env bash
# An AddressSanitizer + UndefinedBehaviorSanitizer build of the libraries,
# tools, C++ tests and the Python extension in ./build-sanitize, then runs
# under it: every Catch2 case, every lit test, a Python smoke test (the jit,
# transform and front-end tests) and a short front-end fuzzing run. Exits
# non-zero on the first failure or sanitizer report (UBSan does not recover).
# Not part of the test command: the build takes as long as a normal one.
#
# Notes on the mixed build (our code instrumented, Debian's libMLIR.so and
# CPython not):
# - Every binary links the shared ASan runtime (-shared-libasan), so that
#   the extension and the runtime library can be loaded into uninstrumented
#   processes (python3, mlir-runner) with LD_PRELOAD of that same runtime.
# - allow_user_poisoning=0: LLVM's headers poison BumpPtrAllocator slabs in
#   instrumented code while uninstrumented libMLIR code uses them, a false
#   use-after-poison.
# - detect_leaks=0 where uninstrumented programs run (lit's FileCheck and
#   mlir-runner, CPython): they leak by design at exit. The Catch2 suite
#   runs with leak detection on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --packages-only

jobs="${JOBS:-$(nproc)}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
flags+=" -fno-omit-frame-pointer -gline-tables-only"
runtime_dir="$(dirname "$(clang-22 -print-file-name=libclang_rt.asan-x86_64.so)")"
asan_runtime="$runtime_dir/libclang_rt.asan-x86_64.so"
link_flags="-fsanitize=address,undefined -shared-libasan -Wl,-rpath,$runtime_dir"

if [ ! -f build-sanitize/build.ninja ]; then
  /usr/bin/cmake -G Ninja -S . -B build-sanitize \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$link_flags" \
    -DCMAKE_SHARED_LINKER_FLAGS="$link_flags" \
    -DCMAKE_MODULE_LINKER_FLAGS="$link_flags"
fi
/usr/bin/cmake --build build-sanitize -- -j"$jobs"

symbolizer=/usr/lib/llvm-22/bin/llvm-symbolizer
export ASAN_SYMBOLIZER_PATH=$symbolizer
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
common="allow_user_poisoning=0:detect_odr_violation=0:abort_on_error=0"
# The suites check that compiled code reports out-of-memory instead of
# crashing: let the allocator return null as malloc would.
common+=":allocator_may_return_null=1"

echo "=== sanitize: Catch2 ==="
# Every Catch2 case is a ctest entry named "<binary>:<case>".
ASAN_OPTIONS="$common:detect_leaks=1" \
  /usr/bin/ctest --test-dir build-sanitize -R ':' -j"$jobs" --output-on-failure

echo "=== sanitize: lit ==="
ASAN_OPTIONS="$common:detect_leaks=0" LD_PRELOAD="$asan_runtime" \
  /usr/lib/llvm-22/bin/lit -sv build-sanitize/test

echo "=== sanitize: Python smoke ==="
export PYTHONPATH="$PWD/build-sanitize/python"
export ADJOINT_CACHE_DIR="$PWD/build-sanitize/python-adjoint-cache"
ASAN_OPTIONS="$common:detect_leaks=0" LD_PRELOAD="$asan_runtime" \
  python3 -m pytest -q -p no:cacheprovider -x \
    test/python/test_jit.py test/python/test_jit_functions.py \
    test/python/test_jit_transforms.py test/python/test_builder.py \
    test/python/test_run.py
ASAN_OPTIONS="$common:detect_leaks=0" LD_PRELOAD="$asan_runtime" \
  python3 fuzz/frontend/fuzz-frontend --seed 1000 --count 40
echo "sanitize: clean"
