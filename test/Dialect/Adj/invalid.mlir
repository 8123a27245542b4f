// RUN: ir-opt %s -split-input-file -verify-diagnostics

// Diagnostics of the structure and AD ops, one case per split.

adj.func @f(%x: tensor<f32>) -> tensor<f32> {
  adj.return %x : tensor<f32>
}
adj.func @g(%y: tensor<2xf32>) -> !adj.fn<(tensor<3xf32>) -> tensor<f32>> {
  // expected-error @+1 {{'adj.func_ref' op has type '!adj.fn<(tensor<3xf32>) -> tensor<f32>>' but 'f' has type '!adj.fn<(tensor<f32>) -> tensor<f32>>'}}
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>) -> tensor<f32>>
  adj.return %f : !adj.fn<(tensor<3xf32>) -> tensor<f32>>
}

// -----

adj.func @g() -> !adj.any {
  // expected-error @+1 {{'adj.func_ref' op 'missing' does not name an adj.func}}
  %f = adj.func_ref @missing : !adj.any
  adj.return %f : !adj.any
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'adj.call' op arguments: value #0 has type 'tensor<2xf32>' but 'tensor<f32>' is expected}}
  %r = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>> (tensor<2xf32>) -> tensor<f32>
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.call' op results: expected 1 values, got 2}}
  %r:2 = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>> (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{callee must be !adj.fn or !adj.any, got 'tensor<f32>'}}
  %r = adj.call %x(%x) : tensor<f32>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'adj.return' op returned values: value #0 has type 'tensor<f32>' but 'tensor<2xf32>' is expected}}
  adj.return %x : tensor<f32>
}

// -----

adj.func @g(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'adj.return' op returned values: expected 1 values, got 0}}
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{'adj.lambda' op block argument #0 has type '!adj.any' but the closure type has 'tensor<f32>'}}
  %l = "adj.lambda"() ({
  ^bb0(%a: !adj.any):
    adj.return
  }) : () -> !adj.fn<(tensor<f32>) -> ()>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  %l = adj.lambda (%a: tensor<f32>) -> tensor<2xf32> {
    // expected-error @+1 {{'adj.return' op returned values: value #0 has type 'tensor<f32>' but 'tensor<2xf32>' is expected}}
    adj.return %a : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%t: !adj.tuple<tensor<f32>>) {
  // expected-error @+1 {{adj.get: index 1 is out of range for '!adj.tuple<tensor<f32>>'}}
  %r = adj.get %t[1] : !adj.tuple<tensor<f32>>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{adj.get: expected a tuple or !adj.any, got 'tensor<f32>'}}
  %r = adj.get %x[0] : tensor<f32>
  adj.return
}

// -----

