// RUN: ir-opt %s -split-input-file -adj-infer -verify-diagnostics

// Type errors found only after inference are diagnostics at the op.

adj.func @add(%a: !adj.any, %b: !adj.any) -> !adj.any {
  // expected-error @+1 {{type error: 'adj.add' cannot be applied to operands of types 'tensor<3xf32>', 'tensor<4xf32>' (adj.add: shapes [3] and [4] do not broadcast)}}
  %s = adj.add %a, %b : !adj.any, !adj.any
  adj.return %s : !adj.any
}
adj.func @main(%x: tensor<3xf32>, %y: tensor<4xf32>) -> !adj.any {
  %f = adj.func_ref @add : !adj.any
  %r = adj.call %f(%x, %y) : !adj.any (tensor<3xf32>, tensor<4xf32>) -> (!adj.any)
  adj.return %r : !adj.any
}

// -----

// Branch types join (promoted dtypes, broadcast shapes: infer-promote.mlir)
// unless they conflict.
adj.func @main(%c: tensor<i1>, %x: tensor<3xf32>, %y: tensor<2xf64>) -> !adj.any {
  // expected-error @+1 {{the branches of adj.if yield different types as result #0: tensor<3xf32> and tensor<2xf64>}}
  %r = adj.if %c : tensor<i1> -> (!adj.any) {
    adj.yield %x : tensor<3xf32>
  } else {
    adj.yield %y : tensor<2xf64>
  }
  adj.return %r : !adj.any
}

// -----

adj.func @main(%c: tensor<i1>, %x: tensor<3xf32>) -> !adj.any {
  %t = adj.tuple %x : tensor<3xf32>
  // expected-error @+1 {{the branches of adj.if yield different types as result #0: tensor<3xf32> and !adj.tuple<tensor<3xf32>>}}
  %r = adj.if %c : tensor<i1> -> (!adj.any) {
    adj.yield %x : tensor<3xf32>
  } else {
    adj.yield %t : !adj.tuple<tensor<3xf32>>
  }
  adj.return %r : !adj.any
}

// -----

adj.func @main(%x: tensor<2xf32>, %n: tensor<i64>) -> !adj.any {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  // expected-error @+1 {{loop-carried value #0 changes type from tensor<2xf32> to tensor<4xf32> in the body}}
  %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<2xf32>) -> !adj.any {
  ^bb0(%i: !adj.any, %a: !adj.any):
    %y = adj.concat %a, %a axis = 0 : !adj.any, !adj.any
    adj.yield %y : !adj.any
  }
  adj.return %r : !adj.any
}

// -----

// expected-error @+1 {{cannot infer the result types of @loop: a recursion without a base case?}}
adj.func @loop(%x: !adj.any) -> !adj.any {
  %f = adj.func_ref @loop : !adj.any
  %r = adj.call %f(%x) : !adj.any (!adj.any) -> (!adj.any)
  adj.return %r : !adj.any
}
adj.func @main(%x: tensor<f32>) -> !adj.any {
  %f = adj.func_ref @loop : !adj.any
  %r = adj.call %f(%x) : !adj.any (tensor<f32>) -> (!adj.any)
  adj.return %r : !adj.any
}

// -----

adj.func @main(%x: tensor<6xf32>) -> !adj.any {
  // expected-error @+1 {{'adj.reshape' does not infer its result type, so it must be declared; got '!adj.any'}}
  %r = adj.reshape %x : tensor<6xf32> to !adj.any
  adj.return %r : !adj.any
}

// -----

adj.func @main(%x: tensor<f32>) -> !adj.any {
  // expected-error @+1 {{cannot infer the type of this closure: it is never called}}
  %k = adj.lambda (%y: !adj.any) -> !adj.any {
    adj.return %y : !adj.any
  }
  adj.return %x : tensor<f32>
}

// -----

adj.func @grow(%x: !adj.any, %n: !adj.any) -> !adj.any {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : !adj.any, tensor<i64>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    adj.yield %x : !adj.any
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : !adj.any, tensor<i64>
    %y = adj.concat %x, %x axis = 0 : !adj.any, !adj.any
    %f = adj.func_ref @grow : !adj.any
    // expected-error @+1 {{too many specializations of @grow}}
    %r1 = adj.call %f(%y, %m) : !adj.any (!adj.any, !adj.any) -> (!adj.any)
    adj.yield %r1 : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @main(%x: tensor<1xf32>, %n: tensor<i64>) -> !adj.any {
  %f = adj.func_ref @grow : !adj.any
  %r = adj.call %f(%x, %n) : !adj.any (tensor<1xf32>, tensor<i64>) -> (!adj.any)
  adj.return %r : !adj.any
}
