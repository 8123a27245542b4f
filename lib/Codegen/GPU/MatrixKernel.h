//===- MatrixKernel.h - A workgroup owns a matrix ---------------*- C++ -*-===//
//
// The decompositions of -adj-gpu-linear-algebra are sequences of steps
// (a column of a factorization, a round of Jacobi rotations) whose work is
// spread over the work items of one workgroup, with a barrier between
// steps; workgroup b factors matrix b of the batch. MatrixKernel writes
// such a kernel body: arithmetic on the matrix's element type and on index,
// loads and stores that add the workgroup's batch position, serial loops
// (every work item runs them, so a barrier inside is reached by all),
// loops spread over the work items, and code for the first item alone.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_MATRIXKERNEL_H
#define ADJOINT_LIB_CODEGEN_GPU_MATRIXKERNEL_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace adjoint::gpu {

class MatrixKernel {
public:
  using Body = std::function<void(mlir::Value)>;
  using Body2 = std::function<void(mlir::Value, mlir::Value)>;
  using Carried = llvm::SmallVector<mlir::Value>;
  using CarriedBody = std::function<Carried(mlir::Value, mlir::ValueRange)>;

  /// The body of `launch` (grid: one workgroup per matrix of `batchShape`,
  /// row-major; `threads` work items along x), computing in `element`.
  /// `b` must be inside the launch body.
  MatrixKernel(mlir::OpBuilder &b, mlir::Location loc, mlir::Type element,
               int64_t threads, llvm::ArrayRef<int64_t> batchShape,
               mlir::gpu::LaunchOp launch);

  mlir::Type element() const { return elementType; }
  int64_t threadCount() const { return threads; }
  mlir::Value threadId() const { return tid; }
  /// The machine epsilon of the element type.
  double epsilon() const;

  // Constants.
  mlir::Value index(int64_t value);
  mlir::Value real(double value);
  mlir::Value boolean(bool value);

  // Arithmetic: integer ops on index, float ops on the element type,
  // chosen by the operands' type.
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value div(mlir::Value a, mlir::Value b);
  mlir::Value neg(mlir::Value a);
  mlir::Value sqrt(mlir::Value a);
  mlir::Value abs(mlir::Value a);
  mlir::Value max(mlir::Value a, mlir::Value b);
  /// Ordered comparisons: false when a float operand is NaN.
  mlir::Value lt(mlir::Value a, mlir::Value b);
  mlir::Value le(mlir::Value a, mlir::Value b);
  mlir::Value gt(mlir::Value a, mlir::Value b);
  mlir::Value eq(mlir::Value a, mlir::Value b);
  mlir::Value ne(mlir::Value a, mlir::Value b);
  mlir::Value isNaN(mlir::Value a);
  mlir::Value select(mlir::Value cond, mlir::Value a, mlir::Value b);
  mlir::Value both(mlir::Value a, mlir::Value b);
  mlir::Value either(mlir::Value a, mlir::Value b);
  mlir::Value negate(mlir::Value cond);
  /// index <-> i32.
  mlir::Value toI32(mlir::Value index);
  mlir::Value toIndex(mlir::Value i32);

  /// `buffer[batch..., inner...]`; a workgroup buffer has no batch
  /// dimensions.
  mlir::Value load(mlir::Value buffer, mlir::ValueRange inner);
  void store(mlir::Value value, mlir::Value buffer, mlir::ValueRange inner);

  /// for i in [lo, hi), run by every work item.
  void serial(mlir::Value lo, mlir::Value hi, const Body &body);
  /// for i in [lo, hi) carrying values; returns their last values.
  Carried serial(mlir::Value lo, mlir::Value hi, mlir::ValueRange init,
                 const CarriedBody &body);
  /// for i from hi - 1 down to lo, run by every work item.
  void serialDown(mlir::Value lo, mlir::Value hi, const Body &body);
  /// for i in [lo, hi), the iterations dealt round-robin to the work items.
  void spread(mlir::Value lo, mlir::Value hi, const Body &body);
  /// for (i, j) in [rowLo, rowHi) x [colLo, colHi), dealt round-robin.
  void spread(mlir::Value rowLo, mlir::Value rowHi, mlir::Value colLo,
              mlir::Value colHi, const Body2 &body);
  /// Runs `body` in work item 0 alone.
  void leader(const std::function<void()> &body);
  /// Runs `body` where `cond` holds. A barrier inside needs a `cond` that
  /// is the same for every work item.
  void when(mlir::Value cond, const std::function<void()> &body);
  /// `cond ? then() : otherwise()` for one value of `type`.
  mlir::Value choose(mlir::Value cond, mlir::Type type,
                     const std::function<mlir::Value()> &then,
                     const std::function<mlir::Value()> &otherwise);
  /// A workgroup barrier that orders global memory too (marked
  /// adj.global_fence for the SPIR-V path).
  void sync();

  /// The pair of round `round` at table position `slot` of a round-robin
  /// tournament of `players` (even) players: every pair meets once in
  /// players - 1 rounds, and the pairs of a round are disjoint. Returns
  /// (p, q) with p < q.
  std::pair<mlir::Value, mlir::Value> pairOf(mlir::Value round,
                                             mlir::Value slot,
                                             int64_t players);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::Type elementType;
  int64_t threads;
  mlir::Value tid;
  llvm::SmallVector<mlir::Value> batch;
};

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_MATRIXKERNEL_H
