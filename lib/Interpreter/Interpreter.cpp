//===- Interpreter.cpp - Calls, blocks and control flow -------------------===//
//
// The recursive core of the interpreter: calls, blocks, adj.if, adj.for and
// adj.while, the evaluation thread and the public entry points. Closures,
// tuples and environments are in Structure.cpp, the tensor primitives in the
// kernel families (Elementwise.cpp, Reductions.cpp, ...).
//
// Deep recursion: every public call evaluates on a dedicated thread whose
// stack is sized from Options::maxCallDepth (kStackPerCall bytes per call
// level, several times what one level measures), and every block evaluation
// also compares the stack pointer against the real end of that stack. The
// depth limit therefore normally fires first, and if the system cannot give
// a stack that large (or deeply nested control flow makes levels bigger),
// the stack check turns the overflow into an adjoint::Error as well.
//
//===----------------------------------------------------------------------===//

#include "InterpreterImpl.h"

#include <exception>
#include <functional>
#include <pthread.h>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

/// Stack reserved per call level. One level (callFunction -> evalBlock ->
/// evalOp -> evalCall, plus an adj.if region on the way) measures about
/// 0.55 KiB in a Release build; the margin covers Debug builds and nesting.
static constexpr size_t kStackPerCall = 2048;
/// Stack for everything that is not a call level.
static constexpr size_t kStackBase = size_t(32) << 20;
/// Headroom kept below the guard: the deepest non-recursive work (a kernel,
/// Eigen's stack-allocated GEMM blocks, an exception being thrown).
static constexpr size_t kStackMargin = size_t(1) << 20;


//===----------------------------------------------------------------------===//
// The evaluation thread
//===----------------------------------------------------------------------===//

namespace {
struct EvalJob {
  const char **stackLimit;
  unsigned *depth;
  std::function<std::vector<interp::Value>()> fn;
  std::vector<interp::Value> result;
  std::exception_ptr error;
};
} // namespace

static void *evalThreadEntry(void *arg) {
  auto *job = static_cast<EvalJob *>(arg);
  // Everything thrown is caught here: no exception leaves the thread.
  try {
    pthread_attr_t attr;
    void *low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
    }
    if (!low || size < 2 * kStackMargin)
      throw Error("cannot determine the interpreter's stack bounds");
    *job->stackLimit = static_cast<const char *>(low) + kStackMargin;
    *job->depth = 0;
    job->result = job->fn();
  } catch (...) {
    job->error = std::current_exception();
  }
  return nullptr;
}

std::vector<interp::Value>
Interpreter::Impl::runOnEvalThread(
    std::function<std::vector<interp::Value>()> fn) {
  EvalJob job{&stackLimit, &depth, std::move(fn), {}, nullptr};
  size_t size = kStackBase + (size_t(options.maxCallDepth) + 1) * kStackPerCall;
  pthread_t thread;
  for (;;) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int rc = pthread_attr_setstacksize(&attr, size);
    if (rc == 0)
      rc = pthread_create(&thread, &attr, evalThreadEntry, &job);
    pthread_attr_destroy(&attr);
    if (rc == 0)
      break;
    // The system refused a stack this large: take a smaller one. The stack
    // check still turns deep recursion into an error, only earlier.
    if (size <= 4 * kStackMargin)
      throw Error("cannot start the interpreter's evaluation thread");
    size /= 2;
  }
  pthread_join(thread, nullptr);
  if (job.error)
    std::rethrow_exception(job.error);
  return std::move(job.result);
}

[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void
depthExceeded(Operation *where, unsigned limit) {
  throw Error("call depth limit of " + std::to_string(limit) +
              " exceeded at " + formatLocation(where->getLoc()) + " (" +
              where->getName().getStringRef().str() + ")");
}

/// Checks a call's arguments and binds them and the captures in `frame`.
LLVM_ATTRIBUTE_NOINLINE static void bindArguments(const CallableInfo &info,
                                                  const FunctionValue &fn,
                                                  ArrayRef<interp::Value> args,
                                                  Operation *where,
                                                  Frame &frame) {
  Block &body = *info.body;
  // An adj.lambda's captures fill its free-variable slots; an adj.func's
  // (made by adj.closure) are its leading parameters.
  bool lambda = !isa<adj::FuncOp>(fn.callee);
  size_t leading = lambda ? 0 : fn.captures.size();
  if (leading > body.getNumArguments())
    fail(where, "a closure with " + Twine(leading) + " captured values of a "
                    "function with " + Twine(body.getNumArguments()) +
                    " parameters");
  if (leading + args.size() != body.getNumArguments())
    fail(where, "the callee expects " +
                    Twine(body.getNumArguments() - leading) +
                    " arguments, got " + Twine(args.size()));
  if (lambda) {
    if (fn.captures.size() != info.freeVars.size())
      fail(where, "a closure with " + Twine(fn.captures.size()) +
                      " captured values, its lambda has " +
                      Twine(info.freeVars.size()) + " free variables");
    for (size_t i = 0; i < fn.captures.size(); ++i)
      frame.values[i] = fn.captures[i];
  }
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    const interp::Value &value =
        i < leading ? fn.captures[i] : args[i - leading];
    std::string why = typeMismatch(value, arg.getType());
    if (!why.empty())
      fail(where, i < leading ? "captured value #" + Twine(i) + ": " + why
                              : "argument #" + Twine(i - leading) + ": " + why);
    frame[arg] = value;
  }
}

