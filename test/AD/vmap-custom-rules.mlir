// RUN: ir-opt %s -adj-grad | FileCheck %s --check-prefix=IRVJP
// RUN: ir-opt %s -adj-grad | FileCheck %s --check-prefix=IRJVP
// RUN: ir-opt %s -adj-grad | FileCheck %s --check-prefix=IRCKPT
// RUN: ir-opt %s -adj-grad | ir-run - -f grad_loss_vjp --arg "[0,1,2]" | FileCheck %s --check-prefix=VJP
// RUN: ir-opt %s -adj-grad | ir-run - -f grad_loss_jvp --arg "[0,1,2]" | FileCheck %s --check-prefix=JVP
// RUN: ir-opt %s -adj-grad | ir-run - -f grad_loss_ckpt --arg "[0,1,2]" | FileCheck %s --check-prefix=CKPT

// vmap of a call of custom_vjp(f, fwd, bwd) is custom_vjp of the batched
// f, fwd and bwd, so that grad of the vmap still calls bwd: here bwd is
// 3 cos x, not sin's derivative.

// IRVJP-LABEL: adj.func private @g_vjp_vmap3_1(
// IRVJP-SAME:      %[[X:[^:]*]]: tensor<3xf64>) -> tensor<3xf64>
// IRVJP-DAG:     %[[F:.*]] = adj.func_ref @f_vjp_vmap3_1 : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
// IRVJP-DAG:     %[[FWD:.*]] = adj.func_ref @fwd_vmap3_1 : !adj.fn<(tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)>
// IRVJP-DAG:     %[[BWD:.*]] = adj.func_ref @bwd_vmap3_11 : !adj.fn<(tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>>
// IRVJP:         %[[G:.*]] = adj.custom_vjp %[[F]], %[[FWD]], %[[BWD]]
// IRVJP:         %[[Y:.*]] = adj.call %[[G]](%[[X]]) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
// IRVJP:         adj.return %[[Y]]
// IRVJP-LABEL: adj.func private @g_vjp_vmap3_1_fprop(
// IRVJP:         adj.func_ref @bwd_vmap3_11_fprop
// IRVJP-NOT:     adj.custom_vjp

