// RUN: ir-opt %s -split-input-file -adj-infer | FileCheck %s
// RUN: ir-opt %s -split-input-file -adj-infer -adj-check-typed > /dev/null
// RUN: ir-opt %s -split-input-file -adj-infer | ir-opt - -split-input-file -adj-infer | FileCheck %s

// Programs in the Python front end's style: only the entry's parameters are
// typed. The values that the inferred programs compute are checked against
// the untyped ones in infer-values.mlir.

// A polymorphic function called at two shapes: @sq keeps the first
// signature, a private clone takes the second, and each func_ref names its
// own specialization.
// CHECK-LABEL: adj.func @sq(
// CHECK-SAME:      %{{.*}}: tensor<3xf32>) -> tensor<3xf32>
// CHECK:         adj.mul %{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xf32>
// CHECK-LABEL: adj.func private @sq_1(
// CHECK-SAME:      %{{.*}}: tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK:         adj.mul %{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-LABEL: adj.func @poly(
// CHECK-SAME:      -> (tensor<3xf32>, tensor<2x2xf32>)
// CHECK:         %[[F:.*]] = adj.func_ref @sq : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
// CHECK:         %[[F1:.*]] = adj.func_ref @sq_1 : !adj.fn<(tensor<2x2xf32>) -> tensor<2x2xf32>>
// CHECK:         adj.call %[[F]](%{{.*}}) : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>{{$}}
// CHECK:         adj.call %[[F1]](%{{.*}}) : !adj.fn<(tensor<2x2xf32>) -> tensor<2x2xf32>>{{$}}
adj.func @sq(%x: !adj.any) -> !adj.any {
  %y = adj.mul %x, %x : !adj.any, !adj.any
  adj.return %y : !adj.any
}
adj.func @poly(%a: tensor<3xf32>, %b: tensor<2x2xf32>) -> (!adj.any, !adj.any) {
  %f = adj.func_ref @sq : !adj.fn<(!adj.any) -> !adj.any>
  %r = adj.call %f(%a) : !adj.fn<(!adj.any) -> !adj.any> (tensor<3xf32>) -> !adj.any
  %s = adj.call %f(%b) : !adj.fn<(!adj.any) -> !adj.any> (tensor<2x2xf32>) -> !adj.any
  adj.return %r, %s : !adj.any, !adj.any
}

// -----

// A higher-order function receives a closure; the closure's free variable
// gives its result shape. A closure called at two signatures is cloned in
// place. Tuples and a returned closure are typed too.
// CHECK-LABEL: adj.func @apply(
// CHECK-SAME:      %[[G:[^:]*]]: !adj.fn<(tensor<f32>) -> tensor<3xf32>>, %[[X:[^:]*]]: tensor<f32>) -> tensor<3xf32>
// CHECK:         adj.call %[[G]](%[[X]]) : !adj.fn<(tensor<f32>) -> tensor<3xf32>>{{$}}
// CHECK-LABEL: adj.func @closures(
// CHECK-SAME:      -> (tensor<3xf32>, !adj.tuple<tensor<3xf32>, tensor<f32>>, !adj.fn<(tensor<f32>) -> tensor<3xf32>>)
// CHECK:         %[[K:.*]] = adj.lambda (%{{.*}}: tensor<f32>) -> tensor<3xf32> {
// CHECK:           adj.add %{{.*}}, %{{.*}} : tensor<f32>, tensor<3xf32>
// CHECK:         adj.call %{{.*}}(%[[K]], %{{.*}}) : !adj.fn<(!adj.fn<(tensor<f32>) -> tensor<3xf32>>, tensor<f32>) -> tensor<3xf32>>{{$}}
// CHECK:         %[[ID3:.*]] = adj.lambda (%{{.*}}: tensor<3xf32>) -> tensor<3xf32> {
// CHECK:         %[[ID0:.*]] = adj.lambda (%{{.*}}: tensor<f32>) -> tensor<f32> {
// CHECK:         %[[I1:.*]] = adj.call %[[ID3]](%{{.*}}) : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>{{$}}
// CHECK:         %[[I2:.*]] = adj.call %[[ID0]](%{{.*}}) : !adj.fn<(tensor<f32>) -> tensor<f32>>{{$}}
// CHECK:         adj.tuple %[[I1]], %[[I2]] : tensor<3xf32>, tensor<f32>
adj.func @apply(%f: !adj.any, %x: !adj.any) -> !adj.any {
  %r = adj.call %f(%x) : !adj.any (!adj.any) -> (!adj.any)
  adj.return %r : !adj.any
}
adj.func @closures(%a: tensor<3xf32>, %s: tensor<f32>) -> (!adj.any, !adj.tuple<!adj.any, !adj.any>, !adj.fn<(!adj.any) -> !adj.any>) {
  %k = adj.lambda (%y: !adj.any) -> !adj.any {
    %z = adj.add %y, %a : !adj.any, tensor<3xf32>
    adj.return %z : !adj.any
  }
  %ap = adj.func_ref @apply : !adj.any
  %r0 = adj.call %ap(%k, %s) : !adj.any (!adj.fn<(!adj.any) -> !adj.any>, tensor<f32>) -> (!adj.any)
  %id = adj.lambda (%y: !adj.any) -> !adj.any {
    adj.return %y : !adj.any
  }
  %i1 = adj.call %id(%a) : !adj.fn<(!adj.any) -> !adj.any> (tensor<3xf32>) -> !adj.any
  %i2 = adj.call %id(%s) : !adj.fn<(!adj.any) -> !adj.any> (tensor<f32>) -> !adj.any
  %t = adj.tuple %i1, %i2 : !adj.any, !adj.any
  adj.return %r0, %t, %k : !adj.any, !adj.tuple<!adj.any, !adj.any>, !adj.fn<(!adj.any) -> !adj.any>
}

