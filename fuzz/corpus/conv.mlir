adj.func @c(%x: tensor<1x4x8x8xf32>, %w: tensor<8x2x3x3xf32>, %k: tensor<i32>) -> tensor<1x8x4x4xf32> {
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>
  %p = adj.max_pool2d %y kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<1x8x8x8xf32>
  %q = adj.avg_pool2d %y kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : tensor<1x8x8x8xf32>
  %ctr = adj.iota axis = 3 : tensor<1x8x4x4xi32>
  %h = adj.threefry2x32 %k, %k, %ctr, %ctr : tensor<i32>, tensor<i32>, tensor<1x8x4x4xi32>, tensor<1x8x4x4xi32>
  %lo = adj.cast %h : tensor<1x8x4x4xi64> to tensor<1x8x4x4xi32>
  %m = adj.shift_right_logical %lo, %ctr : tensor<1x8x4x4xi32>, tensor<1x8x4x4xi32>
  %n = adj.cast %m : tensor<1x8x4x4xi32> to tensor<1x8x4x4xf32>
  %u = adj.bitcast %lo : tensor<1x8x4x4xi32> to tensor<1x8x4x4xf32>
  %f = adj.fill 2.5 : tensor<1x8x4x4xf32>
  %io = adj.iota axis = 1 : tensor<1x8x4x4xf32>
  %c = adj.cmp ge, %n, %u : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
  %s = adj.select %c, %p, %q : tensor<1x8x4x4xi1>, tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
  adj.return %s : tensor<1x8x4x4xf32>
}
