// Calls: an adj.call of an adj.func_ref is a func.call with flattened
// arguments and results; a reference only used as a callee leaves nothing
// behind. Calls that cannot be lowered are diagnostics.
// RUN: ir-opt %s -adj-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @callee(
// CHECK-SAME:      %{{.*}}: tensor<f32> {adj.note = 1 : i64}, %{{.*}}: tensor<2xf32> {adj.note = 1 : i64}, %{{.*}}: tensor<f32>)
// CHECK-SAME:      -> (tensor<f32>, tensor<2xf32>, tensor<f32>)
adj.func private @callee(%t: !adj.tuple<tensor<f32>, tensor<2xf32>> {adj.note = 1}, %x: tensor<f32>) -> (tensor<f32>, !adj.tuple<tensor<2xf32>, tensor<f32>>) {
  %a = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<2xf32>>
  %v = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<2xf32>>
  %s = adj.add %a, %x : tensor<f32>, tensor<f32>
  %r = adj.tuple %v, %s : tensor<2xf32>, tensor<f32>
  adj.return %x, %r : tensor<f32>, !adj.tuple<tensor<2xf32>, tensor<f32>>
}

// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f32>, %[[V:[^:]*]]: tensor<2xf32>) -> (tensor<2xf32>, tensor<f32>)
// CHECK-NOT:     arith.constant {{.*}} : index
// CHECK:         %[[R:.*]]:3 = call @callee(%[[X]], %[[V]], %[[X]]) : (tensor<f32>, tensor<2xf32>, tensor<f32>) -> (tensor<f32>, tensor<2xf32>, tensor<f32>)
// CHECK-NEXT:    return %[[R]]#1, %[[R]]#2 : tensor<2xf32>, tensor<f32>
adj.func @caller(%x: tensor<f32>, %v: tensor<2xf32>) -> !adj.tuple<tensor<2xf32>, tensor<f32>> {
  %f = adj.func_ref @callee : !adj.fn<(!adj.tuple<tensor<f32>, tensor<2xf32>>, tensor<f32>) -> (tensor<f32>, !adj.tuple<tensor<2xf32>, tensor<f32>>)>
  %t = adj.tuple %x, %v : tensor<f32>, tensor<2xf32>
  %r:2 = adj.call %f(%t, %x) : !adj.fn<(!adj.tuple<tensor<f32>, tensor<2xf32>>, tensor<f32>) -> (tensor<f32>, !adj.tuple<tensor<2xf32>, tensor<f32>>)>
  adj.return %r#1 : !adj.tuple<tensor<2xf32>, tensor<f32>>
}

// One function made at a type: the call unboxes the captures and calls it
// without a switch.
// CHECK-LABEL: func.func @single(
// CHECK-SAME:      %[[C:[^:]*]]: tensor<f32>, %[[X:[^:]*]]: tensor<f32>)
// CHECK:         %[[BOX:.*]] = call @adj_rt_tuple_new(
// CHECK:         call @__adj_put_f32(%[[BOX]], %{{.*}}, %[[C]])
// CHECK-NOT:     scf.index_switch
// CHECK:         %[[C2:.*]] = call @__adj_get_f32(%[[BOX]], %{{.*}})
// CHECK:         call @add_c(%[[C2]], %[[X]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
adj.func private @add_c(%c: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  %y = adj.add %c, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}

adj.func @single(%c: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  %f = adj.closure @add_c(%c) : (tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}

// The runtime's entry points and one wrapper pair per tensor type.
// CHECK-DAG: func.func private @adj_rt_tuple_new(i64) -> !llvm.ptr
// CHECK-DAG: func.func private @adj_rt_tuple_put_tensor(!llvm.ptr, i64, i64, index, i64)
// CHECK-DAG: func.func private @adj_rt_tuple_get_tensor(!llvm.ptr, i64, index, i64)
// A tensor goes into a box as a copy of its buffer (dtype 1 is f32).
// CHECK-LABEL: func.func private @__adj_put_f32(
// CHECK-SAME:      %[[T:[^:]*]]: !llvm.ptr, %[[I:[^:]*]]: i64, %[[X:[^:]*]]: tensor<f32>)
// CHECK:         %[[M:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<f32> to memref<f32>
// CHECK:         %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK:         call @adj_rt_tuple_put_tensor(%[[T]], %[[I]], %{{.*}}, %[[P]], %{{.*}})
// ... and comes out as a fresh buffer that the caller owns.
// CHECK-LABEL: func.func private @__adj_get_f32(
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<f32>
// CHECK:         %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:         call @adj_rt_tuple_get_tensor(%{{.*}}, %{{.*}}, %[[P]], %{{.*}})
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[A]] restrict writable
// CHECK:         return %[[R]] : tensor<f32>

// -----

// No function of this type is made anywhere, so nothing can be called.
adj.func @orphan(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{no adj.closure or adj.func_ref in the module makes a function value of type '!adj.fn<(tensor<f32>) -> tensor<f32>>'}}
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}

// -----

adj.func private @sq(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}

adj.func @request(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @sq : !adj.fn<(tensor<f32>) -> tensor<f32>>
  // expected-error @+1 {{adj.grad is not supported by -adj-to-linalg: run -adj-grad first}}
  %g = adj.grad %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %d = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %d : tensor<f32>
}

// -----

// Environments hold sensitivities, never functions.
adj.func private @id(%x: tensor<f32>) -> tensor<f32> {
  adj.return %x : tensor<f32>
}

adj.func @stored(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @id : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %e0 = adj.env_new
  // expected-error @+1 {{adj.env_set of a value of type '!adj.fn<(tensor<f32>) -> tensor<f32>>' (holding a function) is not supported}}
  %e1 = adj.env_set %e0[1], %f : !adj.env, !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %x : tensor<f32>
}

// -----

// Untyped values must be inferred first.
// expected-error @+1 {{adj.func with an argument of type '!adj.any' is not supported}}
adj.func @untyped(%x: !adj.any, %y: tensor<f32>) -> tensor<f32> {
  adj.return %y : tensor<f32>
}

// -----

// Only adj ops may take function values, tuples and environments.
// expected-error @+1 {{func.func on a value of type '!adj.tuple<tensor<f32>>' is not supported by -adj-to-linalg: only adj ops}}
func.func @driver(%t: !adj.tuple<tensor<f32>>) {
  return
}
