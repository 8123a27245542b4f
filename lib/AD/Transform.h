//===- Transform.h - The J transform and forward mode -----------*- C++ -*-===//
//
// Internal interface of the AD transform. ReverseMode builds, for every
// function reached, a forward version that also returns a backpropagator
// closure (Myia's J); ForwardMode builds versions that carry tangents. Both
// work on the same IR shapes: top-level functions, closures, calls of
// function values, tuples, conditionals and loops; primitives are handled by
// the rule tables (include/adjoint/AD/Rules.h).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_AD_TRANSFORM_H
#define ADJOINT_LIB_AD_TRANSFORM_H

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <deque>

namespace adjoint::ad {

/// The values used inside `regions` (at any depth) but defined outside
/// `scope`, in order of first use: the free variables of a closure, or the
/// values a branch or a loop body reads from its enclosing region.
llvm::SetVector<mlir::Value> freeValues(mlir::Operation *scope);

/// Whether `type` is or contains a function type.
bool containsFunction(mlir::Type type);

/// Creates an op like `op` (name, attributes) on new operands, with result
/// types re-inferred when the op infers them and mapped by `mapType`
/// otherwise. `op` must have no regions.
mlir::Operation *recreate(mlir::OpBuilder &b, mlir::Operation *op,
                          mlir::ValueRange operands,
                          llvm::function_ref<mlir::Type(mlir::Type)> mapType);

/// The counterpart of the primal value `v` in transformed code emitted at
/// `b` (which `v` must dominate): values without functions in their type
/// are their own counterpart; otherwise what `v`'s defining op reads is
/// lifted first (recursively) and `transformOp` transforms the op with it
/// mapped. A function-valued block argument has no known counterpart: a
/// diagnostic.
mlir::FailureOr<mlir::Value>
liftValue(mlir::OpBuilder &b, mlir::Value v,
          llvm::function_ref<mlir::LogicalResult(mlir::Operation &,
                                                 mlir::IRMapping &)>
              transformOp);

/// Creates an empty closure of `type` at `b`; returns it and a builder at
/// the end of its body.
std::pair<adj::LambdaOp, mlir::OpBuilder>
makeClosure(mlir::OpBuilder &b, mlir::Location loc, adj::FnType type);

/// Adds `s` to the sensitivity of `primal` (nothing for values that carry
/// no derivative).
void accumulateSens(mlir::OpBuilder &b,
                    llvm::DenseMap<mlir::Value, mlir::Value> &sens,
                    mlir::Value primal, mlir::Value s);

/// A worklist of (primal function, derived function) whose bodies are still
/// to be built.
using Worklist = std::deque<std::pair<adj::FuncOp, adj::FuncOp>>;

/// Builds the derived bodies with `build`, except for a derived function
/// whose primal body does not exist yet (it is itself derived by the other
/// mode and still pending there): those stay in the worklist.
mlir::LogicalResult
drainWorklist(Worklist &pending,
              llvm::function_ref<mlir::LogicalResult(adj::FuncOp, adj::FuncOp)>
                  build);

/// Maps `type` structurally: a tuple element by element, a function type by
/// `onFunction` (given the mapped inputs and results), anything else to
/// itself. The shared shape of J (reverse mode) and T (forward mode).
mlir::Type mapStructure(
    mlir::Type type,
    llvm::function_ref<mlir::Type(adj::FnType, llvm::SmallVector<mlir::Type>,
                                  llvm::SmallVector<mlir::Type>)>
        onFunction);

/// The values of `types`' sensitivity types.
llvm::SmallVector<mlir::Type> sensitivityTypes(mlir::TypeRange types);

/// Reverse mode (Myia's J). J(T) is T for tensors and environments, a tuple
/// of J types for a tuple, and for a function `(A...) -> (R...)` the
/// function `(J(A)...) -> (J(R)..., bprop)` with
/// `bprop: (sens(R)...) -> (!adj.env, sens(A)...)`.
class ReverseMode {
public:
  /// `symbols` is shared with ForwardMode: each sees the other's functions.
  ReverseMode(mlir::ModuleOp module, mlir::SymbolTable &symbols);

  static mlir::Type fpropType(mlir::Type type);
  static adj::FnType bpropType(mlir::MLIRContext *ctx, mlir::TypeRange inputs,
                               mlir::TypeRange results);

  /// J(v) for a value `v` of the primal program, emitted at `b`'s insertion
  /// point (which `v` must dominate). Values without functions in their type
  /// are their own J. Fails with a diagnostic for a function-valued
  /// parameter, whose J is not known statically.
  mlir::FailureOr<mlir::Value> lift(mlir::OpBuilder &b, mlir::Value v);

  /// Builds the bodies of the forward functions declared so far (and of
  /// those they need in turn), except those whose primal body does not
  /// exist yet.
  mlir::LogicalResult finish();
  bool hasPending() const { return !pending_.empty(); }
  size_t numPending() const { return pending_.size(); }

private:
  /// How a backpropagator returns the sensitivities of the free values.
  enum class Form {
    /// `(env, sens(args)...)`: functions and closures.
    Env,
    /// `(sens(free values)..., sens(args)...)`: branches and loop bodies.
    Values,
  };

