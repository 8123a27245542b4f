// A parameter of 2^63 - 1 f32 elements: rejected when the file is verified
// (it used to reach the random generator, where std::vector threw an
// uncaught std::length_error, and 2^32 x 2^32 elements made an empty tensor).
// RUN: not ir-run %s -f f --arg rand:seed=1 2>&1 | FileCheck %s
// RUN: not ir-run %s -f g --arg rand:seed=1 2>&1 | FileCheck %s --check-prefix=WRAP

// CHECK: huge-param.mlir:[[@LINE+3]]:1: error: 'adj.func' op signature type 'tensor<9223372036854775807xf32>' is too large
// CHECK-NOT: ir-run: error
// WRAP: error: 'adj.func' op signature type 'tensor<4294967296x4294967296xf32>' is too large
adj.func @f(%x: tensor<9223372036854775807xf32>) {
  adj.return
}
adj.func @g(%x: tensor<4294967296x4294967296xf32>) {
  adj.return
}