adj.func @g(%c: tensor<2xi1>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.if' op condition must be tensor<i1>, got 'tensor<2xi1>'}}
  %r = adj.if %c : tensor<2xi1> -> (tensor<f32>) {
    adj.yield %x : tensor<f32>
  } else {
    adj.yield %x : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.if' op yielded values: expected 1 values, got 0}}
  %r = adj.if %c : tensor<i1> -> (tensor<f32>) {
    adj.yield %x : tensor<f32>
  } else {
    adj.yield
  }
  adj.return
}

// -----

adj.func @g(%c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.if' op regions must end with adj.yield}}
  %r = adj.if %c : tensor<i1> -> (tensor<f32>) {
  ^bb0:
  } else {
    adj.yield %x : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%n: tensor<i32>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.for' op bounds and step must be tensor<i64>, got 'tensor<i32>'}}
  %r = adj.for %n to %n step %n : tensor<i32>, tensor<i32>, tensor<i32> iter_args(%x : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i32>, %v: tensor<f32>):
    adj.yield %v : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%n: tensor<i64>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.for' op body must take the induction variable and 1 carried values, got 1 block arguments}}
  %r = adj.for %n to %n step %n : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<f32>) -> tensor<f32> {
  ^bb0(%v: tensor<f32>):
    adj.yield %v : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%n: tensor<i64>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.for' op induction variable must be tensor<i64>}}
  %r = adj.for %n to %n step %n : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<f32>, %v: tensor<f32>):
    adj.yield %v : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%n: tensor<i64>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.for' op yielded values: value #0 has type 'tensor<i64>' but 'tensor<f32>' is expected}}
  %r = adj.for %n to %n step %n : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %v: tensor<f32>):
    adj.yield %i : tensor<i64>
  }
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{'adj.while' op cond region must yield one tensor<i1>}}
  %r = adj.while (%x : tensor<f32>) -> tensor<f32> cond {
  ^bb0(%v: tensor<f32>):
    adj.yield %v : tensor<f32>
  } do {
  ^bb0(%v: tensor<f32>):
    adj.yield %v : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{'adj.while' op region arguments: expected 1 values, got 0}}
  %r = adj.while (%x : tensor<f32>) -> tensor<f32> cond {
    %c = adj.cmp lt, %x, %x : tensor<f32>, tensor<f32>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%v: tensor<f32>):
    adj.yield %v : tensor<f32>
  }
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>, %c: tensor<i1>) {
  // expected-error @+1 {{'adj.while' op body yields: value #0 has type 'tensor<i1>' but 'tensor<f32>' is expected}}
  %r = adj.while (%x : tensor<f32>) -> tensor<f32> cond {
  ^bb0(%v: tensor<f32>):
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%v: tensor<f32>):
    adj.yield %c : tensor<i1>
  }
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.grad: wrt index 2 is out of range for a function of 2 arguments}}
  %g = adj.grad %f wrt = [2] : !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.vjp: wrt index 0 is repeated}}
  %g = adj.vjp %f wrt = [0, 0] : !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.jvp: wrt index -1 is out of range}}
  %g = adj.jvp %f wrt = [-1] : !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>) {
  // expected-error @+1 {{adj.grad: the function must have one result, it has 2}}
  %g = adj.grad %f : !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>) {
  // expected-error @+1 {{adj.value_and_grad: the function must have one result, it has 2}}
  %g = adj.value_and_grad %f custom_sens : !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{adj.grad: expected a function value or !adj.any, got 'tensor<f32>'}}
  %g = adj.grad %x : tensor<f32>
  adj.return
}

// -----

adj.func @g(%f: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>) {
  // expected-error @+1 {{adj.grad_add: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>> is not a sensitivity type}}
  %g = adj.grad_add %f, %f : !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>, !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{adj.grad_add: 'tensor<f32>' and 'tensor<2xf32>' are different types}}
  %g = adj.grad_add %x, %y : tensor<f32>, tensor<2xf32>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{'adj.env_add' op operand #0 must be env or !adj.any, but got 'tensor<f32>'}}
  %e = adj.env_add %x, %x : tensor<f32>, tensor<f32>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{'adj.env_get' op operand #0 must be env or !adj.any, but got 'tensor<f32>'}}
  %e = adj.env_get %x[0] : tensor<f32> -> tensor<f32>
  adj.return
}

// -----

adj.func @g(%x: tensor<f32>) {
  // expected-error @+1 {{'adj.env_set' op operand #0 must be env or !adj.any, but got 'tensor<f32>'}}
  %e = adj.env_set %x[0], %x : tensor<f32>, tensor<f32>
  adj.return
}

// -----

adj.func @g(%x: tensor<2xf32>) {
  // expected-error @+2 {{'adj.add' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation '!adj.any'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = "adj.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> !adj.any
  adj.return
}

// -----

adj.func @g(%x: tensor<2xf32>) {
  // expected-error @+2 {{'adj.tuple' op inferred type(s) '!adj.tuple<tensor<2xf32>>' are incompatible with return type(s) of operation '!adj.tuple<!adj.any>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = "adj.tuple"(%x) : (tensor<2xf32>) -> !adj.tuple<!adj.any>
  adj.return
}
