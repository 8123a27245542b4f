//===- LinearAlgebra.cpp - Decomposition calls -> matrix kernels ----------===//
//
// -adj-to-linalg lowers cholesky, triangular_solve, lu, qr, eigh and svd
// for a GPU target to calls of declarations marked `adj.linear_algebra`;
// this pass replaces each call with a kernel in which one workgroup
// factors one matrix of the batch (LinearAlgebraKernels.h) and erases the
// declarations, behind the runtime's choice between the kernels and a
// library (adj_rt_gpu_linalg_begin, GpuABI.h). See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "HostRuntime.h"
#include "KernelBuilder.h"
#include "LinearAlgebraKernels.h"

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Runtime/DType.h"
#include "adjoint/Runtime/GpuABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/Support/MathExtras.h"

namespace adjoint {
#define GEN_PASS_DEF_LINEARALGEBRA
#include "adjoint/Codegen/GPU/Passes.h.inc"
} // namespace adjoint

using namespace mlir;
using namespace adjoint::gpu;

Type LinearAlgebraCall::element() const {
  return cast<MemRefType>(buffers[0].getType()).getElementType();
}

ArrayRef<int64_t> LinearAlgebraCall::batchShape() const {
  return cast<MemRefType>(buffers[0].getType()).getShape().drop_back(2);
}

std::pair<int64_t, int64_t> LinearAlgebraCall::matrix(unsigned i) const {
  ArrayRef<int64_t> shape = cast<MemRefType>(buffers[i].getType()).getShape();
  return {shape[shape.size() - 2], shape.back()};
}

int64_t LinearAlgebraCall::batchCount() const {
  int64_t count = 1;
  for (int64_t d : batchShape())
    count *= d;
  return count;
}

int64_t adjoint::gpu::threadsFor(int64_t work) {
  return std::clamp<int64_t>(llvm::PowerOf2Ceil(std::max<int64_t>(work, 1)),
                             32, 256);
}

void adjoint::gpu::emitMatrixLaunch(
    OpBuilder &b, const LinearAlgebraCall &call, int64_t threads,
    ArrayRef<SmallVector<int64_t>> scratchShapes,
    ArrayRef<MemRefType> workgroupBuffers, const MatrixKernelBody &body) {
  emitMatrixLaunches(b, call, threads, scratchShapes, workgroupBuffers, {body});
}

void adjoint::gpu::emitMatrixLaunches(
    OpBuilder &b, const LinearAlgebraCall &call, int64_t threads,
    ArrayRef<SmallVector<int64_t>> scratchShapes,
    ArrayRef<MemRefType> workgroupBuffers, ArrayRef<MatrixKernelBody> bodies) {
  Location loc = call.loc;
  KernelBuffers buffers;
  for (const SmallVector<int64_t> &shape : scratchShapes) {
    SmallVector<int64_t> full(call.batchShape());
    full.append(shape.begin(), shape.end());
    buffers.scratch.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get(full, call.element())));
  }
  LaunchShape shape;
  shape.grid[0] = call.batchCount();
  shape.block[0] = threads;
  for (const MatrixKernelBody &body : bodies) {
    OpBuilder::InsertionGuard guard(b);
    mlir::gpu::LaunchOp launch =
        createLaunch(b, loc, shape, workgroupBuffers);
    buffers.workgroup.assign(launch.getWorkgroupAttributions().begin(),
                             launch.getWorkgroupAttributions().end());
    MatrixKernel kernel(b, loc, call.element(), threads, call.batchShape(),
                        launch);
    body(kernel, buffers);
  }
  for (Value scratch : buffers.scratch)
    memref::DeallocOp::create(b, loc, scratch);
}

