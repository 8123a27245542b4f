// RUN: ir-opt %s -adj-to-linalg=target=opencl -verify-diagnostics

// GPU targets have no FFT kernel behind the call: the tensor pipeline
// expands adj.fft first (-adj-expand-fft), and an unexpanded one says so.
adj.func @main(%z: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
  // expected-error @+1 {{adj.fft reaches -adj-to-linalg for target 'opencl' unexpanded: run -adj-expand-fft first}}
  %a = adj.fft fft %z lengths = [4] : tensor<3x4xcomplex<f32>>
  adj.return %a : tensor<3x4xcomplex<f32>>
}
