//===- NativeMath.cpp - libdevice calls PTX has instructions for ----------===//

#include "adjoint/Codegen/NVIDIA/Passes.h"
#include "adjoint/Codegen/GPU/NativeMath.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace adjoint::nvidia {
#define GEN_PASS_DEF_NATIVEMATH
#include "adjoint/Codegen/NVIDIA/Passes.h.inc"
} // namespace adjoint::nvidia

using namespace mlir;

namespace {

/// The replacement of a call of the libdevice function `name` (f32 and f64
/// variants alike), or null when PTX has no instruction for it.
Value nativeOf(OpBuilder &b, Location loc, StringRef name, ValueRange args) {
  name.consume_front("__nv_");
  if (args.size() == 1 && isa<IntegerType>(args.front().getType())) {
    // The integer ones: abs (i32), llabs (i64).
    if (name == "abs" || name == "llabs")
      return adjoint::gpu::buildNativeMath(b, loc, "abs", args);
    return nullptr;
  }
  if (args.empty() || !isa<Float32Type, Float64Type>(args.front().getType()))
    return nullptr;
  // The f32 functions are the f64 ones with an "f" (sqrtf, sqrt); no f64
  // name handled here ends with "f".
  bool single = isa<Float32Type>(args.front().getType());
  if (single != name.ends_with("f"))
    return nullptr;
  if (single)
    name = name.drop_back();
  return adjoint::gpu::buildNativeMath(b, loc, name, args);
}

struct NativeMath : adjoint::nvidia::impl::NativeMathBase<NativeMath> {
  void runOnOperation() override {
    adjoint::gpu::replaceNativeCalls(getOperation(), "__nv_", nativeOf);
  }
};

} // namespace
