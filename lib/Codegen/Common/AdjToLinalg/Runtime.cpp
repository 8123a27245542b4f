//===- Runtime.cpp - Calls of the closure runtime from generated code -----===//
//
// The runtime (include/adjoint/Runtime/Closures.h) keeps boxes of captured
// values and environments. Generated code reaches it through private
// declarations, and moves tensors in and out through one pair of small
// wrappers per tensor type:
//
//   __adj_put_T(tuple, slot, x: T)  copies x into the tuple's slot;
//   __adj_get_T(tuple, slot) -> T   copies the slot into a fresh buffer
//                                   (zeros when the tuple is null).
//
// The wrappers take and return tensors, so one-shot bufferization gives
// them buffers at the function boundary: inside, the buffer stays alive
// for the whole runtime call that reads or fills it through its raw
// pointer, and the fresh buffer of a get is returned, owned by the caller,
// so the buffer-deallocation pipeline frees it like any other result.
//
//===----------------------------------------------------------------------===//

#include "Structure.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Runtime/Closures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// The runtime's code for an element type (adj_rt_dtype).
int64_t dtypeCode(Type element) {
  if (element.isF64())
    return ADJ_RT_F64;
  if (element.isF32())
    return ADJ_RT_F32;
  if (element.isF16())
    return ADJ_RT_F16;
  if (element.isBF16())
    return ADJ_RT_BF16;
  if (element.isInteger(64))
    return ADJ_RT_I64;
  if (element.isInteger(32))
    return ADJ_RT_I32;
  return ADJ_RT_I1;
}

/// Bytes of a tensor's storage: an i1 element takes one byte in memory.
int64_t storageBytes(RankedTensorType type) {
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * static_cast<int64_t>((bits + 7) / 8);
}

MemRefType bufferOf(RankedTensorType type) {
  return MemRefType::get(type.getShape(), type.getElementType());
}

/// Declares `name` unless the module already has it (a program may call
/// the runtime itself, as tests do).
void declare(OpBuilder &b, Location loc, StringRef name, TypeRange inputs,
             TypeRange results) {
  auto module = cast<ModuleOp>(b.getBlock()->getParentOp());
  if (module.lookupSymbol(name))
    return;
  auto func = func::FuncOp::create(b, loc, name,
                                   b.getFunctionType(inputs, results));
  func.setPrivate();
}

void definePut(OpBuilder &b, Location loc, RankedTensorType type) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i64 = b.getI64Type();
  auto func = func::FuncOp::create(b, loc, rt::putWrapperName(type),
                                   b.getFunctionType({ptr, i64, type}, {}));
  func.setPrivate();
  OpBuilder::InsertionGuard guard(b);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value buffer = bufferization::ToBufferOp::create(
      b, loc, bufferOf(type), entry->getArgument(2), /*read_only=*/true);
  Value data = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  RuntimeBuilder rtb{b, loc};
  rtb.call(rt::kPutTensor, {},
           {entry->getArgument(0), entry->getArgument(1),
            rtb.i64(dtypeCode(type.getElementType())), data,
            rtb.i64(storageBytes(type))});
  func::ReturnOp::create(b, loc);
}

void defineGet(OpBuilder &b, Location loc, RankedTensorType type) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i64 = b.getI64Type();
  auto func = func::FuncOp::create(b, loc, rt::getWrapperName(type),
                                   b.getFunctionType({ptr, i64}, {type}));
  func.setPrivate();
  OpBuilder::InsertionGuard guard(b);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value buffer = memref::AllocOp::create(b, loc, bufferOf(type),
                                         b.getI64IntegerAttr(64));
  Value data = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  RuntimeBuilder rtb{b, loc};
  rtb.call(rt::kGetTensor, {},
           {entry->getArgument(0), entry->getArgument(1), data,
            rtb.i64(storageBytes(type))});
  Value tensor = bufferization::ToTensorOp::create(
      b, loc, type, buffer, /*restrict=*/true, /*writable=*/true);
  func::ReturnOp::create(b, loc, tensor);
}

} // namespace

std::string lowering::mangledTensorType(Type tensorType) {
  auto tensor = cast<RankedTensorType>(tensorType);
  std::string name;
  llvm::raw_string_ostream os(name);
  for (int64_t d : tensor.getShape())
    os << d << "x";
  // complex<f32> as "complexf32": a symbol name without quotes.
  if (auto complex = dyn_cast<ComplexType>(tensor.getElementType()))
    os << "complex" << complex.getElementType();
  else
    os << tensor.getElementType();
  return name;
}

std::string rt::putWrapperName(Type tensorType) {
  return "__adj_put_" + mangledTensorType(tensorType);
}

std::string rt::getWrapperName(Type tensorType) {
  return "__adj_get_" + mangledTensorType(tensorType);
}

