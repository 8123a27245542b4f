// RUN: ir-opt %s -split-input-file -adj-simplify-algebra | FileCheck %s
// The same values before and after:
// RUN: ir-opt %s -adj-simplify-algebra > %t.mlir
// RUN: ir-run %s -f main --arg "[1, -2]" --arg 5 | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %t.mlir -f main --arg "[1, -2]" --arg 5 | FileCheck %s --check-prefix=MAIN
// RUN: ir-run %s -f shapes --arg "[[[0,1,2,3],[4,5,6,7],[8,9,10,11]],[[12,13,14,15],[16,17,18,19],[20,21,22,23]]]" | FileCheck %s --check-prefix=SHAPES
// RUN: ir-run %t.mlir -f shapes --arg "[[[0,1,2,3],[4,5,6,7],[8,9,10,11]],[[12,13,14,15],[16,17,18,19],[20,21,22,23]]]" | FileCheck %s --check-prefix=SHAPES
// RUN: ir-run %s -f kept --arg "[1, -2]" | FileCheck %s --check-prefix=KEPT
// RUN: ir-run %t.mlir -f kept --arg "[1, -2]" | FileCheck %s --check-prefix=KEPT
// RUN: ir-run %s -f powers --arg "[3, 0.5]" | FileCheck %s --check-prefix=POWERS
// RUN: ir-run %t.mlir -f powers --arg "[3, 0.5]" | FileCheck %s --check-prefix=POWERS

// MAIN: tensor<2xf32> [0, 0]
// MAIN-NEXT: tensor<2xf32> [2, -4]
// MAIN-NEXT: (tensor<2xf32> [2, -4], tensor<f32> 10)
// MAIN-NEXT: tensor<2xf32> [5, 5]
// MAIN-NEXT: tensor<2xf32> [1, -2]
// MAIN-NEXT: tensor<2xf32> [1, -2]
// MAIN-NEXT: tensor<2xf32> [1, -2]
// MAIN-NEXT: tensor<2xf32> [5, 5]
// x * 0 for x = [1, -2] is [0, -0]; the pass gives [0, 0] (the documented
// signed-zero caveat).
// MAIN-NEXT: tensor<2xf32> [0, {{-?}}0]
// MAIN-NEXT: tensor<2xf32> [1, -2]
// MAIN-NEXT: tensor<2xf32> [1, -2]
// MAIN-NEXT: tensor<2xf32> [1, -2]
// MAIN-NEXT: tensor<3x2xf32> {{\[\[}}2, 2], [2, 2], [2, 2]]
// MAIN-NEXT: env{}
// CHECK-LABEL: adj.func @main(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2xf32>, %[[S:[^:]*]]: tensor<f32>)
// The body, line by line: nothing else is left.
// CHECK-NEXT:    %[[E:.*]] = adj.env_new
// CHECK-NEXT:    %[[Z:.*]] = adj.fill 0.000000e+00 : tensor<2xf32>
// CHECK-NEXT:    %[[XX:.*]] = adj.add %[[X]], %[[X]] : tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:    %[[XX2:.*]] = adj.add %[[X]], %[[X]] : tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:    %[[SS:.*]] = adj.add %[[S]], %[[S]] : tensor<f32>, tensor<f32>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[XX2]], %[[SS]]
// CHECK-NEXT:    %[[B:.*]] = adj.broadcast_to %[[S]] : tensor<f32> to tensor<2xf32>
// CHECK-NEXT:    %[[B2:.*]] = adj.broadcast_to %[[S]] : tensor<f32> to tensor<2xf32>
// CHECK-NEXT:    %[[Z2:.*]] = adj.fill 0.000000e+00 : tensor<2xf32>
// CHECK-NEXT:    %[[F:.*]] = adj.fill 2.000000e+00 : tensor<3x2xf32>
// CHECK-NEXT:    adj.return %[[Z]], %[[XX]], %[[T]], %[[B]], %[[X]], %[[X]], %[[X]], %[[B2]], %[[Z2]], %[[X]], %[[X]], %[[X]], %[[F]], %[[E]] :
adj.func @main(%x: tensor<2xf32>, %s: tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>, !adj.tuple<tensor<2xf32>, tensor<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, !adj.env) {
  %zeros = adj.zeros_like %x : tensor<2xf32>
  %sum = adj.grad_add %x, %x : tensor<2xf32>, tensor<2xf32>
  %t = adj.tuple %x, %s : tensor<2xf32>, tensor<f32>
  %tsum = adj.grad_add %t, %t : !adj.tuple<tensor<2xf32>, tensor<f32>>, !adj.tuple<tensor<2xf32>, tensor<f32>>
  // 0 + s broadcasts s.
  %zero2 = adj.fill 0.0 : tensor<2xf32>
  %a0 = adj.add %zero2, %s : tensor<2xf32>, tensor<f32>
  %czero = adj.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %a1 = adj.add %x, %czero : tensor<2xf32>, tensor<2xf32>
  %zero = adj.fill 0.0 : tensor<f32>
  %s1 = adj.sub %x, %zero : tensor<2xf32>, tensor<f32>
  %one = adj.fill 1.0 : tensor<f32>
  %m1 = adj.mul %x, %one : tensor<2xf32>, tensor<f32>
  %one2 = adj.constant dense<1.0> : tensor<2xf32>
  %m2 = adj.mul %one2, %s : tensor<2xf32>, tensor<f32>
  %m0 = adj.mul %x, %zero : tensor<2xf32>, tensor<f32>
  %d1 = adj.div %x, %one : tensor<2xf32>, tensor<f32>
  %n1 = adj.neg %x : tensor<2xf32>
  %n2 = adj.neg %n1 : tensor<2xf32>
  %c = adj.cast %x : tensor<2xf32> to tensor<2xf32>
  %two = adj.fill 2.0 : tensor<2xf32>
  %b = adj.broadcast_to %two : tensor<2xf32> to tensor<3x2xf32>
  %f = adj.func_ref @main : !adj.fn<(tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>, !adj.tuple<tensor<2xf32>, tensor<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, !adj.env)>
  %fz = adj.zeros_like %f : !adj.fn<(tensor<2xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>, !adj.tuple<tensor<2xf32>, tensor<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, !adj.env)>
  adj.return %zeros, %sum, %tsum, %a0, %a1, %s1, %m1, %m2, %m0, %d1, %n2, %c, %b, %fz : tensor<2xf32>, tensor<2xf32>, !adj.tuple<tensor<2xf32>, tensor<f32>>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2xf32>, !adj.env
}

