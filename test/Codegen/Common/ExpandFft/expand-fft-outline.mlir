// RUN: ir-opt %s -adj-expand-fft=outline=true | FileCheck %s

// With outline (GPU targets) each adj.fft stays, for a library, and names
// a private function that computes it generated; two transforms of the
// same configuration share one, another type gets its own.
// CHECK-LABEL: adj.func @main
// CHECK: adj.fft fft %arg0 lengths = [4] {adj.generated_fft = @__adj_fft_generated_fft_n4_3x4xcomplexf32}
// CHECK: adj.fft fft %{{.*}} lengths = [4] {adj.generated_fft = @__adj_fft_generated_fft_n4_3x4xcomplexf32}
// CHECK: adj.fft rfft %arg1 lengths = [6, 10] {adj.generated_fft = @__adj_fft_generated_rfft_n6x10_2x6x10xf64}
adj.func @main(%z: tensor<3x4xcomplex<f32>>, %x: tensor<2x6x10xf64>)
    -> (tensor<3x4xcomplex<f32>>, tensor<2x6x6xcomplex<f64>>) {
  %a = adj.fft fft %z lengths = [4] : tensor<3x4xcomplex<f32>>
  %b = adj.fft fft %a lengths = [4] : tensor<3x4xcomplex<f32>>
  %c = adj.fft rfft %x lengths = [6, 10] : tensor<2x6x10xf64>
  adj.return %b, %c : tensor<3x4xcomplex<f32>>, tensor<2x6x6xcomplex<f64>>
}

// The generated functions hold the expansion (a product with the DFT
// matrix for 4 points) and no adj.fft.
// CHECK-LABEL: adj.func private @__adj_fft_generated_fft_n4_3x4xcomplexf32(
// CHECK-SAME: %[[X:.*]]: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
// CHECK-NOT: adj.fft
// CHECK: %[[Y:.*]] = adj.matmul %[[X]], %{{.*}} : tensor<3x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>
// CHECK: adj.return %[[Y]]
// CHECK-LABEL: adj.func private @__adj_fft_generated_rfft_n6x10_2x6x10xf64(
// CHECK-NOT: adj.fft
// CHECK: adj.return %{{.*}} : tensor<2x6x6xcomplex<f64>>
// CHECK-NOT: adj.func
