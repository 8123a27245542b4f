// Function values by closed-world defunctionalization: a value is a tag
// (which function) and a box (the runtime tuple of its captures); a call of
// a value switches over the functions made at its type. Environments are
// runtime handles. The compiled code gives the interpreter's numbers.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC
// RUN: ir-run %s -f pick --arg 3 | FileCheck %s --check-prefix=PICK-POS
// RUN: ir-run %s -f pick --arg -2 | FileCheck %s --check-prefix=PICK-NEG
// RUN: ir-run %s -f closures --arg 0.5 --arg "[2, -1]" | FileCheck %s --check-prefix=CLOSURES
// RUN: ir-run %s -f chain --arg 0.5 --arg 5 | FileCheck %s --check-prefix=CHAIN
// RUN: ir-run %s -f envs --arg 1.5 --arg "[2, -1]" | FileCheck %s --check-prefix=ENVS

// CHECK-NOT: adj.

// Five functions are made at type (f64) -> f64, with tags in order of
// appearance: square 0, negate 1, affine 2, identity 3, chain_link 4.
// CHECK-LABEL: func.func private @apply(
// CHECK-SAME:      %[[TAG:[^:]*]]: index, %[[BOX:[^:]*]]: !llvm.ptr, %[[X:[^:]*]]: tensor<f64>) -> tensor<f64>
// CHECK:         %[[R:.*]] = scf.index_switch %[[TAG]] -> tensor<f64>
// CHECK-NEXT:    case 0 {
// CHECK-NEXT:      %[[S:.*]] = func.call @square(%[[X]])
// CHECK-NEXT:      scf.yield %[[S]]
// CHECK:         case 1 {
// CHECK-NEXT:      func.call @negate(%[[X]])
// The captures of @affine come out of the box as fresh tensors.
// CHECK:         case 2 {
// CHECK:           %[[W:.*]] = func.call @__adj_get_2xf64(%[[BOX]], %{{.*}}) : (!llvm.ptr, i64) -> tensor<2xf64>
// CHECK:           %[[B:.*]] = func.call @__adj_get_f64(%[[BOX]], %{{.*}}) : (!llvm.ptr, i64) -> tensor<f64>
// CHECK:           func.call @affine(%[[W]], %[[B]], %[[X]])
// CHECK:         case 3 {
// CHECK-NEXT:      func.call @identity(%[[X]])
// A captured function value comes out as its tag and box.
// CHECK:         default {
// CHECK:           %[[PT:.*]] = func.call @adj_rt_tuple_get_fn_tag(%[[BOX]], %{{.*}}) : (!llvm.ptr, i64) -> index
// CHECK:           %[[PB:.*]] = func.call @adj_rt_tuple_get_fn_box(%[[BOX]], %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK:           %[[PW:.*]] = func.call @__adj_get_f64(%[[BOX]], %{{.*}})
// CHECK:           func.call @chain_link(%[[PT]], %[[PB]], %[[PW]], %[[X]])
// CHECK:         return %[[R]] : tensor<f64>
adj.func private @apply(%f: !adj.fn<(tensor<f64>) -> tensor<f64>>, %x: tensor<f64>) -> tensor<f64> {
  %y = adj.call %f(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}

adj.func private @square(%x: tensor<f64>) -> tensor<f64> {
  %y = adj.mul %x, %x : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}

adj.func private @negate(%x: tensor<f64>) -> tensor<f64> {
  %y = adj.neg %x : tensor<f64>
  adj.return %y : tensor<f64>
}

// A function reference used as a value is its tag and a null box.
// CHECK-LABEL: func.func @pick(
// CHECK:         %[[F:.*]]:2 = scf.if %{{.*}} -> (index, !llvm.ptr) {
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[N0:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:      scf.yield %[[C0]], %[[N0]] : index, !llvm.ptr
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[N1:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:      scf.yield %[[C1]], %[[N1]] : index, !llvm.ptr
// CHECK:         call @apply(%[[F]]#0, %[[F]]#1, %{{.*}})
// No box is made, so no arena mark either.
// CHECK-NOT:     adj_rt_mark
// CHECK:         return
// PICK-POS: tensor<f64> 9
// PICK-NEG: tensor<f64> 2
adj.func @pick(%x: tensor<f64>) -> tensor<f64> {
  %zero = adj.constant dense<0.0> : tensor<f64>
  %c = adj.cmp gt, %x, %zero : tensor<f64>, tensor<f64>
  %f = adj.if %c : tensor<i1> -> (!adj.fn<(tensor<f64>) -> tensor<f64>>) {
    %sq = adj.func_ref @square : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.yield %sq : !adj.fn<(tensor<f64>) -> tensor<f64>>
  } else {
    %ng = adj.func_ref @negate : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.yield %ng : !adj.fn<(tensor<f64>) -> tensor<f64>>
  }
  %apply = adj.func_ref @apply : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>) -> tensor<f64>>
  %y = adj.call %apply(%f, %x) : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}

// affine(w, b)(x) = sum(w * x) + b.
adj.func private @affine(%w: tensor<2xf64>, %b: tensor<f64>, %x: tensor<f64>) -> tensor<f64> {
  %p = adj.mul %w, %x : tensor<2xf64>, tensor<f64>
  %s = adj.reduce_sum %p axes = [0] : tensor<2xf64>
  %y = adj.add %s, %b : tensor<f64>, tensor<f64>
  adj.return %y : tensor<f64>
}

// A closure boxes copies of its captures; the public function that made it
// releases the runtime's arena before returning.
// CHECK-LABEL: func.func @closures(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[W:[^:]*]]: tensor<2xf64>)
// CHECK:         %[[MARK:.*]] = call @adj_rt_mark() : () -> i64
// CHECK:         %[[BOX:.*]] = call @adj_rt_tuple_new(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         call @__adj_put_2xf64(%[[BOX]], %{{.*}}, %[[W]]) : (!llvm.ptr, i64, tensor<2xf64>) -> ()
// CHECK:         call @__adj_put_f64(%[[BOX]], %{{.*}}, %[[X]]) : (!llvm.ptr, i64, tensor<f64>) -> ()
// CHECK:         %[[TAG:.*]] = arith.constant 2 : index
// CHECK:         call @apply(%[[TAG]], %[[BOX]], %[[X]])
// CHECK:         call @adj_rt_release(%[[MARK]]) : (i64) -> ()
// CHECK-NEXT:    return
// 2 * 0.5 - 1 * 0.5 + 0.5 = 1; then 2 - 1 + 0.5 = 1.5.
// CLOSURES: tensor<f64> 1
// CLOSURES-NEXT: tensor<f64> 1.5
adj.func @closures(%x: tensor<f64>, %w: tensor<2xf64>) -> (tensor<f64>, tensor<f64>) {
  %g = adj.closure @affine(%w, %x) : (tensor<2xf64>, tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>
  %apply = adj.func_ref @apply : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>) -> tensor<f64>>
  %r1 = adj.call %apply(%g, %x) : !adj.fn<(!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>) -> tensor<f64>>
  // Through a tuple.
  %t = adj.tuple %g, %x : !adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>
  %g2 = adj.get %t[0] : !adj.tuple<!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>>
  %r2 = adj.call %g2(%r1) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %r1, %r2 : tensor<f64>, tensor<f64>
}

adj.func private @identity(%d: tensor<f64>) -> tensor<f64> {
  adj.return %d : tensor<f64>
}

// A backpropagator chain: each link captures the previous link, a value of
// its own type, and multiplies by i + 1.
adj.func private @chain_link(%prev: !adj.fn<(tensor<f64>) -> tensor<f64>>, %w: tensor<f64>, %d: tensor<f64>) -> tensor<f64> {
  %y = adj.call %prev(%d) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %z = adj.mul %y, %w : tensor<f64>, tensor<f64>
  adj.return %z : tensor<f64>
}

// The loop carries the function value as its tag and box.
// CHECK-LABEL: func.func @chain(
// CHECK:         %[[L:.*]]:2 = scf.for {{.*}} iter_args(%[[T:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) -> (index, !llvm.ptr)
// CHECK:           %[[NEW:.*]] = func.call @adj_rt_tuple_new(
// CHECK:           func.call @adj_rt_tuple_put_fn(%[[NEW]], %{{.*}}, %[[T]], %[[B]]) : (!llvm.ptr, i64, index, !llvm.ptr) -> ()
// CHECK:           scf.yield %{{.*}}, %[[NEW]] : index, !llvm.ptr
// CHECK:         scf.index_switch %[[L]]#0
// 0.5 * 5! = 60.
// CHAIN: tensor<f64> 60
adj.func @chain(%d: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %id = adj.func_ref @identity : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %k = adj.for %zero to %n step %one : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%id : !adj.fn<(tensor<f64>) -> tensor<f64>>) -> !adj.fn<(tensor<f64>) -> tensor<f64>> {
  ^bb0(%i: tensor<i64>, %prev: !adj.fn<(tensor<f64>) -> tensor<f64>>):
    %i1 = adj.add %i, %one : tensor<i64>, tensor<i64>
    %w = adj.cast %i1 : tensor<i64> to tensor<f64>
    %link = adj.closure @chain_link(%prev, %w) : (!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.yield %link : !adj.fn<(tensor<f64>) -> tensor<f64>>
  }
  %r = adj.call %k(%d) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %r : tensor<f64>
}

// A public function that returns a function value keeps what it made in
// the arena (no mark): the caller owns the value.
// CHECK-LABEL: func.func @make_scaler(
// CHECK-NOT:     adj_rt_mark
// CHECK:         return %{{.*}}, %{{.*}} : index, !llvm.ptr
adj.func @make_scaler(%w: tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>> {
  %id = adj.func_ref @identity : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %f = adj.closure @chain_link(%id, %w) : (!adj.fn<(tensor<f64>) -> tensor<f64>>, tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
}

// Environments: set, get (an absent key reads as zeros), add (key-wise,
// nested environments too), and grad_add / zeros_like of environments.
// CHECK-LABEL: func.func @envs(
// CHECK:         %[[E0:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[V1:.*]] = call @adj_rt_tuple_new(
// CHECK:         call @__adj_put_f64(%[[V1]],
// CHECK:         %[[E1:.*]] = call @adj_rt_env_set(%[[E0]], %{{.*}}, %[[V1]]) : (!llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
// CHECK:         call @adj_rt_env_add(
// CHECK:         %[[G:.*]] = call @adj_rt_env_get(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK:         call @__adj_get_f64(%[[G]], %{{.*}}) : (!llvm.ptr, i64) -> tensor<f64>
// x = 1.5, v = [2, -1]. Key 1 holds x in both environments: 3.
// ENVS: tensor<f64> 3
// Key 2: v.
// ENVS-NEXT: tensor<2xf64> [2, -1]
// Key 5 is absent: 0.
// ENVS-NEXT: tensor<f64> 0
// Key 3 holds the tuple (x, v): x + sum(v) = 2.5.
// ENVS-NEXT: tensor<f64> 2.5
// Key 4 holds an environment whose key 7 holds v * x, added twice by
// grad_add: [6, -3].
// ENVS-NEXT: tensor<2xf64> [6, -3]
// Key 6 holds i1 tensors, or-ed: [true, false, true].
// ENVS-NEXT: tensor<3xi1> [true, false, true]
// grad_add doubles key 1: 6; the zero of a function is the empty
// environment: 0.
// ENVS-NEXT: tensor<f64> 6
// ENVS-NEXT: tensor<f64> 0
adj.func @envs(%x: tensor<f64>, %v: tensor<2xf64>) -> (tensor<f64>, tensor<2xf64>, tensor<f64>, tensor<f64>, tensor<2xf64>, tensor<3xi1>, tensor<f64>, tensor<f64>) {
  %e0 = adj.env_new
  %e1 = adj.env_set %e0[1], %x : !adj.env, tensor<f64>
  %e2 = adj.env_set %e1[2], %v : !adj.env, tensor<2xf64>
  %m1 = adj.constant dense<[true, false, false]> : tensor<3xi1>
  %e2b = adj.env_set %e2[6], %m1 : !adj.env, tensor<3xi1>
  %t = adj.tuple %x, %v : tensor<f64>, tensor<2xf64>
  %vx = adj.mul %v, %x : tensor<2xf64>, tensor<f64>
  %inner = adj.env_set %e0[7], %vx : !adj.env, tensor<2xf64>
  %f1 = adj.env_set %e0[1], %x : !adj.env, tensor<f64>
  %f2 = adj.env_set %f1[3], %t : !adj.env, !adj.tuple<tensor<f64>, tensor<2xf64>>
  %f3 = adj.env_set %f2[4], %inner : !adj.env, !adj.env
  %m2 = adj.constant dense<[false, false, true]> : tensor<3xi1>
  %f4 = adj.env_set %f3[6], %m2 : !adj.env, tensor<3xi1>
  %sum = adj.env_add %e2b, %f4 : !adj.env, !adj.env
  %a = adj.env_get %sum[1] : !adj.env -> tensor<f64>
  %b = adj.env_get %sum[2] : !adj.env -> tensor<2xf64>
  %c = adj.env_get %sum[5] : !adj.env -> tensor<f64>
  %tt = adj.env_get %sum[3] : !adj.env -> !adj.tuple<tensor<f64>, tensor<2xf64>>
  %t0 = adj.get %tt[0] : !adj.tuple<tensor<f64>, tensor<2xf64>>
  %t1 = adj.get %tt[1] : !adj.tuple<tensor<f64>, tensor<2xf64>>
  %t1s = adj.reduce_sum %t1 axes = [0] : tensor<2xf64>
  %d = adj.add %t0, %t1s : tensor<f64>, tensor<f64>
  %g = adj.grad_add %sum, %sum : !adj.env, !adj.env
  %gin = adj.env_get %g[4] : !adj.env -> !adj.env
  %e = adj.env_get %gin[7] : !adj.env -> tensor<2xf64>
  %mask = adj.env_get %sum[6] : !adj.env -> tensor<3xi1>
  %g1 = adj.env_get %g[1] : !adj.env -> tensor<f64>
  %fn = adj.func_ref @identity : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %z = adj.zeros_like %fn : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %z1 = adj.env_get %z[1] : !adj.env -> tensor<f64>
  adj.return %a, %b, %c, %d, %e, %mask, %g1, %z1 : tensor<f64>, tensor<2xf64>, tensor<f64>, tensor<f64>, tensor<2xf64>, tensor<3xi1>, tensor<f64>, tensor<f64>
}

// EXEC: 9
// EXEC-NEXT: 2
// EXEC-NEXT: 1
// EXEC-NEXT: 1.5
// EXEC-NEXT: 60
// EXEC-NEXT: 3
// EXEC-NEXT: 2
// EXEC-NEXT: -1
// EXEC-NEXT: 0
// EXEC-NEXT: 2.5
// EXEC-NEXT: 6
// EXEC-NEXT: -3
// EXEC-NEXT: 1
// EXEC-NEXT: 0
// EXEC-NEXT: 1
// EXEC-NEXT: 6
// EXEC-NEXT: 0
// make_scaler(4)(2.5) = 10; its box (and the box of the closure it captures)
// stays in the arena until released: the public functions above released
// all they made.
// EXEC-NEXT: 10
// EXEC-NEXT: 1
// EXEC-NEXT: 0
func.func @main() {
  %three = arith.constant dense<3.0> : tensor<f64>
  %mtwo = arith.constant dense<-2.0> : tensor<f64>
  %pick = adj.func_ref @pick : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %p1 = adj.call %pick(%three) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  call @printScalar(%p1) : (tensor<f64>) -> ()
  %p2 = adj.call %pick(%mtwo) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  call @printScalar(%p2) : (tensor<f64>) -> ()

  %half = arith.constant dense<0.5> : tensor<f64>
  %w = arith.constant dense<[2.0, -1.0]> : tensor<2xf64>
  %closures = adj.func_ref @closures : !adj.fn<(tensor<f64>, tensor<2xf64>) -> (tensor<f64>, tensor<f64>)>
  %c:2 = adj.call %closures(%half, %w) : !adj.fn<(tensor<f64>, tensor<2xf64>) -> (tensor<f64>, tensor<f64>)>
  call @printScalar(%c#0) : (tensor<f64>) -> ()
  call @printScalar(%c#1) : (tensor<f64>) -> ()

  %five = arith.constant dense<5> : tensor<i64>
  %chain = adj.func_ref @chain : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %k = adj.call %chain(%half, %five) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  call @printScalar(%k) : (tensor<f64>) -> ()

  %x = arith.constant dense<1.5> : tensor<f64>
  %envs = adj.func_ref @envs : !adj.fn<(tensor<f64>, tensor<2xf64>) -> (tensor<f64>, tensor<2xf64>, tensor<f64>, tensor<f64>, tensor<2xf64>, tensor<3xi1>, tensor<f64>, tensor<f64>)>
  %e:8 = adj.call %envs(%x, %w) : !adj.fn<(tensor<f64>, tensor<2xf64>) -> (tensor<f64>, tensor<2xf64>, tensor<f64>, tensor<f64>, tensor<2xf64>, tensor<3xi1>, tensor<f64>, tensor<f64>)>
  call @printScalar(%e#0) : (tensor<f64>) -> ()
  call @printVector(%e#1) : (tensor<2xf64>) -> ()
  call @printScalar(%e#2) : (tensor<f64>) -> ()
  call @printScalar(%e#3) : (tensor<f64>) -> ()
  call @printVector(%e#4) : (tensor<2xf64>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b0 = tensor.extract %e#5[%c0] : tensor<3xi1>
  %b1 = tensor.extract %e#5[%c1] : tensor<3xi1>
  %b2 = tensor.extract %e#5[%c2] : tensor<3xi1>
  call @printBool(%b0) : (i1) -> ()
  call @printBool(%b1) : (i1) -> ()
  call @printBool(%b2) : (i1) -> ()
  call @printScalar(%e#6) : (tensor<f64>) -> ()
  call @printScalar(%e#7) : (tensor<f64>) -> ()

  %four = arith.constant dense<4.0> : tensor<f64>
  %twohalf = arith.constant dense<2.5> : tensor<f64>
  %make = adj.func_ref @make_scaler : !adj.fn<(tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>>
  %s = adj.call %make(%four) : !adj.fn<(tensor<f64>) -> !adj.fn<(tensor<f64>) -> tensor<f64>>>
  %y = adj.call %s(%twohalf) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  call @printScalar(%y) : (tensor<f64>) -> ()
  %live = call @adj_rt_live_objects() : () -> i64
  call @printI64(%live) : (i64) -> ()
  call @printNewline() : () -> ()
  call @adj_rt_release_all() : () -> ()
  %none = call @adj_rt_live_objects() : () -> i64
  call @printI64(%none) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @printScalar(%t: tensor<f64>) {
  %v = tensor.extract %t[] : tensor<f64>
  call @printF64(%v) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @printVector(%t: tensor<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %t[%c0] : tensor<2xf64>
  %b = tensor.extract %t[%c1] : tensor<2xf64>
  call @printF64(%a) : (f64) -> ()
  call @printNewline() : () -> ()
  call @printF64(%b) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @printBool(%b: i1) {
  %i = arith.extui %b : i1 to i64
  call @printI64(%i) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// From libmlir_c_runner_utils and the Adjoint runtime.
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printNewline()
func.func private @adj_rt_live_objects() -> i64
func.func private @adj_rt_release_all()
