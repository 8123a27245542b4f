//===- LaunchToRuntime.cpp - gpu.launch_func -> adj_rt_gpu_launch/gemm ----===//

#include "GemmRecord.h"
#include "HostRuntime.h"
#include "KernelLayouts.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Runtime/DType.h"
#include "adjoint/Runtime/GpuABI.h"

namespace adjoint {
#define GEN_PASS_DEF_LAUNCHTORUNTIME
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using adjoint::gpu::i64Constant;

namespace {

/// The adj_rt_gpu_format of a binary, by name or from its target attribute
/// (by dialect, so that this shared pass names no vendor's C++ types).
FailureOr<uint32_t> binaryFormat(StringRef option, gpu::ObjectAttr object,
                                 Operation *op) {
  StringRef name = option;
  if (name == "auto")
    name = llvm::StringSwitch<StringRef>(
               object.getTarget().getDialect().getNamespace())
               .Case("spirv", "spirv")
               .Case("nvvm", "cuda")
               .Case("rocdl", "hsaco")
               .Default("");
  std::optional<uint32_t> format =
      llvm::StringSwitch<std::optional<uint32_t>>(name)
          .Case("spirv", ADJ_RT_GPU_SPIRV)
          .Case("cuda", ADJ_RT_GPU_CUDA)
          .Case("hsaco", ADJ_RT_GPU_HSACO)
          .Default(std::nullopt);
  if (!format)
    return op->emitError("no runtime format for the kernel binary (target ")
           << object.getTarget() << ", format option '" << option << "')";
  return *format;
}

class Lowering {
public:
  explicit Lowering(ModuleOp module)
      : module(module), b(module.getContext()),
        ptrType(LLVM::LLVMPointerType::get(module.getContext())) {}

  LogicalResult lowerBinary(gpu::BinaryOp binary, StringRef formatOption);
  LogicalResult lowerLaunch(gpu::LaunchFuncOp launch);
  /// Replaces `record` (GemmRecord.h) and `launch`, its fallback, by one
  /// adj_rt_gpu_gemm; false (nothing changed) when the launch's sizes are
  /// not constants, which a constant descriptor needs.
  FailureOr<bool> lowerGemm(func::CallOp record, gpu::LaunchFuncOp launch);

private:
  /// The constant descriptor of the kernel `launch` calls (made once per
  /// kernel).
  FailureOr<LLVM::GlobalOp> kernelDescriptor(gpu::LaunchFuncOp launch);
  /// The array of the addresses of `launch`'s argument values, filled at
  /// `lb`.
  Value argumentArray(OpBuilder &lb, gpu::LaunchFuncOp launch);
  LogicalResult callRuntime(OpBuilder &lb, Location loc, StringRef name,
                            ValueRange operands);
  /// A private constant global of `type` whose initializer `build` makes.
  LLVM::GlobalOp global(Location loc, StringRef name, Type type,
                        function_ref<Value(OpBuilder &)> build);
  LLVM::GlobalOp bytesGlobal(Location loc, StringRef name, StringRef bytes,
                             bool nulTerminated);
  Value address(OpBuilder &ib, Location loc, LLVM::GlobalOp g) {
    return LLVM::AddressOfOp::create(ib, loc, g);
  }

  ModuleOp module;
  OpBuilder b;
  Type ptrType;
  /// Kernel descriptors by "module::kernel".
  llvm::StringMap<LLVM::GlobalOp> kernels;
  llvm::StringMap<LLVM::GlobalOp> modules;
  unsigned gemms = 0;
};

LLVM::GlobalOp Lowering::global(Location loc, StringRef name, Type type,
                                function_ref<Value(OpBuilder &)> build) {
  b.setInsertionPointToEnd(module.getBody());
  auto g = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                  LLVM::Linkage::Internal, name, Attribute());
  OpBuilder ib(module.getContext());
  ib.setInsertionPointToStart(&g.getInitializerRegion().emplaceBlock());
  LLVM::ReturnOp::create(ib, loc, build(ib));
  return g;
}

LLVM::GlobalOp Lowering::bytesGlobal(Location loc, StringRef name,
                                     StringRef bytes, bool nulTerminated) {
  std::string data = bytes.str();
  if (nulTerminated)
    data.push_back('\0');
  b.setInsertionPointToEnd(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  // 8-byte alignment: SPIR-V is a stream of 32-bit words, ELF images want
  // their headers aligned.
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name,
                                b.getStringAttr(data), /*alignment=*/8);
}

LogicalResult Lowering::lowerBinary(gpu::BinaryOp binary,
                                    StringRef formatOption) {
  Location loc = binary.getLoc();
  auto objects = binary.getObjects().getAsRange<gpu::ObjectAttr>();
  if (std::distance(objects.begin(), objects.end()) != 1)
    return binary.emitError("the runtime takes one object per gpu.binary");
  gpu::ObjectAttr object = *objects.begin();
  FailureOr<uint32_t> format = binaryFormat(formatOption, object, binary);
  if (failed(format))
    return failure();
  StringRef name = binary.getSymName();
  auto data = bytesGlobal(loc, ("__adj_gpu_data_" + name).str(),
                          object.getObject().getValue(), false);
  auto text = bytesGlobal(loc, ("__adj_gpu_name_" + name).str(), name, true);
  uint64_t size = object.getObject().getValue().size();
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  auto type = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {i32, i32, ptrType, i64, ptrType});
  modules[name] = global(
      loc, ("__adj_gpu_module_" + name).str(), type, [&](OpBuilder &ib) {
        Value s = LLVM::PoisonOp::create(ib, loc, type);
        Value fields[] = {
            LLVM::ConstantOp::create(ib, loc, i32, *format),
            LLVM::ConstantOp::create(ib, loc, i32, 0), address(ib, loc, data),
            LLVM::ConstantOp::create(ib, loc, i64, size),
            address(ib, loc, text)};
        for (auto [i, field] : llvm::enumerate(fields))
          s = LLVM::InsertValueOp::create(ib, loc, s, field, i);
        return s;
      });
  return success();
}

