//===- ReuseDonated.cpp - Outputs computed into donated arguments ---------===//
//
// A donated argument of an entry (kDonatedArgAttrName) is memory the caller
// gave to the call. For each one, this pass pairs a returned value of the
// same type and makes the ops that produce it write into the argument: the
// first init (destination) on the value's chain of destinations whose
// contents are not read (a tensor.empty, or the init of a linalg op whose
// payload ignores it) becomes the argument, and the chain moves after the
// argument's other reads where it can. One-shot bufferization then
// computes the output in place, since the argument is writable, unless a
// later read of the argument conflicts; then it allocates as it would have
// anyway, with no copy, because the init's contents are never read.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

namespace adjoint {
#define GEN_PASS_DEF_REUSEDONATED
#include "adjoint/Codegen/Common/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

/// Where the output `value` can be computed into a donated argument: the
/// init (destination) of an op in `block` to replace by the argument, and
/// `chain`, the ops from that one to the one that produces `value`. From
/// the producer down, through destination-style ops whose results have
/// their init's type (elementwise ops, fills, products, insert_slice into a
/// whole tensor), the first init that is not read (a linalg op whose
/// payload ignores it: the update w - lr * g written over the gradient's
/// buffer) or is a tensor.empty (whose contents are undefined anyway).
/// Null when the chain ends elsewhere (an argument, a loop, a cast).
OpOperand *donatableInit(Value value, Block *block,
                         SmallVectorImpl<DestinationStyleOpInterface> &chain) {
  chain.clear();
  while (true) {
    auto result = dyn_cast<OpResult>(value);
    if (!result || result.getOwner()->getBlock() != block)
      return nullptr;
    auto op = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!op)
      return nullptr;
    OpOperand *init = op.getTiedOpOperand(result);
    if (!init || init->get().getType() != value.getType())
      return nullptr;
    chain.insert(chain.begin(), op);
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
    bool unread = linalgOp && !linalgOp.payloadUsesValueFromOperand(init);
    if (unread || init->get().getDefiningOp<tensor::EmptyOp>())
      return init;
    value = init->get();
  }
}

/// Moves `chain` (which computes a returned value into donated `arg`) right
/// before `ret` when `arg` is read after the chain starts, so that
/// bufferization sees every other read of `arg` before the write and can
/// write in place. Only when nothing but the chain and `ret` uses its
/// results (pure ops on tensors: moving them later keeps every operand
/// defined first).
void sinkAfterReads(ArrayRef<DestinationStyleOpInterface> chain, Value arg,
                    Operation *ret) {
  llvm::SmallPtrSet<Operation *, 4> members;
  for (DestinationStyleOpInterface op : chain)
    members.insert(op);
  for (DestinationStyleOpInterface op : chain)
    for (Operation *user : op->getUsers())
      if (user != ret && !members.contains(user))
        return;
  Block *block = ret->getBlock();
  Operation *first = chain.front();
  bool readLater = llvm::any_of(arg.getUsers(), [&](Operation *user) {
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    return inBlock && !members.contains(inBlock) &&
           first->isBeforeInBlock(inBlock);
  });
  if (!readLater)
    return;
  for (DestinationStyleOpInterface op : chain)
    op->moveBefore(ret);
}

/// Whether the op that defines `value` reads `arg` directly: the update of
/// a donated parameter (w - lr * g reads w) is its best output, since the
/// reads of w before it do not conflict with writing it in place.
bool readsDirectly(Value value, Value arg) {
  Operation *op = value.getDefiningOp();
  return op && llvm::is_contained(op->getOperands(), arg);
}

struct ReuseDonated : adjoint::impl::ReuseDonatedBase<ReuseDonated> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic() &&
          func.getBody().hasOneBlock())
        reuse(func);
  }

  void reuse(func::FuncOp func) {
    Block &body = func.getBody().front();
    auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
    if (!ret)
      return;
    llvm::SmallPtrSet<OpOperand *, 8> paired;
    for (BlockArgument arg : func.getArguments()) {
      if (!func.getArgAttr(arg.getArgNumber(), adjoint::kDonatedArgAttrName) ||
          !isa<RankedTensorType>(arg.getType()))
        continue;
      // Returned as it is: the output is the donated memory already.
      OpOperand *choice = nullptr;
      for (OpOperand &out : ret->getOpOperands())
        if (out.get() == arg && !paired.contains(&out)) {
          choice = &out;
          break;
        }
      if (choice) {
        paired.insert(choice);
        continue;
      }
      SmallVector<DestinationStyleOpInterface> chosen, chain;
      OpOperand *init = nullptr;
      for (OpOperand &out : ret->getOpOperands()) {
        if (paired.contains(&out) || out.get().getType() != arg.getType())
          continue;
        OpOperand *candidate = donatableInit(out.get(), &body, chain);
        // An init that is an argument already: the value is returned
        // twice and computed into the other donated argument.
        if (!candidate || isa<BlockArgument>(candidate->get()))
          continue;
        bool better = !choice || (readsDirectly(out.get(), arg) &&
                                  !readsDirectly(choice->get(), arg));
        if (better) {
          choice = &out;
          init = candidate;
          chosen = chain;
        }
      }
      if (!choice)
        continue;
      paired.insert(choice);
      init->set(arg);
      sinkAfterReads(chosen, arg, ret);
    }
  }
};

} // namespace
