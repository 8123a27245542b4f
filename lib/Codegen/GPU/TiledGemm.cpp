//===- TiledGemm.cpp - A tiled GEMM kernel with workgroup memory ----------===//
//
// Work item (tx, ty) of workgroup (bx, by, bz) owns the C entries
// (by*tileM + ty + i*BY, bx*tileN + tx + j*BX) of batch bz, BY = tileM /
// threadM and BX = tileN / threadN: interleaved rather than contiguous, so
// that adjacent work items write adjacent columns and read adjacent words
// of the staged B tile. The staged tiles are stored k-major with one word
// of padding per row so that staging along k hits distinct banks.
//
//===----------------------------------------------------------------------===//

#include "TiledGemm.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace adjoint::gpu;

std::string adjoint::gpu::GemmTiles::check() const {
  if (tileM < 1 || tileN < 1 || tileK < 1 || threadM < 1 || threadN < 1)
    return "tile sizes must be positive";
  if (tileM % threadM != 0 || tileN % threadN != 0)
    return "tile-m and tile-n must be multiples of thread-m and thread-n";
  int64_t threads = (tileM / threadM) * (tileN / threadN);
  if (threads > 1024)
    return "more than 1024 work items per workgroup";
  if ((tileK * tileM) % threads != 0 || (tileK * tileN) % threads != 0)
    return "tile-k * tile-m and tile-k * tile-n must be multiples of the "
           "work items per workgroup";
  return "";
}

adjoint::gpu::GemmTiles adjoint::gpu::GemmTiles::fitTo(int64_t m,
                                                       int64_t n) const {
  GemmTiles fitted = *this;
  auto shrink = [&](int64_t GemmTiles::*tile, int64_t size) {
    while (fitted.*tile / 2 >= size) {
      GemmTiles half = fitted;
      half.*tile /= 2;
      if (!half.check().empty())
        break;
      fitted = half;
    }
  };
  shrink(&GemmTiles::tileM, m);
  shrink(&GemmTiles::tileN, n);
  return fitted;
}

namespace {

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value mul(OpBuilder &b, Location loc, Value x, int64_t c) {
  return arith::MulIOp::create(b, loc, x, indexConstant(b, loc, c));
}

/// `x < bound`, or null when every x the kernel forms is below it anyway.
Value boundCheck(OpBuilder &b, Location loc, Value x, int64_t bound,
                 int64_t tile) {
  if (bound % tile == 0)
    return nullptr;
  return lessThan(b, loc, x, indexConstant(b, loc, bound));
}

Value both(OpBuilder &b, Location loc, Value x, Value y) {
  if (!x)
    return y;
  if (!y)
    return x;
  return arith::AndIOp::create(b, loc, x, y);
}

/// Copies a tileK x `tileOther` tile of X(k, other) into `buffer`
/// (k-major), every work item `tid` taking every `threads`-th element.
void stageTile(
    OpBuilder &b, Location loc, Value buffer, Value tid, int64_t threads,
    int64_t tileK, int64_t tileOther, bool kContiguous, Value k0, Value o0,
    int64_t kSize, int64_t otherSize,
    const std::function<Value(OpBuilder &, Value, Value)> &load) {
  Type element = cast<MemRefType>(buffer.getType()).getElementType();
  for (int64_t l = 0; l < tileK * tileOther / threads; ++l) {
    Value e = add(b, loc, tid, indexConstant(b, loc, l * threads));
    int64_t fast = kContiguous ? tileK : tileOther;
    Value fastIdx =
        arith::RemUIOp::create(b, loc, e, indexConstant(b, loc, fast));
    Value slowIdx =
        arith::DivUIOp::create(b, loc, e, indexConstant(b, loc, fast));
    Value kk = kContiguous ? fastIdx : slowIdx;
    Value oo = kContiguous ? slowIdx : fastIdx;
    Value gk = add(b, loc, k0, kk), go = add(b, loc, o0, oo);
    Value ok = both(b, loc, boundCheck(b, loc, gk, kSize, tileK),
                    boundCheck(b, loc, go, otherSize, tileOther));
    Value v;
    if (!ok) {
      v = load(b, gk, go);
    } else {
      auto ifOp = scf::IfOp::create(b, loc, TypeRange{element}, ok, true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, load(b, gk, go));
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(
          b, loc,
          Value(arith::ConstantOp::create(b, loc, b.getZeroAttr(element))));
      b.setInsertionPointAfter(ifOp);
      v = ifOp.getResult(0);
    }
    memref::StoreOp::create(b, loc, v, buffer, ValueRange{kk, oo});
  }
}

} // namespace

