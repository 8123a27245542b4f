adj.func @square(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func @apply(%x: tensor<f32>) -> !adj.tuple<tensor<f32>, tensor<f32>> {
  %f = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %c = adj.lambda (%a: tensor<f32>) -> tensor<f32> {
    %s = adj.add %a, %x : tensor<f32>, tensor<f32>
    adj.return %s : tensor<f32>
  }
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %z = adj.call %c(%y) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %t = adj.tuple %y, %z : tensor<f32>, tensor<f32>
  %u = adj.get %t[1] : !adj.tuple<tensor<f32>, tensor<f32>>
  %r = adj.tuple %u, %y : tensor<f32>, tensor<f32>
  adj.return %r : !adj.tuple<tensor<f32>, tensor<f32>>
}
