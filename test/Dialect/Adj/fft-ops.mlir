// RUN: ir-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: ir-opt %s -split-input-file -verify-diagnostics | ir-opt -split-input-file | FileCheck %s

// adj.fft round-trips; the result types follow its shape rules: fft and
// ifft keep the type, rfft halves the last dimension (n/2 + 1) into
// complex, irfft reads that half and gives the last length back as reals.

// CHECK-LABEL: adj.func @all
// CHECK: adj.fft fft %{{.*}} lengths = [3, 4] : tensor<2x3x4xcomplex<f32>>
// CHECK: adj.fft ifft %{{.*}} lengths = [4] : tensor<2x3x4xcomplex<f32>>
// CHECK: adj.fft rfft %{{.*}} lengths = [8] : tensor<5x8xf64>
// CHECK: adj.fft irfft %{{.*}} lengths = [8] : tensor<5x5xcomplex<f64>>
// CHECK: adj.fft irfft %{{.*}} lengths = [5, 9] : tensor<5x5xcomplex<f64>>
adj.func @all(%z: tensor<2x3x4xcomplex<f32>>, %x: tensor<5x8xf64>)
    -> (tensor<2x3x4xcomplex<f32>>, tensor<2x3x4xcomplex<f32>>, tensor<5x5xcomplex<f64>>, tensor<5x8xf64>, tensor<5x9xf64>) {
  %a = adj.fft fft %z lengths = [3, 4] : tensor<2x3x4xcomplex<f32>>
  %b = adj.fft ifft %a lengths = [4] : tensor<2x3x4xcomplex<f32>>
  %c = adj.fft rfft %x lengths = [8] : tensor<5x8xf64>
  %d = adj.fft irfft %c lengths = [8] : tensor<5x5xcomplex<f64>>
  %e = adj.fft irfft %c lengths = [5, 9] : tensor<5x5xcomplex<f64>>
  adj.return %a, %b, %c, %d, %e : tensor<2x3x4xcomplex<f32>>, tensor<2x3x4xcomplex<f32>>, tensor<5x5xcomplex<f64>>, tensor<5x8xf64>, tensor<5x9xf64>
}

// -----

adj.func @real_fft(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{adj.fft: fft takes a complex tensor, got 'f32'}}
  %y = adj.fft fft %x lengths = [4] : tensor<4xf32>
  adj.return %x : tensor<4xf32>
}

// -----

adj.func @complex_rfft(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{adj.fft: rfft takes a real tensor, got 'complex<f32>'}}
  %y = adj.fft rfft %x lengths = [4] : tensor<4xcomplex<f32>>
  adj.return %x : tensor<4xcomplex<f32>>
}

// -----

adj.func @wrong_length(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{adj.fft: rfft with lengths [8] expects trailing dimensions [8], got [2, 6]}}
  %y = adj.fft rfft %x lengths = [8] : tensor<2x6xf32>
  adj.return %x : tensor<2x6xf32>
}

// -----

adj.func @half_spectrum(%x: tensor<8xcomplex<f64>>) -> tensor<8xcomplex<f64>> {
  // expected-error @+1 {{adj.fft: irfft with lengths [8] expects trailing dimensions [5], got [8]}}
  %y = adj.fft irfft %x lengths = [8] : tensor<8xcomplex<f64>>
  adj.return %x : tensor<8xcomplex<f64>>
}

// -----

adj.func @too_many(%x: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  // expected-error @+1 {{adj.fft: expected one to three lengths, got 4}}
  %y = adj.fft fft %x lengths = [2, 2, 2, 2] : tensor<2x2x2x2xcomplex<f32>>
  adj.return %x : tensor<2x2x2x2xcomplex<f32>>
}

// -----

adj.func @rank(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{adj.fft: a transform over 2 dimensions needs rank >= 2, got [4]}}
  %y = adj.fft fft %x lengths = [4, 4] : tensor<4xcomplex<f32>>
  adj.return %x : tensor<4xcomplex<f32>>
}

// -----

adj.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @+1 {{adj.fft: expected f32, f64 or their complex types, got 'f16'}}
  %y = adj.fft rfft %x lengths = [4] : tensor<4xf16>
  adj.return %x : tensor<4xf16>
}

// -----

adj.func @empty_length(%x: tensor<0xcomplex<f32>>) -> tensor<0xcomplex<f32>> {
  // expected-error @+1 {{adj.fft: lengths must be positive, got [0]}}
  %y = adj.fft fft %x lengths = [0] : tensor<0xcomplex<f32>>
  adj.return %x : tensor<0xcomplex<f32>>
}
