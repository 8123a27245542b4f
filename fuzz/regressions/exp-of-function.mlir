adj.func @f(%x: !adj.fn<() -> ()>) -> tensor<f32> {
  %y = adj.exp %x : !adj.fn<() -> ()>
  adj.return %y : tensor<f32>
}
