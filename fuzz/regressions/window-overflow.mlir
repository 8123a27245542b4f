adj.func @f(%x: tensor<1x1x4x4xf32>) {
  %r = adj.max_pool2d %x kernel = [1, 1] stride = [1, 1] padding = [9223372036854775807, 9223372036854775807, 0, 0] : tensor<1x1x4x4xf32>
  adj.return
}
