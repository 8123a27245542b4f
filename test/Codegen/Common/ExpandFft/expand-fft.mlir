// RUN: ir-opt %s -adj-expand-fft -split-input-file | FileCheck %s

// A short transform is one product with the DFT matrix, a constant of
// exp(-2 pi i (j k mod n) / n).
// CHECK-LABEL: adj.func @short
// CHECK-NOT: adj.fft
// CHECK-NOT: adj.iota
// CHECK: %[[W:.*]] = adj.constant dense<{{\[}}[(1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00)], [(1.000000e+00,0.000000e+00), ({{[^)]*}}E-17,-1.000000e+00), (-1.000000e+00,{{[^)]*}}E-16), ({{[^)]*}}E-16,1.000000e+00)], {{.*}}]> : tensor<4x4xcomplex<f32>>
// CHECK: %[[Y:.*]] = adj.matmul %arg0, %[[W]] : tensor<3x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>
// CHECK: adj.return %[[Y]]
adj.func @short(%z: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
  %y = adj.fft fft %z lengths = [4] : tensor<3x4xcomplex<f32>>
  adj.return %y : tensor<3x4xcomplex<f32>>
}

// -----

// The DFT matrix of a long prime length (131^2 entries) is computed from
// iota: j k, its remainder mod n, the angle, its cosine and sine.
// CHECK-LABEL: adj.func @long_prime
// CHECK-NOT: adj.constant
// CHECK: %[[J:.*]] = adj.iota axis = 0 : tensor<131x131xi64>
// CHECK: %[[K:.*]] = adj.iota axis = 1 : tensor<131x131xi64>
// CHECK: %[[JK:.*]] = adj.mul %[[J]], %[[K]]
// CHECK: %[[N:.*]] = adj.fill 1.310000e+02 : tensor<i64>
// CHECK: %[[Q:.*]] = adj.div %[[JK]], %[[N]]
// CHECK: %[[QN:.*]] = adj.mul %[[Q]], %[[N]]
// CHECK: %[[R:.*]] = adj.sub %[[JK]], %[[QN]]
// CHECK: %[[E:.*]] = adj.cast %[[R]] : tensor<131x131xi64> to tensor<131x131xf64>
// CHECK: %[[STEP:.*]] = adj.fill -0.047963{{.*}} : tensor<f64>
// CHECK: %[[A:.*]] = adj.mul %[[E]], %[[STEP]]
// CHECK: %[[COS:.*]] = adj.cos %[[A]]
// CHECK: %[[SIN:.*]] = adj.sin %[[A]]
// CHECK: %[[W:.*]] = adj.complex %[[COS]], %[[SIN]]
// CHECK: adj.matmul %arg0, %[[W]] : tensor<2x131xcomplex<f64>>, tensor<131x131xcomplex<f64>>
adj.func @long_prime(%z: tensor<2x131xcomplex<f64>>) -> tensor<2x131xcomplex<f64>> {
  %y = adj.fft fft %z lengths = [131] : tensor<2x131xcomplex<f64>>
  adj.return %y : tensor<2x131xcomplex<f64>>
}

// -----

// 128 = 8 x 16: the four steps. Transforms of 8 over the subsequences
// (moved last), twiddles of 128 on [16, 8], transforms of 16, and the
// transpose that orders the outputs. The result of the inverse is divided
// by 128.
// CHECK-LABEL: adj.func @four_step
// CHECK: adj.reshape %arg0 : tensor<2x128xcomplex<f64>> to tensor<2x8x16xcomplex<f64>>
// CHECK: adj.transpose %{{.*}} perm = [0, 2, 1] : tensor<2x8x16xcomplex<f64>>
// CHECK: adj.reshape %{{.*}} : tensor<2x16x8xcomplex<f64>> to tensor<32x8xcomplex<f64>>
// CHECK: adj.constant {{.*}} : tensor<8x8xcomplex<f64>>
// CHECK: adj.matmul %{{.*}}, %{{.*}} : tensor<32x8xcomplex<f64>>, tensor<8x8xcomplex<f64>>
// CHECK: adj.constant {{.*}} : tensor<16x8xcomplex<f64>>
// CHECK: adj.mul %{{.*}}, %{{.*}} : tensor<2x16x8xcomplex<f64>>, tensor<16x8xcomplex<f64>>
// CHECK: adj.matmul %{{.*}}, %{{.*}} : tensor<16x16xcomplex<f64>>, tensor<16x16xcomplex<f64>>
// CHECK: adj.transpose %{{.*}} perm = [0, 2, 1] : tensor<2x8x16xcomplex<f64>>
// CHECK: adj.reshape %{{.*}} : tensor<2x16x8xcomplex<f64>> to tensor<2x128xcomplex<f64>>
// CHECK: %[[S:.*]] = adj.fill 7.812500e-03 : tensor<complex<f64>>
// CHECK: adj.mul %{{.*}}, %[[S]]
adj.func @four_step(%z: tensor<2x128xcomplex<f64>>) -> tensor<2x128xcomplex<f64>> {
  %y = adj.fft ifft %z lengths = [128] : tensor<2x128xcomplex<f64>>
  adj.return %y : tensor<2x128xcomplex<f64>>
}

