//===- CountFlops.cpp - Print the FLOPs of each function ------------------===//
//
// An analysis pass over the cost model of Flops.h: prints one line per
// adj.func, in module order, on standard output so that FileCheck can read
// it next to (or instead of) the IR, which the pass leaves unchanged.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Flops.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace adjoint::adj {
#define GEN_PASS_DEF_COUNTFLOPS
#include "adjoint/Dialect/Adj/Transforms/Passes.h.inc"
} // namespace adjoint::adj

using namespace mlir;
using namespace adjoint::adj;

namespace {
struct CountFlops : adjoint::adj::impl::CountFlopsBase<CountFlops> {
  void runOnOperation() override {
    // One counter for the module, so that each body is visited once however
    // many functions call it.
    FlopCounter counter;
    llvm::raw_ostream &os = llvm::outs();
    for (auto func : getOperation().getOps<FuncOp>()) {
      FlopCount count = counter.count(func);
      os << "@" << func.getSymName() << ": ";
      if (count.flops)
        os << *count.flops << " flops\n";
      else
        os << "unknown (" << count.reason << ")\n";
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
