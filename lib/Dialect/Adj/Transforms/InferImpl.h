//===- InferImpl.h - The abstract interpreter of -adj-infer -----*- C++ -*-===//
//
// Internal to the Infer pass: the interpreter that the pass (Infer.cpp), its
// call handling (InferCalls.cpp) and its per-op rules (InferOps.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_INFERIMPL_H
#define ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_INFERIMPL_H

#include "InferValues.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace adjoint::adj::infer {

using mlir::Value;
using mlir::ValueRange;
using mlir::Type;
using mlir::Operation;
using mlir::Region;
using mlir::Block;
using mlir::OpOperand;
using mlir::LogicalResult;
using mlir::ModuleOp;
using mlir::MLIRContext;
using mlir::SymbolTable;
using mlir::StringAttr;
using mlir::FailureOr;
using mlir::Location;
using mlir::Attribute;
using llvm::SmallVector;
using llvm::ArrayRef;
using llvm::StringRef;
using llvm::DenseMap;

/// Limits that turn divergence into diagnostics.
constexpr unsigned kMaxRounds = 32;
constexpr unsigned kMaxLoopIterations = 16;
constexpr unsigned kMaxSpecializations = 32;
constexpr unsigned kMaxTypeDepth = 32;

using Results = std::optional<SmallVector<Abs>>;

/// One body being interpreted at one signature: a top-level function (or a
/// clone of it) or a closure.
struct Body {
  Operation *op = nullptr;
  SmallVector<Abs> args;
  /// What the body returns; std::nullopt before it has returned once.
  Results results;
  unsigned round = 0, epoch = 0;
  bool onStack = false;
};

class Inferrer {
public:
  explicit Inferrer(ModuleOp module)
      : module(module), ctx(module.getContext()), symbols(module) {}
  LogicalResult run();

private:
  // Interpretation.
  void interpretBlock(Block &block);
  void interpretOp(Operation *op);
  void interpretInferred(Operation *op);
  void interpretCall(CallOp call);
  void interpretIf(IfOp op);
  void interpretLoop(Operation *op, ValueRange inits,
                     ArrayRef<Region *> regions, bool hasInduction);
  Results apply(const Abs &callee, ArrayRef<Abs> args, OpOperand *use,
                Operation *at);
  Results applyFuncRef(FuncRefOp ref, ArrayRef<Abs> args, OpOperand *use,
                       Operation *at);
  Results applyLambda(LambdaOp lambda, ArrayRef<Abs> args, OpOperand *use,
                      Operation *at);
  Results applyRequest(Operation *request, ArrayRef<Abs> args, Operation *at);
  Body *getFunctionBody(StringRef name, ArrayRef<Abs> args, Operation *at);
  Results runBody(Body &body, Region &region, ArrayRef<Type> declaredArgs,
                  ArrayRef<Type> declaredResults);
  bool checkArgs(Operation *at, StringRef what, ArrayRef<Abs> args,
                 ArrayRef<Type> declared);
  SmallVector<Abs> withDeclared(ArrayRef<Abs> args, ArrayRef<Type> declared);
  void processUncalledProducers();

  // Values and types.
  Abs get(Value value);
  SmallVector<Abs> get(ValueRange values);
  void set(Value value, const Abs &abs);
  Type concrete(const Abs &abs, Operation *reportAt = nullptr,
                unsigned depth = 0);
  SmallVector<Type> concrete(ArrayRef<Abs> values,
                             Operation *reportAt = nullptr,
                             unsigned depth = 0);
  Type signatureOf(const Producer &p, Operation *reportAt, unsigned depth);
  FnType lambdaDeclared(LambdaOp lambda);
  void fail() { hadError = true; }

  // Promotion and joins (InferPromote.cpp).
  void promoteOperands(Operation *op);
  void interpretPromotionCast(CastOp cast);
  void insertJoinConversions(Operation *root);

  // Rewriting.
  void finalize();

  ModuleOp module;
  MLIRContext *ctx;
  SymbolTable symbols;
  /// Pristine copies, never inserted, that clones are made from.
  llvm::StringMap<FuncOp> funcTemplates;
  DenseMap<Operation *, Operation *> lambdaTemplates;
  /// Function bodies by "name|argument key"; the original op hosts the first.
  std::map<std::string, std::unique_ptr<Body>> functionBodies;
  llvm::StringMap<unsigned> specializations;
  llvm::StringMap<Operation *> lastOfName;
  /// The body each func_ref designates, and the function it named first.
  DenseMap<Operation *, Body *> refTargets;
  DenseMap<Operation *, StringAttr> refOrigins;
  /// The body of each closure op that has been called.
  DenseMap<Operation *, std::unique_ptr<Body>> lambdaBodies;
  /// Clones of producers for calls at another signature.
  std::map<std::pair<Operation *, std::string>, Operation *> producerClones;
  /// The function type each AD request produces.
  DenseMap<Operation *, FnType> requestTypes;
  DenseMap<Value, Abs> values;
  /// Functions to erase once nothing refers to their values.
  SmallVector<FuncOp> deadFunctions;
  llvm::SetVector<Operation *> seenProducers;
  unsigned round = 0, epoch = 0;
  bool changed = false, hadError = false;
};


} // namespace adjoint::adj::infer

#endif // ADJOINT_LIB_DIALECT_ADJ_TRANSFORMS_INFERIMPL_H
