// ir-run --compile runs native code and prints exactly what the interpreter
// prints for the same arguments (inputs chosen so that results are exact).
// RUN: ir-run %s -f mlp --arg "[[1, 2], [3, 4]]" --arg "[[1, -1, 0.5], [0.5, 1, -2]]" --arg "[0.5, 0.25, 1]" | FileCheck %s --check-prefix=MLP
// RUN: ir-run %s -f mlp --arg "[[1, 2], [3, 4]]" --arg "[[1, -1, 0.5], [0.5, 1, -2]]" --arg "[0.5, 0.25, 1]" --compile --no-cache | FileCheck %s --check-prefix=MLP
// RUN: ir-run %s -f mlp --arg "[[1, 2], [3, 4]]" --arg "[[1, -1, 0.5], [0.5, 1, -2]]" --arg "[0.5, 0.25, 1]" --compile --no-cache --target=cpu:x86-64-v3 | FileCheck %s --check-prefix=MLP
// RUN: ir-run %s -f stats --arg "[[1, 2, 3], [4, 5, 6]]" --arg 2 | FileCheck %s --check-prefix=STATS
// RUN: ir-run %s -f stats --arg "[[1, 2, 3], [4, 5, 6]]" --arg 2 --compile --no-cache | FileCheck %s --check-prefix=STATS
// RUN: ir-run %s -f ints --arg "[7, -3, 12]" --arg "[2, 5, -4]" | FileCheck %s --check-prefix=INTS
// RUN: ir-run %s -f ints --arg "[7, -3, 12]" --arg "[2, 5, -4]" --compile --no-cache | FileCheck %s --check-prefix=INTS
// RUN: ir-run %s -f mask --arg "[true, false, true]" --arg "[1.5, -2, 3]" | FileCheck %s --check-prefix=MASK
// RUN: ir-run %s -f mask --arg "[true, false, true]" --arg "[1.5, -2, 3]" --compile --no-cache --opt-level 0 | FileCheck %s --check-prefix=MASK
// RUN: ir-run %s -f nest --arg "[1, 2]" --arg 3 --arg "[10, 20]" | FileCheck %s --check-prefix=NEST
// RUN: ir-run %s -f nest --arg "[1, 2]" --arg 3 --arg "[10, 20]" --compile --no-cache | FileCheck %s --check-prefix=NEST
// RUN: ir-run %s -f constant | FileCheck %s --check-prefix=CONST
// RUN: ir-run %s -f constant --compile --no-cache --no-optimize | FileCheck %s --check-prefix=CONST

// relu(x @ w + b), then its sum: the forward pass of one dense layer.
// MLP: tensor<2x3xf32> {{\[\[}}2.5, 1.25, 0], [5.5, 1.25, 0]]
// MLP-NEXT: tensor<f32> 10.5
adj.func @mlp(%x: tensor<2x2xf32>, %w: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<f32>) {
  %h = adj.matmul %x, %w : tensor<2x2xf32>, tensor<2x3xf32>
  %z = adj.add %h, %b : tensor<2x3xf32>, tensor<3xf32>
  %r = adj.relu %z : tensor<2x3xf32>
  %s = adj.reduce_sum %r axes = [0, 1] : tensor<2x3xf32>
  adj.return %r, %s : tensor<2x3xf32>, tensor<f32>
}

// Several results of several ranks, one of them an argument returned as is.
// STATS: tensor<3xf64> [10, 14, 18]
// STATS-NEXT: tensor<2xf64> [6, 12]
// STATS-NEXT: tensor<3x2xf64> {{\[\[}}2, 8], [4, 10], [6, 12]]
// STATS-NEXT: tensor<f64> 2
adj.func @stats(%x: tensor<2x3xf64>, %s: tensor<f64>) -> (tensor<3xf64>, tensor<2xf64>, tensor<3x2xf64>, tensor<f64>) {
  %y = adj.mul %x, %s : tensor<2x3xf64>, tensor<f64>
  %c = adj.reduce_sum %y axes = [0] : tensor<2x3xf64>
  %m = adj.reduce_max %y axes = [1] : tensor<2x3xf64>
  %t = adj.transpose %y perm = [1, 0] : tensor<2x3xf64>
  adj.return %c, %m, %t, %s : tensor<3xf64>, tensor<2xf64>, tensor<3x2xf64>, tensor<f64>
}

// INTS: tensor<3xi64> [19, -23, -32]
// INTS-NEXT: tensor<3xi1> [true, false, true]
adj.func @ints(%a: tensor<3xi64>, %b: tensor<3xi64>) -> (tensor<3xi64>, tensor<3xi1>) {
  %p = adj.mul %a, %b : tensor<3xi64>, tensor<3xi64>
  %s = adj.add %p, %a : tensor<3xi64>, tensor<3xi64>
  %q = adj.sub %s, %b : tensor<3xi64>, tensor<3xi64>
  %c = adj.cmp gt, %a, %b : tensor<3xi64>, tensor<3xi64>
  adj.return %q, %c : tensor<3xi64>, tensor<3xi1>
}

// MASK: tensor<3xf32> [1.5, 0, 3]
// MASK-NEXT: tensor<3xi1> [true, false, true]
adj.func @mask(%m: tensor<3xi1>, %x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi1>) {
  %z = adj.constant dense<0.0> : tensor<f32>
  %y = adj.select %m, %x, %z : tensor<3xi1>, tensor<3xf32>, tensor<f32>
  adj.return %y, %m : tensor<3xf32>, tensor<3xi1>
}

// CONST: tensor<2xbf16> [0.5, -2]
// CONST-NEXT: tensor<i32> 42
adj.func @constant() -> (tensor<2xbf16>, tensor<i32>) {
  %a = adj.constant dense<[0.5, -2.0]> : tensor<2xbf16>
  %b = adj.constant dense<42> : tensor<i32>
  adj.return %a, %b : tensor<2xbf16>, tensor<i32>
}

// Tuple results: compiled code returns the leaves, ir-run nests them again.
// NEST: (tensor<2xf32> [3, 6], (tensor<f32> 3, tensor<2xf32> [13, 26]))
// NEST-NEXT: tensor<2xf32> [1, 2]
adj.func @nest(%a: tensor<2xf32>, %s: tensor<f32>, %z: tensor<2xf32>) -> (!adj.tuple<tensor<2xf32>, !adj.tuple<tensor<f32>, tensor<2xf32>>>, tensor<2xf32>) {
  %y = adj.mul %a, %s : tensor<2xf32>, tensor<f32>
  %w = adj.add %y, %z : tensor<2xf32>, tensor<2xf32>
  %inner = adj.tuple %s, %w : tensor<f32>, tensor<2xf32>
  %t = adj.tuple %y, %inner : tensor<2xf32>, !adj.tuple<tensor<f32>, tensor<2xf32>>
  adj.return %t, %a : !adj.tuple<tensor<2xf32>, !adj.tuple<tensor<f32>, tensor<2xf32>>>, tensor<2xf32>
}
