adj.func @f() {
  %l = "adj.lambda"() ({
  ^bb0(%a: !adj.any):
    adj.return
  }) : () -> !adj.fn<(tensor<f32>) -> ()>
  adj.return
}
