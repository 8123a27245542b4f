// RUN: ir-opt %s -split-input-file -adj-count-flops -o /dev/null | FileCheck %s
// The analysis leaves the IR unchanged.
// RUN: ir-opt %s -split-input-file -o %t.before
// RUN: ir-opt %s -split-input-file -adj-count-flops -o %t.after
// RUN: diff %t.before %t.after

// Elementwise: one per output element (the broadcast add makes 2x3);
// shape ops are free.
// CHECK-LABEL: @elementwise: 18 flops
adj.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x2xf32> {
  %s = adj.add %a, %b : tensor<2x3xf32>, tensor<3xf32>
  %e = adj.exp %s : tensor<2x3xf32>
  %t = adj.tanh %e : tensor<2x3xf32>
  %r = adj.transpose %t perm = [1, 0] : tensor<2x3xf32>
  adj.return %r : tensor<3x2xf32>
}

// log1p, expm1 and atan2 count as the other transcendentals: 3 * 6.
// CHECK-LABEL: @inverse_trig_primitives: 18 flops
adj.func @inverse_trig_primitives(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %l = adj.log1p %a : tensor<2x3xf32>
  %e = adj.expm1 %l : tensor<2x3xf32>
  %t = adj.atan2 %e, %b : tensor<2x3xf32>, tensor<3xf32>
  adj.return %t : tensor<2x3xf32>
}

// 2 * M * N * K * batch = 2 * 2 * 4 * 3 * 5.
// CHECK-LABEL: @matmul: 240 flops
adj.func @matmul(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %c = adj.matmul %a, %b : tensor<5x2x3xf32>, tensor<5x3x4xf32>
  adj.return %c : tensor<5x2x4xf32>
}

// 2 * N * O * OH * OW * (C / groups) * KH * KW = 2 * 2 * 6 * 6 * 6 * 2 * 3 * 3.
// CHECK-LABEL: @conv: 15552 flops
adj.func @conv(%x: tensor<2x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<2x6x6x6xf32> {
  %y = adj.conv2d %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 2 : tensor<2x4x8x8xf32>, tensor<6x2x3x3xf32>
  adj.return %y : tensor<2x6x6x6xf32>
}

// Reductions: one per input element (20 each), then a subtraction (4).
// CHECK-LABEL: @reduce: 44 flops
adj.func @reduce(%x: tensor<4x5xf32>) -> tensor<4xf32> {
  %s = adj.reduce_sum %x axes = [1] : tensor<4x5xf32>
  %m = adj.reduce_mean %x axes = [1] : tensor<4x5xf32>
  %r = adj.sub %s, %m : tensor<4xf32>, tensor<4xf32>
  adj.return %r : tensor<4xf32>
}

// Pooling: one per window element per output (8 outputs, 2x2 windows).
// CHECK-LABEL: @pool: 32 flops
adj.func @pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %y = adj.max_pool2d %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<1x2x4x4xf32>
  adj.return %y : tensor<1x2x2x2xf32>
}