// VJP: tensor<3xf64> [3, 1.62090691760{{[0-9]*}}, -1.24844050964{{[0-9]*}}]
adj.func private @f_vjp(%x: tensor<f64>) -> tensor<f64> {
  %y = adj.sin %x : tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func private @fwd(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %y = adj.sin %x : tensor<f64>
  %c = adj.cos %x : tensor<f64>
  adj.return %y, %c : tensor<f64>, tensor<f64>
}
adj.func private @bwd(%c: tensor<f64>, %d: tensor<f64>) -> tensor<f64> {
  %three = adj.constant dense<3.0> : tensor<f64>
  %s = adj.mul %d, %c : tensor<f64>, tensor<f64>
  %dx = adj.mul %s, %three : tensor<f64>, tensor<f64>
  adj.return %dx : tensor<f64>
}
adj.func private @g_vjp(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f_vjp : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %fwd = adj.func_ref @fwd : !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>
  %bwd = adj.func_ref @bwd : !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %g = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f64>) -> tensor<f64>>, !adj.fn<(tensor<f64>) -> (tensor<f64>, tensor<f64>)>, !adj.fn<(tensor<f64>, tensor<f64>) -> tensor<f64>>
  %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @loss_vjp(%xs: tensor<3xf64>) -> tensor<f64> {
  %g = adj.func_ref @g_vjp : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %v = adj.vmap %g in_axes = [0] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %r = adj.call %v(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  %s = adj.reduce_sum %r axes = [0] : tensor<3xf64>
  adj.return %s : tensor<f64>
}
adj.func @grad_loss_vjp(%xs: tensor<3xf64>) -> tensor<3xf64> {
  %l = adj.func_ref @loss_vjp : !adj.fn<(tensor<3xf64>) -> tensor<f64>>
  %g = adj.grad %l : !adj.fn<(tensor<3xf64>) -> tensor<f64>>
  %d = adj.call %g(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  adj.return %d : tensor<3xf64>
}

// custom_jvp of closures: the rule, in its uniform batched form (every
// argument batched), stays the rule of the batched function; reverse mode
// transposes it, so the gradient is the rule's 3 cos x.

// IRJVP-LABEL: adj.func @loss_jvp(
// IRJVP:         adj.lambda (%{{.*}}: tensor<3xf64>) -> tensor<3xf64> {
// IRJVP-NEXT:      %[[F:[0-9]+]] = adj.lambda (%[[A:[^:]*]]: tensor<3xf64>) -> tensor<3xf64> {
// IRJVP-NEXT:        adj.sin %[[A]] : tensor<3xf64>
// IRJVP:           %[[R:[0-9]+]] = adj.lambda (%{{.*}}: tensor<3xf64>, %{{.*}}: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
// IRJVP:           %[[G:.*]] = adj.custom_jvp %[[F]], %[[R]] : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>, !adj.fn<(tensor<3xf64>, tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)>
// IRJVP:           adj.call %[[G]](%{{.*}}) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>

// JVP: tensor<3xf64> [3, 1.62090691760{{[0-9]*}}, -1.24844050964{{[0-9]*}}]
adj.func @loss_jvp(%xs: tensor<3xf64>) -> tensor<f64> {
  %h = adj.lambda (%x: tensor<f64>) -> tensor<f64> {
    %f = adj.lambda (%a: tensor<f64>) -> tensor<f64> {
      %y = adj.sin %a : tensor<f64>
      adj.return %y : tensor<f64>
    }
    %rule = adj.lambda (%a: tensor<f64>, %t: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
      %three = adj.constant dense<3.0> : tensor<f64>
      %y = adj.sin %a : tensor<f64>
      %c = adj.cos %a : tensor<f64>
      %s = adj.mul %t, %c : tensor<f64>, tensor<f64>
      %ty = adj.mul %s, %three : tensor<f64>, tensor<f64>
      adj.return %y, %ty : tensor<f64>, tensor<f64>
    }
    %g = adj.custom_jvp %f, %rule : !adj.fn<(tensor<f64>) -> tensor<f64>>, !adj.fn<(tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)>
    %y = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
    adj.return %y : tensor<f64>
  }
  %v = adj.vmap %h in_axes = [0] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %r = adj.call %v(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  %s = adj.reduce_sum %r axes = [0] : tensor<3xf64>
  adj.return %s : tensor<f64>
}
adj.func @grad_loss_jvp(%xs: tensor<3xf64>) -> tensor<3xf64> {
  %l = adj.func_ref @loss_jvp : !adj.fn<(tensor<3xf64>) -> tensor<f64>>
  %g = adj.grad %l : !adj.fn<(tensor<3xf64>) -> tensor<f64>>
  %d = adj.call %g(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  adj.return %d : tensor<3xf64>
}

// vmap of checkpoint(f) is checkpoint(batched f): grad of the vmap still
// recomputes f's forward pass on barrier-protected batched arguments.
// d/dx sum(sin(sin x)) = cos(sin x) cos x.

// IRCKPT-LABEL: adj.func private @g_ckpt_vmap3_1(
// IRCKPT:         %[[F:.*]] = adj.func_ref @f_ckpt_vmap3_1 : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
// IRCKPT:         %[[C:.*]] = adj.checkpoint %[[F]] : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
// IRCKPT:         adj.call %[[C]](%{{.*}}) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
// IRCKPT-LABEL: adj.func private @g_ckpt_vmap3_1_fprop(
// IRCKPT:         adj.optimization_barrier %{{.*}} : tensor<3xf64>

// CKPT: tensor<3xf64> [1, 0.360039489{{[0-9]*}}, -0.255639119{{[0-9]*}}]
adj.func private @f_ckpt(%x: tensor<f64>) -> tensor<f64> {
  %s = adj.sin %x : tensor<f64>
  %y = adj.sin %s : tensor<f64>
  adj.return %y : tensor<f64>
}
adj.func private @g_ckpt(%x: tensor<f64>) -> tensor<f64> {
  %f = adj.func_ref @f_ckpt : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %c = adj.checkpoint %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %y = adj.call %c(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
  adj.return %y : tensor<f64>
}
adj.func @loss_ckpt(%xs: tensor<3xf64>) -> tensor<f64> {
  %g = adj.func_ref @g_ckpt : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %v = adj.vmap %g in_axes = [0] out_axes = [0] batch_size = 3 : !adj.fn<(tensor<f64>) -> tensor<f64>>
  %r = adj.call %v(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  %s = adj.reduce_sum %r axes = [0] : tensor<3xf64>
  adj.return %s : tensor<f64>
}
adj.func @grad_loss_ckpt(%xs: tensor<3xf64>) -> tensor<3xf64> {
  %l = adj.func_ref @loss_ckpt : !adj.fn<(tensor<3xf64>) -> tensor<f64>>
  %g = adj.grad %l : !adj.fn<(tensor<3xf64>) -> tensor<f64>>
  %d = adj.call %g(%xs) : !adj.fn<(tensor<3xf64>) -> tensor<3xf64>>
  adj.return %d : tensor<3xf64>
}