std::vector<interp::Value>
Interpreter::Impl::callFunction(const FunctionValue &fn,
                                ArrayRef<interp::Value> args,
                                Operation *site) {
  Operation *where = site ? site : fn.callee;
  if (!fn.callee)
    fail(where, "calling an empty function value");
  if (depth >= options.maxCallDepth)
    depthExceeded(where, options.maxCallDepth);
  DepthGuard guard(depth);
  const CallableInfo &info = infoFor(fn.callee);
  Frame frame(&info);
  bindArguments(info, fn, args, where, frame);
  std::vector<interp::Value> results;
  evalBlock(*info.body, frame, results);
  return results;
}

/// Throws the stack-exhaustion error (see the file comment).
[[noreturn]] LLVM_ATTRIBUTE_NOINLINE static void
stackExhausted(Block &block, unsigned depth, unsigned limit) {
  fail(block.getParentOp(), "the evaluation stack is exhausted at call depth " +
                                Twine(depth) + " (call depth limit " +
                                Twine(limit) + ")");
}

/// The operands of a terminator, read from `frame`.
LLVM_ATTRIBUTE_NOINLINE static void
collectResults(Operation *terminator, Frame &frame,
               std::vector<interp::Value> &results) {
  results.clear();
  for (mlir::Value operand : terminator->getOperands())
    results.push_back(frame[operand]);
}

void Interpreter::Impl::evalBlock(Block &block, Frame &frame,
                                  std::vector<interp::Value> &results) {
  // Checked at every block, not only at calls, so that nested regions
  // cannot overflow the stack either.
  if (static_cast<const char *>(__builtin_frame_address(0)) < stackLimit)
    stackExhausted(block, depth, options.maxCallDepth);
  for (Operation &op : block.getOperations()) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      return collectResults(&op, frame, results);
    evalOp(&op, frame);
  }
  fail(block.getParentOp(), "a block without terminator");
}

/// Binds `values` to the results of `op`, checking the count.
LLVM_ATTRIBUTE_NOINLINE static void
bindResults(Operation *op, Frame &frame,
            const std::vector<interp::Value> &values) {
  if (values.size() != op->getNumResults())
    fail(op, "produced " + Twine(values.size()) + " values for " +
                 Twine(op->getNumResults()) + " results");
  for (auto [result, value] : llvm::zip(op->getResults(), values))
    frame[result] = value;
}

LLVM_ATTRIBUTE_NOINLINE void Interpreter::Impl::evalOp(Operation *op,
                                                       Frame &frame) {
  // Only the ops that recurse are dispatched here, so that this frame and
  // their handlers' frames stay small on the recursive path.
  if (auto call = dyn_cast<adj::CallOp>(op))
    return evalCall(call, frame);
  if (auto ifOp = dyn_cast<adj::IfOp>(op))
    return evalIf(ifOp, frame);
  if (auto forOp = dyn_cast<adj::ForOp>(op))
    return evalFor(forOp, frame);
  if (auto whileOp = dyn_cast<adj::WhileOp>(op))
    return evalWhile(whileOp, frame);
  evalOther(op, frame);
}

/// The callee and arguments of a call, read from `frame`.
LLVM_ATTRIBUTE_NOINLINE static const FunctionValue &
callOperands(adj::CallOp op, Frame &frame,
             std::vector<interp::Value> &args) {
  const interp::Value &callee = frame[op.getCallee()];
  if (!callee.isFunction())
    fail(op, "the callee is not a function value");
  args.reserve(op.getArgs().size());
  for (mlir::Value arg : op.getArgs())
    args.push_back(frame[arg]);
  return callee.function();
}

LLVM_ATTRIBUTE_NOINLINE void Interpreter::Impl::evalCall(adj::CallOp op,
                                                         Frame &frame) {
  std::vector<interp::Value> args;
  const FunctionValue &fn = callOperands(op, frame, args);
  bindResults(op, frame, callFunction(fn, args, op));
}

/// The boolean of a rank-0 (or one-element) i1 tensor.
LLVM_ATTRIBUTE_NOINLINE static bool conditionOf(Operation *op,
                                                const interp::Value &value) {
  if (!value.isTensor() || value.tensor().dtype() != DType::I1 ||
      value.tensor().numel() != 1)
    fail(op, "the condition must be a tensor<i1>");
  return value.tensor().at(0) != 0;
}

