// RUN: ir-opt %s -split-input-file -verify-diagnostics

// Diagnostics of the tensor primitives, one case per split.

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{shapes [2, 3] and [4] do not broadcast}}
  %r = adj.add %x, %f : tensor<2x3xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{operands must have one element type}}
  %r = adj.mul %f, %i : tensor<4xf32>, tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.pow: expected a floating-point tensor}}
  %r = adj.pow %i, %i : tensor<4xi64>, tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.atan2: expected a floating-point tensor}}
  %r = adj.atan2 %i, %i : tensor<4xi64>, tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.log1p: expected a floating-point tensor}}
  %r = adj.log1p %i : tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %c = adj.cmp eq, %f, %f : tensor<4xf32>, tensor<4xf32>
  // expected-error @+1 {{adj.div: i1 tensors are not supported}}
  %r = adj.div %c, %c : tensor<4xi1>, tensor<4xi1>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.exp: expected a floating-point tensor}}
  %r = adj.exp %i : tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %t = adj.tuple()
  // expected-error @+1 {{adj.exp: expected a ranked tensor or !adj.any, got '!adj.tuple<>'}}
  %r = adj.exp %t : !adj.tuple<>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.cmp: shapes [2, 3] and [4] do not broadcast}}
  %r = adj.cmp lt, %x, %f : tensor<2x3xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.select: condition must be i1}}
  %r = adj.select %f, %f, %f : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.cast' op changes the shape: [4] to [2, 2]}}
  %r = adj.cast %f : tensor<4xf32> to tensor<2x2xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.matmul: contracted dimensions differ: [2, 3] x [2, 3]}}
  %r = adj.matmul %x, %x : tensor<2x3xf32>, tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.matmul: operands need rank >= 2}}
  %r = adj.matmul %f, %x : tensor<4xf32>, tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %b = adj.fill 1.0 : tensor<2x2x3xf32>
  %c = adj.fill 1.0 : tensor<3x3x1xf32>
  // expected-error @+1 {{adj.matmul: batch dimensions of [2, 2, 3] and [3, 3, 1] do not broadcast}}
  %r = adj.matmul %b, %c : tensor<2x2x3xf32>, tensor<3x3x1xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.reduce_sum: axis 2 is out of range for rank 2}}
  %r = adj.reduce_sum %x axes = [2] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.reduce_max: axis 1 is repeated}}
  %r = adj.reduce_max %x axes = [1, 1] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.reduce_mean: expected a floating-point tensor}}
  %r = adj.reduce_mean %i axes = [0] : tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.broadcast_to' op cannot broadcast [2, 3] to [3, 3]}}
  %r = adj.broadcast_to %x : tensor<2x3xf32> to tensor<3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.broadcast_to' op changes the element type from 'f32' to 'f64'}}
  %r = adj.broadcast_to %x : tensor<2x3xf32> to tensor<2x3xf64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.reshape' op cannot reshape [2, 3] (6 elements) to [4] (4 elements)}}
  %r = adj.reshape %x : tensor<2x3xf32> to tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.reshape' op changes the element type}}
  %r = adj.reshape %x : tensor<2x3xf32> to tensor<6xi32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.transpose: [0, 0] is not a permutation of the dimensions of [2, 3]}}
  %r = adj.transpose %x perm = [0, 0] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.transpose: [0] is not a permutation}}
  %r = adj.transpose %x perm = [0] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.slice: dimension 1 of [2, 3]: [0:4:1] is not a valid slice}}
  %r = adj.slice %x start = [0, 0] limit = [2, 4] stride = [1, 1] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.slice: dimension 0 of [2, 3]: [0:2:0] is not a valid slice}}
  %r = adj.slice %x start = [0, 0] limit = [2, 3] stride = [0, 1] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.slice: dimension 0 of [2, 3]: [2:1:1] is not a valid slice}}
  %r = adj.slice %x start = [2, 0] limit = [1, 3] stride = [1, 1] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.slice: start, limit and stride need 2 entries}}
  %r = adj.slice %x start = [0] limit = [2] stride = [1] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.concat: cannot join [2, 3] and [4] along axis 0}}
  %r = adj.concat %x, %f axis = 0 : tensor<2x3xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.concat: axis 1 is out of range for rank 1}}
  %r = adj.concat %f, %f axis = 1 : tensor<4xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.concat: operands must have one element type}}
  %r = adj.concat %f, %i axis = 0 : tensor<4xf32>, tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.pad: padding must not be negative}}
  %r = adj.pad %x low = [0, -1] high = [0, 0] value = 0.0 : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.pad: low and high need 2 entries}}
  %r = adj.pad %x low = [0] high = [0] value = 0.0 : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.gather: indices must be i32 or i64}}
  %r = adj.gather %x[%f] axis = 0 : tensor<2x3xf32>, tensor<4xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.gather: axis 2 is out of range for rank 2}}
  %r = adj.gather %x[%i] axis = 2 : tensor<2x3xf32>, tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %up = adj.fill 0.0 : tensor<4x2xf32>
  // expected-error @+1 {{adj.scatter_add: updates must be [4, 3] of 'f32', got 'tensor<4x2xf32>'}}
  %r = adj.scatter_add %x[%i], %up axis = 0 : tensor<2x3xf32>, tensor<4xi64>, tensor<4x2xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<6x4x3x3xf32>
  // expected-error @+1 {{adj.conv2d: input [1, 4, 5, 5] and filter [6, 4, 3, 3] do not match with groups = 2}}
  %r = adj.conv2d %in, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 : tensor<1x4x5x5xf32>, tensor<6x4x3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<6x1x3x3xf32>
  // expected-error @+1 {{do not match with groups = 3}}
  %r = adj.conv2d %in, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 3 : tensor<1x4x5x5xf32>, tensor<6x1x3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<2x4x7x7xf32>
  // expected-error @+1 {{adj.conv2d: a 7x7 window does not fit in [1, 4, 5, 5] with padding [0, 0, 0, 0]}}
  %r = adj.conv2d %in, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x4x5x5xf32>, tensor<2x4x7x7xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<2x4x3x3xf32>
  // expected-error @+1 {{adj.conv2d: a 3x3 window does not fit}}
  %r = adj.conv2d %in, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [3, 1] groups = 1 : tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<2x4x3x3xf32>
  // expected-error @+1 {{adj.conv2d: stride and dilation must be positive}}
  %r = adj.conv2d %in, %w stride = [0, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<2x4x3x3xf32>
  // expected-error @+1 {{adj.conv2d: padding must not be negative}}
  %r = adj.conv2d %in, %w stride = [1, 1] padding = [0, -1, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<2x4x3x3xf32>
  // expected-error @+1 {{adj.conv2d: stride and dilation need 2 entries and padding 4}}
  %r = adj.conv2d %in, %w stride = [1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %w = adj.fill 0.0 : tensor<2x4x?x3xf32>
  // expected-error @+1 {{adj.conv2d: the filter size must be static}}
  %r = adj.conv2d %in, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<1x4x5x5xf32>, tensor<2x4x?x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.conv2d: input [N, C, H, W] and filter [O, C/groups, KH, KW] must have rank 4}}
  %r = adj.conv2d %x, %x stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : tensor<2x3xf32>, tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  // expected-error @+1 {{adj.max_pool2d: kernel needs 2 positive entries}}
  %r = adj.max_pool2d %in kernel = [0, 2] stride = [1, 1] padding = [0, 0, 0, 0] : tensor<1x4x5x5xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  // expected-error @+1 {{adj.avg_pool2d: kernel needs 2 positive entries}}
  %r = adj.avg_pool2d %in kernel = [2] stride = [1, 1] padding = [0, 0, 0, 0] : tensor<1x4x5x5xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  // expected-error @+1 {{adj.max_pool2d: a 6x2 window does not fit in [1, 4, 5, 5]}}
  %r = adj.max_pool2d %in kernel = [6, 2] stride = [1, 1] padding = [0, 0, 0, 0] : tensor<1x4x5x5xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{adj.avg_pool2d: input must be [N, C, H, W], got [2, 3]}}
  %r = adj.avg_pool2d %x kernel = [1, 1] stride = [1, 1] padding = [0, 0, 0, 0] : tensor<2x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{needs a ranked tensor of f64, f32, f16, bf16, i64, i32, i1, complex<f32> or complex<f64>}}
  %r = adj.constant dense<1> : tensor<2xi8>
  adj.return
}

// -----

// The generic form reaches the op's own type constraint.
adj.func @f() {
  // expected-error @+1 {{'adj.constant' op result #0 must be ranked tensor of}}
  %r = "adj.constant"() <{value = dense<1> : tensor<2xi8>}> : () -> tensor<2xi8>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.constant' op failed to verify that all of {value, result} have same type}}
  %r = "adj.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.fill' op must have a static shape, got 'tensor<?xf32>'}}
  %r = adj.fill 1.0 : tensor<?xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.iota' op must have a static shape}}
  %r = adj.iota axis = 0 : tensor<?xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.iota' op axis 1 is out of range for rank 1}}
  %r = adj.iota axis = 1 : tensor<4xi64>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %f: tensor<4xf32>, %u: !adj.any, %s: tensor<f32>) {
  // expected-error @+1 {{'adj.iota' op axis 0 is out of range for rank 0}}
  %r = adj.iota axis = 0 : tensor<i64>
  adj.return
}
