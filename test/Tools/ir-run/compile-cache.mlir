// The compile cache across processes: the first run compiles and stores the
// object in the cache folder, a second process loads it from there, and a
// run with the cache off compiles again. Results are the same each time.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-run %s -f axpy --arg "[1, 2, 3]" --arg "[1, 1, 1]" --compile --cache-dir=%t --compile-stats 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: ir-run %s -f axpy --arg "[1, 2, 3]" --arg "[1, 1, 1]" --compile --cache-dir=%t --compile-stats 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: ir-run %s -f axpy --arg "[1, 2, 3]" --arg "[1, 1, 1]" --compile --no-cache --compile-stats 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: ls %t | count 1

// FIRST: compile: compiled
// FIRST-NEXT: tensor<3xf32> [3, 5, 7]
// SECOND: compile: disk-hit
// SECOND-NEXT: tensor<3xf32> [3, 5, 7]
adj.func @axpy(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %a = adj.constant dense<2.0> : tensor<f32>
  %ax = adj.mul %x, %a : tensor<3xf32>, tensor<f32>
  %r = adj.add %ax, %y : tensor<3xf32>, tensor<3xf32>
  adj.return %r : tensor<3xf32>
}
