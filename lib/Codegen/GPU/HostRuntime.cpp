//===- HostRuntime.cpp - Host code that calls the GPU runtime -------------===//

#include "HostRuntime.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

FailureOr<func::FuncOp>
adjoint::gpu::getRuntimeFunction(ModuleOp module, StringRef name,
                                 FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
    if (existing.getFunctionType() != type)
      return existing.emitError("'")
             << name << "' is a GPU runtime function of type " << type;
    return existing;
  }
  if (Operation *other = module.lookupSymbol(name))
    return other->emitError("'") << name
                                 << "' is reserved for the GPU runtime";
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(b, module.getLoc(), name, type);
  decl.setPrivate();
  return decl;
}

int64_t adjoint::gpu::elementBytes(Type elementType) {
  // Complex numbers are two parts, real first.
  if (auto complex = dyn_cast<ComplexType>(elementType))
    return 2 * elementBytes(complex.getElementType());
  return std::max<int64_t>(1, (elementType.getIntOrFloatBitWidth() + 7) / 8);
}

Value adjoint::gpu::i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value adjoint::gpu::bufferAddress(OpBuilder &b, Location loc, Value memref,
                                  bool withOffset) {
  auto type = cast<MemRefType>(memref.getType());
  Value index =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address =
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value pointer = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
  if (!withOffset)
    return pointer;
  // The offset in elements, static or not (folds to a constant for the
  // static layouts of compiled code).
  Value offset =
      memref::ExtractStridedMetadataOp::create(b, loc, memref).getOffset();
  Value bytes = arith::MulIOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), offset),
      i64Constant(b, loc, elementBytes(type.getElementType())));
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), pointer,
                             ArrayRef<LLVM::GEPArg>{bytes});
}

Value adjoint::gpu::memrefAt(OpBuilder &b, Location loc, Value pointer,
                             MemRefType type) {
  LLVMTypeConverter converter(b.getContext());
  Value descriptor =
      MemRefDescriptor::fromStaticShape(b, loc, converter, type, pointer);
  return UnrealizedConversionCastOp::create(b, loc, type, descriptor)
      .getResult(0);
}
