// Results written with --out-npy are read back with @file arguments.
// RUN: rm -rf %t && mkdir -p %t
// RUN: ir-run %s -f make --arg "[[1, 2, 3], [4, 5, 6]]" --out-npy %t/r | FileCheck %s --check-prefix=MAKE
// RUN: ir-run %s -f main --arg @%t/r0.npy --arg @%t/r1.npy | FileCheck %s
// RUN: ir-run %s -f half --arg @%t/r0.npy | FileCheck %s --check-prefix=HALF
// RUN: ir-run %s -f bf --arg "[0.5, 1.5]" --out-npy %t/b && ir-run %s -f widen --arg @%t/b0.npy | FileCheck %s --check-prefix=BF
// RUN: ir-run %s -f make --arg @%S/Inputs/ints.npy | FileCheck %s --check-prefix=MAKE

// MAKE: tensor<2x3xf32> {{\[\[}}1, 2, 3], [4, 5, 6]]
// MAKE-NEXT: tensor<3xi32> [5, 7, 9]
adj.func @make(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xi32>) {
  %s = adj.reduce_sum %x axes = [0] : tensor<2x3xf32>
  %i = adj.cast %s : tensor<3xf32> to tensor<3xi32>
  adj.return %x, %i : tensor<2x3xf32>, tensor<3xi32>
}

// CHECK: tensor<2x3xf32> {{\[\[}}6, 9, 12], [9, 12, 15]]
adj.func @main(%x: tensor<2x3xf32>, %i: tensor<3xi32>) -> tensor<2x3xf32> {
  %f = adj.cast %i : tensor<3xi32> to tensor<3xf32>
  %r = adj.add %x, %f : tensor<2x3xf32>, tensor<3xf32>
  adj.return %r : tensor<2x3xf32>
}

// The f32 file is converted to the declared f16.
// HALF: tensor<2x3xf16> {{\[\[}}1, 2, 3], [4, 5, 6]]
adj.func @half(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  adj.return %x : tensor<2x3xf16>
}

// bf16 results are stored as '<f4'.
// BF: tensor<2xf32> [0.5, 1.5]
adj.func @bf(%x: tensor<2xbf16>) -> tensor<2xbf16> {
  adj.return %x : tensor<2xbf16>
}
adj.func @widen(%x: tensor<2xf32>) -> tensor<2xf32> {
  adj.return %x : tensor<2xf32>
}