FailureOr<LLVM::GlobalOp>
Lowering::kernelDescriptor(gpu::LaunchFuncOp launch) {
  Location loc = launch.getLoc();
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
      launch.hasClusterSize())
    return launch.emitError("the GPU runtime takes synchronous launches "
                            "without clusters");
  StringRef moduleName = launch.getKernelModuleName().getValue();
  StringRef kernelName = launch.getKernelName().getValue();
  auto mod = modules.find(moduleName);
  if (mod == modules.end())
    return launch.emitError("kernel module '")
           << moduleName << "' is not a gpu.binary (serialize it first)";

  SmallVector<int32_t> sizes;
  for (Value arg : launch.getKernelOperands()) {
    Type type = arg.getType();
    if (auto memref = dyn_cast<MemRefType>(type)) {
      // The kernel applies the view's offset and strides from its type.
      if (!adjoint::gpu::hasStaticLayout(memref))
        return launch.emitError("kernel argument of type ")
               << type << " needs a static layout";
      sizes.push_back(0);
    }
    else if (type.isIndex())
      sizes.push_back(8);
    else if (type.isIntOrFloat())
      sizes.push_back(adjoint::gpu::elementBytes(type));
    else
      return launch.emitError("kernel argument of unsupported type ") << type;
  }

  std::string key = (moduleName + "::" + kernelName).str();
  LLVM::GlobalOp &kernel = kernels[key];
  if (kernel)
    return kernel;
  std::string stem = (moduleName + "_" + kernelName).str();
  auto text = bytesGlobal(loc, "__adj_gpu_name_" + stem, kernelName, true);
  LLVM::GlobalOp sizesGlobal;
  if (!sizes.empty()) {
    b.setInsertionPointToEnd(module.getBody());
    auto arrayType = LLVM::LLVMArrayType::get(b.getI32Type(), sizes.size());
    sizesGlobal = LLVM::GlobalOp::create(
        b, loc, arrayType, true, LLVM::Linkage::Internal,
        "__adj_gpu_args_" + stem,
        DenseElementsAttr::get(
            RankedTensorType::get({int64_t(sizes.size())}, b.getI32Type()),
            ArrayRef<int32_t>(sizes)));
  }
  auto i32 = b.getI32Type();
  auto type = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {ptrType, ptrType, i32, i32, ptrType});
  LLVM::GlobalOp moduleGlobal = mod->second;
  kernel = global(loc, "__adj_gpu_kernel_" + stem, type, [&](OpBuilder &ib) {
    Value s = LLVM::PoisonOp::create(ib, loc, type);
    Value argSizes = sizesGlobal
                         ? address(ib, loc, sizesGlobal)
                         : Value(LLVM::ZeroOp::create(ib, loc, ptrType));
    Value fields[] = {
        address(ib, loc, moduleGlobal), address(ib, loc, text),
        LLVM::ConstantOp::create(ib, loc, i32, int64_t(sizes.size())),
        LLVM::ConstantOp::create(ib, loc, i32, 0), argSizes};
    for (auto [i, field] : llvm::enumerate(fields))
      s = LLVM::InsertValueOp::create(ib, loc, s, field, i);
    return s;
  });
  return kernel;
}

