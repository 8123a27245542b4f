// RUN: ir-opt %s -split-input-file -adj-approximate-math | FileCheck %s
// RUN: ir-run %s -f accuracy --compile --no-cache | FileCheck %s --check-prefix=EXEC

// f32 transcendentals become arithmetic (fma, select, bit casts), scalar or
// vector; ops without an approximation (sqrt) stay.
// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: math.sqrt %{{.*}} : f32
// CHECK-NOT: math.sin
// CHECK: return
func.func @approximated(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  %a = math.tanh %x : f32
  %b = math.exp %a : f32
  %c = math.log %b : f32
  %d = math.erf %c : f32
  %f = math.sqrt %d : f32
  %g = math.sin %v : vector<8xf32>
  return %f, %g : f32, vector<8xf32>
}

// -----

// f32 sin and cos reduce their argument in f64 (F32Trig.cpp: MLIR's f32
// reduction was off by up to 1e-2 at |x| ~ 1e6), then round once to f32.
// CHECK-LABEL: func.func @sines
// CHECK:         arith.extf %{{.*}} : vector<8xf32> to vector<8xf64>
// CHECK:         math.roundeven %{{.*}} : vector<8xf64>
// CHECK:         math.floor %{{.*}} : vector<8xf64>
// CHECK:         arith.truncf %{{.*}} : vector<8xf64> to vector<8xf32>
// CHECK:         arith.extf %{{.*}} : f32 to f64
// CHECK:         arith.truncf %{{.*}} : f64 to f32
// CHECK-NOT:     math.sin
// CHECK-NOT:     math.cos
// CHECK:         return
func.func @sines(%v: vector<8xf32>, %x: f32) -> (vector<8xf32>, f32) {
  %s = math.sin %v : vector<8xf32>
  %c = math.cos %x : f32
  return %s, %c : vector<8xf32>, f32
}

// -----

// atan2 goes through atan's polynomial on f32 (the NVIDIA kernels without
// libdevice have no other); f64 atan2 stays a library call.
// CHECK-LABEL: func.func @arctangents
// CHECK-NOT: math.atan2 %{{.*}} : f32
// CHECK-NOT: math.atan %{{.*}} : f32
// CHECK: math.atan2 %{{.*}} : f64
func.func @arctangents(%y: f32, %x: f32, %w: f64) -> (f32, f64) {
  %a = math.atan2 %y, %x : f32
  %b = math.atan2 %w, %w : f64
  return %a, %b : f32, f64
}

// -----

// Compiled, each f32 approximation stays within 2e-6 of the f64 result
// (relative, absolute below 1) over [-10, 10) (log: (0, 10]); f64 exp, tanh,
// log, erf are our approximations (within 1.5 ulp of the exact values,
// test/unit/Codegen), sin and cos the C library's.
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

// -----

// f64 exp: Cody-Waite reduction (n = roundeven(x log2e), ln2 in two parts),
// the Taylor polynomial of expm1 on the reduced argument, and the scaling by
// 2^n in two exact steps built from the exponent field; +inf above the
// overflow threshold and NaN kept by selects. Vectors the same, with splat
// constants.
// CHECK-LABEL: func.func @exp_f64
// CHECK-SAME: (%[[X:.*]]: f64, %[[V:.*]]: vector<4xf64>)
// CHECK-NOT: math.exp
// CHECK: math.roundeven
// CHECK: %[[N:.*]] = arith.fptosi %{{.*}} : f64 to i64
// CHECK: arith.shrsi %[[N]]
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : i64 to f64
// CHECK: arith.cmpf ogt, %[[X]], %{{.*}} : f64
// CHECK: arith.cmpf uno, %[[X]], %[[X]] : f64
// CHECK: math.roundeven %{{.*}} : vector<4xf64>
// CHECK: arith.fptosi %{{.*}} : vector<4xf64> to vector<4xi64>
// CHECK: arith.bitcast %{{.*}} : vector<4xi64> to vector<4xf64>
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_f64(%x: f64, %v: vector<4xf64>) -> (f64, vector<4xf64>) {
  %a = math.exp %x : f64
  %b = math.exp %v : vector<4xf64>
  return %a, %b : f64, vector<4xf64>
}

// -----

// f64 expm1, log, log1p, tanh (a rational function below 0.625, expm1
// above) and erf (one rational function with coefficients selected per
// element, and an exp) become arithmetic; f64 sin, cos and log2 keep their
// library calls.
// CHECK-LABEL: func.func @others_f64
// CHECK-NOT: math.expm1
// CHECK-NOT: math.log1p
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: math.log %
// CHECK: math.sin %{{.*}} : f64
// CHECK: math.cos %{{.*}} : f64
// CHECK: math.log2 %{{.*}} : f64
// CHECK: return
func.func @others_f64(%x: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64) {
  %a = math.expm1 %x : f64
  %b = math.log %x : f64
  %c = math.log1p %x : f64
  %d = math.tanh %x : f64
  %e = math.erf %x : f64
  %f = math.sin %x : f64
  %g = math.cos %x : f64
  %h = math.log2 %x : f64
  return %a, %b, %c, %d, %e, %f, %g, %h : f64, f64, f64, f64, f64, f64, f64, f64
}

// -----

// log: the exponent and fraction of x from its bits (subnormals scaled by
// 2^54 first), -inf at 0, NaN below it, +inf kept.
// CHECK-LABEL: func.func @log_f64
// CHECK-SAME: (%[[X:.*]]: f64)
// CHECK: arith.cmpf olt, %[[X]], %{{.*}} : f64
// CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : f64 to i64
// CHECK: arith.shrsi %[[B]]
// CHECK: arith.andi %[[B]]
// CHECK: arith.divf
// CHECK: arith.cmpf oeq, %[[X]]
// CHECK: arith.cmpf oeq, %[[X]]
// CHECK: arith.cmpf olt, %[[X]]
// CHECK: arith.cmpf uno, %[[X]], %[[X]]
// CHECK-NOT: math.log
func.func @log_f64(%x: f64) -> f64 {
  %a = math.log %x : f64
  return %a : f64
}

// -----

// Integer and f32 math is not this rewrite's: math.absi stays, math.sqrt on
// f64 (LLVM has an instruction) stays.
// CHECK-LABEL: func.func @untouched
// CHECK: math.absi
// CHECK: math.sqrt %{{.*}} : f64
func.func @untouched(%i: i64, %x: f64) -> (i64, f64) {
  %a = math.absi %i : i64
  %b = math.sqrt %x : f64
  return %a, %b : i64, f64
}
