//===- Derivatives.cpp - Types of stop_gradient, custom rules, remat ------===//
//
// Result types of the ops that annotate differentiation: stop_gradient and
// optimization_barrier return their input's type; custom_vjp, custom_jvp and
// checkpoint return their function's type, after checking that the rules
// fit it (inference is also the verifier). Untyped operands give !adj.any.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace mlir;
using namespace adjoint::adj;

using Loc = std::optional<Location>;
using Results = SmallVectorImpl<Type>;

/// Whether `type` holds a function (at any depth of tuples).
static bool holdsFunction(Type type) {
  if (isa<FnType>(type))
    return true;
  if (auto tuple = dyn_cast<adjoint::adj::TupleType>(type))
    return llvm::any_of(tuple.getTypes(), holdsFunction);
  return false;
}

static SmallVector<Type> sensitivities(TypeRange types) {
  SmallVector<Type> out;
  for (Type t : types)
    out.push_back(getSensitivityType(t));
  return out;
}

/// Pushes !adj.any and succeeds when an operand is untyped; fails when one
/// is not a function; std::nullopt when all are typed functions. A function
/// type that still contains !adj.any is checked later, once inferred.
static std::optional<LogicalResult> checkFunctions(MLIRContext *ctx, Loc loc,
                                                   StringRef op,
                                                   ValueRange operands,
                                                   Results &results) {
  for (Value v : operands)
    if (!isa<FnType, AnyType>(v.getType()))
      return emitOptionalError(loc, "adj.", op,
                               ": expected a function value, got ",
                               v.getType());
  if (isa<AnyType>(operands.front().getType())) {
    results.push_back(AnyType::get(ctx));
    return success();
  }
  auto fn = cast<FnType>(operands.front().getType());
  for (Type t : llvm::concat<const Type>(fn.getInputs(), fn.getResults()))
    if (holdsFunction(t))
      return emitOptionalError(loc, "adj.", op,
                               ": the function's arguments and results may "
                               "not hold functions, got ",
                               t);
  if (llvm::any_of(operands, [](Value v) { return containsAny(v.getType()); })) {
    results.push_back(fn);
    return success();
  }
  return std::nullopt;
}

/// Fails with a diagnostic unless `got` is `expected`.
static LogicalResult expectTypes(Loc loc, StringRef op, StringRef what,
                                 TypeRange got, TypeRange expected) {
  if (TypeRange(got) == TypeRange(expected))
    return success();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(expected, os);
  os << ") but got (";
  llvm::interleaveComma(got, os);
  os << ")";
  return emitOptionalError(loc, "adj.", op, ": ", what, " must be ", text);
}

LogicalResult StopGradientOp::inferReturnTypes(MLIRContext *, Loc loc,
                                               Adaptor adaptor,
                                               Results &results) {
  Type type = adaptor.getInput().getType();
  if (holdsFunction(type) || isa<EnvType>(type))
    return emitOptionalError(loc, "adj.stop_gradient: expected a tensor or a "
                                  "tuple of tensors, got ",
                             type);
  results.push_back(type);
  return success();
}

LogicalResult OptimizationBarrierOp::inferReturnTypes(MLIRContext *, Loc,
                                                      Adaptor adaptor,
                                                      Results &results) {
  results.push_back(adaptor.getInput().getType());
  return success();
}

LogicalResult CheckpointOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                             Adaptor adaptor,
                                             Results &results) {
  if (auto done = checkFunctions(ctx, loc, "checkpoint",
                                 adaptor.getOperands(), results))
    return *done;
  results.push_back(adaptor.getFn().getType());
  return success();
}

LogicalResult CustomVjpOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            Results &results) {
  if (auto done = checkFunctions(ctx, loc, "custom_vjp",
                                 adaptor.getOperands(), results))
    return *done;
  auto fn = cast<FnType>(adaptor.getFn().getType());
  auto fwd = cast<FnType>(adaptor.getFwd().getType());
  auto bwd = cast<FnType>(adaptor.getBwd().getType());
  size_t numResults = fn.getResults().size();
  if (failed(expectTypes(loc, "custom_vjp", "fwd's arguments",
                         fwd.getInputs(), fn.getInputs())))
    return failure();
  if (fwd.getResults().size() < numResults)
    return emitOptionalError(loc, "adj.custom_vjp: fwd must return f's ",
                             numResults, " results followed by residuals, "
                             "it returns ",
                             fwd.getResults().size(), " values");
  TypeRange residuals = fwd.getResults().drop_front(numResults);
  if (failed(expectTypes(loc, "custom_vjp", "fwd's first results",
                         fwd.getResults().take_front(numResults),
                         fn.getResults())))
    return failure();
  for (Type t : residuals)
    if (holdsFunction(t))
      return emitOptionalError(loc, "adj.custom_vjp: a residual may not hold "
                                    "a function, got ",
                               t);
  SmallVector<Type> bwdInputs(residuals);
  llvm::append_range(bwdInputs, sensitivities(fn.getResults()));
  if (failed(expectTypes(loc, "custom_vjp",
                         "bwd's arguments (the residuals, then the "
                         "sensitivities of f's results)",
                         bwd.getInputs(), bwdInputs)) ||
      failed(expectTypes(loc, "custom_vjp",
                         "bwd's results (the sensitivities of f's arguments)",
                         bwd.getResults(), sensitivities(fn.getInputs()))))
    return failure();
  results.push_back(fn);
  return success();
}

LogicalResult CustomJvpOp::inferReturnTypes(MLIRContext *ctx, Loc loc,
                                            Adaptor adaptor,
                                            Results &results) {
  if (auto done = checkFunctions(ctx, loc, "custom_jvp",
                                 adaptor.getOperands(), results))
    return *done;
  auto fn = cast<FnType>(adaptor.getFn().getType());
  auto rule = cast<FnType>(adaptor.getRule().getType());
  SmallVector<Type> inputs(fn.getInputs()), outputs(fn.getResults());
  llvm::append_range(inputs, sensitivities(fn.getInputs()));
  llvm::append_range(outputs, sensitivities(fn.getResults()));
  if (failed(expectTypes(loc, "custom_jvp",
                         "the rule's arguments (f's arguments, then their "
                         "tangents)",
                         rule.getInputs(), inputs)) ||
      failed(expectTypes(loc, "custom_jvp",
                         "the rule's results (f's results, then their "
                         "tangents)",
                         rule.getResults(), outputs)))
    return failure();
  results.push_back(fn);
  return success();
}
