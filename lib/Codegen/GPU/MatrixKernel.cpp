//===- MatrixKernel.cpp - Kernels in which a workgroup owns a matrix ------===//

#include "MatrixKernel.h"
#include "KernelBuilder.h"

#include "adjoint/Codegen/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using adjoint::kGlobalFenceAttrName;
using adjoint::gpu::MatrixKernel;

MatrixKernel::MatrixKernel(OpBuilder &b, Location loc, Type element,
                           int64_t threads, ArrayRef<int64_t> batchShape,
                           mlir::gpu::LaunchOp launch)
    : b(b), loc(loc), elementType(element), threads(threads),
      tid(launch.getThreadIds().x) {
  batch = delinearize(b, loc, launch.getBlockIds().x, batchShape);
}

double MatrixKernel::epsilon() const {
  return elementType.isF64() ? std::numeric_limits<double>::epsilon()
                             : std::numeric_limits<float>::epsilon();
}

Value MatrixKernel::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value MatrixKernel::real(double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(elementType, value));
}

Value MatrixKernel::boolean(bool value) {
  return arith::ConstantIntOp::create(b, loc, value, 1);
}

namespace {
bool isFloat(Value v) { return isa<FloatType>(v.getType()); }
} // namespace

// Upstream's ArithBuilder picks the float or integer op by the operands'
// type, as these helpers promise.
Value MatrixKernel::add(Value x, Value y) {
  return ArithBuilder(b, loc).add(x, y);
}

Value MatrixKernel::sub(Value x, Value y) {
  return ArithBuilder(b, loc).sub(x, y);
}

Value MatrixKernel::mul(Value x, Value y) {
  return ArithBuilder(b, loc).mul(x, y);
}

Value MatrixKernel::div(Value x, Value y) {
  if (isFloat(x))
    return arith::DivFOp::create(b, loc, x, y);
  return arith::DivUIOp::create(b, loc, x, y);
}

Value MatrixKernel::neg(Value x) { return arith::NegFOp::create(b, loc, x); }

Value MatrixKernel::sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }

Value MatrixKernel::abs(Value x) { return math::AbsFOp::create(b, loc, x); }

Value MatrixKernel::max(Value x, Value y) {
  return select(gt(y, x), y, x);
}

Value MatrixKernel::lt(Value x, Value y) {
  return ArithBuilder(b, loc).slt(x, y);
}

Value MatrixKernel::le(Value x, Value y) {
  if (isFloat(x))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, y);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, x, y);
}

Value MatrixKernel::gt(Value x, Value y) {
  return ArithBuilder(b, loc).sgt(x, y);
}

Value MatrixKernel::eq(Value x, Value y) {
  if (isFloat(x))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}

Value MatrixKernel::ne(Value x, Value y) {
  if (isFloat(x))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, y);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, y);
}

Value MatrixKernel::isNaN(Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}

Value MatrixKernel::select(Value cond, Value x, Value y) {
  return ArithBuilder(b, loc).select(cond, x, y);
}

Value MatrixKernel::both(Value x, Value y) {
  return arith::AndIOp::create(b, loc, x, y);
}

Value MatrixKernel::either(Value x, Value y) {
  return arith::OrIOp::create(b, loc, x, y);
}

Value MatrixKernel::negate(Value cond) {
  return arith::XOrIOp::create(b, loc, cond, boolean(true));
}

Value MatrixKernel::toI32(Value x) {
  return arith::IndexCastOp::create(b, loc, b.getI32Type(), x);
}

Value MatrixKernel::toIndex(Value x) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), x);
}

namespace {
bool isWorkgroupBuffer(Value buffer) {
  auto space = dyn_cast_or_null<mlir::gpu::AddressSpaceAttr>(
      cast<MemRefType>(buffer.getType()).getMemorySpace());
  return space && space.getValue() == mlir::gpu::AddressSpace::Workgroup;
}
} // namespace

Value MatrixKernel::load(Value buffer, ValueRange inner) {
  SmallVector<Value> at;
  if (!isWorkgroupBuffer(buffer))
    at.append(batch);
  at.append(inner.begin(), inner.end());
  return memref::LoadOp::create(b, loc, buffer, at);
}

