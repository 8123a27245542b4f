//===- InferOps.cpp - -adj-infer: the rules of each op --------------------===//
//
// The abstract interpretation of blocks, calls, conditionals, loops and
// every other op (through the op's own result-type inference).
//
//===----------------------------------------------------------------------===//

#include "InferImpl.h"

#include "adjoint/Support/DiagnosticCapture.h"

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::adj::infer;
using adjoint::DiagnosticCapture;

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

void Inferrer::interpretBlock(Block &block) {
  for (Operation &op : block) {
    if (hadError)
      return;
    interpretOp(&op);
  }
}

void Inferrer::interpretCall(CallOp call) {
  Results results = apply(get(call.getCallee()), get(call.getArgs()),
                          &call->getOpOperand(0), call);
  if (hadError)
    return;
  if (results && results->size() != call.getNumResults()) {
    call.emitError() << "expects " << call.getNumResults()
                     << " results, but the callee returns "
                     << results->size();
    fail();
    return;
  }
  for (auto [i, result] : llvm::enumerate(call.getResults()))
    set(result, results ? (*results)[i] : unknown());
}

void Inferrer::interpretIf(IfOp op) {
  SmallVector<SmallVector<Abs>> branches;
  for (Region *region : {&op.getThenRegion(), &op.getElseRegion()}) {
    interpretBlock(region->front());
    if (hadError)
      return;
    branches.push_back(get(region->front().getTerminator()->getOperands()));
  }
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    Abs joined = join(branches[0][i], branches[1][i]);
    if (!joined) {
      op.emitError() << "the branches of adj.if yield different types as "
                        "result #"
                     << i << ": " << describe(branches[0][i]) << " and "
                     << describe(branches[1][i]);
      fail();
      return;
    }
    set(result, joined);
  }
}

/// adj.for and adj.while: the body is interpreted until the carried values
/// stop changing; a change of a known type is an error.
void Inferrer::interpretLoop(Operation *op, ValueRange inits,
                             ArrayRef<Region *> regions, bool hasInduction) {
  SmallVector<Abs> carried = get(inits);
  Region *body = regions.back();
  for (unsigned iteration = 0;; ++iteration) {
    if (iteration == kMaxLoopIterations) {
      op->emitError() << "the loop-carried types do not reach a fixed point";
      fail();
      return;
    }
    // Closures called in the body see new free variables: no memo.
    ++epoch;
    for (Region *region : regions) {
      Block &block = region->front();
      ValueRange args = block.getArguments();
      if (hasInduction && region == body) {
        set(args.front(),
            leaf(RankedTensorType::get({}, IntegerType::get(ctx, 64))));
        args = args.drop_front();
      }
      for (auto [arg, abs] : llvm::zip(args, carried))
        set(arg, abs);
      interpretBlock(block);
      if (hadError)
        return;
    }
    SmallVector<Abs> yielded =
        get(body->front().getTerminator()->getOperands());
    SmallVector<Abs> next;
    for (auto [i, before, after] : llvm::enumerate(carried, yielded)) {
      Abs joined = join(before, after);
      if (!joined) {
        op->emitError() << "loop-carried value #" << i << " changes type from "
                        << describe(before) << " to " << describe(after)
                        << " in the body";
        fail();
        return;
      }
      next.push_back(joined);
    }
    if (keyOfList(next) == keyOfList(carried))
      break;
    carried = next;
  }
  for (auto [result, abs] : llvm::zip(op->getResults(), carried))
    set(result, abs);
}

