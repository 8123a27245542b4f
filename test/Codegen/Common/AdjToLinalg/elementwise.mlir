// Elementwise adj ops become linalg.generic with broadcasting indexing maps.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[COL0:.*]] = affine_map<(d0, d1) -> (d0, 0)>

// CHECK-LABEL: func.func @add_bias(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.addf
// CHECK: return
adj.func @add_bias(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %y = adj.add %x, %b : tensor<2x3xf32>, tensor<3xf32>
  adj.return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @size_one(
// CHECK: indexing_maps = [#[[ID2]], #[[COL0]], #[[ID2]]]
// CHECK: arith.divsi
adj.func @size_one(%x: tensor<2x3xi32>, %y: tensor<2x1xi32>) -> tensor<2x3xi32> {
  %z = adj.div %x, %y : tensor<2x3xi32>, tensor<2x1xi32>
  adj.return %z : tensor<2x3xi32>
}

// CHECK-LABEL: func.func private @helper(
// CHECK-NOT: llvm.emit_c_interface
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.powf
adj.func private @helper(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = adj.maximum %x, %y : tensor<4xf32>, tensor<4xf32>
  %b = adj.minimum %a, %y : tensor<4xf32>, tensor<4xf32>
  %c = adj.pow %b, %x : tensor<4xf32>, tensor<4xf32>
  adj.return %c : tensor<4xf32>
}

// CHECK-LABEL: func.func @caller(
// CHECK: %[[R:.*]] = call @helper(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]]
adj.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %f = adj.func_ref @helper : !adj.fn<(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>>
  %r = adj.call %f(%x, %x) : !adj.fn<(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>>
  adj.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @unary(
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.tanh
// CHECK: math.sqrt
// CHECK: math.rsqrt
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.erf
// CHECK: math.absf
// CHECK: arith.negf
adj.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = adj.exp %x : tensor<4xf32>
  %1 = adj.log %0 : tensor<4xf32>
  %2 = adj.tanh %1 : tensor<4xf32>
  %3 = adj.sqrt %2 : tensor<4xf32>
  %4 = adj.rsqrt %3 : tensor<4xf32>
  %5 = adj.sin %4 : tensor<4xf32>
  %6 = adj.cos %5 : tensor<4xf32>
  %7 = adj.erf %6 : tensor<4xf32>
  %8 = adj.abs %7 : tensor<4xf32>
  %9 = adj.neg %8 : tensor<4xf32>
  adj.return %9 : tensor<4xf32>
}

// CHECK-LABEL: func.func @inverse_trig_primitives(
// CHECK: math.log1p
// CHECK: math.expm1
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW]], #[[ID2]]]
// CHECK: math.atan2
adj.func @inverse_trig_primitives(%x: tensor<2x3xf64>, %y: tensor<3xf64>) -> tensor<2x3xf64> {
  %a = adj.log1p %x : tensor<2x3xf64>
  %b = adj.expm1 %a : tensor<2x3xf64>
  %c = adj.atan2 %b, %y : tensor<2x3xf64>, tensor<3xf64>
  adj.return %c : tensor<2x3xf64>
}

// sigmoid(x) = 1 / (1 + exp(-x)); relu(x) = max(x, 0).
// CHECK-LABEL: func.func @activations(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[N:.*]] = arith.negf %[[X]]
// CHECK: %[[EX:.*]] = math.exp %[[N]]
// CHECK: %[[D:.*]] = arith.addf %[[ONE]], %[[EX]]
// CHECK: arith.divf %[[ONE]], %[[D]]
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[NEG:.*]] = arith.cmpf olt, %{{.*}}, %[[Z]]
// CHECK: arith.select %[[NEG]], %[[Z]], %{{.*}}
adj.func @activations(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = adj.sigmoid %x : tensor<4xf32>
  %r = adj.relu %s : tensor<4xf32>
  adj.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @integers(
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.maxsi
// CHECK: math.absi
// CHECK: arith.cmpi sgt
// CHECK: arith.cmpi slt
// CHECK: arith.select
adj.func @integers(%x: tensor<3xi64>, %y: tensor<i64>) -> tensor<3xi64> {
  %a = adj.sub %x, %y : tensor<3xi64>, tensor<i64>
  %b = adj.mul %a, %a : tensor<3xi64>, tensor<3xi64>
  %c = adj.relu %b : tensor<3xi64>
  %d = adj.abs %c : tensor<3xi64>
  %e = adj.sign %d : tensor<3xi64>
  adj.return %e : tensor<3xi64>
}

// CHECK-LABEL: func.func @compare_select(
// CHECK: arith.cmpf olt
// CHECK: -> tensor<3xi1>
// CHECK: arith.cmpf une
// CHECK: ^bb0(%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.select %[[C]], %[[A]], %[[B]] : f32
adj.func @compare_select(%x: tensor<3xf32>, %y: tensor<f32>) -> tensor<3xf32> {
  %c = adj.cmp lt, %x, %y : tensor<3xf32>, tensor<f32>
  %n = adj.cmp ne, %x, %y : tensor<3xf32>, tensor<f32>
  %s = adj.select %c, %x, %y : tensor<3xi1>, tensor<3xf32>, tensor<f32>
  adj.return %s : tensor<3xf32>
}

// CHECK-LABEL: func.func @casts(
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.fptosi %{{.*}} : f64 to i64
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.cmpf une
// CHECK: arith.uitofp %{{.*}} : i1 to f32
adj.func @casts(%x: tensor<2xi32>) -> (tensor<2xi64>, tensor<2xf16>, tensor<2xf32>) {
  %f = adj.cast %x : tensor<2xi32> to tensor<2xf32>
  %d = adj.cast %f : tensor<2xf32> to tensor<2xf64>
  %i = adj.cast %d : tensor<2xf64> to tensor<2xi64>
  %h = adj.cast %f : tensor<2xf32> to tensor<2xf16>
  %b = adj.cast %f : tensor<2xf32> to tensor<2xi1>
  %g = adj.cast %b : tensor<2xi1> to tensor<2xf32>
  adj.return %i, %h, %g : tensor<2xi64>, tensor<2xf16>, tensor<2xf32>
}

// On i1, maximum is `or` and minimum `and` (true is 1, not -1), and
// sensitivities of i1 values combine with `or`, as in the interpreter.
// CHECK-LABEL: func.func @booleans(
// CHECK: arith.maxui %{{.*}} : i1
// CHECK: arith.minui %{{.*}} : i1
// CHECK: arith.ori %{{.*}} : i1
adj.func @booleans(%a: tensor<2xi1>, %b: tensor<2xi1>) -> (tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %max = adj.maximum %a, %b : tensor<2xi1>, tensor<2xi1>
  %min = adj.minimum %a, %b : tensor<2xi1>, tensor<2xi1>
  %sum = adj.grad_add %a, %b : tensor<2xi1>, tensor<2xi1>
  adj.return %max, %min, %sum : tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// f64 -> bf16 rounds through f32 rounded to odd: the odd neighbour replaces
// an even, inexact nearest f32, so the final f32 -> bf16 rounding is the
// correct one.
// CHECK-LABEL: func.func @cast_f64_bf16(
// CHECK: ^bb0(%[[R:.*]]: f64, %{{.*}}: bf16):
// CHECK: %[[NEAR:.*]] = arith.truncf %[[R]] : f64 to f32
// CHECK: %[[BACK:.*]] = arith.extf %[[NEAR]] : f32 to f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[NEAR]] : f32 to i32
// CHECK: %[[EXACT:.*]] = arith.cmpf oeq, %[[BACK]], %[[R]] : f64
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[R]], %[[R]] : f64
// CHECK: %[[EN:.*]] = arith.ori %[[EXACT]], %[[NAN]] : i1
// CHECK: %[[KEEP:.*]] = arith.ori %[[EN]], %{{.*}} : i1
// CHECK: %[[AWAY:.*]] = arith.cmpf ogt
// CHECK: %[[UP:.*]] = arith.addi %[[BITS]], %{{.*}} : i32
// CHECK: %[[DOWN:.*]] = arith.subi %[[BITS]], %{{.*}} : i32
// CHECK: %[[NB:.*]] = arith.select %[[AWAY]], %[[UP]], %[[DOWN]] : i32
// CHECK: %[[ODD:.*]] = arith.bitcast %[[NB]] : i32 to f32
// CHECK: %[[F:.*]] = arith.select %[[KEEP]], %[[NEAR]], %[[ODD]] : f32
// CHECK: %[[H:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK: linalg.yield %[[H]] : bf16
adj.func @cast_f64_bf16(%x: tensor<2xf64>) -> tensor<2xbf16> {
  %y = adj.cast %x : tensor<2xf64> to tensor<2xbf16>
  adj.return %y : tensor<2xbf16>
}
