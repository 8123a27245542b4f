//===- NativeMath.cpp - libdevice calls PTX has instructions for ----------===//

#include "adjoint/Codegen/NVIDIA/Passes.h"

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
    Value x = args.front();
    if (name == "abs" || name == "llabs")
      return LLVM::AbsOp::create(b, loc, x.getType(), x,
                                 /*is_int_min_poison=*/false);
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
  Value x = args[0];
  Type type = x.getType();
  if (args.size() == 1) {
    if (name == "sqrt")
      return LLVM::SqrtOp::create(b, loc, type, x);
    if (name == "fabs")
      return LLVM::FAbsOp::create(b, loc, type, x);
    if (name == "floor")
      return LLVM::FFloorOp::create(b, loc, type, x);
    if (name == "ceil")
      return LLVM::FCeilOp::create(b, loc, type, x);
    if (name == "trunc")
      return LLVM::FTruncOp::create(b, loc, type, x);
    if (name == "round")
      return LLVM::RoundOp::create(b, loc, type, x);
    if (name == "rint" || name == "nearbyint")
      return LLVM::RoundEvenOp::create(b, loc, type, x);
    if (name == "rsqrt") {
      Value one = LLVM::ConstantOp::create(b, loc, type,
                                           b.getFloatAttr(type, 1.0));
      return LLVM::FDivOp::create(b, loc, one,
                                  LLVM::SqrtOp::create(b, loc, type, x));
    }
    return nullptr;
  }
  if (args.size() == 2) {
    if (name == "copysign")
      return LLVM::CopySignOp::create(b, loc, type, x, args[1]);
    if (name == "fmod")
      return LLVM::FRemOp::create(b, loc, x, args[1]);
    if (name == "fmin")
      return LLVM::MinNumOp::create(b, loc, type, x, args[1]);
    if (name == "fmax")
      return LLVM::MaxNumOp::create(b, loc, type, x, args[1]);
    return nullptr;
  }
  if (args.size() == 3 && name == "fma")
    return LLVM::FMAOp::create(b, loc, type, x, args[1], args[2]);
  return nullptr;
}

struct NativeMath : adjoint::nvidia::impl::NativeMathBase<NativeMath> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !callee->starts_with("__nv_") ||
          call.getNumResults() != 1)
        return;
      OpBuilder b(call);
      Value native =
          nativeOf(b, call.getLoc(), *callee, call.getArgOperands());
      if (!native || native.getType() != call.getResult().getType())
        return;
      call.getResult().replaceAllUsesWith(native);
      call.erase();
    });
    // Declarations nothing calls any more.
    for (auto function :
         llvm::make_early_inc_range(module.getOps<LLVM::LLVMFuncOp>()))
      if (function.isExternal() &&
          function.getSymName().starts_with("__nv_") &&
          SymbolTable::symbolKnownUseEmpty(function, module))
        function.erase();
  }
};

} // namespace