void Inferrer::interpretInferred(Operation *op) {
  promoteOperands(op);
  for (Value operand : op->getOperands())
    if (hasUnknown(get(operand))) {
      for (Value result : op->getResults())
        set(result, unknown());
      return;
    }
  auto iface = cast<InferTypeOpInterface>(op);
  auto infer = [&](std::optional<Location> loc, SmallVectorImpl<Type> &out) {
    return iface.inferReturnTypes(ctx, loc, op->getOperands(),
                                  op->getAttrDictionary(),
                                  op->getPropertiesStorage(),
                                  op->getRegions(), out);
  };
  SmallVector<Type> inferred;
  if (succeeded(infer(std::nullopt, inferred))) {
    for (auto [result, type] : llvm::zip(op->getResults(), inferred))
      set(result, fromType(type));
    return;
  }
  // Run inference again to capture its reason into one diagnostic.
  std::string reason;
  {
    DiagnosticCapture capture(ctx, DiagnosticCapture::Level::All);
    SmallVector<Type> ignored;
    (void)infer(op->getLoc(), ignored);
    reason = capture.messages();
  }
  InFlightDiagnostic diag = op->emitError()
                            << "type error: '" << op->getName()
                            << "' cannot be applied to operands of types ";
  llvm::interleaveComma(op->getOperandTypes(), diag);
  if (!reason.empty())
    diag << " (" << reason << ")";
  fail();
}

void Inferrer::interpretOp(Operation *op) {
  auto makeFn = [&](Producer::Kind kind) {
    seenProducers.insert(op);
    set(op->getResult(0), fn(Producer{kind, op, {}}));
  };
  if (isa<ReturnOp, YieldOp>(op))
    return;
  if (isa<FuncRefOp>(op))
    return makeFn(Producer::Kind::FuncRef);
  if (auto lambda = dyn_cast<LambdaOp>(op)) {
    if (!lambdaTemplates.count(op))
      lambdaTemplates[op] = op->clone();
    return makeFn(Producer::Kind::Lambda);
  }
  if (isa<GradOp, ValueAndGradOp, VjpOp, JvpOp>(op))
    return makeFn(Producer::Kind::Request);
  if (auto tupleOp = dyn_cast<TupleOp>(op))
    return set(tupleOp.getResult(), tuple(get(tupleOp.getElements())));
  if (auto getOp = dyn_cast<GetOp>(op)) {
    Abs t = get(getOp.getTuple());
    if (t->kind == AbsNode::Kind::Unknown)
      return set(getOp.getResult(), unknown());
    int64_t index = getOp.getIndex();
    if (t->kind != AbsNode::Kind::Tuple || index < 0 ||
        index >= static_cast<int64_t>(t->elements.size())) {
      getOp.emitError() << "type error: cannot take element " << index
                        << " of " << describe(t);
      return fail();
    }
    return set(getOp.getResult(), t->elements[index]);
  }
  if (auto zeros = dyn_cast<ZerosLikeOp>(op))
    return set(zeros.getResult(), sensitivity(get(zeros.getInput()), ctx));
  if (auto call = dyn_cast<CallOp>(op))
    return interpretCall(call);
  if (auto ifOp = dyn_cast<IfOp>(op))
    return interpretIf(ifOp);
  if (auto forOp = dyn_cast<ForOp>(op))
    return interpretLoop(op, forOp.getInits(), {&forOp.getBody()}, true);
  if (auto whileOp = dyn_cast<WhileOp>(op))
    return interpretLoop(op, whileOp.getInits(),
                         {&whileOp.getCond(), &whileOp.getBody()}, false);
  if (isa<InferTypeOpInterface>(op))
    return interpretInferred(op);
  if (auto cast = dyn_cast<CastOp>(op); cast && cast->hasAttr("adj.promoted"))
    return interpretPromotionCast(cast);
  // The other ops (reshape, broadcast_to, cast, creation, env ops, closure)
  // state their result types, which therefore must be known.
  for (Value result : op->getResults()) {
    if (containsAny(result.getType())) {
      op->emitError() << "'" << op->getName()
                      << "' does not infer its result type, so it must be "
                         "declared; got "
                      << result.getType();
      return fail();
    }
    set(result, fromType(result.getType()));
  }
}

