// Shapes whose size does not fit, and allocations the system cannot satisfy:
// diagnostics and errors, never a wrapped size, an abort or a crash.
// RUN: not ir-run %s -f pool 2>&1 | FileCheck %s --check-prefix=POOL
// RUN: not ir-run %s -f fill 2>&1 | FileCheck %s --check-prefix=FILL
// RUN: not ir-run %s -f pool --compile --no-cache 2>&1 | FileCheck %s --check-prefix=CPOOL

// A window op whose padding makes a result of 2^60 bytes: a valid type, but
// no machine has that memory (and no 64-bit address space that room).
// POOL: ir-run: error: {{.*}}huge-shapes.mlir:[[@LINE+4]]:8: adj.max_pool2d: out of memory: 1152921504606846976 bytes for tensor<1x4x18014398509481984x4xf32>
// CPOOL: ir-run: error: @pool: out of memory: compiled code could not allocate {{[0-9]+}} bytes
adj.func @pool() -> tensor<1x4x18014398509481984x4xf32> {
  %in = adj.fill 0.0 : tensor<1x4x5x5xf32>
  %r = adj.max_pool2d %in kernel = [6, 2] stride = [1, 1] padding = [0, 18014398509481984, 0, 0] : tensor<1x4x5x5xf32>
  adj.return %r : tensor<1x4x18014398509481984x4xf32>
}

// FILL: ir-run: error: {{.*}}huge-shapes.mlir:[[@LINE+2]]:8: adj.fill: out of memory: 4611686018427387904 bytes for tensor<1152921504606846976xf32>
adj.func @fill() -> tensor<1152921504606846976xf32> {
  %a = adj.fill 1.0 : tensor<1152921504606846976xf32>
  adj.return %a : tensor<1152921504606846976xf32>
}
