// Parse and verification errors are diagnostics with file:line:col.
// RUN: not ir-run %s 2>&1 | FileCheck %s

// CHECK: invalid.mlir:[[@LINE+2]]:8: error: adj.add: shapes [2] and [3] do not broadcast
adj.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = adj.add %a, %b : tensor<2xf32>, tensor<3xf32>
  adj.return %0 : tensor<2xf32>
}
