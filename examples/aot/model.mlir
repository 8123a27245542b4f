// A small classifier with its weights baked in: probabilities =
// softmax(tanh(x @ w1 + b1) @ w2 + b2) over the two classes, for a batch of
// two inputs of three features. examples/aot compiles it ahead of time.
adj.func @classify(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w1 = adj.constant dense<[[0.2, -0.1, 0.4, 0.3], [0.5, 0.3, -0.2, 0.1], [-0.3, 0.2, 0.1, 0.6]]> : tensor<3x4xf32>
  %b1 = adj.constant dense<[0.1, -0.2, 0.05, 0.0]> : tensor<4xf32>
  %w2 = adj.constant dense<[[1.0, -1.0], [0.5, 0.5], [-0.5, 1.5], [2.0, -0.5]]> : tensor<4x2xf32>
  %b2 = adj.constant dense<[0.1, -0.1]> : tensor<2xf32>
  %z1 = adj.matmul %x, %w1 : tensor<2x3xf32>, tensor<3x4xf32>
  %a1 = adj.add %z1, %b1 : tensor<2x4xf32>, tensor<4xf32>
  %h = adj.tanh %a1 : tensor<2x4xf32>
  %z2 = adj.matmul %h, %w2 : tensor<2x4xf32>, tensor<4x2xf32>
  %logits = adj.add %z2, %b2 : tensor<2x2xf32>, tensor<2xf32>
  %m = adj.reduce_max %logits axes = [1] keepdims : tensor<2x2xf32>
  %shifted = adj.sub %logits, %m : tensor<2x2xf32>, tensor<2x1xf32>
  %e = adj.exp %shifted : tensor<2x2xf32>
  %s = adj.reduce_sum %e axes = [1] keepdims : tensor<2x2xf32>
  %p = adj.div %e, %s : tensor<2x2xf32>, tensor<2x1xf32>
  adj.return %p : tensor<2x2xf32>
}
