// Generated code vs the runtime's kernel for one f32 1024^3 matmul: the
// measurement behind the choice in docs/cpu-backend.md. Not a lit test (the
// numbers depend on the machine); run from the repository root with a
// build in build/:
//
//   run() { /usr/lib/llvm-22/bin/mlir-runner -O3 -e main \
//     -entry-point-result=void -shared-libs=build/lib/libadjoint_runtime.so,\
// /usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,\
// /usr/lib/llvm-22/lib/libmlir_runner_utils.so; }
//   F=benchmarks/cpu/matmul-codegen.mlir
//   # 1. Loops (convert-linalg-to-loops), vectorized by LLVM at O3:
//   build/bin/ir-opt $F -symbol-dce -convert-linalg-to-loops -adj-cpu-llvm | run
//   # 2. Tiled (128x128x256, then an 8x32 register tile), vectorized to
//   #    vector.contract and lowered to outer products: 8 broadcasts and 8
//   #    32-wide FMAs per k (the transform script below; no packing):
//   build/bin/ir-opt $F -transform-interpreter -symbol-dce -canonicalize \
//     -convert-linalg-to-loops -convert-vector-to-scf=full-unroll=true \
//     -lower-affine -convert-vector-to-llvm -adj-cpu-llvm | run
//   # 3. The runtime's kernel (Eigen GEMM on the thread pool):
//   build/bin/ir-opt $F -symbol-dce -adj-cpu-linalg-to-kernels \
//     -convert-linalg-to-loops -adj-cpu-llvm | run
//
// Each prints the seconds of the best of 5 products.

module attributes {transform.with_named_sequence} {
  // As bufferized adj.matmul: C is a fresh buffer (which lets the tiled
  // version keep its C tile in registers: nothing else can write it).
  func.func @matmul(%a: memref<1024x1024xf32>, %b: memref<1024x1024xf32>)
      -> memref<1024x1024xf32> {
    %zero = arith.constant 0.0 : f32
    %c = memref.alloc() {alignment = 64 : i64} : memref<1024x1024xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
    linalg.matmul ins(%a, %b : memref<1024x1024xf32>, memref<1024x1024xf32>)
                  outs(%c : memref<1024x1024xf32>)
    return %c : memref<1024x1024xf32>
  }

  func.func @main() {
    %half = arith.constant 0.5 : f32
    %a = memref.alloc() {alignment = 64 : i64} : memref<1024x1024xf32>
    linalg.fill ins(%half : f32) outs(%a : memref<1024x1024xf32>)
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %inf = arith.constant 1.0e30 : f64
    %best = scf.for %i = %c0 to %c5 step %c1 iter_args(%b = %inf) -> f64 {
      %t0 = func.call @rtclock() : () -> f64
      %c = func.call @matmul(%a, %a) : (memref<1024x1024xf32>, memref<1024x1024xf32>) -> memref<1024x1024xf32>
      %t1 = func.call @rtclock() : () -> f64
      %v = memref.load %c[%c0, %c0] : memref<1024x1024xf32>
      memref.dealloc %c : memref<1024x1024xf32>
      %d = arith.subf %t1, %t0 : f64
      %m = arith.minimumf %b, %d : f64
      scf.yield %m : f64
    }
    func.call @printF64(%best) : (f64) -> ()
    func.call @printNewline() : () -> ()
    memref.dealloc %a : memref<1024x1024xf32>
    return
  }

  func.func private @rtclock() -> f64
  func.func private @printF64(f64)
  func.func private @printF32(f32)
  func.func private @printNewline()

  transform.named_sequence private @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %cache, %l1:3 = transform.structured.tile_using_for %mm
        tile_sizes [128, 128, 256]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op, !transform.any_op)
    %regs, %l2:3 = transform.structured.tile_using_for %cache
        tile_sizes [8, 32, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %fv = transform.structured.vectorize_children_and_apply_patterns %f
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %fv {
      transform.apply_patterns.vector.lower_contraction
          lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %hoisted = transform.structured.hoist_redundant_vector_transfers %fv
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