// -----

// Recursion: the base case of the adj.if gives the type, the recursive call
// is solved by iterating to a fixed point. Mutual recursion likewise.
// CHECK-LABEL: adj.func @fact(
// CHECK-SAME:      %{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK:         adj.if %{{.*}} : tensor<i1> -> (tensor<f32>)
// CHECK:           %[[SELF:.*]] = adj.func_ref @fact : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK:           %[[R:.*]] = adj.call %[[SELF]](%{{.*}}) : !adj.fn<(tensor<f32>) -> tensor<f32>>{{$}}
// CHECK:           adj.mul %{{.*}}, %[[R]] : tensor<f32>, tensor<f32>
// CHECK-LABEL: adj.func @even(
// CHECK-SAME:      %{{.*}}: tensor<i64>) -> tensor<i1>
// CHECK:           adj.func_ref @odd : !adj.fn<(tensor<i64>) -> tensor<i1>>
// CHECK-LABEL: adj.func @odd(
// CHECK-SAME:      %{{.*}}: tensor<i64>) -> tensor<i1>
// CHECK:           adj.func_ref @even : !adj.fn<(tensor<i64>) -> tensor<i1>>
// CHECK-LABEL: adj.func @recursion(
// CHECK-SAME:      -> (tensor<f32>, tensor<i1>)
adj.func @fact(%n: !adj.any) -> !adj.any {
  %one = adj.constant dense<1.0> : tensor<f32>
  %c = adj.cmp le, %n, %one : !adj.any, tensor<f32>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    adj.yield %one : tensor<f32>
  } else {
    %m = adj.sub %n, %one : !adj.any, tensor<f32>
    %f = adj.func_ref @fact : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    %p = adj.mul %n, %r1 : !adj.any, !adj.any
    adj.yield %p : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @even(%n: !adj.any) -> !adj.any {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : !adj.any, tensor<i64>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    %t = adj.constant dense<true> : tensor<i1>
    adj.yield %t : tensor<i1>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : !adj.any, tensor<i64>
    %f = adj.func_ref @odd : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    adj.yield %r1 : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @odd(%n: !adj.any) -> !adj.any {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : !adj.any, tensor<i64>
  %r = adj.if %c : !adj.any -> (!adj.any) {
    %t = adj.constant dense<false> : tensor<i1>
    adj.yield %t : tensor<i1>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : !adj.any, tensor<i64>
    %f = adj.func_ref @even : !adj.any
    %r1 = adj.call %f(%m) : !adj.any (!adj.any) -> (!adj.any)
    adj.yield %r1 : !adj.any
  }
  adj.return %r : !adj.any
}
adj.func @recursion(%s: tensor<f32>, %n: tensor<i64>) -> (!adj.any, !adj.any) {
  %ff = adj.func_ref @fact : !adj.any
  %f5 = adj.call %ff(%s) : !adj.any (tensor<f32>) -> (!adj.any)
  %ev = adj.func_ref @even : !adj.any
  %e = adj.call %ev(%n) : !adj.any (tensor<i64>) -> (!adj.any)
  adj.return %f5, %e : !adj.any, !adj.any
}

// -----

// Loops carry stable types; a grad request on an untyped function gets its
// type from the function's specialization.
// CHECK-LABEL: adj.func @loss(
// CHECK-SAME:      %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>) -> tensor<f32>
// CHECK-LABEL: adj.func @loops(
// CHECK-SAME:      -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK:         adj.for {{.*}} iter_args(%{{.*}} : tensor<3xf32>) -> tensor<3xf32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<3xf32>):
// CHECK:         adj.while(%{{.*}} : tensor<3xf32>) -> tensor<3xf32> cond {
// CHECK:           adj.yield %{{.*}} : tensor<i1>
// CHECK:         %[[L:.*]] = adj.func_ref @loss : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> tensor<f32>>
// CHECK:         %[[G:.*]] = adj.grad %[[L]] wrt = [0] : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> tensor<f32>>
// CHECK:         adj.call %[[G]](%{{.*}}, %{{.*}}) : !adj.fn<(tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>>{{$}}
adj.func @loss(%w: !adj.any, %x: !adj.any) -> !adj.any {
  %p = adj.mul %w, %x : !adj.any, !adj.any
  %s = adj.reduce_sum %p axes = [0] : !adj.any
  adj.return %s : !adj.any
}
adj.func @loops(%x: tensor<3xf32>, %n: tensor<i64>) -> (!adj.any, !adj.any, !adj.any) {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%x : tensor<3xf32>) -> !adj.any {
  ^bb0(%i: !adj.any, %a: !adj.any):
    %y = adj.add %a, %a : !adj.any, !adj.any
    adj.yield %y : !adj.any
  }
  %hundred = adj.constant dense<100.0> : tensor<f32>
  %w = adj.while (%x : tensor<3xf32>) -> !adj.any cond {
  ^bb0(%a: !adj.any):
    %s = adj.reduce_sum %a axes = [0] : !adj.any
    %c = adj.cmp lt, %s, %hundred : !adj.any, tensor<f32>
    adj.yield %c : !adj.any
  } do {
  ^bb0(%a: !adj.any):
    %y = adj.mul %a, %a : !adj.any, !adj.any
    adj.yield %y : !adj.any
  }
  %f = adj.func_ref @loss : !adj.any
  %g = adj.grad %f wrt = [0] : !adj.any
  %d = adj.call %g(%x, %r) : !adj.any (tensor<3xf32>, !adj.any) -> (!adj.any)
  adj.return %r, %w, %d : !adj.any, !adj.any, !adj.any
}

// -----

// A typed program is left as it is.
// CHECK-LABEL: adj.func @typed(
// CHECK-SAME:      %{{.*}}: tensor<?xf32>) -> tensor<?xf32>
// CHECK:         adj.func_ref @typed_callee : !adj.fn<(tensor<?xf32>) -> tensor<?xf32>>
adj.func @typed_callee(%x: tensor<?xf32>) -> tensor<?xf32> {
  adj.return %x : tensor<?xf32>
}
adj.func @typed(%x: tensor<?xf32>) -> tensor<?xf32> {
  %f = adj.func_ref @typed_callee : !adj.fn<(tensor<?xf32>) -> tensor<?xf32>>
  %y = adj.call %f(%x) : !adj.fn<(tensor<?xf32>) -> tensor<?xf32>>
  adj.return %y : tensor<?xf32>
}
