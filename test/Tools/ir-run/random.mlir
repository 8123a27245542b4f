// Seeded random arguments are reproducible and follow the documented formula
// (interp::randomUniform: u(k) = (splitmix64(seed * 0x9E3779B97F4A7C15 + k)
// >> 11) * 2^-53, scaled to [low, high)); they are input data made by the
// tool, not an op. The expected digits are that formula evaluated
// independently.
// RUN: ir-run %s --arg rand:seed=7 | FileCheck %s
// RUN: ir-run %s --arg rand:seed=7 | FileCheck %s
// RUN: ir-run %s --arg rand:seed=7,low=-1,high=3 | FileCheck %s --check-prefix=RANGE
// RUN: ir-run %s -f normal --arg randn:seed=3,mean=10,std=0 | FileCheck %s --check-prefix=NORMAL

// CHECK: tensor<3x2xf64> {{\[}}[0.771546556331567, 0.5230671798509814], [0.7390873243475791, 0.8887184341115442], [0.44873928100424887, 0.511101488728492]]
// RANGE: tensor<3x2xf64> {{\[}}[2.086186225326268, 1.0922687194039256], [1.9563492973903163, 2.5548737364461767], [0.7949571240169955, 1.0444059549139681]]
adj.func @main(%x: tensor<3x2xf64>) -> tensor<3x2xf64> {
  adj.return %x : tensor<3x2xf64>
}

// NORMAL: tensor<2xf32> [10, 10]
adj.func @normal(%x: tensor<2xf32>) -> tensor<2xf32> {
  adj.return %x : tensor<2xf32>
}
