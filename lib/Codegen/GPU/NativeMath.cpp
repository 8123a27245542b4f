//===- NativeMath.cpp - Vendor math calls LLVM selects natively -----------===//

#include "adjoint/Codegen/GPU/NativeMath.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

void adjoint::gpu::replaceNativeCalls(
    Operation *module, StringRef prefix,
    function_ref<Value(OpBuilder &, Location, StringRef, ValueRange)>
        nativeOf) {
  module->walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee || !callee->starts_with(prefix) ||
        call.getNumResults() != 1)
      return;
    OpBuilder b(call);
    Value native = nativeOf(b, call.getLoc(), *callee, call.getArgOperands());
    if (!native || native.getType() != call.getResult().getType())
      return;
    call.getResult().replaceAllUsesWith(native);
    call.erase();
  });
  for (Region &region : module->getRegions())
    for (auto function :
         llvm::make_early_inc_range(region.getOps<LLVM::LLVMFuncOp>()))
      if (function.isExternal() && function.getSymName().starts_with(prefix) &&
          SymbolTable::symbolKnownUseEmpty(function, module))
        function.erase();
}

Value adjoint::gpu::buildNativeMath(OpBuilder &b, Location loc,
                                    StringRef base, ValueRange args) {
  if (args.empty())
    return nullptr;
  Value x = args.front();
  Type type = x.getType();
  if (isa<IntegerType>(type))
    return args.size() == 1 && base == "abs"
               ? LLVM::AbsOp::create(b, loc, type, x,
                                     /*is_int_min_poison=*/false)
               : nullptr;
  if (!isa<FloatType>(type))
    return nullptr;
  if (args.size() == 1) {
    if (base == "sqrt")
      return LLVM::SqrtOp::create(b, loc, type, x);
    if (base == "fabs")
      return LLVM::FAbsOp::create(b, loc, type, x);
    if (base == "floor")
      return LLVM::FFloorOp::create(b, loc, type, x);
    if (base == "ceil")
      return LLVM::FCeilOp::create(b, loc, type, x);
    if (base == "trunc")
      return LLVM::FTruncOp::create(b, loc, type, x);
    if (base == "round")
      return LLVM::RoundOp::create(b, loc, type, x);
    if (base == "rint" || base == "nearbyint")
      return LLVM::RoundEvenOp::create(b, loc, type, x);
    if (base == "rsqrt") {
      Value one = LLVM::ConstantOp::create(b, loc, type,
                                           b.getFloatAttr(type, 1.0));
      return LLVM::FDivOp::create(b, loc, one,
                                  LLVM::SqrtOp::create(b, loc, type, x));
    }
    return nullptr;
  }
  if (args.size() == 2) {
    if (base == "copysign")
      return LLVM::CopySignOp::create(b, loc, type, x, args[1]);
    if (base == "fmod")
      return LLVM::FRemOp::create(b, loc, x, args[1]);
    if (base == "fmin")
      return LLVM::MinNumOp::create(b, loc, type, x, args[1]);
    if (base == "fmax")
      return LLVM::MaxNumOp::create(b, loc, type, x, args[1]);
    return nullptr;
  }
  if (args.size() == 3 && base == "fma")
    return LLVM::FMAOp::create(b, loc, type, x, args[1], args[2]);
  return nullptr;
}
