adj.func @loops(%x: tensor<f32>, %n: tensor<i64>) -> tensor<f32> {
  %c = adj.cmp lt, %x, %x : tensor<f32>, tensor<f32>
  %a = adj.if %c : tensor<i1> -> (tensor<f32>) {
    adj.yield %x : tensor<f32>
  } else {
    %nx = adj.neg %x : tensor<f32>
    adj.yield %nx : tensor<f32>
  }
  %lb = adj.constant dense<0> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %b = adj.for %lb to %n step %st : tensor<i64>, tensor<i64>, tensor<i64> iter_args(%a : tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %v: tensor<f32>):
    %w = adj.mul %v, %v : tensor<f32>, tensor<f32>
    adj.yield %w : tensor<f32>
  }
  %r = adj.while (%b : tensor<f32>) -> tensor<f32> cond {
  ^bb0(%v: tensor<f32>):
    %k = adj.cmp gt, %v, %x : tensor<f32>, tensor<f32>
    adj.yield %k : tensor<i1>
  } do {
  ^bb0(%v: tensor<f32>):
    %h = adj.sqrt %v : tensor<f32>
    adj.yield %h : tensor<f32>
  }
  adj.return %r : tensor<f32>
}
