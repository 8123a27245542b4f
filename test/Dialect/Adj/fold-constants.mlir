// RUN: ir-opt %s -split-input-file -adj-fold-constants | FileCheck %s
// The same values before and after (the interpreter is the oracle):
// RUN: ir-opt %s -adj-fold-constants > %t.mlir
// RUN: ir-run %s -f main > %t.before
// RUN: ir-run %t.mlir -f main > %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --input-file=%t.after --check-prefix=VALUE
// RUN: ir-run %s -f kept --arg 2 | FileCheck %s --check-prefix=KEPT
// RUN: ir-run %t.mlir -f kept --arg 2 | FileCheck %s --check-prefix=KEPT

// VALUE: tensor<2xf32> [16, 25]
// VALUE-NEXT: tensor<2xi64> [3, -1]
// VALUE-NEXT: tensor<2xi1> [true, true]
// VALUE-NEXT: tensor<f32> 9
// VALUE-NEXT: tensor<2xf16> [1.75, 2.25]
// Random123's known answers for threefry2x32_20 with all-zero and all-one
// words (test/Tools/ir-run/bits.mlir).
// VALUE-NEXT: tensor<2xi64> [7719171245655871230, 2069851515966729191]
// CHECK-LABEL: adj.func @main(
// CHECK-NOT:     adj.add
// CHECK-NOT:     adj.mul
// CHECK-NOT:     adj.fill
// CHECK-NOT:     adj.threefry2x32
// CHECK-DAG:     %[[A:.*]] = adj.constant dense<[1.600000e+01, 2.500000e+01]> : tensor<2xf32>
// CHECK-DAG:     %[[B:.*]] = adj.constant dense<[3, -1]> : tensor<2xi64>
// CHECK-DAG:     %[[C:.*]] = adj.constant dense<true> : tensor<2xi1>
// CHECK-DAG:     %[[D:.*]] = adj.constant dense<9.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[E:.*]] = adj.constant dense<[1.750000e+00, 2.250000e+00]> : tensor<2xf16>
// CHECK-DAG:     %[[F:.*]] = adj.constant dense<[7719171245655871230, 2069851515966729191]> : tensor<2xi64>
// CHECK:         adj.return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]]
adj.func @main() -> (tensor<2xf32>, tensor<2xi64>, tensor<2xi1>, tensor<f32>, tensor<2xf16>, tensor<2xi64>) {
  %a = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = adj.fill 3.0 : tensor<f32>
  // A chain: the sum is folded, then the product of the folded sum.
  %s = adj.add %a, %b : tensor<2xf32>, tensor<f32>
  %p = adj.mul %s, %s : tensor<2xf32>, tensor<2xf32>
  %i = adj.constant dense<[7, -3]> : tensor<2xi64>
  %two = adj.fill 2.0 : tensor<i64>
  // Integer division truncates.
  %q = adj.div %i, %two : tensor<2xi64>, tensor<i64>
  %c = adj.cmp lt, %a, %b : tensor<2xf32>, tensor<f32>
  %r = adj.reduce_sum %s axes = [0] : tensor<2xf32>
  %h = adj.constant dense<[1.5, 2.0]> : tensor<2xf16>
  %quarter = adj.fill 0.25 : tensor<f16>
  %hs = adj.add %h, %quarter : tensor<2xf16>, tensor<f16>
  // Random bits are a function of the key and counter: constant words fold.
  %w = adj.constant dense<[0, -1]> : tensor<2xi32>
  %u = adj.threefry2x32 %w, %w, %w, %w : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
  adj.return %p, %q, %c, %r, %hs, %u : tensor<2xf32>, tensor<2xi64>, tensor<2xi1>, tensor<f32>, tensor<2xf16>, tensor<2xi64>
}

// -----

// Negative cases: an operand that is not constant, a result above the size
// limit, and an op that fails at run time (an index out of range) are left
// for run time; a constant that is still used elsewhere stays.

// KEPT: tensor<2xf32> [3, 4]
// CHECK-LABEL: adj.func @kept(
// CHECK:         %[[A:.*]] = adj.constant dense<[1.000000e+00, 2.000000e+00]>
// CHECK:         adj.add %[[A]], %{{.*}} : tensor<2xf32>, tensor<f32>
adj.func @kept(%x: tensor<f32>) -> tensor<2xf32> {
  %a = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = adj.add %a, %x : tensor<2xf32>, tensor<f32>
  adj.return %s : tensor<2xf32>
}

// CHECK-LABEL: adj.func @big(
// CHECK:         adj.add %{{.*}}, %{{.*}} : tensor<300x300xf32>, tensor<f32>
adj.func @big() -> tensor<300x300xf32> {
  %a = adj.fill 1.0 : tensor<300x300xf32>
  %b = adj.fill 2.0 : tensor<f32>
  %s = adj.add %a, %b : tensor<300x300xf32>, tensor<f32>
  adj.return %s : tensor<300x300xf32>
}

// CHECK-LABEL: adj.func @failing(
// CHECK:         adj.gather
adj.func @failing() -> tensor<1xf32> {
  %t = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = adj.constant dense<[5]> : tensor<1xi64>
  %g = adj.gather %t[%i] axis = 0 : tensor<2xf32>, tensor<1xi64>
  adj.return %g : tensor<1xf32>
}
