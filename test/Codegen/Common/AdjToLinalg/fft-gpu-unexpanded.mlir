// RUN: ir-opt %s -adj-to-linalg=target=opencl -verify-diagnostics

// A GPU target runs a library or the generated FFT, which the tensor
// pipeline's -adj-expand-fft{outline} names on the op; an adj.fft without
// it says so.
adj.func @main(%z: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
  // expected-error @+1 {{adj.fft reaches -adj-to-linalg for target 'opencl' without its generated FFT: run -adj-expand-fft{outline} first}}
  %a = adj.fft fft %z lengths = [4] : tensor<3x4xcomplex<f32>>
  adj.return %a : tensor<3x4xcomplex<f32>>
}
