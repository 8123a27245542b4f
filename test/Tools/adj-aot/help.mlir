// adj-aot --help lists adj-aot's options and LLVM's generic ones, not the
// hundreds that libLLVM registers for its backends and IR passes.
// RUN: adj-aot --help | FileCheck %s
// RUN: adj-aot --help | FileCheck %s --check-prefix=JUNK

// CHECK: OVERVIEW: Adjoint ahead-of-time compiler
// CHECK: Generic Options:
// CHECK-DAG: --help
// CHECK-DAG: --version
// CHECK: adj-aot options:
// CHECK-DAG: --cache-dir=<dir>
// CHECK-DAG: --emit-llvm
// CHECK-DAG: --function=<string>
// CHECK-DAG: --target=<kind[:chip]>
// CHECK-DAG: --no-optimize
// CHECK-DAG: -o <dir>
// CHECK-DAG: --opt-level=<uint>

// JUNK-NOT: --x86-
// JUNK-NOT: --amdgpu-
// JUNK-NOT: --polly
// JUNK-NOT: --aarch64-
// JUNK-NOT: General options:
