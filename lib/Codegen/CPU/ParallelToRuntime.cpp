//===- ParallelToRuntime.cpp - scf.parallel on the runtime's threads ------===//
//
// Outlines each large top-level scf.parallel into a chunk function
// `void(void *ctx, int64_t begin, int64_t end)` and calls the runtime's
// adjrt_parallel_for with it, as OpenMP outlining does but on the thread
// pool that the matmul and convolution kernels share (one pool, no second
// set of spinning threads competing for the cores).
//
// The values the loop uses from outside travel in a stack struct in their
// LLVM form. The pass runs before -convert-to-llvm, so it bridges the two
// worlds with unrealized_conversion_cast pairs that the LLVM lowering and
// -reconcile-unrealized-casts cancel.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/CPU/Passes.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"

#include <algorithm>
#include <limits>

namespace adjoint::cpu {
#define GEN_PASS_DEF_PARALLELTORUNTIME
#include "adjoint/Codegen/CPU/Passes.h.inc"
} // namespace adjoint::cpu

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kParallelFor = "adjrt_parallel_for";

// The estimates below saturate: a loop over a shape near the int64 limit
// is large, not a wrapped (possibly small or negative) product.
constexpr int64_t kHuge = std::numeric_limits<int64_t>::max();

int64_t mulSat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kHuge : r;
}

int64_t addSat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? kHuge : r;
}

/// The trip count of a loop dimension when its bounds are constants.
std::optional<int64_t> tripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb),
                         u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s)
    return std::nullopt;
  std::optional<uint64_t> trips = adjoint::checkedTripCount(*l, *u, *s);
  if (!trips)
    return std::nullopt;
  return static_cast<int64_t>(std::min<uint64_t>(*trips, kHuge));
}

/// Operations executed by one run of `block`, loops multiplied out. A
/// dynamic trip count counts as large: such loops are worth threads.
int64_t work(Block &block) {
  constexpr int64_t kUnknownTrips = 1 << 20;
  int64_t total = 0;
  for (Operation &op : block) {
    int64_t trips = 1;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      trips = tripCount(loop.getLowerBound(), loop.getUpperBound(),
                        loop.getStep())
                  .value_or(kUnknownTrips);
    else if (auto loop = dyn_cast<scf::ParallelOp>(op))
      for (auto [lb, ub, step] :
           llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep()))
        trips = mulSat(trips, tripCount(lb, ub, step).value_or(kUnknownTrips));
    int64_t inner = 0;
    for (Region &region : op.getRegions())
      for (Block &b : region)
        inner = addSat(inner, work(b));
    total = addSat(total, mulSat(trips, std::max<int64_t>(inner, 1)));
  }
  return total;
}

class Outliner {
public:
  Outliner(ModuleOp module) : module(module), converter(module.getContext()) {
    ctx = module.getContext();
    ptrType = LLVM::LLVMPointerType::get(ctx);
    i64 = IntegerType::get(ctx, 64);
    chunkType = FunctionType::get(ctx, {ptrType, i64, i64}, {});
  }

  /// Replaces `loop` by a call of adjrt_parallel_for; fails (leaving the
  /// loop alone) when a value it uses has no LLVM form.
  LogicalResult outline(scf::ParallelOp loop);

private:
  /// Declares adjrt_parallel_for(begin, end, grain, fn, ctx) once.
  void declareParallelFor();

  ModuleOp module;
  MLIRContext *ctx;
  LLVMTypeConverter converter;
  Type ptrType, i64;
  FunctionType chunkType;
  unsigned counter = 0;
};

void Outliner::declareParallelFor() {
  if (module.lookupSymbol(kParallelFor))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto type = FunctionType::get(ctx, {i64, i64, i64, chunkType, ptrType}, {});
  auto decl = func::FuncOp::create(b, module.getLoc(), kParallelFor, type);
  decl.setPrivate();
}

