adj.func @f(%x: tensor<3xf32>, %y: tensor<f32>) -> tensor<f32> {
  %m = adj.mul %x, %y : tensor<3xf32>, tensor<f32>
  %s = adj.reduce_sum %m axes = [0] : tensor<3xf32>
  adj.return %s : tensor<f32>
}
adj.func @g(%x: tensor<3xf32>, %y: tensor<f32>, %u: !adj.any) -> !adj.any {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<f32>>
  %g = adj.grad %f wrt = [0] : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<f32>>
  %vg = adj.value_and_grad %f custom_sens : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<f32>>
  %v = adj.vjp %f : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<f32>>
  %j = adj.jvp %f wrt = [1] : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<f32>>
  %dx = adj.call %g(%x, %y) : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<3xf32>>
  %z = adj.zeros_like %f : !adj.fn<(tensor<3xf32>, tensor<f32>) -> tensor<f32>>
  %e = adj.env_new
  %e1 = adj.env_set %e[0], %dx : !adj.env, tensor<3xf32>
  %e2 = adj.env_add %e1, %z : !adj.env, !adj.env
  %d = adj.env_get %e2[0] : !adj.env -> tensor<3xf32>
  %a = adj.grad_add %d, %dx : tensor<3xf32>, tensor<3xf32>
  %w = adj.add %a, %u : tensor<3xf32>, !adj.any
  %r = adj.call %u(%w) : !adj.any (!adj.any) -> (!adj.any)
  adj.return %r : !adj.any
}
