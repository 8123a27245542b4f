// RUN: ir-opt %s -split-input-file -verify-diagnostics | ir-opt | FileCheck %s

// The ops round-trip; their rules must fit the function's type.

// CHECK-LABEL: adj.func @ok
// CHECK: adj.stop_gradient %{{.*}} : !adj.tuple<tensor<f32>, tensor<2xf64>>
// CHECK: adj.custom_vjp %{{.*}}, %{{.*}}, %{{.*}} : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)>, !adj.fn<(tensor<f32>, tensor<i64>, tensor<f32>) -> tensor<f32>>
// CHECK: adj.custom_jvp %{{.*}}, %{{.*}} : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
// CHECK: adj.checkpoint %{{.*}} : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK: adj.optimization_barrier %{{.*}} : tensor<f32>
adj.func @ok(%t: !adj.tuple<tensor<f32>, tensor<2xf64>>,
             %f: !adj.fn<(tensor<f32>) -> tensor<f32>>,
             %fwd: !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)>,
             %bwd: !adj.fn<(tensor<f32>, tensor<i64>, tensor<f32>) -> tensor<f32>>,
             %rule: !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>,
             %x: tensor<f32>) -> tensor<f32> {
  %s = adj.stop_gradient %t : !adj.tuple<tensor<f32>, tensor<2xf64>>
  %v = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<i64>)>, !adj.fn<(tensor<f32>, tensor<i64>, tensor<f32>) -> tensor<f32>>
  %j = adj.custom_jvp %f, %rule : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  %c = adj.checkpoint %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %b = adj.optimization_barrier %x : tensor<f32>
  adj.return %b : tensor<f32>
}

// -----

adj.func @bad_bwd(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>,
                  %fwd: !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>,
                  %bwd: !adj.fn<(tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.custom_vjp: bwd's arguments (the residuals, then the sensitivities of f's results) must be (tensor<f32>, tensor<f32>) but got (tensor<f32>)}}
  %v = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>, !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @bad_fwd(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>,
                  %fwd: !adj.fn<(tensor<f64>) -> tensor<f32>>,
                  %bwd: !adj.fn<(tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.custom_vjp: fwd's arguments must be (tensor<f32>) but got (tensor<f64>)}}
  %v = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f64>) -> tensor<f32>>, !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @bad_rule(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>,
                   %rule: !adj.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.custom_jvp: the rule's results (f's results, then their tangents) must be (tensor<f32>, tensor<f32>) but got (tensor<f32>)}}
  %j = adj.custom_jvp %f, %rule : !adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @fn_arg(%f: !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.checkpoint: the function's arguments and results may not hold functions}}
  %c = adj.checkpoint %f : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<f32>>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @sg_fn(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.stop_gradient: expected a tensor or a tuple of tensors}}
  %s = adj.stop_gradient %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return
}
