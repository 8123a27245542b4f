#!/usr/bin/env bash
# The on-device run of the NVIDIA backend (docs/benchmarks.md, "On a CUDA
# GPU"): the conformance suite on cuda:0, the training steps of the nine
# workloads on cuda:0 against the CPU, DLPack with torch CUDA tensors, and
# `adjoint-bench --device cuda --size gpu` against torch eager,
# torch.compile and jax.jit on the same GPU.
#
# Two halves, because the GPU machine has no LLVM/MLIR, no registry access
# and CPython 3.12 (../shared/notes/gpu-device.md):
#
#   scripts/gpu-device-run.sh prepare      on the build machine: downloads
#       Debian's libMLIR/libLLVM/libz3 packages into .device/debs, builds the
#       Python extension for CPython 3.12 (against the device's headers,
#       $PY312_HEADERS) and the conformance suite in build-device/ for a
#       baseline x86-64-v3 CPU, and packs them into .device/payload.tar.xz.
#       .device/ is git-ignored: the device call names it in `carry`.
#   scripts/gpu-device-run.sh device       on the GPU machine, from the
#       repository root: unpacks both into /tmp and runs $STAGES, writing
#       logs and JSON lines to $OUT (the device tool's output folder).
#
# The device half fits one device call (at most 600 s): stages run in
# order while DEVICE_BUDGET lasts, each stopped at its own timeout or at
# the budget's end; what did not fit is listed in $OUT/skipped.txt.
#
# Settings of the device half (environment):
#   STAGES          what to run, in order (default: "conformance profile
#                   bench compile tests"):
#                     conformance  the conformance suite on cuda:0
#                     profile      per workload, in its own run and timeout:
#                                  compile, first and steady step, kernels,
#                                  library calls and host time per step with
#                                  and without graphs, the ten most
#                                  expensive kernels ($OUT/profile.json)
#                     bench        adjoint-bench against the references
#                     compile      benchmarks/compile-time, cuda:sm_90
#                                  against the CPU, every workload
#                     tests        the workloads' steps and DLPack on cuda:0
#   DEVICE_BUDGET   seconds for all stages (default: 560)
#   PROFILE_WORKLOADS  the profile stage's workloads (default: all nine)
#   PROFILE_TIMEOUT seconds per workload's profile run (default: 75)
#   PRECISION       adjoint-bench --precision (default: highest)
#   BENCH_REFS      adjoint-bench --references (default: torch,torch.compile,jax)
#   BENCH_ARGS      more adjoint-bench arguments (workloads, --steps, ...)
#   BENCH_TIMEOUT   seconds per implementation run (default: 120)
#   STAGE_TIMEOUT   seconds per stage before it is stopped (default: 540)
#   CUDA_TOOLKIT    ptxas, fatbinary and libdevice (default: the device's
#                   /usr/local/cuda-13.0 or /usr/local/cuda)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEVICE_DIR=$ROOT/.device
PAYLOAD=$DEVICE_DIR/payload.tar.xz

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  exit 2
}

