//===- WorkgroupAllocs.cpp - Workgroup attributions to SPIR-V allocs ------===//
//
// The SPIR-V (OpenCL) path's form of workgroup memory; see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVEnums.h"

namespace adjoint {
#define GEN_PASS_DEF_WORKGROUPALLOCS
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;

namespace {

struct WorkgroupAllocsPass
    : adjoint::impl::WorkgroupAllocsBase<WorkgroupAllocsPass> {
  void runOnOperation() override {
    auto workgroup = spirv::StorageClassAttr::get(
        &getContext(), spirv::StorageClass::Workgroup);
    getOperation().walk([&](mlir::gpu::GPUFuncOp func) {
      unsigned count = func.getNumWorkgroupAttributions();
      if (count == 0)
        return;
      Block &entry = func.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      for (BlockArgument arg : func.getWorkgroupAttributions()) {
        auto type = cast<MemRefType>(arg.getType());
        auto allocType = MemRefType::get(type.getShape(),
                                         type.getElementType(),
                                         type.getLayout(), workgroup);
        Value alloc = memref::AllocOp::create(b, arg.getLoc(), allocType);
        // Loads and stores take a memref of any memory space.
        arg.replaceAllUsesWith(alloc);
      }
      entry.eraseArguments(func.getFunctionType().getNumInputs(), count);
      func->setAttr(func.getNumWorkgroupAttributionsAttrName(),
                    b.getI64IntegerAttr(0));
      func->removeAttr("workgroup_attrib_attrs");
    });
  }
};

} // namespace
