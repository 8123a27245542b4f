// conv2d becomes a named linalg convolution on an input padded with zeros
// (tensor.pad, only as far as a window reaches); pooling becomes
// linalg.pooling_nchw_max/sum on an input padded with -inf/zeros, small max
// windows an elementwise maximum of strided slices.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// groups = 1 keeps the named conv_2d_nchw_fchw for -adj-cpu-linalg-to-kernels.
// Padding [top 1, bottom 2, left 0, right 1]: with stride 2 the last padded
// row is never read, so only one bottom row is added.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x5x6xf32>, %[[W:.*]]: tensor<4x3x3x2xf32>
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 0] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[Z]] : f32
// CHECK: } : tensor<2x3x5x6xf32> to tensor<2x3x7x7xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x4x3x5xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<2x4x3x5xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%[[P]], %[[W]] : tensor<2x3x7x7xf32>, tensor<4x3x3x2xf32>) outs(%[[F]] : tensor<2x4x3x5xf32>)
// CHECK: return %[[C]]
adj.func @conv(%x: tensor<2x3x5x6xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<2x4x3x5xf32> {
  %y = adj.conv2d %x, %w stride = [2, 1] padding = [1, 2, 0, 1] dilation = [1, 2] groups = 1 : tensor<2x3x5x6xf32>, tensor<4x3x3x2xf32>
  adj.return %y : tensor<2x4x3x5xf32>
}

// No padding, no tensor.pad.
// CHECK-LABEL: func.func @conv_no_padding(
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : tensor<1x3x5x5xf64>, tensor<2x3x3x3xf64>)
adj.func @conv_no_padding(%x: tensor<1x3x5x5xf64>, %w: tensor<2x3x3x3xf64>) -> tensor<1x2x3x3xf64> {
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x3x5x5xf64>, tensor<2x3x3x3xf64>
  adj.return %y : tensor<1x2x3x3xf64>
}

// Channels [C] become [groups, C / groups] and filters [O] become
// [groups, O / groups]: linalg.conv_2d_ngchw_gfchw, then the group and
// filter dimensions collapse back into O.
// CHECK-LABEL: func.func @conv_groups(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x4xf32>, %[[W:.*]]: tensor<6x2x2x2xf32>
// CHECK: %[[X5:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 4, 4] : tensor<1x4x4x4xf32> into tensor<1x2x2x4x4xf32>
// CHECK: %[[W5:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 2, 2] : tensor<6x2x2x2xf32> into tensor<2x3x2x2x2xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X5]], %[[W5]] : tensor<1x2x2x4x4xf32>, tensor<2x3x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3x3xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x3x3xf32> into tensor<1x6x3x3xf32>
// CHECK: return %[[R]]
adj.func @conv_groups(%x: tensor<1x4x4x4xf32>, %w: tensor<6x2x2x2xf32>) -> tensor<1x6x3x3xf32> {
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 : tensor<1x4x4x4xf32>, tensor<6x2x2x2xf32>
  adj.return %y : tensor<1x6x3x3xf32>
}

// f16 accumulates in f32 (the interpreter's compute type) and rounds once.
// CHECK-LABEL: func.func @conv_f16(
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x2x2xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %arg1 : tensor<1x1x3x3xf16>, tensor<1x1x2x2xf16>) outs(%[[F]] : tensor<1x1x2x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<1x1x2x2xf32>) outs(%{{.*}} : tensor<1x1x2x2xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
adj.func @conv_f16(%x: tensor<1x1x3x3xf16>, %w: tensor<1x1x2x2xf16>) -> tensor<1x1x2x2xf16> {
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x1x3x3xf16>, tensor<1x1x2x2xf16>
  adj.return %y : tensor<1x1x2x2xf16>
}

// Max pooling pads with -inf and, for a window of at most 16 elements, takes
// the maximum of the window elements: strided slices of the padded input
// (rows 2 apart here) read by one elementwise op.
// CHECK-LABEL: func.func @max_pool(
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 0] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[NEG]] : f32
// CHECK: %[[E0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 2, 3, 4] [1, 1, 2, 1] : tensor<1x2x7x5xf32> to tensor<1x2x3x4xf32>
// CHECK: %[[E1:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 1] [1, 2, 3, 4] [1, 1, 2, 1]
// CHECK: tensor.extract_slice %[[P]][0, 0, 1, 0]
// CHECK: tensor.extract_slice %[[P]][0, 0, 1, 1]
// CHECK: tensor.extract_slice %[[P]][0, 0, 2, 0]
// CHECK: %[[E5:.*]] = tensor.extract_slice %[[P]][0, 0, 2, 1] [1, 2, 3, 4] [1, 1, 2, 1]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[E0]], %[[E1]], %{{.*}}, %{{.*}}, %{{.*}}, %[[E5]] :
// CHECK-COUNT-5: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: return %[[R]]
adj.func @max_pool(%x: tensor<1x2x5x4xf32>) -> tensor<1x2x3x4xf32> {
  %y = adj.max_pool2d %x kernel = [3, 2] stride = [2, 1] padding = [1, 1, 0, 1] : tensor<1x2x5x4xf32>
  adj.return %y : tensor<1x2x3x4xf32>
}

// A larger window keeps linalg.pooling_nchw_max, starting from -inf; its
// second input only carries the window shape.
// CHECK-LABEL: func.func @max_pool_wide(
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK: %[[K:.*]] = tensor.empty() : tensor<5x4xf32>
// CHECK: %[[R:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>} ins(%arg0, %[[K]] : tensor<1x2x7x7xf32>, tensor<5x4xf32>) outs(%[[F]] : tensor<1x2x2x2xf32>)
// CHECK: return %[[R]]
adj.func @max_pool_wide(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x2x2xf32> {
  %y = adj.max_pool2d %x kernel = [5, 4] stride = [2, 3] padding = [0, 0, 0, 0] : tensor<1x2x7x7xf32>
  adj.return %y : tensor<1x2x2x2xf32>
}

// Average pooling sums over a zero-padded input (in f32 for bf16) and
// divides by the whole window, 2 x 3, padding included.
// CHECK-LABEL: func.func @avg_pool_bf16(
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 0, 1] high[0, 0, 0, 0]
// CHECK: tensor.yield %[[Z]] : bf16
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK: %[[S:.*]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<1x2x4x5xbf16>, tensor<2x3xbf16>) outs(%[[F]] : tensor<1x2x2x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x2xbf16>)
// CHECK: %[[AREA:.*]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[M:.*]] = arith.divf %{{.*}}, %[[AREA]] : f32
// CHECK: arith.truncf %[[M]] : f32 to bf16
adj.func @avg_pool_bf16(%x: tensor<1x2x4x4xbf16>) -> tensor<1x2x2x2xbf16> {
  %y = adj.avg_pool2d %x kernel = [2, 3] stride = [2, 2] padding = [0, 0, 1, 0] : tensor<1x2x4x4xbf16>
  adj.return %y : tensor<1x2x2x2xbf16>
}