Value Lowering::argumentArray(OpBuilder &lb, gpu::LaunchFuncOp launch) {
  // Slots for the argument values and the array of their addresses, at the
  // top of the function: a launch in a loop must not grow the stack.
  Location loc = launch.getLoc();
  ValueRange args = launch.getKernelOperands();
  OpBuilder entry(launch);
  entry.setInsertionPointToStart(
      &launch->getParentOfType<func::FuncOp>().getBody().front());
  Value one = i64Constant(entry, loc, 1);
  Value array =
      args.empty()
          ? Value(LLVM::ZeroOp::create(entry, loc, ptrType))
          : Value(LLVM::AllocaOp::create(entry, loc, ptrType, ptrType,
                                         i64Constant(entry, loc, args.size())));
  for (auto [i, arg] : llvm::enumerate(args)) {
    Value value = arg;
    if (isa<MemRefType>(arg.getType()))
      // The kernels index from the aligned pointer; a view's offset is in
      // the kernel's memref type.
      value = adjoint::gpu::bufferAddress(lb, loc, arg, false);
    else if (arg.getType().isIndex())
      value = arith::IndexCastOp::create(lb, loc, lb.getI64Type(), arg);
    Value slot =
        LLVM::AllocaOp::create(entry, loc, ptrType, value.getType(), one);
    LLVM::StoreOp::create(lb, loc, value, slot);
    Value element = LLVM::GEPOp::create(lb, loc, ptrType, ptrType, array,
                                        ArrayRef<LLVM::GEPArg>{int32_t(i)});
    LLVM::StoreOp::create(lb, loc, slot, element);
  }
  return array;
}

LogicalResult Lowering::callRuntime(OpBuilder &lb, Location loc,
                                    StringRef name, ValueRange operands) {
  FailureOr<func::FuncOp> callee = adjoint::gpu::getRuntimeFunction(
      module, name, lb.getFunctionType(operands.getTypes(), {}));
  if (failed(callee))
    return failure();
  func::CallOp::create(lb, loc, *callee, operands);
  return success();
}

LogicalResult Lowering::lowerLaunch(gpu::LaunchFuncOp launch) {
  FailureOr<LLVM::GlobalOp> kernel = kernelDescriptor(launch);
  if (failed(kernel))
    return failure();
  Location loc = launch.getLoc();
  OpBuilder lb(launch);
  Value array = argumentArray(lb, launch);
  auto toI64 = [&](Value v) {
    return arith::IndexCastUIOp::create(lb, loc, lb.getI64Type(), v);
  };
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value shared = launch.getDynamicSharedMemorySize()
                     ? Value(arith::IndexCastUIOp::create(
                           lb, loc, lb.getI32Type(),
                           launch.getDynamicSharedMemorySize()))
                     : Value(arith::ConstantIntOp::create(lb, loc,
                                                          lb.getI32Type(), 0));
  Value operands[] = {
      address(lb, loc, *kernel), toI64(grid.x),  toI64(grid.y),
      toI64(grid.z),             toI64(block.x), toI64(block.y),
      toI64(block.z),            shared,         array};
  if (failed(callRuntime(lb, loc, "adj_rt_gpu_launch", operands)))
    return failure();
  launch.erase();
  return success();
}

