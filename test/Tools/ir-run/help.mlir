// ir-run --help lists ir-run's options and LLVM's generic ones, not the
// hundreds that libLLVM registers for its backends and IR passes.
// RUN: ir-run --help | FileCheck %s
// RUN: ir-run --help | FileCheck %s --check-prefix=JUNK

// CHECK: OVERVIEW: Adjoint reference interpreter
// CHECK: USAGE: ir-run [options] <input .mlir>
// CHECK: Compiled execution:
// CHECK-DAG: --cache-dir=<dir>
// CHECK-DAG: --compile
// CHECK-DAG: --compile-stats
// CHECK-DAG: --target=<kind[:chip][,+feature...]>
// CHECK-DAG: --no-cache
// CHECK-DAG: --no-optimize
// CHECK-DAG: --opt-level=<uint>
// CHECK: Generic Options:
// CHECK-DAG: --help
// CHECK-DAG: --version
// CHECK: ir-run options:
// CHECK-DAG: --arg=<string>
// CHECK-DAG: -f <string>
// CHECK-DAG: --max-depth=<uint>
// CHECK-DAG: --out-npy=<prefix>

// JUNK-NOT: --x86-
// JUNK-NOT: --amdgpu-
// JUNK-NOT: --polly
// JUNK-NOT: --aarch64-
// JUNK-NOT: --print-pipeline-passes
// JUNK-NOT: General options:
