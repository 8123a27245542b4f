// Seeded random arguments are reproducible and match adj.random_uniform.
// RUN: ir-run %s --arg rand:seed=7 --arg 7 | FileCheck %s
// RUN: ir-run %s -f normal --arg randn:seed=3,mean=10,std=0 | FileCheck %s --check-prefix=NORMAL

// CHECK: tensor<i1> true
adj.func @main(%x: tensor<3x2xf64>, %seed: tensor<i64>) -> tensor<i1> {
  %r = adj.random_uniform %seed low = 0.0 high = 1.0 : tensor<i64> to tensor<3x2xf64>
  %eq = adj.cmp eq, %x, %r : tensor<3x2xf64>, tensor<3x2xf64>
  %all = adj.reduce_max %eq axes = [0, 1] : tensor<3x2xi1>
  %neq = adj.cmp ne, %x, %r : tensor<3x2xf64>, tensor<3x2xf64>
  %any = adj.reduce_max %neq axes = [0, 1] : tensor<3x2xi1>
  %ok = adj.cmp ne, %all, %any : tensor<i1>, tensor<i1>
  adj.return %ok : tensor<i1>
}

// NORMAL: tensor<2xf32> [10, 10]
adj.func @normal(%x: tensor<2xf32>) -> tensor<2xf32> {
  adj.return %x : tensor<2xf32>
}
