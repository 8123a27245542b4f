// RUN: ir-opt %s -split-input-file -adj-grad -verify-diagnostics | FileCheck %s

// J(custom_vjp(f, fwd, bwd)) is a closure that calls fwd's forward function
// for the value and the residuals, and whose backpropagator calls bwd's with
// the residuals and the sensitivity; the environment is empty (the values
// the rules close over get no sensitivity). f's own forward function is
// unused (the optimizer removes it).

// CHECK-LABEL: adj.func private @main_fprop(
// CHECK-SAME:      %[[X:.*]]: tensor<f64>)
// CHECK:         %[[FWD:.*]] = adj.func_ref @fwd_fprop
// CHECK:         %[[BWD:.*]] = adj.func_ref @bwd_fprop
// CHECK:         %[[G:.*]] = adj.lambda (%[[A:.*]]: tensor<f64>) -> (tensor<f64>, !adj.fn<(tensor<f64>) -> (!adj.env, tensor<f64>)>) {
// CHECK-NEXT:      %[[O:.*]]:3 = adj.call %[[FWD]](%[[A]])
// CHECK-NEXT:      %[[BP:.*]] = adj.lambda (%[[D:.*]]: tensor<f64>) -> (!adj.env, tensor<f64>) {
// CHECK-NEXT:        %[[B:.*]]:2 = adj.call %[[BWD]](%[[O]]#1, %[[D]])
// CHECK-NEXT:        %[[E:.*]] = adj.env_new
// CHECK-NEXT:        adj.return %[[E]], %[[B]]#0 : !adj.env, tensor<f64>
// CHECK:           adj.return %[[O]]#0, %[[BP]]
// CHECK:         %[[R:.*]]:2 = adj.call %[[G]](%[[X]])
// CHECK-NOT:     adj.custom_vjp
adj.func private @f(%x: tensor<f64>) -> tensor<f64> {
  %y = adj.sin %x : tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func private @fwd(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %y = adj.sin %x : tensor<f64>
  %c = adj.cos %x : tensor<f64>
  adj.return %y, %c : tensor<f64>, tensor<f64>
}
adj.func private @bwd(%c: tensor<f64>, %d: tensor<f64>) -> tensor<f64> {
  %dx = adj.mul %d, %c : tensor<f64>, tensor<f64>
  adj.return %dx : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %fwd = adj.func_ref @fwd : !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %bwd = adj.func_ref @bwd : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f64>) -> tensor<f64>>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>, !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @entry(%x: tensor<f64>) -> tensor<f64> {
  %m = adj.func_ref @main : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %g = adj.grad %m : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %d : tensor<f64>
}

// -----

// Forward mode refuses a custom_vjp, as JAX does.
adj.func private @f(%x: tensor<f64>) -> tensor<f64> {
  %y = adj.sin %x : tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func private @fwd(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %y = adj.sin %x : tensor<f64>
  adj.return %y, %x : tensor<f64>, tensor<f64>
}
adj.func private @bwd(%c: tensor<f64>, %d: tensor<f64>) -> tensor<f64> {
  adj.return %d : tensor<f64>
}
adj.func @main(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %fwd = adj.func_ref @fwd : !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %bwd = adj.func_ref @bwd : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  // expected-error @+1 {{'adj.custom_vjp' op cannot be differentiated in forward mode}}
  %g = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f64>) -> tensor<f64>>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>, !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @entry(%x: tensor<f64>, %t: tensor<f64>) -> tensor<f64> {
  %m = adj.func_ref @main : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %j = adj.jvp %m : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %r:2 = adj.call %j(%x, %t) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  adj.return %r#1 : tensor<f64>
}
