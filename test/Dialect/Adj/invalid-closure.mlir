// RUN: ir-opt %s -split-input-file -verify-diagnostics

adj.func @f() -> !adj.fn<() -> tensor<f32>> {
  // expected-error @+1 {{'adj.closure' op 'missing' does not name an adj.func}}
  %c = adj.closure @missing() : () -> !adj.fn<() -> tensor<f32>>
  adj.return %c : !adj.fn<() -> tensor<f32>>
}

// -----

adj.func private @g(%a: tensor<f32>) -> tensor<f32> {
  adj.return %a : tensor<f32>
}
adj.func @f(%a: tensor<f32>, %b: tensor<f32>) -> !adj.fn<() -> tensor<f32>> {
  // expected-error @+1 {{'adj.closure' op captures 2 values but 'g' takes only 1 parameters}}
  %c = adj.closure @g(%a, %b) : (tensor<f32>, tensor<f32>) -> !adj.fn<() -> tensor<f32>>
  adj.return %c : !adj.fn<() -> tensor<f32>>
}

// -----

adj.func private @g(%a: tensor<f32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  adj.return %x : tensor<2xf32>
}
adj.func @f(%a: tensor<3xf32>) -> !adj.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  // expected-error @+1 {{'adj.closure' op captured values: value #0 has type 'tensor<3xf32>' but 'tensor<f32>' is expected}}
  %c = adj.closure @g(%a) : (tensor<3xf32>) -> !adj.fn<(tensor<2xf32>) -> tensor<2xf32>>
  adj.return %c : !adj.fn<(tensor<2xf32>) -> tensor<2xf32>>
}

// -----

adj.func private @g(%a: tensor<f32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  adj.return %x : tensor<2xf32>
}
adj.func @f(%a: tensor<f32>) -> !adj.fn<(tensor<3xf32>) -> tensor<2xf32>> {
  // expected-error @+1 {{'adj.closure' op has type '!adj.fn<(tensor<3xf32>) -> tensor<2xf32>>' but 'g' with 1 captured values has type '!adj.fn<(tensor<2xf32>) -> tensor<2xf32>>'}}
  %c = adj.closure @g(%a) : (tensor<f32>) -> !adj.fn<(tensor<3xf32>) -> tensor<2xf32>>
  adj.return %c : !adj.fn<(tensor<3xf32>) -> tensor<2xf32>>
}

// -----

adj.func private @g(%a: tensor<f32>) -> tensor<f32> {
  adj.return %a : tensor<f32>
}
adj.func @f(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'adj.closure' op result #0 must be}}
  %c = adj.closure @g(%a) : (tensor<f32>) -> tensor<f32>
  adj.return %c : tensor<f32>
}
