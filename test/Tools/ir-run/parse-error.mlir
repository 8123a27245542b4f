// RUN: not ir-run %s 2>&1 | FileCheck %s

// CHECK: parse-error.mlir:[[@LINE+1]]:{{[0-9]+}}: error:
adj.func @main( -> {