// SHAPES: tensor<4x3x2xf32> {{\[\[\[}}0, 12], [4, 16], [8, 20]], {{\[\[}}1, 13], [5, 17], [9, 21]], {{\[\[}}2, 14], [6, 18], [10, 22]], {{\[\[}}3, 15], [7, 19], [11, 23]]]
// SHAPES-NEXT: tensor<2x3x4xf32>
// SHAPES-NEXT: tensor<6x4xf32> {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [16, 17, 18, 19], [20, 21, 22, 23]]
// SHAPES-NEXT: tensor<2x3x4xf32>
// CHECK-LABEL: adj.func @shapes(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.*]] = adj.transpose %[[X]] perm = [2, 1, 0] : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[R:.*]] = adj.reshape %[[X]] : tensor<2x3x4xf32> to tensor<6x4xf32>
// CHECK-NEXT:    adj.return %[[T]], %[[X]], %[[R]], %[[X]]
adj.func @shapes(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<2x3x4xf32>, tensor<6x4xf32>, tensor<2x3x4xf32>) {
  %t1 = adj.transpose %x perm = [1, 2, 0] : tensor<2x3x4xf32>
  %t2 = adj.transpose %t1 perm = [1, 0, 2] : tensor<3x4x2xf32>
  // The inverse permutation: the identity.
  %t3 = adj.transpose %t1 perm = [2, 0, 1] : tensor<3x4x2xf32>
  %r1 = adj.reshape %x : tensor<2x3x4xf32> to tensor<24xf32>
  %r2 = adj.reshape %r1 : tensor<24xf32> to tensor<6x4xf32>
  %r3 = adj.reshape %r2 : tensor<6x4xf32> to tensor<2x3x4xf32>
  adj.return %t2, %t3, %r2, %r3 : tensor<4x3x2xf32>, tensor<2x3x4xf32>, tensor<6x4xf32>, tensor<2x3x4xf32>
}

// -----

// Negative cases: not a zero or a one, a zero on the wrong side of a
// subtraction or a division, a one under addition, a constant that is not
// uniform, a lone permutation, and a zero of unknown shape.

