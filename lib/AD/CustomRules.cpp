//===- CustomRules.cpp - custom_vjp, custom_jvp and checkpoint in AD ------===//
//
// The three ops that make a function value with a derivative of its own.
// Each is transformed into a closure of the transformed function type,
// written with the transformed versions of its operands (the only versions
// that exist in transformed code); results of those that a rule does not
// need (a backpropagator, the tangents of the rule's own arguments) are
// dropped and disappear in the optimizer:
//
//   J(custom_vjp(f, fwd, bwd)) = \x. let (y, res, _) = J(fwd)(x)
//                                    in (y, \dy. (env{}, J(bwd)(res, dy)[:-1]))
//   J(custom_jvp(f, rule))      = \x. let (y, ty, bp) = J(rule)(x, 0)
//                                    in (y, \dy. (env{}, bp(0, dy)[tangents]))
//   J(checkpoint(f))            = \x. let (y, _) = J(f)(x)
//                                    in (y, \dy. J(f)(barrier(x))[-1](dy))
//   T(custom_jvp(f, rule))      = \x tx. T(rule)(x, tx, 0, 0)[:primal part]
//   T(checkpoint(f))            = T(f)
//
// The rule of custom_jvp is linear in the tangents, so its reverse mode with
// respect to them at zero tangents is its transpose. Because fwd, bwd and
// the rule are called as ordinary adj functions in the transformed code, an
// outer request differentiates them like any other code (grad of grad).
//
//===----------------------------------------------------------------------===//

#include "Transform.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;

/// Calls the function value `fn` with `args`.
static ValueRange callFn(OpBuilder &b, Location loc, Value fn,
                         ValueRange args) {
  auto type = cast<adj::FnType>(fn.getType());
  return adj::CallOp::create(b, loc, type.getResults(), fn, args)
      .getResults();
}

/// The zero sensitivity of each of `values`.
static SmallVector<Value> zerosOf(OpBuilder &b, Location loc,
                                  ValueRange values) {
  SmallVector<Value> out;
  for (Value v : values)
    out.push_back(adj::ZerosLikeOp::create(b, loc, v));
  return out;
}

/// `v` with an optimization barrier on each of its tensors (through tuples).
static Value barrier(OpBuilder &b, Location loc, Value v) {
  if (isa<RankedTensorType>(v.getType()))
    return adj::OptimizationBarrierOp::create(b, loc, v);
  auto tuple = dyn_cast<adj::TupleType>(v.getType());
  if (!tuple)
    return v;
  SmallVector<Value> elements;
  for (size_t i = 0; i < tuple.size(); ++i)
    elements.push_back(barrier(
        b, loc, adj::GetOp::create(b, loc, v, b.getI64IntegerAttr(i))));
  return adj::TupleOp::create(b, loc, elements);
}

/// The function type of `op`'s result, or a diagnostic for untyped IR.
static FailureOr<adj::FnType> typedResult(Operation *op) {
  auto type = dyn_cast<adj::FnType>(op->getResult(0).getType());
  if (!type || adj::containsAny(type))
    return op->emitOpError("needs typed functions (run -adj-infer first)");
  return type;
}

