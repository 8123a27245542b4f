// RUN: ir-opt %s | ir-opt | FileCheck %s
// RUN: ir-opt %s --mlir-print-op-generic | ir-opt | FileCheck %s

// Round trip of the AD requests (with the function types they infer) and of
// the sensitivity and environment ops.

adj.func @f(%x: tensor<3xf32>, %y: tensor<f32>, %g: !adj.fn<() -> tensor<f32>>) -> tensor<f32> {
  %m = adj.mul %x, %y : tensor<3xf32>, tensor<f32>
  %s = adj.reduce_sum %m axes = [0] : tensor<3xf32>
  adj.return %s : tensor<f32>
}

// CHECK-LABEL: adj.func @requests
// CHECK:         %[[G:.*]] = adj.grad %[[F:.*]] : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
// CHECK-NEXT:    %[[G0:.*]] = adj.grad %[[F]] wrt = [2, 0] : !adj.fn
// CHECK-NEXT:    %[[GS:.*]] = adj.grad %[[F]] wrt = [1] custom_sens : !adj.fn
// CHECK-NEXT:    %[[VG:.*]] = adj.value_and_grad %[[F]] wrt = [0] : !adj.fn
// CHECK-NEXT:    %[[VGS:.*]] = adj.value_and_grad %[[F]] custom_sens : !adj.fn
// CHECK-NEXT:    %[[V:.*]] = adj.vjp %[[F]] wrt = [0, 1] : !adj.fn
// CHECK-NEXT:    %[[J:.*]] = adj.jvp %[[F]] wrt = [1] : !adj.fn
// CHECK-NEXT:    %[[JA:.*]] = adj.jvp %[[F]] : !adj.fn
// CHECK-NEXT:    %[[U:.*]] = adj.grad %arg0 wrt = [0] : !adj.any
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[G]], %[[G0]], %[[GS]], %[[VG]], %[[VGS]], %[[V]], %[[J]], %[[JA]], %[[U]] :
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (tensor<3xf32>, tensor<f32>, !adj.env)>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (!adj.env, tensor<3xf32>)>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<f32>) -> tensor<f32>>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (tensor<f32>, tensor<3xf32>)>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>, tensor<f32>, !adj.env)>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (tensor<f32>, !adj.fn<(tensor<f32>) -> (tensor<3xf32>, tensor<f32>)>)>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>,
// CHECK-SAME:      !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<3xf32>, tensor<f32>, !adj.env) -> (tensor<f32>, tensor<f32>)>,
// CHECK-SAME:      !adj.any
adj.func @requests(%u: !adj.any) -> !adj.any {
  %f = adj.func_ref @f : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %g = adj.grad %f : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %g0 = adj.grad %f wrt = [2, 0] : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %gs = adj.grad %f wrt = [1] custom_sens : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %vg = adj.value_and_grad %f wrt = [0] : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %vgs = adj.value_and_grad %f custom_sens : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %v = adj.vjp %f wrt = [0, 1] : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %j = adj.jvp %f wrt = [1] : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %ja = adj.jvp %f : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> tensor<f32>>
  %ug = adj.grad %u wrt = [0] : !adj.any
  %t = adj.tuple %g, %g0, %gs, %vg, %vgs, %v, %j, %ja, %ug : !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (tensor<3xf32>, tensor<f32>, !adj.env)>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (!adj.env, tensor<3xf32>)>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<f32>) -> tensor<f32>>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (tensor<f32>, tensor<3xf32>)>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>, tensor<f32>, !adj.env)>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>) -> (tensor<f32>, !adj.fn<(tensor<f32>) -> (tensor<3xf32>, tensor<f32>)>)>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>, !adj.fn<(tensor<3xf32>, tensor<f32>, !adj.fn<() -> tensor<f32>>, tensor<3xf32>, tensor<f32>, !adj.env) -> (tensor<f32>, tensor<f32>)>, !adj.any
  adj.return %u : !adj.any
}

