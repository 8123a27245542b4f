// A seed is an integer in [-2^63, 2^63), read exactly: 1e30 and nan are
// errors (they used to go through an undefined float-to-int conversion).
// RUN: not ir-run %s --arg rand:seed=1e30 --arg 0 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not ir-run %s --arg randn:seed=nan --arg 0 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not ir-run %s --arg rand:seed=2.5 --arg 0 2>&1 | FileCheck %s --check-prefix=FRAC
// RUN: ir-run %s --arg rand:seed=9223372036854775807 --arg 9223372036854775807 | FileCheck %s --check-prefix=SAME
// RUN: ir-run %s --arg rand:seed=-9223372036854775808 --arg -9223372036854775808 | FileCheck %s --check-prefix=SAME
// RUN: ir-run %s --arg rand:seed=9007199254740993 --arg 9007199254740993 | FileCheck %s --check-prefix=SAME

// BIG: ir-run: error: argument #0 ('rand:seed=1e30'): malformed random option 'seed=1e30': a seed is an integer in [-2^63, 2^63)
// NAN: ir-run: error: argument #0 ('randn:seed=nan'): malformed random option 'seed=nan'
// FRAC: malformed random option 'seed=2.5'
// The seed reaches the generator exactly (2^53 + 1 too): the same numbers
// as adj.random_uniform with that seed.
// SAME: tensor<i1> true
adj.func @main(%x: tensor<2xf64>, %seed: tensor<i64>) -> tensor<i1> {
  %r = adj.random_uniform %seed low = 0.0 high = 1.0 : tensor<i64> to tensor<2xf64>
  %eq = adj.cmp eq, %x, %r : tensor<2xf64>, tensor<2xf64>
  %all = adj.reduce_max %eq axes = [0] : tensor<2xi1>
  adj.return %all : tensor<i1>
}
