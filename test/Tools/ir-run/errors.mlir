// RUN: not ir-run %s -f gather --arg "[1.0, 2.0]" --arg "[0, 5]" 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not ir-run %s -f gather --arg "[1.0, 2.0]" 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not ir-run %s -f gather --arg "[1.0, 2.0, 3.0]" --arg "[0, 1]" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not ir-run %s -f gather --arg "[[1.0], [2.0, 3.0]]" --arg "[0, 1]" 2>&1 | FileCheck %s --check-prefix=RAGGED
// RUN: not ir-run %s -f gather --arg @%t.missing.npy --arg "[0, 1]" 2>&1 | FileCheck %s --check-prefix=FILE
// RUN: not ir-run %s -f nope 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not ir-run %s -f forever --arg 1 --max-depth 100 2>&1 | FileCheck %s --check-prefix=DEPTH
// RUN: not ir-run %s -f forever --arg 1 --max-depth 1000000 2>&1 | FileCheck %s --check-prefix=BIGDEPTH
// RUN: not ir-run %s -f div --arg "[1, 2]" --arg "[1, 0]" 2>&1 | FileCheck %s --check-prefix=DIV

// INDEX: ir-run: error: {{.*}}errors.mlir:[[@LINE+5]]:8: adj.gather: index 5 (element 1 of the indices) is out of range [0, 2) along axis 0 of tensor<2xf32>
// COUNT: ir-run: error: @gather takes 2 arguments, got 1 --arg
// SHAPE: ir-run: error: argument #0 ('[1.0, 2.0, 3.0]'): shape mismatch: got [3], the parameter is tensor<2xf32>
// RAGGED: ir-run: error: argument #0 {{.*}}: malformed literal: ragged nesting
adj.func @gather(%t: tensor<2xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %0 = adj.gather %t[%i] axis = 0 : tensor<2xf32>, tensor<2xi64>
  adj.return %0 : tensor<2xf32>
}

// FILE: ir-run: error: argument #0 {{.*}}: cannot read '{{.*}}missing.npy'
// NOFUNC: ir-run: error: no adj.func named 'nope'

// DEPTH: ir-run: error: call depth limit of 100 exceeded at {{.*}}errors.mlir:[[@LINE+4]]:8 (adj.call)
// BIGDEPTH: ir-run: error: call depth limit of 1000000 exceeded at {{.*}}errors.mlir:[[@LINE+3]]:8 (adj.call)
adj.func @forever(%n: tensor<i64>) -> tensor<i64> {
  %f = adj.func_ref @forever : !adj.fn<(tensor<i64>) -> tensor<i64>>
  %r = adj.call %f(%n) : !adj.fn<(tensor<i64>) -> tensor<i64>>
  adj.return %r : tensor<i64>
}

// DIV: {{.*}}errors.mlir:[[@LINE+2]]:8: adj.div: integer division by zero
adj.func @div(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = adj.div %a, %b : tensor<2xi32>, tensor<2xi32>
  adj.return %0 : tensor<2xi32>
}