// KEPT: tensor<2xf32> [1, 0]
// KEPT-NEXT: tensor<2xf32> [-1, 2]
// KEPT-NEXT: tensor<2xf32> [1, -0.5]
// KEPT-NEXT: tensor<2xf32> [2, -1]
// KEPT-NEXT: tensor<2xf32> [2, -4]
// CHECK-LABEL: adj.func @kept(
// CHECK:         adj.mul
// CHECK:         adj.sub
// CHECK:         adj.div
// CHECK:         adj.add
// CHECK:         adj.mul
adj.func @kept(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = adj.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %a = adj.mul %c, %c : tensor<2xf32>, tensor<2xf32>
  %zero = adj.fill 0.0 : tensor<f32>
  %s = adj.sub %zero, %x : tensor<f32>, tensor<2xf32>
  %one = adj.fill 1.0 : tensor<f32>
  %d = adj.div %one, %x : tensor<f32>, tensor<2xf32>
  %p = adj.add %x, %one : tensor<2xf32>, tensor<f32>
  %two = adj.fill 2.0 : tensor<f32>
  %m = adj.mul %x, %two : tensor<2xf32>, tensor<f32>
  adj.return %a, %s, %d, %p, %m : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: adj.func @lone(
// CHECK:         adj.transpose %{{.*}} perm = [1, 0]
// CHECK:         adj.zeros_like %{{.*}} : tensor<?xf32>
adj.func @lone(%m: tensor<2x3xf32>, %d: tensor<?xf32>) -> (tensor<3x2xf32>, tensor<?xf32>) {
  %t = adj.transpose %m perm = [1, 0] : tensor<2x3xf32>
  %z = adj.zeros_like %d : tensor<?xf32>
  adj.return %t, %z : tensor<3x2xf32>, tensor<?xf32>
}

// POWERS: tensor<2xf32> [3, 0.5]
// POWERS-NEXT: tensor<3x2xf32> {{\[\[}}3, 0.5], [3, 0.5], [3, 0.5]]
// POWERS-NEXT: tensor<2xf32> [9, 0.25]
// CHECK-LABEL: adj.func @powers(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2xf32>)
// CHECK-NEXT:    %[[B:.*]] = adj.broadcast_to %[[X]] : tensor<2xf32> to tensor<3x2xf32>
// CHECK-NEXT:    %[[TWO:.*]] = adj.fill 2.000000e+00 : tensor<f32>
// CHECK-NEXT:    %[[SQ:.*]] = adj.pow %[[X]], %[[TWO]]
// CHECK-NEXT:    adj.return %[[X]], %[[B]], %[[SQ]] :
adj.func @powers(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<2xf32>) {
  %one = adj.fill 1.0 : tensor<f32>
  %p = adj.pow %x, %one : tensor<2xf32>, tensor<f32>
  %ones = adj.fill 1.0 : tensor<3x2xf32>
  %q = adj.pow %x, %ones : tensor<2xf32>, tensor<3x2xf32>
  %two = adj.fill 2.0 : tensor<f32>
  %r = adj.pow %x, %two : tensor<2xf32>, tensor<f32>
  adj.return %p, %q, %r : tensor<2xf32>, tensor<3x2xf32>, tensor<2xf32>
}

// An accumulator plus a scatter into zeros is a scatter into the
// accumulator (either order); a scatter into a non-zero target, or one
// whose sum broadcasts, stays.
// CHECK-LABEL: adj.func @add_into_scatter(
// CHECK-SAME:      %[[A:[^:]*]]: tensor<4x2xf32>, %[[I:[^:]*]]: tensor<3xi64>, %[[U:[^:]*]]: tensor<3x2xf32>, %[[B:[^:]*]]: tensor<2xf32>)
// CHECK-NEXT:    %[[Z:.*]] = adj.fill 0.000000e+00 : tensor<4x2xf32>
// CHECK-NEXT:    %[[Z2:.*]] = adj.scatter_add %[[Z]][%[[I]]], %[[U]] axis = 0
// CHECK-NEXT:    %[[S1:.*]] = adj.scatter_add %[[A]][%[[I]]], %[[U]] axis = 0
// CHECK-NEXT:    %[[S2:.*]] = adj.scatter_add %[[A]][%[[I]]], %[[U]] axis = 0
// CHECK-NEXT:    %[[T:.*]] = adj.scatter_add %[[A]][%[[I]]], %[[U]] axis = 0
// CHECK-NEXT:    %[[S3:.*]] = adj.add %[[A]], %[[T]]
// CHECK-NEXT:    %[[S4:.*]] = adj.add %[[Z2]], %[[B]]
// CHECK-NEXT:    adj.return %[[S1]], %[[S2]], %[[S3]], %[[S4]] :
adj.func @add_into_scatter(%a: tensor<4x2xf32>, %i: tensor<3xi64>, %u: tensor<3x2xf32>, %b: tensor<2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %z = adj.fill 0.0 : tensor<4x2xf32>
  %s = adj.scatter_add %z[%i], %u axis = 0 : tensor<4x2xf32>, tensor<3xi64>, tensor<3x2xf32>
  %r1 = adj.add %a, %s : tensor<4x2xf32>, tensor<4x2xf32>
  %r2 = adj.add %s, %a : tensor<4x2xf32>, tensor<4x2xf32>
  %t = adj.scatter_add %a[%i], %u axis = 0 : tensor<4x2xf32>, tensor<3xi64>, tensor<3x2xf32>
  %r3 = adj.add %a, %t : tensor<4x2xf32>, tensor<4x2xf32>
  %r4 = adj.add %s, %b : tensor<4x2xf32>, tensor<2xf32>
  adj.return %r1, %r2, %r3, %r4 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}