LogicalResult ReverseMode::forwardCustom(OpBuilder &b, Operation *op,
                                         IRMapping &map) {
  FailureOr<adj::FnType> fnType = typedResult(op);
  if (failed(fnType))
    return failure();
  Location loc = op->getLoc();
  auto jType = cast<adj::FnType>(fpropType(*fnType));
  auto bpType = cast<adj::FnType>(jType.getResults().back());
  size_t numArgs = fnType->getInputs().size();
  size_t numResults = fnType->getResults().size();
  auto [lambda, lb] = makeClosure(b, loc, jType);
  ValueRange xs = lambda.getBody().front().getArguments();
  auto [bprop, bb] = makeClosure(lb, loc, bpType);
  ValueRange dys = bprop.getBody().front().getArguments();
  SmallVector<Value> ys, sens;

  TypeSwitch<Operation *>(op)
      .Case<adj::CustomVjpOp>([&](adj::CustomVjpOp custom) {
        ValueRange out =
            callFn(lb, loc, map.lookupOrDefault(custom.getFwd()), xs);
        llvm::append_range(ys, out.take_front(numResults));
        SmallVector<Value> args(out.drop_front(numResults).drop_back());
        llvm::append_range(args, dys);
        ValueRange dxs =
            callFn(bb, loc, map.lookupOrDefault(custom.getBwd()), args);
        sens.push_back(adj::EnvNewOp::create(bb, loc));
        llvm::append_range(sens, dxs.drop_back());
      })
      .Case<adj::CustomJvpOp>([&](adj::CustomJvpOp custom) {
        SmallVector<Value> args(xs);
        llvm::append_range(args, zerosOf(lb, loc, xs));
        ValueRange out =
            callFn(lb, loc, map.lookupOrDefault(custom.getRule()), args);
        llvm::append_range(ys, out.take_front(numResults));
        // Sensitivities of the rule's primal results are zero; those of its
        // tangent results are dy. Its backpropagator returns (env,
        // sens(x)..., sens(tx)...): the last ones are the transpose.
        SmallVector<Value> douts = zerosOf(bb, loc, ys);
        llvm::append_range(douts, dys);
        ValueRange back = callFn(bb, loc, out.back(), douts);
        sens.push_back(adj::EnvNewOp::create(bb, loc));
        llvm::append_range(sens, back.take_back(numArgs));
      })
      .Case<adj::CheckpointOp>([&](adj::CheckpointOp checkpoint) {
        Value jf = map.lookupOrDefault(checkpoint.getFn());
        ValueRange out = callFn(lb, loc, jf, xs);
        llvm::append_range(ys, out.drop_back());
        SmallVector<Value> again;
        for (Value x : xs)
          again.push_back(barrier(bb, loc, x));
        ValueRange recomputed = callFn(bb, loc, jf, again);
        llvm::append_range(sens, callFn(bb, loc, recomputed.back(), dys));
      });

  adj::ReturnOp::create(bb, loc, sens);
  // The backpropagator was created first, to be filled alongside the
  // forward code; it uses that code's results, so it goes after them.
  Block *body = &lambda.getBody().front();
  bprop->moveBefore(body, body->end());
  ys.push_back(bprop);
  adj::ReturnOp::create(lb, loc, ys);
  map.map(op->getResult(0), lambda.getResult());
  return success();
}

void ReverseMode::backwardCustom(OpBuilder &b, Operation *op, Value dout,
                                 DenseMap<Value, Value> &sens) {
  // The recomputed backpropagator of a checkpoint returns f's environment:
  // the sensitivities of the values f closes over. The custom rules give
  // none (their environments are empty).
  if (auto checkpoint = dyn_cast<adj::CheckpointOp>(op))
    if (dout)
      accumulateSens(b, sens, checkpoint.getFn(), dout);
}

LogicalResult ForwardMode::transformCustom(OpBuilder &b, Operation *op,
                                           IRMapping &map) {
  if (isa<adj::CustomVjpOp>(op))
    return op->emitOpError(
        "cannot be differentiated in forward mode (as in JAX): give the "
        "function a forward-mode rule with adj.custom_jvp, or take the jvp "
        "of a reverse-mode derivative of it");
  if (auto checkpoint = dyn_cast<adj::CheckpointOp>(op)) {
    // Forward mode keeps nothing for later: nothing to recompute.
    map.map(op->getResult(0), map.lookupOrDefault(checkpoint.getFn()));
    return success();
  }
  FailureOr<adj::FnType> fnType = typedResult(op);
  if (failed(fnType))
    return failure();
  Location loc = op->getLoc();
  auto tType = cast<adj::FnType>(jvpType(*fnType));
  auto [lambda, lb] = makeClosure(b, loc, tType);
  ValueRange params = lambda.getBody().front().getArguments();
  SmallVector<Value> args(params);
  // The rule's own arguments have zero tangents.
  llvm::append_range(args, zerosOf(lb, loc, params));
  Value rule = map.lookupOrDefault(cast<adj::CustomJvpOp>(op).getRule());
  ValueRange out = callFn(lb, loc, rule, args);
  adj::ReturnOp::create(lb, loc, out.take_front(tType.getResults().size()));
  map.map(op->getResult(0), lambda.getResult());
  return success();
}
