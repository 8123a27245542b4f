//===- Grad.cpp - The -adj-grad pass: expand AD requests ------------------===//
//
// Each request becomes a closure over the transformed function:
//
//   grad(f)           = \x. let (y, bp) = J(f)(x); (env, dx) = bp(1) in dx
//   value_and_grad(f) = \x. ... in (y, dx)
//   vjp(f)            = \x. let (y, bp) = J(f)(x) in (y, \dy. bp(dy)[1:])
//   jvp(f)            = \x tx. T(f)(x, tx)
//   vmap(f)           = \xs. B(f)(xs)        (Batching.cpp)
//
// Requests are expanded innermost first (the walk is post-order), so the
// code that an outer request differentiates contains no requests any more:
// that is all grad(grad(f)) needs, and vmap is one more request in that walk,
// so grad(vmap(f)) and vmap(grad(f)) batch or differentiate code that holds
// no requests. The bodies of the forward, tangent and batched functions are
// built once every request has been expanded.
//
//===----------------------------------------------------------------------===//

#include "Batching.h"
#include "Transform.h"

#include "adjoint/AD/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace adjoint::ad {
#define GEN_PASS_DEF_GRAD
#include "adjoint/AD/Passes.h.inc"
} // namespace adjoint::ad

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad;

namespace {

/// The argument indices `wrt` selects (all when absent).
SmallVector<int64_t> chosenArgs(std::optional<ArrayRef<int64_t>> wrt,
                                size_t numArgs) {
  if (wrt)
    return SmallVector<int64_t>(*wrt);
  SmallVector<int64_t> all;
  for (size_t i = 0; i < numArgs; ++i)
    all.push_back(i);
  return all;
}

/// Checks what requests support: a typed function whose parameters and
/// results hold no functions.
LogicalResult checkRequest(Operation *request, Value fn) {
  auto type = dyn_cast<adj::FnType>(fn.getType());
  if (!type)
    return request->emitOpError(
        "needs a typed function (run -adj-infer first)");
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    if (containsFunction(t))
      return request->emitOpError("cannot differentiate a function whose "
                                  "parameters or results are functions: ")
             << t;
  return success();
}

/// Erases the definition of a differentiated function value that the
/// expansion left unused: an enclosing request would otherwise transform
/// the dead primal code too, and fail on what only its derivative may
/// contain (a custom_vjp under forward mode).
void eraseIfDead(Value fn) {
  Operation *def = fn.getDefiningOp();
  if (def && isOpTriviallyDead(def))
    def->erase();
}

/// Expands grad / value_and_grad / vjp (reverse mode).
LogicalResult expandReverse(Operation *request, Value fn,
                            std::optional<ArrayRef<int64_t>> wrt,
                            bool customSens, ReverseMode &reverse) {
  if (failed(checkRequest(request, fn)))
    return failure();
  Location loc = request->getLoc();
  OpBuilder b(request);
  FailureOr<Value> jf = reverse.lift(b, fn);
  if (failed(jf))
    return failure();
  auto fnType = cast<adj::FnType>(fn.getType());
  auto jType = cast<adj::FnType>(jf->getType());
  auto resultType = cast<adj::FnType>(request->getResult(0).getType());
  SmallVector<int64_t> chosen = chosenArgs(wrt, fnType.getInputs().size());
  size_t numResults = fnType.getResults().size();
  bool isGrad = isa<adj::GradOp, adj::ValueAndGradOp>(request);

  if (isGrad) {
    auto resultTensor = dyn_cast<RankedTensorType>(fnType.getResults()[0]);
    if (!customSens && resultTensor &&
        isa<ComplexType>(resultTensor.getElementType()))
      return request->emitOpError(
                 "needs a real-valued result, got ")
             << fnType.getResults()[0]
             << ": the gradient of a complex function is defined only for "
                "holomorphic ones (JAX's holomorphic=True: seed a vjp with "
                "ones)";
    if (!customSens &&
        (!resultTensor || !isa<FloatType>(resultTensor.getElementType())))
      return request->emitOpError(
                 "needs a floating-point tensor result to seed with ones, "
                 "got ")
             << fnType.getResults()[0];
  }

  auto [lambda, lb] = makeClosure(b, loc, resultType);
  ValueRange params = lambda.getBody().front().getArguments();
  size_t numArgs = fnType.getInputs().size();
  auto fwd = adj::CallOp::create(lb, loc, jType.getResults(), *jf,
                                 params.take_front(numArgs));
  ValueRange values = fwd.getResults().drop_back();
  Value bprop = fwd.getResults().back();
  auto bpType = cast<adj::FnType>(bprop.getType());

  /// Calls the backpropagator and keeps the sensitivities of `chosen`.
  auto pullBack = [&](OpBuilder &at, ValueRange douts) {
    auto sens = adj::CallOp::create(at, loc, bpType.getResults(), bprop, douts);
    SmallVector<Value> out;
    for (int64_t i : chosen)
      out.push_back(sens.getResult(1 + i));
    return out;
  };

  SmallVector<Value> returned;
  if (isGrad) {
    Value dout =
        customSens
            ? params.back()
            : adj::FillOp::create(lb, loc, values[0].getType(),
                                  lb.getF64FloatAttr(1.0))
                  .getResult();
    if (isa<adj::ValueAndGradOp>(request))
      returned.push_back(values[0]);
    llvm::append_range(returned, pullBack(lb, dout));
  } else {
    // vjp: the values and a pullback closure over the backpropagator.
    llvm::append_range(returned, values);
    auto pullbackType = cast<adj::FnType>(resultType.getResults()[numResults]);
    auto [pullback, pb] = makeClosure(lb, loc, pullbackType);
    adj::ReturnOp::create(
        pb, loc, pullBack(pb, pullback.getBody().front().getArguments()));
    returned.push_back(pullback);
  }
  adj::ReturnOp::create(lb, loc, returned);
  request->getResult(0).replaceAllUsesWith(lambda);
  request->erase();
  eraseIfDead(fn);
  return success();
}

/// Expands jvp (forward mode).
LogicalResult expandForward(adj::JvpOp request, ForwardMode &forward) {
  Value fn = request.getFn();
  if (failed(checkRequest(request, fn)))
    return failure();
  Location loc = request.getLoc();
  OpBuilder b(request);
  FailureOr<Value> tf = forward.lift(b, fn);
  if (failed(tf))
    return failure();
  auto fnType = cast<adj::FnType>(fn.getType());
  auto tType = cast<adj::FnType>(tf->getType());
  size_t numArgs = fnType.getInputs().size();
  SmallVector<int64_t> chosen = chosenArgs(request.getWrt(), numArgs);

  auto [lambda, lb] =
      makeClosure(b, loc, cast<adj::FnType>(request.getType()));
  ValueRange params = lambda.getBody().front().getArguments();
  SmallVector<Value> args(params.take_front(numArgs));
  // Arguments outside `wrt` have zero tangents.
  for (size_t i = 0; i < numArgs; ++i) {
    auto pos = llvm::find(chosen, static_cast<int64_t>(i));
    args.push_back(pos != chosen.end()
                       ? params[numArgs + (pos - chosen.begin())]
                       : adj::ZerosLikeOp::create(lb, loc, params[i])
                             .getResult());
  }
  auto call = adj::CallOp::create(lb, loc, tType.getResults(), *tf, args);
  adj::ReturnOp::create(lb, loc, call.getResults());
  request.getResult().replaceAllUsesWith(lambda.getResult());
  request.erase();
  eraseIfDead(fn);
  return success();
}

struct Grad : adjoint::ad::impl::GradBase<Grad> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> requests;
    module.walk([&](Operation *op) {
      if (isa<adj::GradOp, adj::ValueAndGradOp, adj::VjpOp, adj::JvpOp,
              adj::VmapOp>(op))
        requests.push_back(op);
    });
    SymbolTable symbols(module);
    ReverseMode reverse(module, symbols);
    ForwardMode forward(module, symbols);
    Batching batching(module, symbols);
    for (Operation *request : requests) {
      LogicalResult expanded =
          TypeSwitch<Operation *, LogicalResult>(request)
              .Case<adj::GradOp, adj::ValueAndGradOp>([&](auto op) {
                return expandReverse(op, op.getFn(), op.getWrt(),
                                     op.getCustomSens(), reverse);
              })
              .Case<adj::VjpOp>([&](adj::VjpOp op) {
                return expandReverse(op, op.getFn(), op.getWrt(), false,
                                     reverse);
              })
              .Case<adj::JvpOp>(
                  [&](adj::JvpOp op) { return expandForward(op, forward); })
              .Case<adj::VmapOp>(
                  [&](adj::VmapOp op) { return batching.expand(op); });
      if (failed(expanded))
        return signalPassFailure();
    }
    // The reverse mode of a jvp function needs the jvp body first, the
    // forward mode of a fprop function (a Hessian-vector product) the fprop
    // body, and a batched function its per-example body: alternate until
    // the worklists are empty.
    auto pending = [&] {
      return reverse.numPending() + forward.numPending() +
             batching.numPending();
    };
    while (pending() != 0) {
      size_t before = pending();
      if (failed(reverse.finish()) || failed(forward.finish()) ||
          failed(batching.finish()))
        return signalPassFailure();
      if (pending() == before) {
        module.emitError("adj-grad: derivative functions depend on each "
                         "other's bodies in a cycle");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