namespace {

using Emitter = void (*)(OpBuilder &, const LinearAlgebraCall &);

/// Emits `%t = call @adj_rt_gpu_linalg_begin(op, dtype, buffers, scalars)`
/// (GpuABI.h) for `call` and gives %t. An FFT's dtype is its complex
/// values' parts'; a complex decomposition's is c64 or c128.
FailureOr<Value> emitBegin(OpBuilder &b, ModuleOp module, uint32_t op,
                           const LinearAlgebraCall &call) {
  Location loc = call.loc;
  if (call.buffers.size() > 4 || call.scalars.size() > 7)
    return emitError(loc, "a linear algebra call with more than 4 buffers "
                          "or 7 scalars");
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type element = call.element();
  adjoint::DType dtype =
      element.isF64() ? adjoint::DType::F64 : adjoint::DType::F32;
  if (auto complex = dyn_cast<ComplexType>(element)) {
    bool f64 = complex.getElementType().isF64();
    if (op == ADJ_RT_GPU_FFT)
      dtype = f64 ? adjoint::DType::F64 : adjoint::DType::F32;
    else
      dtype = f64 ? adjoint::DType::C128 : adjoint::DType::C64;
  }
  SmallVector<Value> args = {
      arith::ConstantIntOp::create(b, loc, op, 32),
      arith::ConstantIntOp::create(b, loc, static_cast<int64_t>(dtype), 32)};
  Value null = LLVM::ZeroOp::create(b, loc, ptr);
  for (unsigned i = 0; i < 4; ++i)
    args.push_back(i < call.buffers.size()
                       ? bufferAddress(b, loc, call.buffers[i],
                                       /*withOffset=*/true)
                       : null);
  for (unsigned i = 0; i < 7; ++i)
    args.push_back(
        i64Constant(b, loc, i < call.scalars.size() ? call.scalars[i] : 0));
  SmallVector<Type> params = {i32, i32, ptr, ptr, ptr, ptr};
  params.append(7, i64);
  FailureOr<func::FuncOp> begin = getRuntimeFunction(
      module, "adj_rt_gpu_linalg_begin", b.getFunctionType(params, {i64}));
  if (failed(begin))
    return failure();
  return func::CallOp::create(b, loc, *begin, args).getResult(0);
}

/// Emits `emit`'s kernels behind the runtime's choice of route (GpuABI.h):
///
///   %t = call @adj_rt_gpu_linalg_begin(op, dtype, buffers, scalars)
///   scf.if %t != 0 { the kernels }
///   call @adj_rt_gpu_linalg_end(%t)
///
/// Without `emit` (complex matrices, which have no kernels) the runtime
/// takes a library whatever the route, and there is no branch.
LogicalResult emitRouted(OpBuilder &b, ModuleOp module, uint32_t op,
                         const LinearAlgebraCall &call, Emitter emit) {
  FailureOr<Value> ticket = emitBegin(b, module, op, call);
  FailureOr<func::FuncOp> end = getRuntimeFunction(
      module, "adj_rt_gpu_linalg_end",
      b.getFunctionType({b.getI64Type()}, {}));
  if (failed(ticket) || failed(end))
    return failure();
  Location loc = call.loc;
  if (!emit) {
    func::CallOp::create(b, loc, *end, ValueRange{*ticket});
    return success();
  }
  Value kernels = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, *ticket,
      i64Constant(b, loc, ADJ_RT_GPU_LINALG_DONE));
  auto branch = scf::IfOp::create(b, loc, kernels, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(branch.thenBlock()->getTerminator());
    emit(b, call);
  }
  func::CallOp::create(b, loc, *end, ValueRange{*ticket});
  return success();
}

struct LinearAlgebra : adjoint::impl::LinearAlgebraBase<LinearAlgebra> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> declarations;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(adjoint::kLinearAlgebraAttrName))
        declarations.push_back(func);
    if (declarations.empty())
      return;
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (callee && callee->hasAttr(adjoint::kLinearAlgebraAttrName))
        calls.push_back(call);
    });
    for (func::CallOp call : calls)
      if (failed(replace(call)))
        return signalPassFailure();
    for (func::FuncOp decl : declarations)
      decl.erase();
  }

  LogicalResult replace(func::CallOp call) {
    auto callee = cast<func::FuncOp>(
        getOperation().lookupSymbol(call.getCallee()));
    StringRef kind =
        cast<StringAttr>(callee->getAttr(adjoint::kLinearAlgebraAttrName))
            .getValue();
    LinearAlgebraCall problem{call.getLoc(), {}, {}};
    for (Value operand : call.getOperands()) {
      if (isa<MemRefType>(operand.getType())) {
        problem.buffers.push_back(operand);
        continue;
      }
      std::optional<int64_t> scalar = getConstantIntValue(operand);
      if (!scalar)
        return call.emitError("-adj-gpu-linear-algebra needs constant sizes "
                              "and flags in a call of ")
               << call.getCallee();
      problem.scalars.push_back(*scalar);
    }
    // An FFT's kernels are a generated function that the caller runs
    // where the ticket asks for them (-adj-expand-fft{outline},
    // -adj-to-linalg): the call gives the ticket.
    if (kind == "fft") {
      OpBuilder b(call);
      FailureOr<Value> ticket =
          emitBegin(b, getOperation(), ADJ_RT_GPU_FFT, problem);
      if (failed(ticket))
        return failure();
      call.getResult(0).replaceAllUsesWith(*ticket);
      call.erase();
      return success();
    }
    struct Kind {
      uint32_t op;
      Emitter emit;
    };
    Kind k = llvm::StringSwitch<Kind>(kind)
                 .Case("cholesky", {ADJ_RT_GPU_CHOLESKY, emitCholesky})
                 .Case("triangular_solve",
                       {ADJ_RT_GPU_TRIANGULAR_SOLVE, emitTriangularSolve})
                 .Case("lu", {ADJ_RT_GPU_LU, emitLu})
                 .Case("qr", {ADJ_RT_GPU_QR, emitQr})
                 .Case("eigh", {ADJ_RT_GPU_EIGH, emitEigh})
                 .Case("svd", {ADJ_RT_GPU_SVD, emitSvd})
                 // A library's alone: no kernels (geev on the host).
                 .Case("eig", {ADJ_RT_GPU_EIG, nullptr})
                 .Default({0, nullptr});
    if (!k.op)
      return callee.emitError("unknown linear algebra kernel '")
             << kind << "'";
    Type element = problem.element();
    auto complex = dyn_cast<ComplexType>(element);
    Type real = complex ? complex.getElementType() : element;
    if (!real.isF32() && !real.isF64())
      return call.emitError("-adj-gpu-linear-algebra computes in f32 or "
                            "f64, real or complex, not ")
             << element;
    OpBuilder b(call);
    // An empty batch has nothing to compute (and no grid to launch).
    // Complex matrices, and eig, are a library's alone (emitRouted).
    if (problem.batchCount() > 0 &&
        failed(emitRouted(b, getOperation(), k.op, problem,
                          complex ? nullptr : k.emit)))
      return failure();
    call.erase();
    return success();
  }
};

} // namespace
