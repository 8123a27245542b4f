// iota and the random ops become linalg.generic ops without data inputs that
// compute each element from linalg.index. The random bodies follow the op
// description (splitmix64 in i64, the formulas in f64, one rounding at the
// end); run-creation.mlir checks that the numbers are the interpreter's.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR2:.*]] = affine_map<(d0, d1) -> ()>

// CHECK-LABEL: func.func @iota_f32(
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<2x3xf32>)
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[I64]] : i64 to f32
// CHECK: linalg.yield %[[F]] : f32
adj.func @iota_f32() -> tensor<2x3xf32> {
  %y = adj.iota axis = 1 : tensor<2x3xf32>
  adj.return %y : tensor<2x3xf32>
}

// i1 is "index != 0".
// CHECK-LABEL: func.func @iota_i1(
// CHECK: %[[I64:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[B:.*]] = arith.cmpi ne, %[[I64]], %[[Z]] : i64
// CHECK: linalg.yield %[[B]] : i1
adj.func @iota_i1() -> tensor<3xi1> {
  %y = adj.iota axis = 0 : tensor<3xi1>
  adj.return %y : tensor<3xi1>
}

// CHECK-LABEL: func.func @iota_i32(
// CHECK: %[[T:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: linalg.yield %[[T]] : i32
adj.func @iota_i32() -> tensor<3xi32> {
  %y = adj.iota axis = 0 : tensor<3xi32>
  adj.return %y : tensor<3xi32>
}

// bf16 goes through f32, as the interpreter converts integers.
// CHECK-LABEL: func.func @iota_bf16(
// CHECK: %[[F:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: %[[H:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK: linalg.yield %[[H]] : bf16
adj.func @iota_bf16() -> tensor<3xbf16> {
  %y = adj.iota axis = 0 : tensor<3xbf16>
  adj.return %y : tensor<3xbf16>
}

// Element (i, j) is number 5 i + j: low + (high - low) * u(5 i + j) with
// u(k) = (splitmix64(seed * golden + k) >> 11) * 2^-53.
// CHECK-LABEL: func.func @random_uniform(
// CHECK-SAME: %[[SEED:.*]]: tensor<i64>
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR2]], #[[ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[SEED]] : tensor<i64>) outs(%{{.*}} : tensor<4x5xf64>)
// CHECK: ^bb0(%[[S:.*]]: i64, %{{.*}}: f64):
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[C5]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK: %[[K:.*]] = arith.index_cast %[[LIN]] : index to i64
// CHECK: %[[GOLDEN:.*]] = arith.constant -7046029254386353131 : i64
// CHECK: %[[Z0:.*]] = arith.muli %[[S]], %[[GOLDEN]] : i64
// CHECK: %[[Z1:.*]] = arith.addi %[[Z0]], %[[K]] : i64
// CHECK: %[[Z2:.*]] = arith.addi %[[Z1]], %[[GOLDEN]] : i64
// CHECK: arith.constant 30 : i64
// CHECK: arith.shrui %[[Z2]]
// CHECK: arith.xori
// CHECK: arith.constant -4658895280553007687 : i64
// CHECK: arith.constant 27 : i64
// CHECK: arith.constant -7723592293110705685 : i64
// CHECK: arith.constant 31 : i64
// CHECK: %[[BITS:.*]] = arith.xori
// CHECK: %[[C11:.*]] = arith.constant 11 : i64
// CHECK: %[[TOP:.*]] = arith.shrui %[[BITS]], %[[C11]] : i64
// CHECK: %[[TOPF:.*]] = arith.uitofp %[[TOP]] : i64 to f64
// CHECK: %[[ULP:.*]] = arith.constant 1.1102230246251565E-16 : f64
// CHECK: %[[U:.*]] = arith.mulf %[[TOPF]], %[[ULP]] : f64
// CHECK: %[[RANGE:.*]] = arith.constant 4.000000e+00 : f64
// CHECK: %[[SCALED:.*]] = arith.mulf %[[RANGE]], %[[U]] : f64
// CHECK: %[[LOW:.*]] = arith.constant -1.000000e+00 : f64
// CHECK: %[[R:.*]] = arith.addf %[[LOW]], %[[SCALED]] : f64
// CHECK: linalg.yield %[[R]] : f64
adj.func @random_uniform(%s: tensor<i64>) -> tensor<4x5xf64> {
  %y = adj.random_uniform %s low = -1.0 high = 3.0 : tensor<i64> to tensor<4x5xf64>
  adj.return %y : tensor<4x5xf64>
}

