//===- Batching.h - The vmap transform --------------------------*- C++ -*-===//
//
// Internal interface of batching by source transformation. A request
// `adj.vmap %f` becomes a closure that moves each batched argument's batch
// axis to the front and runs a batched copy of `f`'s code. In batched code
// every value either carries the batch (at axis 0) or is shared by all
// examples; primitives are rewritten by the rules in lib/AD/Rules/Batching.
//
// Function values: a call of a known function (a closure defined in the
// code, a func_ref, an adj.closure) is batched for the batched-ness of its
// arguments: a closure's body is batched in place, a top-level function is
// specialised per batched-argument mask (memoised, so recursion ends; the
// specialised body is built later, like the AD transforms' bodies, since
// the function may itself be a derivative whose body does not exist yet).
// A specialised function returns all its results batched. A function value
// that escapes (stored in a tuple, returned, carried by a loop) takes the
// uniform batched form: every argument and result batched.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_AD_BATCHING_H
#define ADJOINT_LIB_AD_BATCHING_H

#include "Transform.h"

#include "Rules/Batching/BatchRules.h"

#include <map>

namespace adjoint::ad {

class Batching {
public:
  Batching(mlir::ModuleOp module, mlir::SymbolTable &symbols);

  /// Replaces the request by a closure that runs its function batched.
  mlir::LogicalResult expand(adj::VmapOp request);
  /// Builds the bodies of the specialised functions declared so far,
  /// except those whose per-example body does not exist yet.
  mlir::LogicalResult finish();
  bool hasPending() const { return !pending_.empty(); }
  size_t numPending() const { return pending_.size(); }

  /// `@f` specialised for a batch of `size`: argument `i` batched where
  /// `mask[i]`, every result batched.
  adj::FuncOp specialize(adj::FuncOp f, llvm::ArrayRef<bool> mask,
                         int64_t size);
  /// `type` with the batch on every tensor it holds (functions take the
  /// uniform form).
  static mlir::Type batchedType(mlir::Type type, int64_t size);
  mlir::SymbolTable &symbols() { return symbols_; }

private:
  struct Spec {
    llvm::SmallVector<bool> mask;
    int64_t size;
  };
  mlir::ModuleOp module_;
  mlir::SymbolTable &symbols_;
  std::map<std::tuple<mlir::Operation *, std::string, int64_t>, adj::FuncOp>
      specs_;
  llvm::DenseMap<mlir::Operation *, Spec> specOf_;
  Worklist pending_;
};

/// The batched copy of one body of per-example code: maps each per-example
/// value to its counterpart and whether that carries the batch.
class BodyBatcher {
public:
  using Batched = batching::Batched;

  BodyBatcher(Batching &owner, int64_t size) : owner_(owner), size_(size) {}

  int64_t size() const { return size_; }
  void set(mlir::Value primal, Batched v);
  /// The counterpart of `primal` (itself when it is from outside the
  /// batched code, unbatched). A function value defined by a closure is
  /// materialized in the uniform batched form at `b`.
  mlir::FailureOr<Batched> get(mlir::OpBuilder &b, mlir::Value primal);
  /// `v` with the batch: broadcast tensors, tuples element by element, a
  /// func_ref as its all-batched specialisation. Fails with a diagnostic at
  /// `loc` for what cannot be batched (a function value of unknown code).
  mlir::FailureOr<mlir::Value> toBatched(mlir::OpBuilder &b,
                                         mlir::Location loc, Batched v);

  /// Emits the batched ops of `block` except its terminator.
  mlir::LogicalResult transformOps(mlir::OpBuilder &b, mlir::Block &block);
  /// The counterparts of the operands of `block`'s terminator.
  mlir::FailureOr<llvm::SmallVector<Batched>>
  terminatorValues(mlir::OpBuilder &b, mlir::Block &block);
  /// A call of the per-example function value `callee` on `args`.
  mlir::FailureOr<llvm::SmallVector<Batched>>
  call(mlir::OpBuilder &b, mlir::Location loc, mlir::Value callee,
       llvm::ArrayRef<Batched> args);
  /// As call(), but a top-level function's (or adj.closure's) body is
  /// batched in place rather than specialised, so that each result keeps
  /// its own batched-ness (a specialisation returns every result batched).
  mlir::FailureOr<llvm::SmallVector<Batched>>
  callInPlace(mlir::OpBuilder &b, mlir::Location loc, mlir::Value callee,
              llvm::ArrayRef<Batched> args);

private:
  mlir::LogicalResult transformOp(mlir::OpBuilder &b, mlir::Operation &op);
  mlir::LogicalResult transformIf(mlir::OpBuilder &b, adj::IfOp op);
  mlir::LogicalResult transformLoop(mlir::OpBuilder &b, mlir::Operation *op);
  mlir::LogicalResult transformEnvOp(mlir::OpBuilder &b, mlir::Operation &op);
  /// Per example `cond ? a : b` for a batched condition.
  mlir::FailureOr<Batched> selectBatched(mlir::OpBuilder &b,
                                         mlir::Location loc, mlir::Value cond,
                                         Batched a, Batched c,
                                         mlir::Type type);
  /// The uniform batched form of the closure `lambda`.
  mlir::FailureOr<mlir::Value> uniformLambda(mlir::OpBuilder &b,
                                             adj::LambdaOp lambda);
  /// A body (a closure's, a function's) batched in place for `args`.
  mlir::FailureOr<llvm::SmallVector<Batched>>
  inlineBody(mlir::OpBuilder &b, mlir::Block &body,
             llvm::ArrayRef<Batched> args);
  /// The captures of `closure` followed by `args`.
  mlir::FailureOr<llvm::SmallVector<Batched>>
  withCaptures(mlir::OpBuilder &b, adj::ClosureOp closure,
               llvm::ArrayRef<Batched> args);
  /// A call of `@f` (leading `args` may be an adj.closure's captures).
  mlir::FailureOr<llvm::SmallVector<Batched>>
  callFunction(mlir::OpBuilder &b, mlir::Location loc, adj::FuncOp f,
               llvm::ArrayRef<Batched> args);

  Batching &owner_;
  int64_t size_;
  mlir::IRMapping map_;
  llvm::DenseSet<mlir::Value> batched_;
};

} // namespace adjoint::ad

#endif // ADJOINT_LIB_AD_BATCHING_H
