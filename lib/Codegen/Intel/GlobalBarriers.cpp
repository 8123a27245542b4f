//===- GlobalBarriers.cpp - Barriers that order global memory on SPIR-V ---===//

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/Intel/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace adjoint {
#define GEN_PASS_DEF_GLOBALBARRIERS
#include "adjoint/Codegen/Intel/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct GlobalBarriers : adjoint::impl::GlobalBarriersBase<GlobalBarriers> {
  void runOnOperation() override {
    SmallVector<gpu::BarrierOp> marked;
    getOperation().walk([&](gpu::BarrierOp barrier) {
      if (barrier->hasAttr(adjoint::kGlobalFenceAttrName))
        marked.push_back(barrier);
    });
    for (gpu::BarrierOp barrier : marked) {
      OpBuilder b(barrier);
      auto semantics = spirv::MemorySemantics::AcquireRelease |
                       spirv::MemorySemantics::WorkgroupMemory |
                       spirv::MemorySemantics::CrossWorkgroupMemory;
      spirv::ControlBarrierOp::create(b, barrier.getLoc(),
                                      spirv::Scope::Workgroup,
                                      spirv::Scope::Workgroup, semantics);
      barrier.erase();
    }
  }
};

} // namespace