  /// `@f_fprop`, declared on first request; its body is built by finish().
  adj::FuncOp fpropOf(adj::FuncOp f);
  /// The key of a free variable in environments.
  int64_t keyOf(mlir::Value v);

  /// Emits the forward code of `block` at `b` (block arguments and free
  /// values must be mapped in `map`), then a backpropagator closure over the
  /// free values `fvs`. Returns the forward results followed by the
  /// backpropagator.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  transformBlock(mlir::OpBuilder &b, mlir::Block &block, mlir::IRMapping &map,
                 llvm::ArrayRef<mlir::Value> fvs, Form form);
  /// Emits the forward version of one op; records what its backward needs.
  mlir::LogicalResult forwardOp(mlir::OpBuilder &b, mlir::Operation &op,
                                mlir::IRMapping &map);
  /// Emits the backward contribution of one op (in reverse order).
  mlir::LogicalResult backwardOp(mlir::OpBuilder &b, mlir::Operation &op,
                                 mlir::IRMapping &map,
                                 llvm::DenseMap<mlir::Value, mlir::Value> &sens);

  mlir::LogicalResult forwardLambda(mlir::OpBuilder &b, adj::LambdaOp op,
                                    mlir::IRMapping &map);
  mlir::LogicalResult forwardIf(mlir::OpBuilder &b, adj::IfOp op,
                                mlir::IRMapping &map);
  mlir::LogicalResult forwardLoop(mlir::OpBuilder &b, mlir::Operation *op,
                                  mlir::IRMapping &map);
  /// custom_vjp, custom_jvp and checkpoint (CustomRules.cpp).
  mlir::LogicalResult forwardCustom(mlir::OpBuilder &b, mlir::Operation *op,
                                    mlir::IRMapping &map);
  void backwardCustom(mlir::OpBuilder &b, mlir::Operation *op,
                      mlir::Value dout,
                      llvm::DenseMap<mlir::Value, mlir::Value> &sens);

  mlir::ModuleOp module_;
  mlir::SymbolTable &symbols_;
  llvm::DenseMap<mlir::Operation *, adj::FuncOp> fprops_;
  Worklist pending_;
  llvm::DenseMap<mlir::Value, int64_t> keys_;
  int64_t nextKey_ = 0;
  /// Per forward-transformed op: the op created for it (primitives) or the
  /// backpropagator value it produced (calls, branches, loops).
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> forwardOps_;
  llvm::DenseMap<mlir::Operation *, mlir::Value> bprops_;
  /// Per branch or loop op: the free values its backpropagator covers.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value>> regionFvs_;
};

/// Forward mode. T(T) is T for tensors and environments, a tuple of T types
/// for a tuple, and for a function `(A...) -> (R...)` the function
/// `(T(A)..., sens(A)...) -> (T(R)..., sens(R)...)` that takes and returns
/// tangents alongside the values.
class ForwardMode {
public:
  ForwardMode(mlir::ModuleOp module, mlir::SymbolTable &symbols);

  static mlir::Type jvpType(mlir::Type type);

  /// T(v) for a value of the primal program (its tangent is zero), emitted
  /// at `b`'s insertion point.
  mlir::FailureOr<mlir::Value> lift(mlir::OpBuilder &b, mlir::Value v);

  /// Builds the bodies of the `_jvp` functions declared so far, except
  /// those whose primal body does not exist yet.
  mlir::LogicalResult finish();
  bool hasPending() const { return !pending_.empty(); }
  size_t numPending() const { return pending_.size(); }

private:
  /// Primal value -> its tangent (absent or null: zero).
  using Tangents = llvm::DenseMap<mlir::Value, mlir::Value>;

  adj::FuncOp jvpOf(adj::FuncOp f);
  /// Emits the transformed ops of `block`; returns the transformed results
  /// followed by their tangents (zeros where they are zero).
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  transformBlock(mlir::OpBuilder &b, mlir::Block &block, mlir::IRMapping &map,
                 Tangents &tangents);
  mlir::LogicalResult transformOp(mlir::OpBuilder &b, mlir::Operation &op,
                                  mlir::IRMapping &map, Tangents &tangents);
  /// The tangent of `v` as a value (zeros when it is zero).
  mlir::Value tangentOrZero(mlir::OpBuilder &b, mlir::Value v,
                            mlir::IRMapping &map, Tangents &tangents);
  /// custom_jvp, checkpoint, and the refusal of custom_vjp (CustomRules.cpp).
  mlir::LogicalResult transformCustom(mlir::OpBuilder &b, mlir::Operation *op,
                                      mlir::IRMapping &map);

  mlir::ModuleOp module_;
  mlir::SymbolTable &symbols_;
  llvm::DenseMap<mlir::Operation *, adj::FuncOp> jvps_;
  Worklist pending_;
};

} // namespace adjoint::ad

#endif // ADJOINT_LIB_AD_TRANSFORM_H
