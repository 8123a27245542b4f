// RUN: ir-opt %s -split-input-file -adj-check-typed -verify-diagnostics | FileCheck %s

// A typed program passes unchanged.
// CHECK-LABEL: adj.func @typed
// CHECK:         %[[Y:.*]] = adj.add %arg0, %arg0 : tensor<f32>, tensor<f32>
// CHECK:         adj.return %[[Y]] : tensor<f32>
adj.func @typed(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.add %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}

// -----

// expected-error @+2 {{function result #0 has untyped type '!adj.any'}}
// expected-error @+1 {{block argument #1 has untyped type '!adj.any'}}
adj.func @untyped(%x: tensor<f32>, %u: !adj.any) -> !adj.any {
  // expected-error @+1 {{result #0 has untyped type '!adj.any'}}
  %y = adj.add %x, %u : tensor<f32>, !adj.any
  adj.return %y : !adj.any
}

// -----

// An untyped type nested in a function type is found too.
adj.func @nested(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+2 {{result #0 has untyped type '!adj.fn<(!adj.any) -> tensor<f32>>'}}
  // expected-error @+1 {{block argument #0 has untyped type '!adj.any'}}
  %f = adj.lambda (%a: !adj.any) -> tensor<f32> {
    adj.return %x : tensor<f32>
  }
  adj.return %x : tensor<f32>
}