void MatrixKernel::store(Value value, Value buffer, ValueRange inner) {
  SmallVector<Value> at;
  if (!isWorkgroupBuffer(buffer))
    at.append(batch);
  at.append(inner.begin(), inner.end());
  memref::StoreOp::create(b, loc, value, buffer, at);
}

void MatrixKernel::serial(Value lo, Value hi, const Body &body) {
  auto loop = scf::ForOp::create(b, loc, lo, hi, index(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

MatrixKernel::Carried MatrixKernel::serial(Value lo, Value hi, ValueRange init,
                                           const CarriedBody &body) {
  // MLIR 22's SCF-to-SPIR-V lowering returns a loop's results through a
  // variable stored only by the loop body: a loop that runs no iteration
  // yields garbage instead of `init` there. Loops that may be empty run
  // under an scf.if that yields `init` otherwise.
  auto guarded = scf::IfOp::create(b, loc, ValueRange(init).getTypes(),
                                   lt(lo, hi), /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(guarded.elseBlock());
  scf::YieldOp::create(b, loc, init);
  b.setInsertionPointToEnd(guarded.thenBlock());
  auto loop = scf::ForOp::create(b, loc, lo, hi, index(1), init);
  scf::YieldOp::create(b, loc, loop.getResults());
  b.setInsertionPointToEnd(loop.getBody());
  Carried next = body(loop.getInductionVar(), loop.getRegionIterArgs());
  scf::YieldOp::create(b, loc, next);
  return Carried(guarded.getResults());
}

void MatrixKernel::serialDown(Value lo, Value hi, const Body &body) {
  serial(index(0), sub(hi, lo), [&](Value t) {
    body(sub(sub(hi, index(1)), t));
  });
}

void MatrixKernel::spread(Value lo, Value hi, const Body &body) {
  auto loop = scf::ForOp::create(b, loc, add(lo, tid), hi, index(threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  body(loop.getInductionVar());
}

void MatrixKernel::spread(Value rowLo, Value rowHi, Value colLo, Value colHi,
                          const Body2 &body) {
  Value width = sub(colHi, colLo);
  // The count is zero when either range is empty (hi <= lo for each), so
  // the division below never runs with a zero width.
  Value rows = sub(rowHi, rowLo);
  Value count = select(both(lt(rowLo, rowHi), lt(colLo, colHi)),
                       mul(rows, width), index(0));
  spread(index(0), count, [&](Value t) {
    Value i = add(rowLo, arith::DivUIOp::create(b, loc, t, width));
    Value j = add(colLo, arith::RemUIOp::create(b, loc, t, width));
    body(i, j);
  });
}

void MatrixKernel::leader(const std::function<void()> &body) {
  when(eq(tid, index(0)), body);
}

void MatrixKernel::when(Value cond, const std::function<void()> &body) {
  auto branch = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  body();
}

Value MatrixKernel::choose(Value cond, Type type,
                           const std::function<Value()> &then,
                           const std::function<Value()> &otherwise) {
  auto branch = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(branch.thenBlock());
  scf::YieldOp::create(b, loc, then());
  b.setInsertionPointToEnd(branch.elseBlock());
  scf::YieldOp::create(b, loc, otherwise());
  return branch.getResult(0);
}

void MatrixKernel::sync() {
  // The matrices live in global memory.
  auto op = mlir::gpu::BarrierOp::create(b, loc);
  op->setAttr(kGlobalFenceAttrName, b.getUnitAttr());
}

std::pair<Value, Value> MatrixKernel::pairOf(Value round, Value slot,
                                             int64_t players) {
  // The circle method: player 0 stays, players 1..players-1 turn one seat
  // per round; seat s of round r holds 1 + (s + r) mod (players - 1).
  // Slot 0 pairs player 0 with seat 0, slot t > 0 seat t with seat
  // players - 1 - t.
  Value ring = index(players - 1);
  auto seat = [&](Value s) {
    return add(index(1), arith::RemUIOp::create(b, loc, add(s, round), ring));
  };
  Value first = select(eq(slot, index(0)), index(0), seat(slot));
  Value second = select(eq(slot, index(0)), seat(index(0)),
                        seat(sub(index(players - 1), slot)));
  Value swap = lt(second, first);
  return {select(swap, second, first), select(swap, first, second)};
}
