// RUN: ir-run %s -f main --arg "[[1,2],[3,4]]" --arg 0.5 | FileCheck %s
// RUN: ir-run %s -f fact --arg 10 | FileCheck %s --check-prefix=FACT
// RUN: ir-run %s -f pair --arg "[true, false]" | FileCheck %s --check-prefix=PAIR

// CHECK: tensor<2x2xf32> {{\[\[}}1.5, 2.5], [3.5, 4.5]]
// CHECK-NEXT: tensor<f32> 12
adj.func @main(%x: tensor<2x2xf32>, %y: tensor<f32>) -> (tensor<2x2xf32>, tensor<f32>) {
  %s = adj.add %x, %y : tensor<2x2xf32>, tensor<f32>
  %r = adj.reduce_sum %s axes = [0, 1] : tensor<2x2xf32>
  adj.return %s, %r : tensor<2x2xf32>, tensor<f32>
}

// FACT: tensor<i64> 3628800
adj.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = adj.constant dense<1> : tensor<i64>
  %c = adj.cmp le, %n, %one : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<i64>) {
    adj.yield %one : tensor<i64>
  } else {
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %f = adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %r1 = adj.call %f(%m) : !adj.fn<(tensor<i64>) -> tensor<i64>>
    %p = adj.mul %n, %r1 : tensor<i64>, tensor<i64>
    adj.yield %p : tensor<i64>
  }
  adj.return %r : tensor<i64>
}

// PAIR: (tensor<2xi1> [true, false], <function @fact>)
// PAIR-NEXT: <closure at {{.*}}basic.mlir:34:8 with 1 captured values>
adj.func @pair(%b: tensor<2xi1>) -> (!adj.tuple<tensor<2xi1>, !adj.fn<(tensor<i64>) -> tensor<i64>>>, !adj.fn<() -> tensor<2xi1>>) {
  %f = adj.func_ref @fact : !adj.fn<(tensor<i64>) -> tensor<i64>>
  %t = adj.tuple %b, %f : tensor<2xi1>, !adj.fn<(tensor<i64>) -> tensor<i64>>
  %g = adj.lambda () -> tensor<2xi1> {
    adj.return %b : tensor<2xi1>
  }
  adj.return %t, %g : !adj.tuple<tensor<2xi1>, !adj.fn<(tensor<i64>) -> tensor<i64>>>, !adj.fn<() -> tensor<2xi1>>
}
