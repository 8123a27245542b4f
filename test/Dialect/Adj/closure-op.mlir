// RUN: ir-opt %s | ir-opt | FileCheck %s
// RUN: ir-opt %s --mlir-print-op-generic | ir-opt | FileCheck %s
// RUN: ir-run %s -f main --arg 3 --arg "[1, 2]" | FileCheck %s --check-prefix=VALUE
// RUN: ir-run %s -f make --arg 3 | FileCheck %s --check-prefix=MAKE

// Round trip of adj.closure, and its meaning: a call of the closure calls
// the function with the captured values in front of its own arguments.

adj.func private @affine(%a: tensor<f32>, %b: tensor<2xf32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %m = adj.mul %a, %x : tensor<f32>, tensor<2xf32>
  %s = adj.add %m, %b : tensor<2xf32>, tensor<2xf32>
  adj.return %s : tensor<2xf32>
}

adj.func private @two() -> tensor<f32> {
  %c = adj.constant dense<2.0> : tensor<f32>
  adj.return %c : tensor<f32>
}

// CHECK-LABEL: adj.func @main(
// CHECK-SAME:      %[[A:.*]]: tensor<f32>, %[[X:.*]]: tensor<2xf32>)
// CHECK:         %[[F:.*]] = adj.closure @affine(%[[A]], %[[X]]) : (tensor<f32>, tensor<2xf32>) -> !adj.fn<(tensor<2xf32>) -> tensor<2xf32>>
// CHECK:         adj.call %[[F]](%[[X]])
// CHECK:         %[[G:.*]] = adj.closure @affine(%[[A]]) : (tensor<f32>) -> !adj.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>>
// CHECK:         %[[T:.*]] = adj.closure @two() : () -> !adj.fn<() -> tensor<f32>>
adj.func @main(%a: tensor<f32>, %x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<f32>) {
  // affine(3, [1, 2], [1, 2]) = [4, 8]
  %f = adj.closure @affine(%a, %x) : (tensor<f32>, tensor<2xf32>) -> !adj.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %y = adj.call %f(%x) : !adj.fn<(tensor<2xf32>) -> tensor<2xf32>>
  // affine(3, [4, 8], [1, 2]) = [7, 14]
  %g = adj.closure @affine(%a) : (tensor<f32>) -> !adj.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>>
  %z = adj.call %g(%y, %x) : !adj.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>>
  %t = adj.closure @two() : () -> !adj.fn<() -> tensor<f32>>
  %w = adj.call %t() : !adj.fn<() -> tensor<f32>>
  adj.return %y, %z, %w : tensor<2xf32>, tensor<2xf32>, tensor<f32>
}

// VALUE: tensor<2xf32> [4, 8]
// VALUE-NEXT: tensor<2xf32> [7, 14]
// VALUE-NEXT: tensor<f32> 2

// A closure value prints as such, not as a plain function reference.
// MAKE: <closure of @affine with 1 captured values>
adj.func @make(%a: tensor<f32>) -> !adj.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>> {
  %g = adj.closure @affine(%a) : (tensor<f32>) -> !adj.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>>
  adj.return %g : !adj.fn<(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>>
}
