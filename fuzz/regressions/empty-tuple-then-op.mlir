adj.func @f(%x: tensor<f32>) -> tensor<f32> {
  %e = adj.tuple()
  %y = adj.neg %x : tensor<f32>
  adj.return %y : tensor<f32>
}
