//===- NativeMath.cpp - ocml calls AMDGPU has instructions for ------------===//

#include "adjoint/Codegen/AMD/Passes.h"
#include "adjoint/Codegen/GPU/NativeMath.h"

namespace adjoint::amd {
#define GEN_PASS_DEF_NATIVEMATH
#include "adjoint/Codegen/AMD/Passes.h.inc"
} // namespace adjoint::amd

using namespace mlir;

namespace {

/// The replacement of a call of the ocml function `name`
/// (`__ocml_<base>_f<bits>`), or null when AMDGPU has no instruction for
/// it or the suffix does not match the argument type.
Value nativeOf(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
  if (!name.consume_front("__ocml_") || args.empty())
    return nullptr;
  auto type = dyn_cast<FloatType>(args.front().getType());
  if (!type)
    return nullptr;
  std::string suffix = "_f" + std::to_string(type.getWidth());
  if (!name.consume_back(suffix))
    return nullptr;
  return adjoint::gpu::buildNativeMath(b, loc, name, args);
}

struct NativeMath : adjoint::amd::impl::NativeMathBase<NativeMath> {
  void runOnOperation() override {
    adjoint::gpu::replaceNativeCalls(getOperation(), "__ocml_", nativeOf);
  }
};

} // namespace