LogicalResult Outliner::outline(scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  auto parent = loop->getParentOfType<func::FuncOp>();

  // What the chunk needs from outside: the bounds and whatever the body
  // reads. Constants are cloned instead, so that LLVM still sees them.
  llvm::SetVector<Value> used;
  for (Value v : loop->getOperands())
    used.insert(v);
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  SmallVector<Value> constants, captured;
  SmallVector<Type> fieldTypes;
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    if (def && def->getNumOperands() == 0 && matchPattern(v, m_Constant())) {
      constants.push_back(v);
      continue;
    }
    Type field = converter.convertType(v.getType());
    if (!field)
      return failure();
    captured.push_back(v);
    fieldTypes.push_back(field);
  }
  auto structType = LLVM::LLVMStructType::getLiteral(ctx, fieldTypes);

  // The chunk function, after the function it comes from.
  std::string name;
  do {
    name = (parent.getName() + "_parallel_" + llvm::Twine(counter++)).str();
  } while (module.lookupSymbol(name));
  OpBuilder mb(ctx);
  mb.setInsertionPointAfter(parent);
  auto chunk = func::FuncOp::create(mb, loc, name, chunkType);
  chunk.setPrivate();
  // Internal linkage: objects compiled ahead of time from different modules
  // can then be linked together without clashing chunk names.
  chunk->setAttr("llvm.linkage",
                 LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  Block *entry = chunk.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  IRMapping map;
  for (Value v : constants)
    map.map(v, b.clone(*v.getDefiningOp())->getResult(0));
  Value ctxArg = entry->getArgument(0);
  for (auto [i, v] : llvm::enumerate(captured)) {
    auto field = LLVM::GEPOp::create(
        b, loc, ptrType, structType, ctxArg,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    Value loaded = LLVM::LoadOp::create(b, loc, fieldTypes[i], field);
    if (loaded.getType() != v.getType())
      loaded = UnrealizedConversionCastOp::create(b, loc, v.getType(), loaded)
                   .getResult(0);
    map.map(v, loaded);
  }
  // Iterations [begin, end) of the first dimension: lb + i * step, capped
  // at the upper bound.
  Type index = b.getIndexType();
  Value lb = map.lookup(loop.getLowerBound()[0]);
  Value ub = map.lookup(loop.getUpperBound()[0]);
  Value step = map.lookup(loop.getStep()[0]);
  auto at = [&](Value i64Value) {
    Value i = arith::IndexCastOp::create(b, loc, index, i64Value);
    Value offset = arith::MulIOp::create(b, loc, i, step);
    Value v = arith::AddIOp::create(b, loc, lb, offset);
    return arith::MinSIOp::create(b, loc, v, ub).getResult();
  };
  Value begin = at(entry->getArgument(1)), end = at(entry->getArgument(2));
  auto clone = cast<scf::ParallelOp>(b.clone(*loop, map));
  clone.getLowerBoundMutable()[0].set(begin);
  clone.getUpperBoundMutable()[0].set(end);
  func::ReturnOp::create(b, loc);

  // The call site: the context on the stack (allocated once, in the entry
  // block, so that a loop around this one does not grow the stack), then
  // the pool call over the first dimension's trip count.
  declareParallelFor();
  OpBuilder eb = OpBuilder::atBlockBegin(&parent.getBody().front());
  Value one = LLVM::ConstantOp::create(eb, loc, i64, eb.getI64IntegerAttr(1));
  Value context =
      LLVM::AllocaOp::create(eb, loc, ptrType, structType, one, /*alignment=*/8);
  OpBuilder cb(loop);
  for (auto [i, v] : llvm::enumerate(captured)) {
    Value value = v;
    if (fieldTypes[i] != v.getType())
      value = UnrealizedConversionCastOp::create(cb, loc, fieldTypes[i], v)
                  .getResult(0);
    auto field = LLVM::GEPOp::create(
        cb, loc, ptrType, structType, context,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(cb, loc, value, field);
  }
  Value lb0 = loop.getLowerBound()[0], ub0 = loop.getUpperBound()[0],
        step0 = loop.getStep()[0];
  Value span = arith::SubIOp::create(cb, loc, ub0, lb0);
  Value trips = arith::CeilDivSIOp::create(cb, loc, span, step0);
  Value count = arith::IndexCastOp::create(cb, loc, i64, trips);
  Value zero = arith::ConstantOp::create(cb, loc, cb.getI64IntegerAttr(0));
  Value fn = func::ConstantOp::create(cb, loc, chunkType,
                                      SymbolRefAttr::get(chunk));
  // Grain 0: the pool makes one chunk per thread.
  func::CallOp::create(cb, loc, kParallelFor, TypeRange{},
                       ValueRange{zero, count, zero, fn, context});
  loop.erase();
  return success();
}

struct ParallelToRuntime
    : adjoint::cpu::impl::ParallelToRuntimeBase<ParallelToRuntime> {
  using ParallelToRuntimeBase::ParallelToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::ParallelOp> loops;
    module.walk([&](scf::ParallelOp loop) {
      // Nested parallel loops run inside their parent's chunks; loops with
      // reductions would need a combining step the pool does not offer.
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop.getNumResults() != 0 ||
          !loop->getParentOfType<func::FuncOp>())
        return;
      int64_t trips = 1;
      for (auto [lb, ub, step] : llvm::zip(
               loop.getLowerBound(), loop.getUpperBound(), loop.getStep()))
        trips = mulSat(trips, tripCount(lb, ub, step).value_or(1 << 20));
      if (mulSat(trips, work(*loop.getBody())) >= minWork)
        loops.push_back(loop);
    });
    Outliner outliner(module);
    for (scf::ParallelOp loop : loops)
      (void)outliner.outline(loop);
  }
};

} // namespace
