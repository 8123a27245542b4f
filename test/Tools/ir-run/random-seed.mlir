// A seed is an integer in [-2^63, 2^63), read exactly: 1e30 and nan are
// errors (they used to go through an undefined float-to-int conversion).
// RUN: not ir-run %s --arg rand:seed=1e30 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not ir-run %s --arg randn:seed=nan 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not ir-run %s --arg rand:seed=2.5 2>&1 | FileCheck %s --check-prefix=FRAC
// RUN: ir-run %s --arg rand:seed=9223372036854775807 | FileCheck %s --check-prefix=MAX
// RUN: ir-run %s --arg rand:seed=-9223372036854775808 | FileCheck %s --check-prefix=MIN
// RUN: ir-run %s --arg rand:seed=9007199254740993 | FileCheck %s --check-prefix=ODD
// RUN: ir-run %s --arg rand:seed=9007199254740992 | FileCheck %s --check-prefix=EVEN

// BIG: ir-run: error: argument #0 ('rand:seed=1e30'): malformed random option 'seed=1e30': a seed is an integer in [-2^63, 2^63)
// NAN: ir-run: error: argument #0 ('randn:seed=nan'): malformed random option 'seed=nan'
// FRAC: malformed random option 'seed=2.5'
// The seed reaches the generator exactly: 2^53 + 1 and 2^53, equal as
// doubles, draw different numbers. The expected digits are the formula of
// interp::randomUniform evaluated independently with each seed.
// MAX: tensor<2xf64> [0.14749805011688955, 0.1359104328925892]
// MIN: tensor<2xf64> [0.2817192454992108, 0.8600151673278938]
// ODD: tensor<2xf64> [0.9163615293169404, 0.7643490680923897]
// EVEN: tensor<2xf64> [0.5472734811239394, 0.15618813850865487]
adj.func @main(%x: tensor<2xf64>) -> tensor<2xf64> {
  adj.return %x : tensor<2xf64>
}