FailureOr<bool> Lowering::lowerGemm(func::CallOp record,
                                    gpu::LaunchFuncOp launch) {
  FailureOr<adjoint::gpu::GemmRecord> gemm =
      adjoint::gpu::parseGemmRecord(record);
  if (failed(gemm))
    return failure();
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<int64_t> sizes;
  for (Value v : {grid.x, grid.y, grid.z, block.x, block.y, block.z}) {
    std::optional<int64_t> size = getConstantIntValue(v);
    if (!size)
      return false;
    sizes.push_back(*size);
  }
  int64_t shared = 0;
  if (Value dynamic = launch.getDynamicSharedMemorySize()) {
    std::optional<int64_t> bytes = getConstantIntValue(dynamic);
    if (!bytes)
      return false;
    shared = *bytes;
  }
  Type element = cast<MemRefType>(record.getOperand(2).getType())
                     .getElementType();
  std::optional<adjoint::DType> dtype =
      element.isF64()   ? std::optional(adjoint::DType::F64)
      : element.isF32() ? std::optional(adjoint::DType::F32)
      : element.isF16() ? std::optional(adjoint::DType::F16)
                        : std::nullopt;
  if (!dtype)
    return record.emitError("GEMM of unsupported element type ") << element;
  FailureOr<LLVM::GlobalOp> kernel = kernelDescriptor(launch);
  if (failed(kernel))
    return failure();

  // adj_rt_gpu_gemm_desc, flattened (the same offsets: every field is
  // naturally aligned).
  Location loc = launch.getLoc();
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  SmallVector<Type> fieldTypes = {i32, i32, i64, i64, i64, i64};
  for (int i = 0; i < 3; ++i)
    fieldTypes.append({i32, i32, i64, i64});
  fieldTypes.push_back(ptrType);
  fieldTypes.append(6, i64);
  fieldTypes.append({i32, i32});
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(), fieldTypes);
  std::string name =
      ("__adj_gpu_gemm_" + launch.getKernelModuleName().getValue() + "_" +
       launch.getKernelName().getValue() + "_" + Twine(gemms++))
          .str();
  auto descriptor = global(loc, name, type, [&](OpBuilder &ib) {
    SmallVector<Value> fields;
    auto constant = [&](Type t, int64_t v) {
      fields.push_back(LLVM::ConstantOp::create(ib, loc, t, v));
    };
    constant(i32, int64_t(*dtype));
    constant(i32, (gemm->tf32 ? ADJ_RT_GPU_GEMM_TF32 : 0) |
                      (gemm->overwrite ? ADJ_RT_GPU_GEMM_OVERWRITE : 0));
    for (int64_t v : {gemm->batch, gemm->m, gemm->n, gemm->k})
      constant(i64, v);
    for (const adjoint::gpu::MatrixLayout &matrix :
         {gemm->a, gemm->b, gemm->c}) {
      constant(i32, matrix.rowMajor ? ADJ_RT_GPU_ROW_MAJOR
                                    : ADJ_RT_GPU_COL_MAJOR);
      constant(i32, 0);
      constant(i64, matrix.ld);
      constant(i64, matrix.batchStride);
    }
    fields.push_back(address(ib, loc, *kernel));
    for (int64_t v : sizes)
      constant(i64, v);
    constant(i32, shared);
    constant(i32, 0);
    Value s = LLVM::PoisonOp::create(ib, loc, type);
    for (auto [i, field] : llvm::enumerate(fields))
      s = LLVM::InsertValueOp::create(ib, loc, s, field, i);
    return s;
  });

  OpBuilder lb(launch);
  Value array = argumentArray(lb, launch);
  SmallVector<Value> operands = {address(lb, loc, descriptor)};
  // Element (0, 0) of each matrix: the views' offsets applied here, since
  // the library has no memref types to read them from.
  for (Value matrix : record.getOperands())
    operands.push_back(adjoint::gpu::bufferAddress(lb, loc, matrix, true));
  operands.push_back(array);
  if (failed(callRuntime(lb, loc, "adj_rt_gpu_gemm", operands)))
    return failure();
  launch.erase();
  record.erase();
  return true;
}

/// The GEMM records of `module` by the launch_func each belongs to: the
/// next one in its block (GemmRecord.h). Fails on a record without one.
FailureOr<DenseMap<Operation *, func::CallOp>> pairGemmRecords(
    ModuleOp module) {
  DenseMap<Operation *, func::CallOp> records;
  WalkResult result = module.walk([&](func::CallOp call) {
    if (!adjoint::gpu::isGemmRecord(call))
      return WalkResult::advance();
    for (Operation *op = call->getNextNode(); op; op = op->getNextNode()) {
      if (auto other = dyn_cast<func::CallOp>(op);
          other && adjoint::gpu::isGemmRecord(other))
        break;
      if (isa<gpu::LaunchFuncOp>(op)) {
        records[op] = call;
        return WalkResult::advance();
      }
    }
    call.emitError("GEMM record without its launch (the next "
                   "gpu.launch_func of its block)");
    return WalkResult::interrupt();
  });
  if (result.wasInterrupted())
    return failure();
  return records;
}

struct LaunchToRuntime
    : adjoint::impl::LaunchToRuntimeBase<LaunchToRuntime> {
  using LaunchToRuntimeBase::LaunchToRuntimeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Lowering lowering(module);
    auto binaries = llvm::to_vector(module.getOps<gpu::BinaryOp>());
    for (gpu::BinaryOp binary : binaries)
      if (failed(lowering.lowerBinary(binary, format)))
        return signalPassFailure();
    FailureOr<DenseMap<Operation *, func::CallOp>> records =
        pairGemmRecords(module);
    if (failed(records))
      return signalPassFailure();
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp op) { launches.push_back(op); });
    for (gpu::LaunchFuncOp launch : launches) {
      if (func::CallOp record = records->lookup(launch)) {
        FailureOr<bool> lowered = lowering.lowerGemm(record, launch);
        if (failed(lowered))
          return signalPassFailure();
        if (*lowered)
          continue;
        // Sizes known only at run time: the kernel alone.
        record.erase();
      }
      if (failed(lowering.lowerLaunch(launch)))
        return signalPassFailure();
    }
    // The records' declarations.
    for (auto decl : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (decl->hasAttr(adjoint::gpu::kGemmRecordAttr) &&
          decl.symbolKnownUseEmpty(module))
        decl.erase();
    for (gpu::BinaryOp binary : binaries)
      binary.erase();
  }
};

} // namespace
