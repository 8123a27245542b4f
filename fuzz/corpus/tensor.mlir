adj.func @t(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {
  %t = adj.transpose %a perm = [1, 0] : tensor<2x3xf32>
  %s = adj.add %a, %b : tensor<2x3xf32>, tensor<3xf32>
  %m = adj.matmul %s, %t : tensor<2x3xf32>, tensor<3x2xf32>
  %r = adj.reduce_sum %a axes = [1] keepdims : tensor<2x3xf32>
  %sl = adj.slice %a start = [0, 1] limit = [2, 3] stride = [1, 2] : tensor<2x3xf32>
  %cc = adj.concat %a, %a axis = 0 : tensor<2x3xf32>, tensor<2x3xf32>
  %p = adj.pad %a low = [1, 0] high = [0, 2] value = 0.0 : tensor<2x3xf32>
  %g = adj.gather %cc[%i] axis = 0 : tensor<4x3xf32>, tensor<4xi64>
  %bc = adj.broadcast_to %b : tensor<3xf32> to tensor<4x3xf32>
  %rs = adj.reshape %a : tensor<2x3xf32> to tensor<6xf32>
  %ca = adj.cast %a : tensor<2x3xf32> to tensor<2x3xf16>
  %z = adj.scatter_add %bc[%i], %g axis = 0 : tensor<4x3xf32>, tensor<4xi64>, tensor<4x3xf32>
  adj.return %z : tensor<4x3xf32>
}
