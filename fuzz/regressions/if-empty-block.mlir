adj.func @f(%x: tensor<i1>) -> tensor<f32> {
  %r = adj.if %x : tensor<i1> -> (tensor<f32>) {
  ^bb0:
  } else {
  ^bb0:
  }
  adj.return %r : tensor<f32>
}