// CHECK-LABEL: adj.func @sensitivities
// CHECK-NEXT:    %[[Z:.*]] = adj.zeros_like %arg0 : tensor<2xf32>
// CHECK-NEXT:    %[[ZT:.*]] = adj.zeros_like %arg1 : !adj.tuple<tensor<2xf32>, !adj.fn<() -> ()>>
// CHECK-NEXT:    %[[ZF:.*]] = adj.zeros_like %arg2 : !adj.fn<() -> ()>
// CHECK-NEXT:    %[[ZU:.*]] = adj.zeros_like %arg3 : !adj.any
// CHECK-NEXT:    %[[A:.*]] = adj.grad_add %[[Z]], %arg0 : tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:    %[[AT:.*]] = adj.grad_add %[[ZT]], %[[ZT]] : !adj.tuple<tensor<2xf32>, !adj.env>, !adj.tuple<tensor<2xf32>, !adj.env>
// CHECK-NEXT:    %[[AU:.*]] = adj.grad_add %arg3, %[[A]] : !adj.any, tensor<2xf32>
// CHECK-NEXT:    %[[E:.*]] = adj.env_new
// CHECK-NEXT:    %[[E1:.*]] = adj.env_set %[[E]][3], %[[A]] : !adj.env, tensor<2xf32>
// CHECK-NEXT:    %[[E2:.*]] = adj.env_add %[[E1]], %[[ZF]] : !adj.env, !adj.env
// CHECK-NEXT:    %[[E3:.*]] = adj.env_set %arg3[0], %arg3 : !adj.any, !adj.any
// CHECK-NEXT:    %[[E4:.*]] = adj.env_add %[[E2]], %arg3 : !adj.env, !adj.any
// CHECK-NEXT:    %[[G:.*]] = adj.env_get %[[E4]][3] : !adj.env -> tensor<2xf32>
// CHECK-NEXT:    %[[GU:.*]] = adj.env_get %arg3[1] : !adj.any -> !adj.any
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[ZU]], %[[AT]], %[[AU]], %[[E3]], %[[G]], %[[GU]] : !adj.any, !adj.tuple<tensor<2xf32>, !adj.env>, tensor<2xf32>, !adj.env, tensor<2xf32>, !adj.any
adj.func @sensitivities(%x: tensor<2xf32>, %t: !adj.tuple<tensor<2xf32>, !adj.fn<() -> ()>>, %f: !adj.fn<() -> ()>, %u: !adj.any) -> !adj.tuple<!adj.any, !adj.tuple<tensor<2xf32>, !adj.env>, tensor<2xf32>, !adj.env, tensor<2xf32>, !adj.any> {
  %z = adj.zeros_like %x : tensor<2xf32>
  %zt = adj.zeros_like %t : !adj.tuple<tensor<2xf32>, !adj.fn<() -> ()>>
  %zf = adj.zeros_like %f : !adj.fn<() -> ()>
  %zu = adj.zeros_like %u : !adj.any
  %a = adj.grad_add %z, %x : tensor<2xf32>, tensor<2xf32>
  %at = adj.grad_add %zt, %zt : !adj.tuple<tensor<2xf32>, !adj.env>, !adj.tuple<tensor<2xf32>, !adj.env>
  %au = adj.grad_add %u, %a : !adj.any, tensor<2xf32>
  %e = adj.env_new
  %e1 = adj.env_set %e[3], %a : !adj.env, tensor<2xf32>
  %e2 = adj.env_add %e1, %zf : !adj.env, !adj.env
  %e3 = adj.env_set %u[0], %u : !adj.any, !adj.any
  %e4 = adj.env_add %e2, %u : !adj.env, !adj.any
  %g = adj.env_get %e4[3] : !adj.env -> tensor<2xf32>
  %gu = adj.env_get %u[1] : !adj.any -> !adj.any
  %r = adj.tuple %zu, %at, %au, %e3, %g, %gu : !adj.any, !adj.tuple<tensor<2xf32>, !adj.env>, tensor<2xf32>, !adj.env, tensor<2xf32>, !adj.any
  adj.return %r : !adj.tuple<!adj.any, !adj.tuple<tensor<2xf32>, !adj.env>, tensor<2xf32>, !adj.env, tensor<2xf32>, !adj.any>
}
