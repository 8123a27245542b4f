adj.func @f(%x: tensor<2xf32>) -> !adj.any {
  %y = "adj.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> !adj.any
  adj.return %y : !adj.any
}
