// Complex elementwise ops become complex dialect ops in linalg.generic
// bodies; the parts ops are complex.create/re/im.
// RUN: ir-opt %s -adj-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @arithmetic(
// CHECK: complex.mul
// CHECK: complex.div
// CHECK: complex.pow
// CHECK: complex.exp
// log1p as log|1 + z| + i atan2(y, 1 + x), not complex.log1p (whose MLIR
// 22 lowering loses log|1 + z| where it is tiny): log1p of x (2 + x) + y^2
// near z = 0, else the log of the larger part of 1 + z plus log1p of the
// ratio squared.
// CHECK-NOT: complex.log1p
// CHECK: %[[X:.*]] = complex.re %[[Z:.*]] : complex<f32>
// CHECK: %[[Y:.*]] = complex.im %[[Z]] : complex<f32>
// CHECK: %[[U:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK: math.log1p
// CHECK: %[[M:.*]] = arith.maximumf
// CHECK: math.log %[[M]]
// CHECK: arith.select
// CHECK: %[[IM:.*]] = math.atan2 %[[Y]], %[[U]] : f32
// CHECK: complex.create %{{.*}}, %[[IM]] : complex<f32>
// CHECK: complex.sqrt
// CHECK: complex.neg
// CHECK: complex.sign
adj.func @arithmetic(%a: tensor<4xcomplex<f32>>, %b: tensor<complex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = adj.mul %a, %b : tensor<4xcomplex<f32>>, tensor<complex<f32>>
  %1 = adj.div %0, %a : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>
  %2 = adj.pow %1, %b : tensor<4xcomplex<f32>>, tensor<complex<f32>>
  %3 = adj.exp %2 : tensor<4xcomplex<f32>>
  %4 = adj.log1p %3 : tensor<4xcomplex<f32>>
  %5 = adj.sqrt %4 : tensor<4xcomplex<f32>>
  %6 = adj.neg %5 : tensor<4xcomplex<f32>>
  %7 = adj.sign %6 : tensor<4xcomplex<f32>>
  adj.return %7 : tensor<4xcomplex<f32>>
}

// CHECK-LABEL: func.func @parts(
// CHECK: complex.create %{{.*}}, %{{.*}} : complex<f64>
// CHECK: complex.re %{{.*}} : complex<f64>
// CHECK: complex.im %{{.*}} : complex<f64>
// CHECK: complex.abs %{{.*}} : complex<f64>
// CHECK: complex.eq
adj.func @parts(%re: tensor<3xf64>, %im: tensor<f64>) -> (tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xi1>) {
  %z = adj.complex %re, %im : tensor<3xf64>, tensor<f64>
  %r = adj.real %z : tensor<3xcomplex<f64>>
  %i = adj.imag %z : tensor<3xcomplex<f64>>
  %m = adj.abs %z : tensor<3xcomplex<f64>>
  %e = adj.cmp eq, %z, %z : tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>
  adj.return %r, %i, %m, %e : tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3xi1>
}

// Casts: real to complex has a zero imaginary part; complex to real keeps
// the real part; to i1 tests z != 0; complex to complex converts the parts.
// CHECK-LABEL: func.func @casts(
// CHECK: arith.extf
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: complex.create %{{.*}}, %[[ZERO]] : complex<f64>
// CHECK: complex.re
// CHECK: arith.fptosi
// CHECK: %[[CZERO:.*]] = complex.constant [0.000000e+00, 0.000000e+00] : complex<f64>
// CHECK: complex.neq %{{.*}}, %[[CZERO]]
// CHECK: complex.re
// CHECK: arith.truncf
// CHECK: complex.im
// CHECK: arith.truncf
// CHECK: complex.create
adj.func @casts(%x: tensor<2xf32>, %z: tensor<2xcomplex<f64>>) -> (tensor<2xcomplex<f64>>, tensor<2xi32>, tensor<2xi1>, tensor<2xcomplex<f32>>) {
  %0 = adj.cast %x : tensor<2xf32> to tensor<2xcomplex<f64>>
  %1 = adj.cast %z : tensor<2xcomplex<f64>> to tensor<2xi32>
  %2 = adj.cast %z : tensor<2xcomplex<f64>> to tensor<2xi1>
  %3 = adj.cast %z : tensor<2xcomplex<f64>> to tensor<2xcomplex<f32>>
  adj.return %0, %1, %2, %3 : tensor<2xcomplex<f64>>, tensor<2xi32>, tensor<2xi1>, tensor<2xcomplex<f32>>
}

// A complex sum starts from the complex zero.
// CHECK-LABEL: func.func @sum(
// CHECK: complex.constant [0.000000e+00, 0.000000e+00] : complex<f64>
// CHECK: linalg.fill
// CHECK: complex.add
adj.func @sum(%z: tensor<2x3xcomplex<f64>>) -> tensor<3xcomplex<f64>> {
  %s = adj.reduce_sum %z axes = [0] : tensor<2x3xcomplex<f64>>
  adj.return %s : tensor<3xcomplex<f64>>
}
