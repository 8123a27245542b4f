// RUN: python3 %inputs/elementwise_chain.py 600 > %t.mlir
// RUN: ir-opt %t.mlir -adj-to-linalg -adj-fuse-elementwise | FileCheck %s
// RUN: ir-opt %t.mlir -adj-to-linalg -adj-fuse-elementwise | grep -c "math.tanh" | FileCheck %s --check-prefix=COUNT

// A chain of 600 elementwise ops is not one loop body of 600 ops: fusing
// one op at a time copies the body each time (quadratic compile time), so
// a fused body stops at 256 ops. 600 tanh in bodies of at most 255 (+ the
// yield) are three loops, and every op is still there once.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
// COUNT: 600