prepare() {
  local build=$ROOT/build-device
  local headers=${PY312_HEADERS:-$ROOT/../shared/device/python3.12-include.tgz}
  local py312=""
  local candidate
  for candidate in "${PY312:-}" python3.12 \
    "$( (pyenv root) 2>/dev/null)"/versions/3.12*/bin/python3.12; do
    if [[ -n $candidate ]] && "$candidate" -c \
      'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
      py312=$(command -v "$candidate")
      break
    fi
  done
  if [[ -z $py312 ]]; then
    echo "prepare: no python3.12 interpreter here (set PY312): CMake needs one to configure the 3.12 extension" >&2
    exit 1
  fi
  if [[ ! -f $headers ]]; then
    echo "prepare: the device's Python 3.12 headers are not at $headers (set PY312_HEADERS)" >&2
    exit 1
  fi
  mkdir -p "$DEVICE_DIR/debs" "$build/py312-include"
  tar xzf "$headers" -C "$build/py312-include"
  # Ubuntu's pyconfig.h includes the multiarch one, which the archive
  # lacks: the interpreter's own (the same 3.12 ABI) stands in for it.
  local multiarch=$build/py312-include/x86_64-linux-gnu/python3.12
  if grep -q "x86_64-linux-gnu/python3.12/pyconfig.h" "$build/py312-include/pyconfig.h" &&
    [[ ! -f $multiarch/pyconfig.h ]]; then
    mkdir -p "$multiarch"
    cp "$("$py312" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/pyconfig.h" "$multiarch/"
  fi
  if ! ls "$DEVICE_DIR"/debs/libmlir-22_*.deb >/dev/null 2>&1; then
    (cd "$DEVICE_DIR/debs" && apt-get download libmlir-22 libllvm22 libz3-4)
  fi
  /usr/bin/cmake -G Ninja -S "$ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DADJOINT_KERNELS_MARCH=x86-64-v3 \
    -DPython3_EXECUTABLE="$py312" \
    -DPython3_INCLUDE_DIR="$build/py312-include" >/dev/null
  /usr/bin/cmake --build "$build" --target adjoint-python ConformanceTest -- -j"${JOBS:-2}"
  local stage
  stage=$(mktemp -d)
  mkdir -p "$stage/python" "$stage/bin"
  cp -r "$build/python/adjoint" "$stage/python/"
  find "$stage/python" -name __pycache__ -prune -exec rm -rf {} +
  cp "$build/bin/ConformanceTest" "$stage/bin/"
  strip --strip-unneeded "$stage"/python/adjoint/*.so "$stage/bin/ConformanceTest"
  local ext
  ext=$(ls "$stage"/python/adjoint/_adjoint.cpython-312-*.so)
  echo "prepare: $(basename "$ext")"
  tar cJf "$PAYLOAD" -C "$stage" python bin
  rm -rf "$stage"
  du -ch "$DEVICE_DIR"/debs/*.deb "$PAYLOAD" | tail -n1 |
    sed 's/total$/carried in .device (the limit is 64 MiB with the checkout)/'
  echo 'prepare: done; on the device: run(command="bash scripts/gpu-device-run.sh device", carry=[".device"])'
}

# Seconds left of DEVICE_BUDGET (from the start of the device half).
remaining() { echo $((DEADLINE - SECONDS)); }

# Records that `what` did not run, and why.
skip() {
  echo "== skipped: $*"
  echo "$*" >>"$OUT/skipped.txt"
}

# Runs one stage with a time limit (its STAGE_TIMEOUT or what is left of
# the budget), its output in $OUT/<name>.log; a failed stage is reported
# and the next one still runs. A stage with less than a minute left is
# skipped.
stage() {
  local name=$1
  shift
  local limit=${STAGE_TIMEOUT:-540}
  ((limit <= $(remaining) - 25)) || limit=$(($(remaining) - 25))
  if ((limit < 60)); then
    skip "stage $name: $(remaining) s of the budget left"
    return
  fi
  echo "== $name ($limit s): $*"
  local start=$SECONDS rc=0
  timeout --signal=TERM --kill-after=20 "$limit" "$@" \
    >"$OUT/$name.log" 2>&1 || rc=$?
  tail -n 25 "$OUT/$name.log"
  echo "== $name: exit $rc after $((SECONDS - start)) s"
  [[ $rc == 0 ]] || FAILED="$FAILED $name"
}

# The profile stage: each workload's adjoint-bench --profile run in its own
# call and timeout, then one summary, $OUT/profile.json.
profile() {
  mkdir -p "$OUT/profile"
  local w limit rc
  for w in ${PROFILE_WORKLOADS:-gemm mlp lstm dlrm ppo gnn convnet bert llama}; do
    limit=${PROFILE_TIMEOUT:-75}
    ((limit <= $(remaining) - 25)) || limit=$(($(remaining) - 25))
    if ((limit < 30)); then
      skip "profile of $w: $(remaining) s of the budget left"
      continue
    fi
    echo "== profile $w ($limit s)"
    rc=0
    timeout --signal=TERM --kill-after=10 "$limit" \
      "$ROOT/benchmarks/adjoint-bench" "$w" --device cuda --size gpu \
      --references none --precision "${PRECISION:-highest}" --steps 5 \
      --warmup 2 --timeout "$limit" --profile \
      --json "$OUT/profile/$w.jsonl" -q >"$OUT/profile/$w.log" 2>&1 || rc=$?
    sed -n '/^Profile/,$p' "$OUT/profile/$w.log" | head -n 20
    [[ $rc == 0 ]] || { echo "== profile $w: exit $rc"; FAILED="$FAILED profile:$w"; }
  done
  if compgen -G "$OUT/profile/*.jsonl" >/dev/null; then
    (cd "$ROOT/benchmarks" && python3 -m adjoint_bench.profile summarize \
      "$OUT"/profile/*.jsonl) >"$OUT/profile.json"
  fi
}

device() {
  : "${OUT:?OUT must name the folder whose files come back}"
  [[ -f $PAYLOAD ]] || { echo "device: $PAYLOAD is missing: run '$0 prepare' and carry .device" >&2; exit 1; }
  local llvm=/tmp/llvm payload=/tmp/adjoint-device
  rm -rf "$payload" && mkdir -p "$llvm" "$payload"
  for f in "$DEVICE_DIR"/debs/*.deb; do dpkg -x "$f" "$llvm"; done
  tar xJf "$PAYLOAD" -C "$payload"
  export LD_LIBRARY_PATH=$llvm/usr/lib/llvm-22/lib:$llvm/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PYTHONPATH=$payload/python${PYTHONPATH:+:$PYTHONPATH}
  export PYTHONUNBUFFERED=1
  local toolkit=${CUDA_TOOLKIT:-}
  for t in /usr/local/cuda-13.0 /usr/local/cuda; do
    [[ -n $toolkit || ! -x $t/bin/ptxas ]] || toolkit=$t
  done
  [[ -n $toolkit ]] || { echo "device: no CUDA toolkit with bin/ptxas (set CUDA_TOOLKIT)" >&2; exit 1; }
  export ADJOINT_CUDA_TOOLKIT=$toolkit
  # The library routes of decompositions and FFTs (cuSOLVER, cuFFT,
  # cuBLAS's trsm and scal) from the toolkit, whose lib64 no library path
  # may name; the conformance stage runs each on both routes.
  if [[ -z ${ADJOINT_CUSOLVER:-} && -e $toolkit/lib64/libcusolver.so.12 ]]; then
    export ADJOINT_CUSOLVER=$toolkit/lib64/libcusolver.so.12
  fi
  if [[ -z ${ADJOINT_CUBLAS:-} && -e $toolkit/lib64/libcublas.so.13 ]]; then
    export ADJOINT_CUBLAS=$toolkit/lib64/libcublas.so.13
  fi
  if [[ -z ${ADJOINT_CUFFT:-} && -e $toolkit/lib64/libcufft.so.12 ]]; then
    export ADJOINT_CUFFT=$toolkit/lib64/libcufft.so.12
  fi
  export ADJOINT_CACHE_DIR=/tmp/adjoint-cache
  DEADLINE=$((SECONDS + ${DEVICE_BUDGET:-560}))
  FAILED=""
  : >"$OUT/skipped.txt"
  # What ran where, for the notes; a failure here is reported, and the
  # stages still run (their logs say more).
  { nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv &&
    python3 -c "import adjoint; d = adjoint.device('cuda'); print(d, d.properties)"; } \
    2>&1 | tee "$OUT/gpu.txt" || FAILED="$FAILED device"
  local s
  for s in ${STAGES-conformance profile bench compile tests}; do
    case $s in
    conformance)
      stage conformance "$payload/bin/ConformanceTest" ;;
    profile)
      profile ;;
    compile)
      stage compile "$ROOT/benchmarks/compile-time" --size gpu \
        --targets cuda:sm_90 --repeat 1 --json "$OUT/compile-time.json" ;;
    tests)
      stage tests env ADJOINT_TEST_GPUS=cuda:0 ADJOINT_TEST_DLPACK_DEVICES=cuda:0 \
        ADJOINT_TEST_REQUIRE_DEVICES=cuda:0 \
        python3 -m pytest -q -p no:cacheprovider -rs \
        "$ROOT/test/python/test_workloads_on_devices.py" \
        "$ROOT/test/python/test_dlpack.py" ;;
    bench)
      # shellcheck disable=SC2086 # BENCH_ARGS is a list of arguments
      stage bench "$ROOT/benchmarks/adjoint-bench" --device cuda --size gpu \
        --references "${BENCH_REFS:-torch,torch.compile,jax}" \
        --precision "${PRECISION:-highest}" --timeout "${BENCH_TIMEOUT:-120}" \
        --json "$OUT/bench-${PRECISION:-highest}.jsonl" -q ${BENCH_ARGS:-} ;;
    *)
      echo "device: unknown stage '$s' (conformance, profile, bench, compile, tests)" >&2
      FAILED="$FAILED $s" ;;
    esac
  done
  if [[ -s $OUT/skipped.txt ]]; then
    echo "device: skipped (the budget of ${DEVICE_BUDGET:-560} s):"
    sed 's/^/  /' "$OUT/skipped.txt"
  fi
  if [[ -n $FAILED ]]; then
    echo "device: failed:$FAILED"
    return 1
  fi
  echo "device: every stage passed"
}

case ${1:-} in
prepare) prepare ;;
device) device ;;
*) usage ;;
esac
