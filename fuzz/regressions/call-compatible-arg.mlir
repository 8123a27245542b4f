adj.func @f(%g: !adj.fn<(tensor<f32>) -> tensor<f32>>, %u: !adj.any) -> tensor<f32> {
  %r = "adj.call"(%g, %u) : (!adj.fn<(tensor<f32>) -> tensor<f32>>, !adj.any) -> tensor<f32>
  adj.return %r : tensor<f32>
}