LLVM_ATTRIBUTE_NOINLINE void Interpreter::Impl::evalIf(adj::IfOp op,
                                                       Frame &frame) {
  bool taken = conditionOf(op, frame[op.getCondition()]);
  Region &region = taken ? op.getThenRegion() : op.getElseRegion();
  std::vector<interp::Value> results;
  evalBlock(region.front(), frame, results);
  bindResults(op, frame, results);
}

/// The value of a rank-0 i64 tensor.
static int64_t indexOf(Operation *op, const interp::Value &value,
                       const char *what) {
  if (!value.isTensor() || value.tensor().dtype() != DType::I64 ||
      value.tensor().rank() != 0)
    fail(op, Twine(what) + " must be a tensor<i64>");
  return *ptr<int64_t>(value.tensor());
}

LLVM_ATTRIBUTE_NOINLINE void Interpreter::Impl::evalFor(adj::ForOp op,
                                                        Frame &frame) {
  int64_t lb = indexOf(op, frame[op.getLowerBound()], "the lower bound");
  int64_t ub = indexOf(op, frame[op.getUpperBound()], "the upper bound");
  int64_t step = indexOf(op, frame[op.getStep()], "the step");
  if (step <= 0)
    fail(op, "the step must be positive, got " + Twine(step));
  std::vector<interp::Value> carried;
  for (mlir::Value init : op.getInits())
    carried.push_back(frame[init]);
  Block &body = op.getBody().front();
  if (body.getNumArguments() != carried.size() + 1)
    fail(op, "the body takes " + Twine(body.getNumArguments()) +
                 " arguments, expected " + Twine(carried.size() + 1));
  for (int64_t i = lb; i < ub;) {
    Tensor iv(DType::I64, {});
    *ptr<int64_t>(iv) = i;
    frame[body.getArgument(0)] = iv;
    for (size_t k = 0; k < carried.size(); ++k)
      frame[body.getArgument(k + 1)] = carried[k];
    evalBlock(body, frame, carried);
    if (carried.size() != op.getNumResults())
      fail(op, "the body yields " + Twine(carried.size()) + " values for " +
                   Twine(op.getNumResults()) + " results");
    if (i > std::numeric_limits<int64_t>::max() - step)
      break;
    i += step;
  }
  bindResults(op, frame, carried);
}

LLVM_ATTRIBUTE_NOINLINE void Interpreter::Impl::evalWhile(adj::WhileOp op,
                                                          Frame &frame) {
  std::vector<interp::Value> carried, cond;
  for (mlir::Value init : op.getInits())
    carried.push_back(frame[init]);
  Block &condBlock = op.getCond().front(), &body = op.getBody().front();
  if (condBlock.getNumArguments() != carried.size() ||
      body.getNumArguments() != carried.size())
    fail(op, "the regions must take the " + Twine(carried.size()) +
                 " carried values");
  for (;;) {
    for (size_t k = 0; k < carried.size(); ++k)
      frame[condBlock.getArgument(k)] = carried[k];
    evalBlock(condBlock, frame, cond);
    if (cond.size() != 1)
      fail(op, "the cond region must yield one tensor<i1>");
    if (!conditionOf(op, cond.front()))
      break;
    for (size_t k = 0; k < carried.size(); ++k)
      frame[body.getArgument(k)] = carried[k];
    evalBlock(body, frame, carried);
    if (carried.size() != op.getNumResults())
      fail(op, "the body yields " + Twine(carried.size()) + " values for " +
                   Twine(op.getNumResults()) + " results");
  }
  bindResults(op, frame, carried);
}

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(ModuleOp module, Options options)
    : impl_(std::make_unique<Impl>(module, options)) {}

Interpreter::~Interpreter() = default;

std::vector<interp::Value> Interpreter::call(llvm::StringRef name,
                                     llvm::ArrayRef<interp::Value> args) {
  adj::FuncOp func = impl_->funcs.lookup(name);
  if (!func)
    throw Error("no adj.func named '" + name.str() + "' in the module");
  std::vector<interp::Value> owned(args.begin(), args.end());
  return impl_->runOnEvalThread([this, func, owned = std::move(owned)] {
    return impl_->callFunction(FunctionValue{func, {}}, owned, nullptr);
  });
}

std::vector<interp::Value> Interpreter::call(const interp::Value &function,
                                     llvm::ArrayRef<interp::Value> args) {
  FunctionValue fn = function.function();
  std::vector<interp::Value> owned(args.begin(), args.end());
  return impl_->runOnEvalThread(
      [this, fn = std::move(fn), owned = std::move(owned)] {
        return impl_->callFunction(fn, owned, nullptr);
      });
}
