// RUN: ir-opt %s | ir-opt | FileCheck %s
// RUN: ir-opt %s --mlir-print-op-generic | ir-opt | FileCheck %s

// Round trip of the structure ops: functions, closures, calls, tuples and
// control flow, typed and untyped.

// CHECK-LABEL: adj.func @square(%arg0: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT:    %[[Y:.*]] = adj.mul %arg0, %arg0 : tensor<f32>, tensor<f32>
// CHECK-NEXT:    adj.return %[[Y]] : tensor<f32>
adj.func @square(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}

// CHECK-LABEL: adj.func private @nothing() {
// CHECK-NEXT:    adj.return{{$}}
adj.func private @nothing() {
  adj.return
}

// CHECK-LABEL: adj.func @closures
// CHECK:         %[[F:.*]] = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK:         %[[C:.*]] = adj.lambda (%[[A:.*]]: tensor<f32>) -> tensor<f32> {
// CHECK-NEXT:      %[[S:.*]] = adj.add %[[A]], %arg0 : tensor<f32>, tensor<f32>
// CHECK-NEXT:      adj.return %[[S]] : tensor<f32>
// CHECK-NEXT:    }
// CHECK:         %[[P:.*]] = adj.lambda () -> (tensor<f32>, tensor<f32>) {
// CHECK:         %[[N:.*]] = adj.lambda () -> () {
// CHECK:         %[[H:.*]] = adj.lambda (%{{.*}}: tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>> {
// CHECK:         %[[Y:.*]] = adj.call %[[F]](%arg0) : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK-NEXT:    %[[Z:.*]] = adj.call %[[C]](%[[Y]]) : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK-NEXT:    %[[PP:.*]]:2 = adj.call %[[P]]() : !adj.fn<() -> (tensor<f32>, tensor<f32>)>
// CHECK-NEXT:    adj.call %[[N]]() : !adj.fn<() -> ()>
// CHECK-NEXT:    %[[G:.*]] = adj.call %[[H]](%[[Z]]) : !adj.fn<(tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>>
// CHECK-NEXT:    %[[R:.*]] = adj.call %[[G]](%[[PP]]#1) : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK-NEXT:    adj.return %[[R]] : tensor<f32>
adj.func @closures(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %c = adj.lambda (%a: tensor<f32>) -> tensor<f32> {
    %s = adj.add %a, %x : tensor<f32>, tensor<f32>
    adj.return %s : tensor<f32>
  }
  %p = adj.lambda () -> (tensor<f32>, tensor<f32>) {
    adj.return %x, %x : tensor<f32>, tensor<f32>
  }
  %n = adj.lambda () -> () {
    adj.return
  }
  %h = adj.lambda (%b: tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>> {
    adj.return %c : !adj.fn<(tensor<f32>) -> tensor<f32>>
  }
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %z = adj.call %c(%y) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %pp:2 = adj.call %p() : !adj.fn<() -> (tensor<f32>, tensor<f32>)>
  adj.call %n() : !adj.fn<() -> ()>
  %g = adj.call %h(%z) : !adj.fn<(tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>>
  %r = adj.call %g(%pp#1) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %r : tensor<f32>
}

// Untyped callees spell out the signature; so does a typed callee applied to
// values of merely compatible types.
// CHECK-LABEL: adj.func @untyped_calls
// CHECK:         %[[A:.*]] = adj.call %arg0(%arg1) : !adj.any (tensor<f32>) -> !adj.any
// CHECK-NEXT:    %[[B:.*]]:2 = adj.call %arg0(%[[A]]) : !adj.any (!adj.any) -> (tensor<f32>, !adj.any)
// CHECK-NEXT:    %[[F:.*]] = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
// CHECK-NEXT:    %[[C:.*]] = adj.call %[[F]](%[[A]]) : !adj.fn<(tensor<f32>) -> tensor<f32>> (!adj.any) -> tensor<f32>
// CHECK-NEXT:    %[[D:.*]] = adj.call %[[F]](%arg1) : !adj.fn<(tensor<f32>) -> tensor<f32>> (tensor<f32>) -> !adj.any
// CHECK-NEXT:    %[[U:.*]] = adj.func_ref @square : !adj.any
// CHECK-NEXT:    adj.return %[[D]] : !adj.any
adj.func @untyped_calls(%f: !adj.any, %x: tensor<f32>) -> !adj.any {
  %a = adj.call %f(%x) : !adj.any (tensor<f32>) -> !adj.any
  %b:2 = adj.call %f(%a) : !adj.any (!adj.any) -> (tensor<f32>, !adj.any)
  %sq = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %c = adj.call %sq(%a) : !adj.fn<(tensor<f32>) -> tensor<f32>> (!adj.any) -> tensor<f32>
  %d = adj.call %sq(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>> (tensor<f32>) -> !adj.any
  %u = adj.func_ref @square : !adj.any
  adj.return %d : !adj.any
}

// CHECK-LABEL: adj.func @tuples
// CHECK:         %[[E:.*]] = adj.tuple(){{$}}
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %arg0, %arg1, %[[E]] : tensor<f32>, tensor<2xi64>, !adj.tuple<>
// CHECK-NEXT:    %[[G:.*]] = adj.get %[[T]][1] : !adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>
// CHECK-NEXT:    %[[N:.*]] = adj.tuple %[[T]], %[[G]] : !adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>, tensor<2xi64>
// CHECK-NEXT:    %[[I:.*]] = adj.get %[[N]][0] : !adj.tuple<!adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>, tensor<2xi64>>
// CHECK-NEXT:    %[[J:.*]] = adj.get %[[I]][2] : !adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>
// CHECK-NEXT:    %[[U:.*]] = adj.get %arg2[7] : !adj.any
// CHECK-NEXT:    %[[V:.*]] = adj.tuple %[[J]], %[[U]] : !adj.tuple<>, !adj.any
// CHECK-NEXT:    adj.return %[[V]] : !adj.tuple<!adj.tuple<>, !adj.any>
adj.func @tuples(%a: tensor<f32>, %b: tensor<2xi64>, %u: !adj.any) -> !adj.tuple<!adj.tuple<>, !adj.any> {
  %e = adj.tuple()
  %t = adj.tuple %a, %b, %e : tensor<f32>, tensor<2xi64>, !adj.tuple<>
  %g = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>
  %n = adj.tuple %t, %g : !adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>, tensor<2xi64>
  %i = adj.get %n[0] : !adj.tuple<!adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>, tensor<2xi64>>
  %j = adj.get %i[2] : !adj.tuple<tensor<f32>, tensor<2xi64>, !adj.tuple<>>
  %k = adj.get %u[7] : !adj.any
  %v = adj.tuple %j, %k : !adj.tuple<>, !adj.any
  adj.return %v : !adj.tuple<!adj.tuple<>, !adj.any>
}

// CHECK-LABEL: adj.func @control
// CHECK:         %[[R:.*]]:2 = adj.if %arg1 : tensor<i1> -> (tensor<f32>, !adj.any) {
// CHECK-NEXT:      adj.yield %arg0, %arg2 : tensor<f32>, !adj.any
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[N:.*]] = adj.neg %arg0 : tensor<f32>
// CHECK-NEXT:      adj.yield %[[N]], %arg2 : tensor<f32>, !adj.any
// CHECK-NEXT:    }
// CHECK-NEXT:    adj.if %arg2 : !adj.any {
// CHECK-NEXT:      adj.yield{{$}}
// CHECK-NEXT:    } else {
// CHECK-NEXT:      adj.yield{{$}}
// CHECK-NEXT:    }
// CHECK:         %[[L:.*]] = adj.for %arg3 to %arg3 step %arg3 : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%[[R]]#0 : tensor<f32>) -> tensor<f32> {
// CHECK-NEXT:    ^bb0(%[[I:.*]]: tensor<i64>, %[[V:.*]]: tensor<f32>):
// CHECK-NEXT:      %[[W:.*]] = adj.mul %[[V]], %[[V]] : tensor<f32>, tensor<f32>
// CHECK-NEXT:      adj.yield %[[W]] : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    adj.for %arg2 to %arg2 step %arg2 : !adj.any, !adj.any, !adj.any {
// CHECK-NEXT:    ^bb0(%{{.*}}: !adj.any):
// CHECK-NEXT:      adj.yield{{$}}
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[WH:.*]] = adj.while(%[[L]] : tensor<f32>) -> tensor<f32> cond {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<f32>):
// CHECK-NEXT:      %[[K:.*]] = adj.cmp gt, %[[X]], %arg0 : tensor<f32>, tensor<f32>
// CHECK-NEXT:      adj.yield %[[K]] : tensor<i1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[X2:.*]]: tensor<f32>):
// CHECK-NEXT:      %[[H:.*]] = adj.sqrt %[[X2]] : tensor<f32>
// CHECK-NEXT:      adj.yield %[[H]] : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    adj.return %[[WH]] : tensor<f32>
adj.func @control(%x: tensor<f32>, %c: tensor<i1>, %u: !adj.any, %n: tensor<i64>) -> tensor<f32> {
  %r:2 = adj.if %c : tensor<i1> -> (tensor<f32>, !adj.any) {
    adj.yield %x, %u : tensor<f32>, !adj.any
  } else {
    %nx = adj.neg %x : tensor<f32>
    adj.yield %nx, %u : tensor<f32>, !adj.any
  }
  adj.if %u : !adj.any {
    adj.yield
  } else {
    adj.yield
  }
  %l = adj.for %n to %n step %n : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%r#0 : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %v: tensor<f32>):
    %w = adj.mul %v, %v : tensor<f32>, tensor<f32>
    adj.yield %w : tensor<f32>
  }
  adj.for %u to %u step %u : !adj.any, !adj.any, !adj.any {
  ^bb0(%j: !adj.any):
    adj.yield
  }
  %wh = adj.while (%l : tensor<f32>) -> tensor<f32> cond {
  ^bb0(%a: tensor<f32>):
    %k = adj.cmp gt, %a, %x : tensor<f32>, tensor<f32>
    adj.yield %k : tensor<i1>
  } do {
  ^bb0(%a: tensor<f32>):
    %h = adj.sqrt %a : tensor<f32>
    adj.yield %h : tensor<f32>
  }
  adj.return %wh : tensor<f32>
}

// Recursion by symbol.
// CHECK-LABEL: adj.func @fact
// CHECK:         adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
adj.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %f = adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
  %r = adj.call %f(%n) : !adj.fn<(tensor<i64>) -> tensor<i64>>
  adj.return %r : tensor<i64>
}