std::string rt::functionNameGlobal(StringRef function) {
  return ("__adj_name_" + function).str();
}

/// The recursion guard's entry points and the names it reports.
static void declareRecursionGuard(ModuleOp module, const HostPlan &plan) {
  if (plan.recursive.empty())
    return;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  declare(b, loc, rt::kEnterRecursive, {b.getIndexType()}, {});
  declare(b, loc, rt::kLeaveRecursive, {}, {});
  for (StringAttr function : plan.recursive) {
    SmallVector<int8_t> bytes(function.getValue().begin(),
                              function.getValue().end());
    bytes.push_back(0);
    auto type = MemRefType::get({static_cast<int64_t>(bytes.size())},
                                b.getI8Type());
    auto init = DenseElementsAttr::get(
        RankedTensorType::get(type.getShape(), b.getI8Type()),
        ArrayRef<int8_t>(bytes));
    memref::GlobalOp::create(b, loc, rt::functionNameGlobal(function),
                             b.getStringAttr("private"), type, init,
                             /*constant=*/true, /*alignment=*/nullptr);
  }
}

void lowering::declareRuntime(ModuleOp module, const HostPlan &plan) {
  declareRecursionGuard(module, plan);
  if (!plan.usesRuntime)
    return;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  Type ptr = LLVM::LLVMPointerType::get(module.getContext());
  Type i64 = b.getI64Type(), index = b.getIndexType();
  declare(b, loc, rt::kTupleNew, {i64}, {ptr});
  declare(b, loc, rt::kPutTensor, {ptr, i64, i64, index, i64}, {});
  declare(b, loc, rt::kPutEnv, {ptr, i64, ptr}, {});
  declare(b, loc, rt::kPutFn, {ptr, i64, index, ptr}, {});
  declare(b, loc, rt::kGetTensor, {ptr, i64, index, i64}, {});
  declare(b, loc, rt::kGetEnv, {ptr, i64}, {ptr});
  declare(b, loc, rt::kGetFnTag, {ptr, i64}, {index});
  declare(b, loc, rt::kGetFnBox, {ptr, i64}, {ptr});
  declare(b, loc, rt::kEnvSet, {ptr, i64, ptr}, {ptr});
  declare(b, loc, rt::kEnvGet, {ptr, i64}, {ptr});
  declare(b, loc, rt::kEnvAdd, {ptr, ptr}, {ptr});
  declare(b, loc, rt::kMark, {}, {i64});
  declare(b, loc, rt::kRelease, {i64}, {});
  for (Type type : plan.putTypes)
    definePut(b, loc, cast<RankedTensorType>(type));
  for (Type type : plan.getTypes)
    defineGet(b, loc, cast<RankedTensorType>(type));
}

//===----------------------------------------------------------------------===//
// RuntimeBuilder
//===----------------------------------------------------------------------===//

Value RuntimeBuilder::i64(int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 64);
}

Value RuntimeBuilder::null() {
  return LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(
                                          b.getContext()));
}

ValueRange RuntimeBuilder::call(StringRef callee, TypeRange results,
                                ValueRange args) {
  return func::CallOp::create(b, loc, callee, results, args).getResults();
}

Value RuntimeBuilder::box(TypeRange types, ValueRange values) {
  SmallVector<Type> leaves;
  for (Type type : types)
    flattenLeaves(type, leaves);
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value tuple = call(rt::kTupleNew, ptr, i64(leaves.size()))[0];
  size_t next = 0;
  for (auto [slot, leaf] : llvm::enumerate(leaves)) {
    Value index = i64(slot);
    if (isa<RankedTensorType>(leaf)) {
      call(rt::putWrapperName(leaf), {}, {tuple, index, values[next++]});
    } else if (isa<adj::EnvType>(leaf)) {
      call(rt::kPutEnv, {}, {tuple, index, values[next++]});
    } else {
      call(rt::kPutFn, {}, {tuple, index, values[next], values[next + 1]});
      next += 2;
    }
  }
  return tuple;
}

SmallVector<Value> RuntimeBuilder::unbox(Value tuple, TypeRange types) {
  SmallVector<Type> leaves;
  for (Type type : types)
    flattenLeaves(type, leaves);
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  SmallVector<Value> values;
  for (auto [slot, leaf] : llvm::enumerate(leaves)) {
    Value index = i64(slot);
    if (isa<RankedTensorType>(leaf)) {
      values.push_back(call(rt::getWrapperName(leaf), leaf, {tuple, index})[0]);
    } else if (isa<adj::EnvType>(leaf)) {
      values.push_back(call(rt::kGetEnv, ptr, {tuple, index})[0]);
    } else {
      values.push_back(
          call(rt::kGetFnTag, b.getIndexType(), {tuple, index})[0]);
      values.push_back(call(rt::kGetFnBox, ptr, {tuple, index})[0]);
    }
  }
  return values;
}