// Box-Muller from u(2i) and u(2i + 1), rounded once to f32.
// CHECK-LABEL: func.func @random_normal(
// CHECK: %[[K:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[C2:.*]] = arith.constant 2 : i64
// CHECK: %[[K0:.*]] = arith.muli %[[K]], %[[C2]] : i64
// CHECK: %[[K1:.*]] = arith.addi %[[K0]], %{{.*}} : i64
// CHECK: arith.addi %{{.*}}, %[[K0]] : i64
// CHECK: %[[U0:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: arith.addi %{{.*}}, %[[K1]] : i64
// CHECK: %[[U1:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[D:.*]] = arith.subf %[[ONE]], %[[U0]] : f64
// CHECK: %[[LOG:.*]] = math.log %[[D]] : f64
// CHECK: %[[M2:.*]] = arith.constant -2.000000e+00 : f64
// CHECK: %[[P:.*]] = arith.mulf %[[M2]], %[[LOG]] : f64
// CHECK: %[[RADIUS:.*]] = math.sqrt %[[P]] : f64
// CHECK: %[[TWOPI:.*]] = arith.constant 6.2831853071795862 : f64
// CHECK: %[[ANGLE:.*]] = arith.mulf %[[TWOPI]], %[[U1]] : f64
// CHECK: %[[STD:.*]] = arith.constant 2.000000e+00 : f64
// CHECK: %[[SR:.*]] = arith.mulf %[[STD]], %[[RADIUS]] : f64
// CHECK: %[[COS:.*]] = math.cos %[[ANGLE]] : f64
// CHECK: %[[PROD:.*]] = arith.mulf %[[SR]], %[[COS]] : f64
// CHECK: %[[MEAN:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: %[[R:.*]] = arith.addf %[[MEAN]], %[[PROD]] : f64
// CHECK: %[[F:.*]] = arith.truncf %[[R]] : f64 to f32
// CHECK: linalg.yield %[[F]] : f32
adj.func @random_normal(%s: tensor<i64>) -> tensor<3xf32> {
  %y = adj.random_normal %s mean = 0.5 std = 2.0 : tensor<i64> to tensor<3xf32>
  adj.return %y : tensor<3xf32>
}

// bf16 rounds through f32 rounded to odd: the odd neighbour replaces an even,
// inexact nearest f32, so the final f32 -> bf16 rounding is the correct one.
// CHECK-LABEL: func.func @random_uniform_bf16(
// CHECK: %[[R:.*]] = arith.addf %{{.*}}, %{{.*}} : f64
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
adj.func @random_uniform_bf16(%s: tensor<i64>) -> tensor<2xbf16> {
  %y = adj.random_uniform %s low = 0.0 high = 1.0 : tensor<i64> to tensor<2xbf16>
  adj.return %y : tensor<2xbf16>
}

// constant stays arith.constant (later passes fold it); fill is linalg.fill.
// CHECK-LABEL: func.func @creation(
// CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[V:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: arith.constant 3 : i64
adj.func @creation() -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2xi64>) {
  %c = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %f = adj.fill 0.5 : tensor<2xf32>
  %i = adj.fill 3.0 : tensor<2x2xi64>
  adj.return %c, %f, %i : tensor<2xf32>, tensor<2xf32>, tensor<2x2xi64>
}
