adj.func @f(%x: tensor<*xf32>) -> tensor<f32> {
  %y = adj.get %x[0] : tensor<*xf32>
  adj.return %y : tensor<f32>
}