// -----

// rfft: the real input as complex, the transform, the first n/2 + 1.
// CHECK-LABEL: adj.func @real
// CHECK: %[[Z:.*]] = adj.fill 0.0{{.*}} : tensor<5x6xf32>
// CHECK: %[[C:.*]] = adj.complex %arg0, %[[Z]]
// CHECK: adj.slice %{{.*}} start = [0, 0] limit = [5, 4] stride = [1, 1] : tensor<5x6xcomplex<f32>>
adj.func @real(%x: tensor<5x6xf32>) -> tensor<5x4xcomplex<f32>> {
  %y = adj.fft rfft %x lengths = [6] : tensor<5x6xf32>
  adj.return %y : tensor<5x4xcomplex<f32>>
}

// -----

// irfft over two axes: the inverse over the first, then the half spectrum
// weighted (1, 2, 2, 1 for n = 6), padded to 6 with zeros, inverted, and
// its real part; the result divided by 4 x 6.
// CHECK-LABEL: adj.func @inverse_real
// CHECK: adj.transpose %arg0 perm = [0, 2, 1] : tensor<2x4x4xcomplex<f32>>
// CHECK: %[[W:.*]] = adj.constant dense<[(1.000000e+00,0.000000e+00), (2.000000e+00,0.000000e+00), (2.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00)]> : tensor<4xcomplex<f32>>
// CHECK: adj.mul %{{.*}}, %[[W]] : tensor<2x4x4xcomplex<f32>>, tensor<4xcomplex<f32>>
// CHECK: adj.pad %{{.*}} low = [0, 0, 0] high = [0, 0, 2] value = 0.0{{.*}} : tensor<2x4x4xcomplex<f32>>
// CHECK: %[[R:.*]] = adj.real %{{.*}} : tensor<2x4x6xcomplex<f32>>
// CHECK: %[[S:.*]] = adj.fill 0.041666{{.*}} : tensor<f32>
// CHECK: adj.mul %[[R]], %[[S]]
adj.func @inverse_real(%h: tensor<2x4x4xcomplex<f32>>) -> tensor<2x4x6xf32> {
  %y = adj.fft irfft %h lengths = [4, 6] : tensor<2x4x4xcomplex<f32>>
  adj.return %y : tensor<2x4x6xf32>
}

// -----

// A prime length over 256 takes Bluestein's algorithm: the input times the
// chirp (a constant of 257 entries), zero-padded to the power of two 1024
// >= 2n - 1, transformed (four steps of 32 x 32), times the chirp filter's
// transform (a constant of 1024, the inverse's 1/1024 folded in),
// transformed back, its first 257 entries times the chirp again.
// CHECK-LABEL: adj.func @bluestein
// CHECK-NOT: adj.fft
// CHECK: %[[W:.*]] = adj.constant {{.*}} : tensor<257xcomplex<f32>>
// CHECK: %[[A:.*]] = adj.mul %arg0, %[[W]] : tensor<2x257xcomplex<f32>>, tensor<257xcomplex<f32>>
// CHECK: adj.pad %[[A]] low = [0, 0] high = [0, 767]
// CHECK-COUNT-2: adj.matmul {{.*}} tensor<32x32xcomplex<f32>>
// CHECK: %[[F:.*]] = adj.constant {{.*}} : tensor<1024xcomplex<f32>>
// CHECK: adj.mul %{{.*}}, %[[F]] : tensor<2x1024xcomplex<f32>>, tensor<1024xcomplex<f32>>
// CHECK-COUNT-2: adj.matmul {{.*}} tensor<32x32xcomplex<f32>>
// CHECK: %[[S:.*]] = adj.slice %{{.*}} start = [0, 0] limit = [2, 257]
// CHECK: %[[Y:.*]] = adj.mul %[[S]], %[[W]]
// CHECK: adj.return %[[Y]]
adj.func @bluestein(%z: tensor<2x257xcomplex<f32>>) -> tensor<2x257xcomplex<f32>> {
  %y = adj.fft fft %z lengths = [257] : tensor<2x257xcomplex<f32>>
  adj.return %y : tensor<2x257xcomplex<f32>>
}
