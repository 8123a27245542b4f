// The compiler's adj.donate (indices of the flattened inputs) becomes an
// adj.donated attribute on those arguments, tuples flattened depth-first.
// RUN: ir-opt %s -adj-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// (a, (s, m)), k: leaves a, s, m, k; leaves 0 and 2 are donated.
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %{{[^:]*}}: tensor<2xf64> {adj.donated}, %{{[^:]*}}: tensor<f64>, %{{[^:]*}}: tensor<2xf64> {adj.donated}, %{{[^:]*}}: tensor<2xf64>)
// CHECK-NOT: adj.donate =
adj.func @step(%t: !adj.tuple<tensor<2xf64>, !adj.tuple<tensor<f64>, tensor<2xf64>>>,
               %k: tensor<2xf64>) -> tensor<2xf64>
    attributes {adj.donate = array<i64: 0, 2>} {
  adj.return %k : tensor<2xf64>
}

// -----

// expected-error @+2 {{adj.donate index 2 out of range}}
// expected-error @+1 {{failed to legalize operation 'adj.func'}}
adj.func @out_of_range(%x: tensor<2xf64>, %y: tensor<2xf64>) -> tensor<2xf64>
    attributes {adj.donate = array<i64: 2>} {
  adj.return %x : tensor<2xf64>
}
