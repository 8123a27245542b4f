// Float -> integer casts have one meaning on every path: truncation toward
// zero, saturating at the integer type's bounds, NaN -> 0 (as LLVM's
// fptosi.sat). Compiled code used arith.fptosi, which is poison for NaN and
// out-of-range values ([1e30, nan] came out as [-2^31, -2^31]).
// RUN: ir-run %s -f casts --arg "[nan, inf, -inf, 1e30, -1e30, 3e9, -3e9, -2.75, 2147483647.5, -2147483648.75]" > %t.interp
// RUN: ir-run %s -f casts --arg "[nan, inf, -inf, 1e30, -1e30, 3e9, -3e9, -2.75, 2147483647.5, -2147483648.75]" --compile --no-cache > %t.compiled
// RUN: FileCheck %s --input-file=%t.interp
// RUN: diff %t.interp %t.compiled
// RUN: ir-run %s -f fills > %t.fills.interp
// RUN: ir-run %s -f fills --compile --no-cache --no-optimize > %t.fills.compiled
// RUN: FileCheck %s --check-prefix=FILLS --input-file=%t.fills.interp
// RUN: diff %t.fills.interp %t.fills.compiled
// RUN: ir-run %s -f folded > %t.folded.interp
// RUN: ir-opt %s -adj-fold-constants | ir-run - -f folded > %t.folded.folded
// RUN: ir-run %s -f folded --compile --no-cache --no-optimize > %t.folded.compiled
// RUN: FileCheck %s --check-prefix=FOLDED --input-file=%t.folded.interp
// RUN: diff %t.folded.interp %t.folded.folded
// RUN: diff %t.folded.interp %t.folded.compiled

// f64
// CHECK: tensor<10xi32> [0, 2147483647, -2147483648, 2147483647, -2147483648, 2147483647, -2147483648, -2, 2147483647, -2147483648]
// CHECK-NEXT: tensor<10xi64> [0, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 3000000000, -3000000000, -2, 2147483647, -2147483648]
// CHECK-NEXT: tensor<10xi1> [true, true, true, true, true, true, true, true, true, true]
// f32: 2147483647.5 rounds to 2^31, which saturates i32.
// CHECK-NEXT: tensor<10xi32> [0, 2147483647, -2147483648, 2147483647, -2147483648, 2147483647, -2147483648, -2, 2147483647, -2147483648]
// CHECK-NEXT: tensor<10xi64> [0, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 3000000000, -3000000000, -2, 2147483648, -2147483648]
// f16: 1e30 and 3e9 are inf.
// CHECK-NEXT: tensor<10xi32> [0, 2147483647, -2147483648, 2147483647, -2147483648, 2147483647, -2147483648, -2, 2147483647, -2147483648]
// CHECK-NEXT: tensor<10xi64> [0, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, -2, 9223372036854775807, -9223372036854775808]
// bf16: 3e9 rounds to 3003121664.
// CHECK-NEXT: tensor<10xi32> [0, 2147483647, -2147483648, 2147483647, -2147483648, 2147483647, -2147483648, -2, 2147483647, -2147483648]
// CHECK-NEXT: tensor<10xi64> [0, 9223372036854775807, -9223372036854775808, 9223372036854775807, -9223372036854775808, 3003121664, -3003121664, -2, 2147483648, -2147483648]
adj.func @casts(%x: tensor<10xf64>) -> (tensor<10xi32>, tensor<10xi64>, tensor<10xi1>,
                                        tensor<10xi32>, tensor<10xi64>,
                                        tensor<10xi32>, tensor<10xi64>,
                                        tensor<10xi32>, tensor<10xi64>) {
  %a = adj.cast %x : tensor<10xf64> to tensor<10xi32>
  %b = adj.cast %x : tensor<10xf64> to tensor<10xi64>
  %c = adj.cast %x : tensor<10xf64> to tensor<10xi1>
  %f = adj.cast %x : tensor<10xf64> to tensor<10xf32>
  %fa = adj.cast %f : tensor<10xf32> to tensor<10xi32>
  %fb = adj.cast %f : tensor<10xf32> to tensor<10xi64>
  %h = adj.cast %x : tensor<10xf64> to tensor<10xf16>
  %ha = adj.cast %h : tensor<10xf16> to tensor<10xi32>
  %hb = adj.cast %h : tensor<10xf16> to tensor<10xi64>
  %g = adj.cast %x : tensor<10xf64> to tensor<10xbf16>
  %ga = adj.cast %g : tensor<10xbf16> to tensor<10xi32>
  %gb = adj.cast %g : tensor<10xbf16> to tensor<10xi64>
  adj.return %a, %b, %c, %fa, %fb, %ha, %hb, %ga, %gb
      : tensor<10xi32>, tensor<10xi64>, tensor<10xi1>, tensor<10xi32>,
        tensor<10xi64>, tensor<10xi32>, tensor<10xi64>, tensor<10xi32>,
        tensor<10xi64>
}

// Integer fills hold a double attribute: converted as a cast would.
// FILLS: tensor<2xi32> [2147483647, 2147483647]
// FILLS-NEXT: tensor<2xi64> [-9223372036854775808, -9223372036854775808]
// FILLS-NEXT: tensor<2xi32> [0, 0]
adj.func @fills() -> (tensor<2xi32>, tensor<2xi64>, tensor<2xi32>) {
  %a = adj.fill 1.0e30 : tensor<2xi32>
  %b = adj.fill -1.0e30 : tensor<2xi64>
  %c = adj.fill 0x7FF8000000000000 : tensor<2xi32>
  adj.return %a, %b, %c : tensor<2xi32>, tensor<2xi64>, tensor<2xi32>
}

// Constant operands: constant folding (the interpreter) and compiled code
// without the adj optimizer agree too.
// FOLDED: tensor<4xi32> [0, 2147483647, -2147483648, -2]
// FOLDED-NEXT: tensor<4xi64> [0, 9223372036854775807, -9223372036854775808, -2]
adj.func @folded() -> (tensor<4xi32>, tensor<4xi64>) {
  %c = adj.constant dense<[0x7FC00000, 1.0e30, 0xFF800000, -2.5]> : tensor<4xf32>
  %a = adj.cast %c : tensor<4xf32> to tensor<4xi32>
  %b = adj.cast %c : tensor<4xf32> to tensor<4xi64>
  adj.return %a, %b : tensor<4xi32>, tensor<4xi64>
}