void adjoint::gpu::emitTiledGemm(OpBuilder &b, Location loc,
                                 const GemmProblem &p, const GemmTiles &t) {
  int64_t bx = t.tileN / t.threadN, by = t.tileM / t.threadM;
  int64_t threads = bx * by;
  LaunchShape shape;
  shape.grid = {static_cast<int64_t>(llvm::divideCeil(p.n, t.tileN)),
                static_cast<int64_t>(llvm::divideCeil(p.m, t.tileM)),
                p.batch};
  shape.block = {bx, by, 1};
  MemRefType aTile = workgroupBuffer({t.tileK, t.tileM + 1}, p.element);
  MemRefType bTile = workgroupBuffer({t.tileK, t.tileN + 1}, p.element);
  mlir::gpu::LaunchOp launch = createLaunch(b, loc, shape, {aTile, bTile});
  Value as = launch.getWorkgroupAttributions()[0];
  Value bs = launch.getWorkgroupAttributions()[1];

  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  Value batch = launch.getBlockIds().z;
  Value tid = add(b, loc, mul(b, loc, ty, bx), tx);
  Value m0 = mul(b, loc, launch.getBlockIds().y, t.tileM);
  Value n0 = mul(b, loc, launch.getBlockIds().x, t.tileN);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(p.element));
  SmallVector<Value> init(t.threadM * t.threadN, zero);

  auto kLoop = scf::ForOp::create(
      b, loc, indexConstant(b, loc, 0),
      indexConstant(b, loc, static_cast<int64_t>(llvm::divideCeil(p.k, t.tileK))),
      indexConstant(b, loc, 1), init,
      [&](OpBuilder &lb, Location l, Value kt, ValueRange accs) {
        Value k0 = mul(lb, l, kt, t.tileK);
        stageTile(lb, l, as, tid, threads, t.tileK, t.tileM, p.aKContiguous,
                  k0, m0, p.k, p.m, [&](OpBuilder &sb, Value k, Value m) {
                    return p.loadA(sb, l, batch, m, k);
                  });
        stageTile(lb, l, bs, tid, threads, t.tileK, t.tileN, p.bKContiguous,
                  k0, n0, p.k, p.n, [&](OpBuilder &sb, Value k, Value n) {
                    return p.loadB(sb, l, batch, k, n);
                  });
        barrier(lb, l);
        auto inner = scf::ForOp::create(
            lb, l, indexConstant(lb, l, 0), indexConstant(lb, l, t.tileK),
            indexConstant(lb, l, 1), accs,
            [&](OpBuilder &ib, Location il, Value kk, ValueRange acc) {
              SmallVector<Value> as_, bs_;
              for (int64_t i = 0; i < t.threadM; ++i)
                as_.push_back(memref::LoadOp::create(
                    ib, il, as,
                    ValueRange{kk, add(ib, il, ty,
                                       indexConstant(ib, il, i * by))}));
              for (int64_t j = 0; j < t.threadN; ++j)
                bs_.push_back(memref::LoadOp::create(
                    ib, il, bs,
                    ValueRange{kk, add(ib, il, tx,
                                       indexConstant(ib, il, j * bx))}));
              SmallVector<Value> next;
              for (int64_t i = 0; i < t.threadM; ++i)
                for (int64_t j = 0; j < t.threadN; ++j) {
                  Value prod = arith::MulFOp::create(ib, il, as_[i], bs_[j]);
                  next.push_back(arith::AddFOp::create(
                      ib, il, acc[i * t.threadN + j], prod));
                }
              scf::YieldOp::create(ib, il, next);
            });
        // The next step overwrites the tiles: wait until all have read.
        barrier(lb, l);
        scf::YieldOp::create(lb, l, inner.getResults());
      });

  // The k steps stay a loop: fully unrolled (LLVM does that to a few
  // steps, k <= 128), the copies of the staging and of the unrolled inner
  // loop keep the accumulators and fragments live across one long block,
  // where AMDGPU's register allocator takes seconds (a 16384x1024x100
  // product: 4.5 s of one step's compile). Unrolling the steps gains
  // nothing: each waits at two barriers. The annotation reaches LLVM
  // through -adj-gpu-loop-annotations.
  MLIRContext *ctx = b.getContext();
  kLoop->setAttr(
      kLoopAnnotationAttrName,
      LLVM::LoopAnnotationAttr::get(
          ctx, {}, {}, {},
          LLVM::LoopUnrollAttr::get(ctx, b.getBoolAttr(true), {}, {}, {}, {},
                                    {}, {}),
          {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));

  for (int64_t i = 0; i < t.threadM; ++i) {
    Value m = add(b, loc, m0, add(b, loc, ty, indexConstant(b, loc, i * by)));
    for (int64_t j = 0; j < t.threadN; ++j) {
      Value n =
          add(b, loc, n0, add(b, loc, tx, indexConstant(b, loc, j * bx)));
      Value acc = kLoop.getResult(i * t.threadN + j);
      Value ok = both(b, loc, boundCheck(b, loc, m, p.m, t.tileM),
                      boundCheck(b, loc, n, p.n, t.tileN));
      if (!ok) {
        p.accumulateC(b, loc, batch, m, n, acc);
        continue;
      }
      emitIf(b, loc, ok, [&](OpBuilder &tb) {
        p.accumulateC(tb, loc, batch, m, n, acc);
      });
    }
  }
}

LogicalResult adjoint::gpu::replaceWithTiledGemm(
    Operation *root, const GemmTiles &tiles, StringRef pass,
    function_ref<FailureOr<GemmProblem>(Operation *)> match) {
  if (std::string why = tiles.check(); !why.empty())
    return root->emitError() << "-" << pass << ": " << why;
  SmallVector<std::pair<Operation *, GemmProblem>> found;
  root->walk([&](Operation *op) {
    if (op->getParentOfType<mlir::gpu::LaunchOp>())
      return;
    FailureOr<GemmProblem> p = match(op);
    // CUDA and HIP cap the grid's y and z at 65535 workgroups; such
    // shapes stay with the naive mapping rather than fail to launch.
    constexpr int64_t kMaxGridYZ = 65535;
    if (succeeded(p) && p->batch <= kMaxGridYZ &&
        static_cast<int64_t>(llvm::divideCeil(
            p->m, tiles.fitTo(p->m, p->n).tileM)) <= kMaxGridYZ)
      found.emplace_back(op, std::move(*p));
  });
  for (auto &[op, p] : found) {
    OpBuilder b(op);
    if (p.beforeLaunch && failed(p.beforeLaunch(b, op->getLoc())))
      return failure();
    emitTiledGemm(b, op->getLoc(), p, tiles.fitTo(p.m, p.n));
    op->erase();
  }
  return success();
}
