// ir-opt --help is mlir-opt's: MLIR's options and every registered pass and
// pipeline (the adj ones among them), but none of the options libLLVM
// registers for its backends and IR passes (they stay in --help-hidden).
// RUN: ir-opt --help | FileCheck %s
// RUN: ir-opt --help | FileCheck %s --check-prefix=JUNK
// RUN: ir-opt --help-hidden | FileCheck %s --check-prefix=HIDDEN

// CHECK: OVERVIEW: Adjoint pass driver
// CHECK-DAG: --allow-unregistered-dialect
// CHECK-DAG: --adj-grad
// CHECK-DAG: --adj-optimize
// CHECK-DAG: --convert-amdgpu-to-rocdl
// CHECK-DAG: --mlir-print-ir-after-all
// CHECK: Generic Options:

// JUNK-NOT: --x86-
// JUNK-NOT: --amdgpu-bypass-slow-div
// JUNK-NOT: --amdgpu-kernarg-preload
// JUNK-NOT: --polly
// JUNK-NOT: --aarch64-
// JUNK-NOT: --ir2vec
// JUNK-NOT: --instcombine

// HIDDEN: --x86-
