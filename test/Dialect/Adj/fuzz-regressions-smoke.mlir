// Every file in fuzz/regressions/ must give a diagnostic or a module, never
// a crash (`not` fails on a signal, not only on a zero exit status).
// RUN: not ir-opt %S/../../../fuzz/regressions/exp-of-function.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/get-of-unranked-tensor.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/if-empty-block.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/inferred-result-any.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/lambda-compatible-arg.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/pad-overflow.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/window-overflow.mlir 2>&1 | FileCheck %s
// RUN: not ir-opt %S/../../../fuzz/regressions/constant-of-i0.mlir 2>&1 | FileCheck %s
// RUN: ir-opt %S/../../../fuzz/regressions/empty-tuple-then-op.mlir | ir-opt
// RUN: ir-opt %S/../../../fuzz/regressions/call-compatible-arg.mlir | ir-opt
// CHECK: error:
