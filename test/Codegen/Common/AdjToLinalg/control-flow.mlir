// adj.if, adj.for and adj.while become scf.if, scf.for and scf.while; the
// compiled code gives the interpreter's numbers.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s
// RUN: ir-opt %s -adj-lower-to-cpu \
// RUN: | %mlir_runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%adj_runtime_lib,%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN: | FileCheck %s --check-prefix=EXEC
// The same numbers from the reference interpreter:
// RUN: ir-run %s -f branch --arg 3 | FileCheck %s --check-prefix=IF-POS
// RUN: ir-run %s -f branch --arg -2 | FileCheck %s --check-prefix=IF-NEG
// RUN: ir-run %s -f count --arg 1.5 --arg 0 --arg 5 --arg 1 | FileCheck %s --check-prefix=FOR-A
// RUN: ir-run %s -f count --arg 1.5 --arg 2 --arg 11 --arg 3 | FileCheck %s --check-prefix=FOR-B
// RUN: ir-run %s -f count --arg 1.5 --arg 5 --arg 2 --arg 1 | FileCheck %s --check-prefix=FOR-C
// RUN: ir-run %s -f near_max | FileCheck %s --check-prefix=FOR-MAX
// RUN: ir-run %s -f grow --arg 1 --arg 100 | FileCheck %s --check-prefix=WHILE-A
// RUN: ir-run %s -f grow --arg 200 --arg 100 | FileCheck %s --check-prefix=WHILE-B

// CHECK-LABEL: func.func @branch(
// CHECK-SAME:      %[[X:.*]]: tensor<f64>) -> (tensor<f64>, tensor<f64>)
// CHECK:         %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK:         %[[R:.*]]:2 = scf.if %[[C]] -> (tensor<f64>, tensor<f64>) {
// CHECK:           scf.yield %{{.*}}, %[[X]] : tensor<f64>, tensor<f64>
// CHECK:         } else {
// CHECK:           scf.yield %[[X]], %{{.*}} : tensor<f64>, tensor<f64>
// CHECK:         }
// CHECK:         return %[[R]]#0, %[[R]]#1
// IF-POS: tensor<f64> 9
// IF-POS-NEXT: tensor<f64> 3
// IF-NEG: tensor<f64> -2
// IF-NEG-NEXT: tensor<f64> 2
adj.func @branch(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %zero = adj.constant dense<0.0> : tensor<f64>
  %c = adj.cmp gt, %x, %zero : tensor<f64>, tensor<f64>
  %r:2 = adj.if %c : tensor<i1> -> (tensor<f64>, tensor<f64>) {
    %sq = adj.mul %x, %x : tensor<f64>, tensor<f64>
    adj.yield %sq, %x : tensor<f64>, tensor<f64>
  } else {
    %n = adj.neg %x : tensor<f64>
    adj.yield %x, %n : tensor<f64>, tensor<f64>
  }
  adj.return %r#0, %r#1 : tensor<f64>, tensor<f64>
}

// The loop runs over the trip count, computed without overflow, and
// rebuilds the adj induction variable lb + k * step as a tensor<i64>.
// CHECK-LABEL: func.func @count(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<f64>, %[[LB:[^:]*]]: tensor<i64>, %[[UB:[^:]*]]: tensor<i64>, %[[ST:[^:]*]]: tensor<i64>)
// CHECK-DAG:     %[[L:.*]] = tensor.extract %[[LB]][]
// CHECK-DAG:     %[[U:.*]] = tensor.extract %[[UB]][]
// CHECK-DAG:     %[[S:.*]] = tensor.extract %[[ST]][]
// CHECK:         arith.divui
// CHECK:         %[[N:.*]] = arith.index_castui %{{.*}} : i64 to index
// CHECK:         %[[F:.*]]:3 = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[X]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<f64>, tensor<i64>, tensor<i64>) {
// CHECK:           %[[KI:.*]] = arith.index_castui %[[K]] : index to i64
// CHECK:           %[[M:.*]] = arith.muli %[[KI]], %[[S]] : i64
// CHECK:           %[[I:.*]] = arith.addi %[[L]], %[[M]] : i64
// CHECK:           tensor.from_elements %[[I]] : tensor<i64>
// CHECK:           scf.yield
// CHECK:         return %[[F]]#0, %[[F]]#1, %[[F]]#2
// i = 0, 1, 2, 3, 4: the body doubles x (1.5 * 2^5 = 48), counts the trips
// and sums i.
// FOR-A: tensor<f64> 48
// FOR-A-NEXT: tensor<i64> 5
// FOR-A-NEXT: tensor<i64> 10
// 2, 5, 8: three trips.
// FOR-B: tensor<f64> 12
// FOR-B-NEXT: tensor<i64> 3
// FOR-B-NEXT: tensor<i64> 15
// lb > ub: no trip, the initial values.
// FOR-C: tensor<f64> 1.5
// FOR-C-NEXT: tensor<i64> 0
// FOR-C-NEXT: tensor<i64> 0
adj.func @count(%x: tensor<f64>, %lb: tensor<i64>, %ub: tensor<i64>, %st: tensor<i64>) -> (tensor<f64>, tensor<i64>, tensor<i64>) {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r:3 = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x, %zero, %zero : tensor<f64>, tensor<i64>, tensor<i64>) -> tensor<f64>, tensor<i64>, tensor<i64> {
  ^bb0(%i: tensor<i64>, %a: tensor<f64>, %n: tensor<i64>, %s: tensor<i64>):
    %a2 = adj.add %a, %a : tensor<f64>, tensor<f64>
    %n2 = adj.add %n, %one : tensor<i64>, tensor<i64>
    %s2 = adj.add %s, %i : tensor<i64>, tensor<i64>
    adj.yield %a2, %n2, %s2 : tensor<f64>, tensor<i64>, tensor<i64>
  }
  adj.return %r#0, %r#1, %r#2 : tensor<f64>, tensor<i64>, tensor<i64>
}

// i + step would overflow after two trips: the interpreter stops there,
// and so does the trip count.
// FOR-MAX: tensor<i64> 2
adj.func @near_max() -> tensor<i64> {
  %lb = adj.constant dense<9223372036854775800> : tensor<i64>
  %ub = adj.constant dense<9223372036854775807> : tensor<i64>
  %st = adj.constant dense<5> : tensor<i64>
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%zero : tensor<i64>) -> tensor<i64> {
  ^bb0(%i: tensor<i64>, %n: tensor<i64>):
    %n2 = adj.add %n, %one : tensor<i64>, tensor<i64>
    adj.yield %n2 : tensor<i64>
  }
  adj.return %r : tensor<i64>
}

// The condition region ends in scf.condition, which forwards the carried
// values to the body.
// CHECK-LABEL: func.func @grow(
// CHECK:         %[[W:.*]]:2 = scf.while (%[[A:.*]] = %{{.*}}, %[[B:.*]] = %{{.*}}) : (tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<i64>) {
// CHECK:           %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK:           scf.condition(%[[C]]) %[[A]], %[[B]] : tensor<f64>, tensor<i64>
// CHECK:         } do {
// CHECK:         ^bb0(%{{.*}}: tensor<f64>, %{{.*}}: tensor<i64>):
// CHECK:           scf.yield
// CHECK:         }
// CHECK:         return %[[W]]#0, %[[W]]#1
// x = 2x + 1 while x < 100: 1, 3, 7, 15, 31, 63, 127.
// WHILE-A: tensor<f64> 127
// WHILE-A-NEXT: tensor<i64> 6
// WHILE-B: tensor<f64> 200
// WHILE-B-NEXT: tensor<i64> 0
adj.func @grow(%x: tensor<f64>, %limit: tensor<f64>) -> (tensor<f64>, tensor<i64>) {
  %zero = adj.constant dense<0> : tensor<i64>
  %one = adj.constant dense<1> : tensor<i64>
  %onef = adj.constant dense<1.0> : tensor<f64>
  %r:2 = adj.while (%x, %zero : tensor<f64>, tensor<i64>) -> tensor<f64>, tensor<i64> cond {
  ^bb0(%a: tensor<f64>, %n: tensor<i64>):
    %c = adj.cmp lt, %a, %limit : tensor<f64>, tensor<f64>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<f64>, %n: tensor<i64>):
    %d = adj.add %a, %a : tensor<f64>, tensor<f64>
    %a2 = adj.add %d, %onef : tensor<f64>, tensor<f64>
    %n2 = adj.add %n, %one : tensor<i64>, tensor<i64>
    adj.yield %a2, %n2 : tensor<f64>, tensor<i64>
  }
  adj.return %r#0, %r#1 : tensor<f64>, tensor<i64>
}

// The driver prints what the interpreter lines above print.
// EXEC: 9
// EXEC-NEXT: 3
// EXEC-NEXT: -2
// EXEC-NEXT: 2
// EXEC-NEXT: 48
// EXEC-NEXT: 5
// EXEC-NEXT: 10
// EXEC-NEXT: 12
// EXEC-NEXT: 3
// EXEC-NEXT: 15
// EXEC-NEXT: 1.5
// EXEC-NEXT: 0
// EXEC-NEXT: 0
// EXEC-NEXT: 2
// EXEC-NEXT: 127
// EXEC-NEXT: 6
// EXEC-NEXT: 200
// EXEC-NEXT: 0
// A step of 0 (an error in the interpreter) runs no trip.
// EXEC-NEXT: 1.5
// EXEC-NEXT: 0
func.func @main() {
  %branch = adj.func_ref @branch : !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %p = arith.constant dense<3.0> : tensor<f64>
  %m = arith.constant dense<-2.0> : tensor<f64>
  %b1:2 = adj.call %branch(%p) : !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  call @printScalarF64(%b1#0) : (tensor<f64>) -> ()
  call @printScalarF64(%b1#1) : (tensor<f64>) -> ()
  %b2:2 = adj.call %branch(%m) : !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  call @printScalarF64(%b2#0) : (tensor<f64>) -> ()
  call @printScalarF64(%b2#1) : (tensor<f64>) -> ()

  %x = arith.constant dense<1.5> : tensor<f64>
  %c0 = arith.constant dense<0> : tensor<i64>
  %c1 = arith.constant dense<1> : tensor<i64>
  %c2 = arith.constant dense<2> : tensor<i64>
  %c3 = arith.constant dense<3> : tensor<i64>
  %c5 = arith.constant dense<5> : tensor<i64>
  %c11 = arith.constant dense<11> : tensor<i64>
  func.call @runCount(%x, %c0, %c5, %c1) : (tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> ()
  func.call @runCount(%x, %c2, %c11, %c3) : (tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> ()
  func.call @runCount(%x, %c5, %c2, %c1) : (tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> ()

  %nm = adj.func_ref @near_max : !adj.fn<() -> tensor<i64>>
  %t = adj.call %nm() : !adj.fn<() -> tensor<i64>>
  call @printScalarI64(%t) : (tensor<i64>) -> ()

  %grow = adj.func_ref @grow : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<i64>)>
  %one = arith.constant dense<1.0> : tensor<f64>
  %hundred = arith.constant dense<100.0> : tensor<f64>
  %big = arith.constant dense<200.0> : tensor<f64>
  %g1:2 = adj.call %grow(%one, %hundred) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<i64>)>
  call @printScalarF64(%g1#0) : (tensor<f64>) -> ()
  call @printScalarI64(%g1#1) : (tensor<i64>) -> ()
  %g2:2 = adj.call %grow(%big, %hundred) : !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<i64>)>
  call @printScalarF64(%g2#0) : (tensor<f64>) -> ()
  call @printScalarI64(%g2#1) : (tensor<i64>) -> ()

  %cneg = arith.constant dense<0> : tensor<i64>
  %c9 = arith.constant dense<9> : tensor<i64>
  %count = adj.func_ref @count : !adj.fn<(tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<f64>, tensor<i64>, tensor<i64>)>
  %z:3 = adj.call %count(%x, %c0, %c9, %cneg) : !adj.fn<(tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<f64>, tensor<i64>, tensor<i64>)>
  call @printScalarF64(%z#0) : (tensor<f64>) -> ()
  call @printScalarI64(%z#1) : (tensor<i64>) -> ()
  return
}

func.func @runCount(%x: tensor<f64>, %lb: tensor<i64>, %ub: tensor<i64>, %st: tensor<i64>) {
  %count = adj.func_ref @count : !adj.fn<(tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<f64>, tensor<i64>, tensor<i64>)>
  %r:3 = adj.call %count(%x, %lb, %ub, %st) : !adj.fn<(tensor<f64>, tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<f64>, tensor<i64>, tensor<i64>)>
  call @printScalarF64(%r#0) : (tensor<f64>) -> ()
  call @printScalarI64(%r#1) : (tensor<i64>) -> ()
  call @printScalarI64(%r#2) : (tensor<i64>) -> ()
  return
}

func.func @printScalarF64(%t: tensor<f64>) {
  %v = tensor.extract %t[] : tensor<f64>
  call @printF64(%v) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @printScalarI64(%t: tensor<i64>) {
  %v = tensor.extract %t[] : tensor<i64>
  call @printI64(%v) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

// From libmlir_c_runner_utils.
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printNewline()
