// The bit manipulation ops and threefry2x32, interpreted and compiled: both
// print the same words. threefry2x32's expected words are Random123's
// known answers for threefry2x32_20 (also JAX's), packed high word first:
// (0, 0, 0, 0) -> 0x6b200159 0x99ba4efe, (~0, ~0, ~0, ~0) -> 0x1cb996fc
// 0xbb002be7, (0x13198a2e, 0x03707344, 0x243f6a88, 0x85a308d3) ->
// 0xc4923a9c 0x483df7a0.
// RUN: ir-run %s -f threefry --arg "[0, -1, 320440878]" --arg "[0, -1, 57701188]" --arg "[0, -1, 608135816]" --arg "[0, -1, -2052912941]" | FileCheck %s --check-prefix=TF
// RUN: ir-run %s -f threefry --arg "[0, -1, 320440878]" --arg "[0, -1, 57701188]" --arg "[0, -1, 608135816]" --arg "[0, -1, -2052912941]" --compile --no-cache | FileCheck %s --check-prefix=TF
// RUN: ir-run %s -f words --arg "[-1, 12, -8]" --arg "[4, 31, 32]" | FileCheck %s --check-prefix=WORDS
// RUN: ir-run %s -f words --arg "[-1, 12, -8]" --arg "[4, 31, 32]" --compile --no-cache | FileCheck %s --check-prefix=WORDS
// RUN: ir-run %s -f bitcast --arg "[1065353216, -1082130432]" | FileCheck %s --check-prefix=CAST
// RUN: ir-run %s -f bitcast --arg "[1065353216, -1082130432]" --compile --no-cache | FileCheck %s --check-prefix=CAST

// 0x6b20015999ba4efe, 0x1cb996fcbb002be7, 0xc4923a9c483df7a0.
// TF: tensor<3xi64> [7719171245655871230, 2069851515966729191, -4282295852774590560]
adj.func @threefry(%k0: tensor<3xi32>, %k1: tensor<3xi32>, %x0: tensor<3xi32>, %x1: tensor<3xi32>) -> tensor<3xi64> {
  %r = adj.threefry2x32 %k0, %k1, %x0, %x1 : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
  adj.return %r : tensor<3xi64>
}

// Shifts read the words unsigned: -1 >> 4 is 0x0fffffff; a shift by the
// width (32) or more gives 0.
// WORDS: tensor<3xi32> [4, 12, 32]
// WORDS-NEXT: tensor<3xi32> [-1, 31, -8]
// WORDS-NEXT: tensor<3xi32> [-5, 19, -40]
// WORDS-NEXT: tensor<3xi32> [-16, 0, 0]
// WORDS-NEXT: tensor<3xi32> [268435455, 0, 0]
// WORDS-NEXT: tensor<2xi64> [4294967295, 0]
adj.func @words(%a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi64>) {
  %and = adj.bitwise_and %a, %b : tensor<3xi32>, tensor<3xi32>
  %or = adj.bitwise_or %a, %b : tensor<3xi32>, tensor<3xi32>
  %xor = adj.bitwise_xor %a, %b : tensor<3xi32>, tensor<3xi32>
  %shl = adj.shift_left %a, %b : tensor<3xi32>, tensor<3xi32>
  %shr = adj.shift_right_logical %a, %b : tensor<3xi32>, tensor<3xi32>
  // Broadcasting, on i64: (-1 >> 32) and (-1 >> 64).
  %m = adj.constant dense<-1> : tensor<i64>
  %n = adj.constant dense<[32, 64]> : tensor<2xi64>
  %wide = adj.shift_right_logical %m, %n : tensor<i64>, tensor<2xi64>
  adj.return %and, %or, %xor, %shl, %shr, %wide : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi64>
}

// 0x3f800000 is 1.0f and 0xbf800000 is -1.0f; and back.
// CAST: tensor<2xf32> [1, -1]
// CAST-NEXT: tensor<2xi32> [1065353216, -1082130432]
adj.func @bitcast(%w: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %f = adj.bitcast %w : tensor<2xi32> to tensor<2xf32>
  %back = adj.bitcast %f : tensor<2xf32> to tensor<2xi32>
  adj.return %f, %back : tensor<2xf32>, tensor<2xi32>
}
