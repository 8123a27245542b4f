//===- LinearAlgebra.cpp - Decomposition calls -> matrix kernels ----------===//
//
// -adj-to-linalg lowers cholesky, triangular_solve, lu, qr, eigh and svd
// for a GPU target to calls of declarations marked `adj.linear_algebra`;
// this pass replaces each call with a kernel in which one workgroup
// factors one matrix of the batch (LinearAlgebraKernels.h) and erases the
// declarations. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LinearAlgebraKernels.h"

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
    using Emitter = void (*)(OpBuilder &, const LinearAlgebraCall &);
    Emitter emit = llvm::StringSwitch<Emitter>(kind)
                       .Case("cholesky", emitCholesky)
                       .Case("triangular_solve", emitTriangularSolve)
                       .Case("lu", emitLu)
                       .Case("qr", emitQr)
                       .Case("eigh", emitEigh)
                       .Case("svd", emitSvd)
                       .Default(nullptr);
    if (!emit)
      return callee.emitError("unknown linear algebra kernel '")
             << kind << "'";
    Type element = problem.element();
    if (!element.isF32() && !element.isF64())
      return call.emitError("-adj-gpu-linear-algebra computes in f32 or "
                            "f64, not ")
             << element;
    OpBuilder b(call);
    // An empty batch has nothing to compute (and no grid to launch).
    if (problem.batchCount() > 0)
      emit(b, problem);
    call.erase();
    return success();
  }
};

} // namespace
