// log1p and expm1 in kernels become log and exp with the quotient that
// cancels the rounding of 1 + x and exp(x) (the SPIR-V conversion would
// write log(1 + x) and exp(x) - 1); other math ops and the host are left
// alone.
// RUN: ir-opt %s -pass-pipeline='builtin.module(gpu.module(adj-intel-precise-math))' | FileCheck %s

// CHECK-LABEL: func.func @host
// CHECK:         math.log1p
func.func @host(%x: f32) -> f32 {
  %y = math.log1p %x : f32
  return %y : f32
}

gpu.module @kernels {
  // CHECK-LABEL: gpu.func @k
  // CHECK-NOT:     math.log1p
  // CHECK:         %[[U:.*]] = arith.addf %{{.*}}, %[[X:.*]] : f32
  // CHECK:         %[[UM1:.*]] = arith.subf %[[U]], %{{.*}} : f32
  // CHECK:         %[[L:.*]] = math.log %[[U]] : f32
  // CHECK:         %[[Q:.*]] = arith.divf %[[X]], %[[UM1]] : f32
  // CHECK:         arith.mulf %[[L]], %[[Q]] : f32
  // CHECK:         %[[E:.*]] = math.exp %[[Y:.*]] : vector<4xf64>
  // CHECK:         %[[EM1:.*]] = arith.subf %[[E]], %{{.*}} : vector<4xf64>
  // CHECK:         %[[LE:.*]] = math.log %[[E]] : vector<4xf64>
  // CHECK:         %[[R:.*]] = arith.divf %[[Y]], %[[LE]] : vector<4xf64>
  // CHECK:         arith.mulf %[[EM1]], %[[R]] : vector<4xf64>
  // CHECK-NOT:     math.expm1
  // CHECK:         math.tanh
  gpu.func @k(%x: f32, %y: vector<4xf64>, %p: memref<f32>, %q: memref<vector<4xf64>>) kernel {
    %a = math.log1p %x : f32
    %b = math.expm1 %y : vector<4xf64>
    %c = math.tanh %a : f32
    memref.store %c, %p[] : memref<f32>
    memref.store %b, %q[] : memref<vector<4xf64>>
    gpu.return
  }
}
