// RUN: ir-opt %s | ir-opt | FileCheck %s

// Inputs that verified but did not survive printing and parsing back.

// An empty tuple followed by an op with a result: the result used to be
// parsed as a tuple element.
// CHECK-LABEL: adj.func @empty_tuple
// CHECK:         adj.tuple(){{$}}
// CHECK-NEXT:    adj.neg
adj.func @empty_tuple(%x: tensor<f32>) -> tensor<f32> {
  %e = adj.tuple()
  %y = adj.neg %x : tensor<f32>
  adj.return %y : tensor<f32>
}

// A typed callee applied to an untyped value: the argument types used to be
// taken from the callee's type when parsing back.
// CHECK-LABEL: adj.func @call_compatible
// CHECK:         adj.call %arg0(%arg1) : !adj.fn<(tensor<f32>) -> tensor<f32>> (!adj.any) -> tensor<f32>
adj.func @call_compatible(%g: !adj.fn<(tensor<f32>) -> tensor<f32>>, %u: !adj.any) -> tensor<f32> {
  %r = "adj.call"(%g, %u) : (!adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.any) -> tensor<f32>
  adj.return %r : tensor<f32>
}
