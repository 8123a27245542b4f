//===- TiledGemm.h - A tiled GEMM kernel with workgroup memory --*- C++ -*-===//
//
// `C[b, m, n] += sum_k A(b, m, k) * B(b, k, n)` as one gpu.launch, where A,
// B and the update of C are callbacks: -adj-gpu-matmul reads them through
// indexing maps, -adj-gpu-conv reads A and B straight from a filter and an
// input image (implicit GEMM).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_TILEDGEMM_H
#define ADJOINT_LIB_CODEGEN_GPU_TILEDGEMM_H

#include "mlir/IR/Builders.h"

#include <functional>

namespace adjoint::gpu {

/// Tile sizes: a workgroup computes tileM x tileN of C, stepping K by tileK;
/// each work item holds threadM x threadN accumulators.
struct GemmTiles {
  int64_t tileM = 64, tileN = 64, tileK = 16, threadM = 4, threadN = 4;

  /// Empty when the tiles are consistent, else why not.
  std::string check() const;

  /// These tiles with tileM (tileN) halved while a half still covers `m`
  /// (`n`) and the result stays consistent: a skinny product (7 classes,
  /// one row) then idles fewer work items.
  GemmTiles fitTo(int64_t m, int64_t n) const;
};

struct GemmProblem {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  mlir::Type element;
  /// A(b, m, k) and B(b, k, n): loads at in-range indices.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value,
                            mlir::Value, mlir::Value)>
      loadA, loadB;
  /// C(b, m, n) += acc, at in-range indices.
  std::function<void(mlir::OpBuilder &, mlir::Location, mlir::Value,
                     mlir::Value, mlir::Value, mlir::Value)>
      accumulateC;
  /// Whether consecutive k are adjacent in memory in A (else consecutive m)
  /// and in B (else consecutive n): staging reads follow the fast index.
  bool aKContiguous = true, bKContiguous = false;
  /// When set, emitted right before the kernel's launch (-adj-gpu-matmul's
  /// GEMM record, GemmRecord.h).
  std::function<mlir::LogicalResult(mlir::OpBuilder &, mlir::Location)>
      beforeLaunch;
};

/// Emits the kernel at `b`'s insertion point.
void emitTiledGemm(mlir::OpBuilder &b, mlir::Location loc,
                   const GemmProblem &problem, const GemmTiles &tiles);

/// Replaces every op under `root` (outside gpu.launch) that `match` turns
/// into a problem by the tiled kernel, with `tiles` fitted to it. Fails,
/// with a diagnostic naming `pass`, when the tiles are inconsistent.
mlir::LogicalResult replaceWithTiledGemm(
    mlir::Operation *root, const GemmTiles &tiles, llvm::StringRef pass,
    llvm::function_ref<llvm::FailureOr<GemmProblem>(mlir::Operation *)>
        match);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_TILEDGEMM_H
