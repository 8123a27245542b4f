adj.func @f(%x: tensor<9223372036854775807xf32>) {
  %r = adj.pad %x low = [1] high = [0] value = 0.0 : tensor<9223372036854775807xf32>
  adj.return
}