// Gather, scatter_add and scatter: one per element moved (12 each).
// CHECK-LABEL: @gather: 36 flops
adj.func @gather(%t: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<10x4xf32> {
  %g = adj.gather %t[%i] axis = 0 : tensor<10x4xf32>, tensor<3xi64>
  %s = adj.scatter_add %t[%i], %g axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
  %m = adj.scatter max %s[%i], %g axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
  adj.return %m : tensor<10x4xf32>
}

// Known callees: two calls of @elementwise (2 * 18), one of a lambda (6),
// one through a tuple (18); a lambda that is never called costs nothing.
// CHECK-LABEL: @calls: 60 flops
adj.func @calls(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x2xf32> {
  %f = adj.func_ref @elementwise : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>>
  %r1 = adj.call %f(%a, %b) : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>>
  %r2 = adj.call %f(%a, %b) : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>>
  %sq = adj.lambda (%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %m = adj.mul %y, %a : tensor<2x3xf32>, tensor<2x3xf32>
    adj.return %m : tensor<2x3xf32>
  }
  %unused = adj.lambda (%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %m = adj.mul %y, %y : tensor<2x3xf32>, tensor<2x3xf32>
    adj.return %m : tensor<2x3xf32>
  }
  %r3 = adj.call %sq(%a) : !adj.fn<(tensor<2x3xf32>) -> tensor<2x3xf32>>
  %t = adj.tuple %f : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>>
  %g = adj.get %t[0] : !adj.tuple<!adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>>>
  %r4 = adj.call %g(%a, %b) : !adj.fn<(tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x2xf32>>
  adj.return %r1 : tensor<3x2xf32>
}

// adj.closure: the callee's cost (one mul of 4 elements).
// CHECK-LABEL: @scale: 4 flops
adj.func private @scale(%s: tensor<f32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %y = adj.mul %s, %x : tensor<f32>, tensor<4xf32>
  adj.return %y : tensor<4xf32>
}
// CHECK-LABEL: @closure: 4 flops
adj.func @closure(%s: tensor<f32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c = adj.closure @scale(%s) : (tensor<f32>) -> !adj.fn<(tensor<4xf32>) -> tensor<4xf32>>
  %y = adj.call %c(%x) : !adj.fn<(tensor<4xf32>) -> tensor<4xf32>>
  adj.return %y : tensor<4xf32>
}

// adj.if: the dearer branch (8 against 4).
// CHECK-LABEL: @cond: 8 flops
adj.func @cond(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = adj.if %c : tensor<i1> -> (tensor<4xf32>) {
    %a = adj.add %x, %x : tensor<4xf32>, tensor<4xf32>
    %b = adj.add %a, %x : tensor<4xf32>, tensor<4xf32>
    adj.yield %b : tensor<4xf32>
  } else {
    %e = adj.exp %x : tensor<4xf32>
    adj.yield %e : tensor<4xf32>
  }
  adj.return %r : tensor<4xf32>
}

// adj.for with constant bounds: i = 0, 3, 6, 9 runs the body (5) 4 times.
// CHECK-LABEL: @loop: 20 flops
adj.func @loop(%x: tensor<5xf32>) -> tensor<5xf32> {
  %lb = adj.constant dense<0> : tensor<i64>
  %ub = adj.constant dense<10> : tensor<i64>
  %st = adj.constant dense<3> : tensor<i64>
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<5xf32>) -> tensor<5xf32> {
  ^bb0(%i: tensor<i64>, %v: tensor<5xf32>):
    %y = adj.add %v, %x : tensor<5xf32>, tensor<5xf32>
    adj.yield %y : tensor<5xf32>
  }
  adj.return %r : tensor<5xf32>
}

// A loop that never runs costs nothing.
// CHECK-LABEL: @empty_loop: 0 flops
adj.func @empty_loop(%x: tensor<5xf32>) -> tensor<5xf32> {
  %lb = adj.constant dense<4> : tensor<i64>
  %ub = adj.constant dense<2> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<5xf32>) -> tensor<5xf32> {
  ^bb0(%i: tensor<i64>, %v: tensor<5xf32>):
    %y = adj.add %v, %x : tensor<5xf32>, tensor<5xf32>
    adj.yield %y : tensor<5xf32>
  }
  adj.return %r : tensor<5xf32>
}

// -----

// Recursion: the functions on the cycle, and their callers, are unknown.
// CHECK-LABEL: @pow: unknown (recursive)
adj.func @pow(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %zero = adj.constant dense<0> : tensor<i64>
  %c = adj.cmp eq, %n, %zero : tensor<i64>, tensor<i64>
  %r = adj.if %c : tensor<i1> -> (tensor<f64>) {
    %o = adj.constant dense<1.0> : tensor<f64>
    adj.yield %o : tensor<f64>
  } else {
    %one = adj.constant dense<1> : tensor<i64>
    %m = adj.sub %n, %one : tensor<i64>, tensor<i64>
    %pw = adj.func_ref @pow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %s = adj.call %pw(%b, %m) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
    %t = adj.mul %s, %b : tensor<f64>, tensor<f64>
    adj.yield %t : tensor<f64>
  }
  adj.return %r : tensor<f64>
}
// CHECK-LABEL: @uses_pow: unknown (calls recursive @pow)
adj.func @uses_pow(%b: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %pw = adj.func_ref @pow : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  %s = adj.call %pw(%b, %n) : !adj.fn<(tensor<f64>, tensor<i64>) -> tensor<f64>>
  adj.return %s : tensor<f64>
}
// Mutual recursion: both functions are on the cycle; @leaf is not.
// CHECK-LABEL: @ping: unknown (recursive)
adj.func @ping(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @pong : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}
// CHECK-LABEL: @pong: unknown (recursive)
adj.func @pong(%x: tensor<f32>) -> tensor<f32> {
  %l = adj.func_ref @leaf : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %z = adj.call %l(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %f = adj.func_ref @ping : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %y = adj.call %f(%z) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}
// CHECK-LABEL: @leaf: 1 flops
adj.func @leaf(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.neg %x : tensor<f32>
  adj.return %y : tensor<f32>
}

// -----

// Costs that depend on data.
// CHECK-LABEL: @unknown_callee: unknown (calls an unknown function value)
adj.func @unknown_callee(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %y : tensor<f32>
}
// CHECK-LABEL: @dynamic_loop: unknown (a loop without constant bounds)
adj.func @dynamic_loop(%n: tensor<i64>, %x: tensor<5xf32>) -> tensor<5xf32> {
  %lb = adj.constant dense<0> : tensor<i64>
  %st = adj.constant dense<1> : tensor<i64>
  %r = adj.for %lb to %n step %st : tensor<i64>, tensor<i64>, tensor<i64>
         iter_args(%x : tensor<5xf32>) -> tensor<5xf32> {
  ^bb0(%i: tensor<i64>, %v: tensor<5xf32>):
    %y = adj.add %v, %v : tensor<5xf32>, tensor<5xf32>
    adj.yield %y : tensor<5xf32>
  }
  adj.return %r : tensor<5xf32>
}
// CHECK-LABEL: @while: unknown (a while loop)
adj.func @while(%x: tensor<f32>) -> tensor<f32> {
  %ten = adj.constant dense<10.0> : tensor<f32>
  %r = adj.while (%x : tensor<f32>) -> tensor<f32> cond {
  ^bb0(%v: tensor<f32>):
    %c = adj.cmp lt, %v, %ten : tensor<f32>, tensor<f32>
    adj.yield %c : tensor<i1>
  } do {
  ^bb0(%v: tensor<f32>):
    %y = adj.add %v, %v : tensor<f32>, tensor<f32>
    adj.yield %y : tensor<f32>
  }
  adj.return %r : tensor<f32>
}
// CHECK-LABEL: @dynamic_shape: unknown (a shape is dynamic or untyped)
adj.func @dynamic_shape(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = adj.add %x, %x : tensor<?xf32>, tensor<?xf32>
  adj.return %y : tensor<?xf32>
}
// A function that calls one of unknown cost is unknown for the same reason.
// CHECK-LABEL: @calls_dynamic: unknown (a shape is dynamic or untyped)
adj.func @calls_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %f = adj.func_ref @dynamic_shape : !adj.fn<(tensor<?xf32>) -> tensor<?xf32>>
  %y = adj.call %f(%x) : !adj.fn<(tensor<?xf32>) -> tensor<?xf32>>
  adj.return %y : tensor<?xf32>
}
