// RUN: ir-opt %s -split-input-file -adj-approximate-math | FileCheck %s
// RUN: ir-run %s -f accuracy --compile --no-cache | FileCheck %s --check-prefix=EXEC

// f32 transcendentals become arithmetic (fma, select, bit casts), scalar or
// vector; f64 and ops without an approximation (sqrt) stay.
// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: %[[D:.*]] = math.tanh %{{.*}} : f64
// CHECK: math.sqrt %{{.*}} : f32
// CHECK-NOT: math.sin
// CHECK: return
func.func @approximated(%x: f32, %y: f64, %v: vector<8xf32>) -> (f32, f64, vector<8xf32>) {
  %a = math.tanh %x : f32
  %b = math.exp %a : f32
  %c = math.log %b : f32
  %d = math.erf %c : f32
  %e = math.tanh %y : f64
  %f = math.sqrt %d : f32
  %g = math.sin %v : vector<8xf32>
  return %f, %e, %g : f32, f64, vector<8xf32>
}

// -----

// Compiled, each approximation stays within 2e-6 of the C library's f64
// result (relative, absolute below 1) over [-10, 10) (log: (0, 10]).
// EXEC: tensor<i1> true
adj.func @accuracy() -> tensor<i1> {
  %i = adj.iota axis = 0 : tensor<4000xf32>
  %c = adj.constant dense<2000.0> : tensor<f32>
  %s = adj.constant dense<0.005> : tensor<f32>
  %t = adj.sub %i, %c : tensor<4000xf32>, tensor<f32>
  %x = adj.mul %t, %s : tensor<4000xf32>, tensor<f32>
  %ax = adj.abs %x : tensor<4000xf32>
  %tiny = adj.constant dense<0.001> : tensor<f32>
  %px = adj.add %ax, %tiny : tensor<4000xf32>, tensor<f32>
  %x64 = adj.cast %x : tensor<4000xf32> to tensor<4000xf64>
  %px64 = adj.cast %px : tensor<4000xf32> to tensor<4000xf64>
  %e1 = adj.exp %x : tensor<4000xf32>
  %r1 = adj.exp %x64 : tensor<4000xf64>
  %e2 = adj.tanh %x : tensor<4000xf32>
  %r2 = adj.tanh %x64 : tensor<4000xf64>
  %e3 = adj.log %px : tensor<4000xf32>
  %r3 = adj.log %px64 : tensor<4000xf64>
  %e4 = adj.erf %x : tensor<4000xf32>
  %r4 = adj.erf %x64 : tensor<4000xf64>
  %e5 = adj.sin %x : tensor<4000xf32>
  %r5 = adj.sin %x64 : tensor<4000xf64>
  %e6 = adj.cos %x : tensor<4000xf32>
  %r6 = adj.cos %x64 : tensor<4000xf64>
  %e7 = adj.sigmoid %x : tensor<4000xf32>
  %r7 = adj.sigmoid %x64 : tensor<4000xf64>
  %f = adj.func_ref @error : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d1 = adj.call %f(%e1, %r1) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d2 = adj.call %f(%e2, %r2) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d3 = adj.call %f(%e3, %r3) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d4 = adj.call %f(%e4, %r4) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d5 = adj.call %f(%e5, %r5) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d6 = adj.call %f(%e6, %r6) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %d7 = adj.call %f(%e7, %r7) : !adj.fn<(tensor<4000xf32>, tensor<4000xf64>) -> tensor<f64>>
  %m1 = adj.maximum %d1, %d2 : tensor<f64>, tensor<f64>
  %m2 = adj.maximum %m1, %d3 : tensor<f64>, tensor<f64>
  %m3 = adj.maximum %m2, %d4 : tensor<f64>, tensor<f64>
  %m4 = adj.maximum %m3, %d5 : tensor<f64>, tensor<f64>
  %m5 = adj.maximum %m4, %d6 : tensor<f64>, tensor<f64>
  %m6 = adj.maximum %m5, %d7 : tensor<f64>, tensor<f64>
  %bound = adj.constant dense<2.0e-6> : tensor<f64>
  %ok = adj.cmp le, %m6, %bound : tensor<f64>, tensor<f64>
  adj.return %ok : tensor<i1>
}

/// max |a - r| / max(1, |r|), with a in f32 and r in f64.
adj.func private @error(%a: tensor<4000xf32>, %r: tensor<4000xf64>) -> tensor<f64> {
  %a64 = adj.cast %a : tensor<4000xf32> to tensor<4000xf64>
  %d = adj.sub %a64, %r : tensor<4000xf64>, tensor<4000xf64>
  %ad = adj.abs %d : tensor<4000xf64>
  %ar = adj.abs %r : tensor<4000xf64>
  %one = adj.constant dense<1.0> : tensor<f64>
  %den = adj.maximum %ar, %one : tensor<4000xf64>, tensor<f64>
  %q = adj.div %ad, %den : tensor<4000xf64>, tensor<4000xf64>
  %m = adj.reduce_max %q axes = [0] : tensor<4000xf64>
  adj.return %m : tensor<f64>
}
