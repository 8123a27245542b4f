//===- GemmRecord.h - Contractions a GEMM library can compute ---*- C++ -*-===//
//
// -adj-gpu-matmul replaces a contraction by the tiled kernel; where A, B and
// C are each a strided matrix per batch entry (BLAS layouts), it also
// records the product for -adj-gpu-launch-to-runtime, which then emits
// adj_rt_gpu_gemm (GpuABI.h) so that the runtime can use a vendor library
// instead of the kernel. The record must outlive gpu-kernel-outlining,
// which drops the attributes of the gpu.launch it replaces and keeps only
// ops outside it, so it is an op right before the launch:
//
//   func.call @adj_gpu_gemm(%A, %B, %C) {adj.gpu.gemm = {batch = 1, m = 37,
//       n = 53, k = 29, a = {order = "row", ld = 29, batch_stride = 0}, ...}}
//   gpu.launch ... (the fallback kernel)
//
// A call of a declaration (nothing may remove or move it, and it keeps A, B
// and C alive as values; one declaration per signature, marked with the
// unit attribute adj.gpu.gemm, named adj_gpu_gemm, adj_gpu_gemm_0, ...).
// The runtime has no such function: the record and the next
// gpu.launch_func of its block become one adj_rt_gpu_gemm.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_GEMMRECORD_H
#define ADJOINT_LIB_CODEGEN_GPU_GEMMRECORD_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace adjoint::gpu {

/// The first callee name and the attribute of a record (on the call, its
/// dictionary; on the declaration, a unit).
inline constexpr llvm::StringLiteral kGemmRecordCallee = "adj_gpu_gemm";
inline constexpr llvm::StringLiteral kGemmRecordAttr = "adj.gpu.gemm";

/// A matrix as BLAS takes it (GpuABI.h's adj_rt_gpu_matrix).
struct MatrixLayout {
  bool rowMajor = true;
  int64_t ld = 1;
  int64_t batchStride = 0;
};

struct GemmRecord {
  int64_t batch = 1, m = 1, n = 1, k = 1;
  MatrixLayout a, b, c;
  /// f32 products may use TF32.
  bool tf32 = false;
  /// C = A B: C's prior values are not read (its zero fill was folded).
  bool overwrite = false;
};

/// The record of contraction `op` with loops `m`, `n`, `k` and `batch`
/// (outer first, as the tiled kernel linearizes them), or failure when an
/// operand's strides are not static or not a BLAS layout (a strided
/// view along both of its matrix dimensions, batch loops that do not
/// flatten into one stride).
llvm::FailureOr<GemmRecord> gemmRecordOf(mlir::linalg::LinalgOp op,
                                         unsigned m, unsigned n, unsigned k,
                                         llvm::ArrayRef<unsigned> batch);

/// Emits the record of A, B and C at `b`'s insertion point.
mlir::LogicalResult emitGemmRecord(mlir::OpBuilder &b, mlir::Location loc,
                                   const GemmRecord &record, mlir::Value a,
                                   mlir::Value bMatrix, mlir::Value c);

/// Whether `call` is a GEMM record (it has the record attribute).
inline bool isGemmRecord(mlir::func::CallOp call) {
  return call->hasAttr(kGemmRecordAttr);
}

/// The record `call` holds, or failure (with an error on `call`) when its
/// record attribute is malformed.
llvm::FailureOr<GemmRecord> parseGemmRecord(mlir::func::CallOp call);

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_GEMMRECORD_H
