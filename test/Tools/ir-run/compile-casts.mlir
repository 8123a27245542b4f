// Casts round once, as the interpreter does: 1 + 2^-8 + 2^-30 is just above
// the midpoint of two bf16 neighbours, so it rounds up to 1 + 2^-7; rounding
// through f32 first would land on the midpoint and round to even (1.0).
// RUN: ir-run %s -f narrow --arg "[1.0039062509313226, -1.0039062509313226, 3.0]" | FileCheck %s
// RUN: ir-run %s -f narrow --arg "[1.0039062509313226, -1.0039062509313226, 3.0]" --compile --no-cache | FileCheck %s

// CHECK: tensor<3xbf16> [1.0078125, -1.0078125, 3]
// CHECK-NEXT: tensor<3xf16> [1.0039062, -1.0039062, 3]
adj.func @narrow(%x: tensor<3xf64>) -> (tensor<3xbf16>, tensor<3xf16>) {
  %b = adj.cast %x : tensor<3xf64> to tensor<3xbf16>
  %h = adj.cast %x : tensor<3xf64> to tensor<3xf16>
  adj.return %b, %h : tensor<3xbf16>, tensor<3xf16>
}
