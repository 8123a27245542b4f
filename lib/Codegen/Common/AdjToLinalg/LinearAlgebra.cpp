//===- LinearAlgebra.cpp - cholesky ... svd, fft to library kernel calls --===//
//
// Each LinearAlgebra op becomes a call of a private wrapper on tensors, one
// per op configuration and operand type:
//
//   func.func private @__adj_eigh_4x4xf64(%a: tensor<4x4xf64>)
//       -> (tensor<4xf64>, tensor<4x4xf64>) {
//     %in = bufferization.to_buffer %a read_only
//     %w = memref.alloc(), %v = memref.alloc()
//     call @adj_kernel_eigh_f64(<addresses of %in, %w, %v>, batch, n, upper)
//     return to_tensor %w, to_tensor %v
//   }
//
// as the closure runtime's put/get wrappers are made (Runtime.cpp): one-shot
// bufferization gives the wrapper's arguments identity-layout buffers at
// the function boundary, so the kernels (include/adjoint/Runtime/
// KernelsLinearAlgebra.h) see contiguous row-major batches whatever view
// the caller had, and the fresh results are owned by the caller and freed
// by the deallocation pipeline like any other. The kernels run LAPACK on
// the host. adj.fft becomes a call of FFTW's kernel (KernelsFourier.h) the
// same way.
//
// For a GPU target the wrapper calls a declaration on the buffers
// themselves instead, one per wrapper, marked with the op's name:
//
//   func.func private @__adj_eigh_4x4xf64_kernel(memref<4x4xf64>,
//       memref<4xf64>, memref<4x4xf64>, i64, i64, i64, i64)
//       attributes {adj.linear_algebra = "eigh"}
//
// which -adj-gpu-linear-algebra replaces with a kernel (lib/Codegen/GPU/
// LinearAlgebra.cpp): the call keeps the op's boundary visible after
// bufferization, where a vendor solver may take it instead. An adj.fft
// for a GPU names the function that computes it generated
// (-adj-expand-fft{outline}); its declaration returns the runtime's
// ticket, and the wrapper runs that function where the ticket asks for
// the kernels (routeToGenerated).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "Structure.h"

#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::lowering;

namespace {

/// What a kernel call needs besides its operands: the kernel's name
/// without the type suffix, the wrapper's name, and the i64 scalars that
/// follow the addresses.
struct KernelCall {
  std::string kernel;
  std::string wrapper;
  SmallVector<int64_t> scalars;
};

/// The number of matrices of a batch `type` ([..., r, c]).
int64_t batchOf(Type type) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(type).getShape();
  int64_t count = 1;
  for (int64_t d : shape.drop_back(2))
    count *= d;
  return count;
}

/// The last two dimensions of `type`.
std::pair<int64_t, int64_t> matrixOf(Type type) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(type).getShape();
  return {shape[shape.size() - 2], shape.back()};
}

/// `base` + the flags that are set + the operand shapes and element type
/// ("__adj_svd_full_5x3xf32").
std::string wrapperName(StringRef base, ArrayRef<std::pair<StringRef, bool>> flags,
                        TypeRange operands) {
  std::string name = ("__adj_" + base).str();
  for (auto [flag, set] : flags)
    if (set)
      name += ("_" + flag).str();
  for (Type type : operands)
    name += "_" + mangledTensorType(type);
  return name;
}

KernelCall describe(adj::CholeskyOp op) {
  auto [rows, cols] = matrixOf(op.getInput().getType());
  return {"cholesky", wrapperName("cholesky", {}, op->getOperandTypes()),
          {batchOf(op.getInput().getType()), rows}};
}

KernelCall describe(adj::TriangularSolveOp op) {
  auto [rows, cols] = matrixOf(op.getB().getType());
  bool left = op.getLeftSide(), lower = op.getLower(),
       transpose = op.getTransposeA(), unit = op.getUnitDiagonal();
  return {"triangular_solve",
          wrapperName("triangular_solve",
                      {{"left", left},
                       {"lower", lower},
                       {"transpose", transpose},
                       {"unit", unit}},
                      op->getOperandTypes()),
          {batchOf(op.getB().getType()), rows, cols, left, lower, transpose,
           unit}};
}

KernelCall describe(adj::LuOp op) {
  auto [rows, cols] = matrixOf(op.getInput().getType());
  return {"lu", wrapperName("lu", {}, op->getOperandTypes()),
          {batchOf(op.getInput().getType()), rows, cols}};
}

KernelCall describe(adj::QrOp op) {
  auto [rows, cols] = matrixOf(op.getInput().getType());
  bool full = op.getFullMatrices();
  return {"qr", wrapperName("qr", {{"full", full}}, op->getOperandTypes()),
          {batchOf(op.getInput().getType()), rows, cols, full}};
}

KernelCall describe(adj::EighOp op) {
  auto [rows, cols] = matrixOf(op.getInput().getType());
  bool upper = op.getUpper();
  // The op allows skipping the vectors when nothing reads them.
  bool vectors = !op.getEigenvectors().use_empty();
  return {"eigh",
          wrapperName("eigh", {{"upper", upper}, {"values", !vectors}},
                      op->getOperandTypes()),
          {batchOf(op.getInput().getType()), rows, upper, vectors}};
}

KernelCall describe(adj::EigOp op) {
  auto [rows, cols] = matrixOf(op.getInput().getType());
  // The op allows skipping the vectors when nothing reads them.
  bool vectors = !op.getEigenvectors().use_empty();
  return {"eig", wrapperName("eig", {{"values", !vectors}},
                             op->getOperandTypes()),
          {batchOf(op.getInput().getType()), rows, vectors}};
}

KernelCall describe(adj::SvdOp op) {
  auto [rows, cols] = matrixOf(op.getInput().getType());
  bool full = op.getFullMatrices();
  // The op allows skipping the vectors when nothing reads them.
  bool vectors = !op.getU().use_empty() || !op.getVh().use_empty();
  return {"svd",
          wrapperName("svd", {{"full", full}, {"values", !vectors}},
                      op->getOperandTypes()),
          {batchOf(op.getInput().getType()), rows, cols, full, vectors}};
}

KernelCall describe(adj::FftOp op) {
  ArrayRef<int64_t> lengths = op.getLengths();
  auto type = cast<RankedTensorType>(op.getInput().getType());
  int64_t batch = 1;
  for (int64_t d : type.getShape().drop_back(lengths.size()))
    batch *= d;
  std::string base = ("fft_" + adj::stringifyFftType(op.getFftType())).str();
  for (auto [i, n] : llvm::enumerate(lengths))
    base += (i ? "x" : "_n") + std::to_string(n);
  KernelCall call{"fft", wrapperName(base, {}, op->getOperandTypes()),
                  {batch, static_cast<int64_t>(op.getFftType()),
                   static_cast<int64_t>(lengths.size())}};
  for (size_t i = 0; i < 3; ++i)
    call.scalars.push_back(i < lengths.size() ? lengths[i] : 1);
  return call;
}

/// Declares the callee of `call`'s wrapper: the runtime's LAPACK kernel
/// on addresses for the CPU, the wrapper's own kernel on buffers for a GPU
/// (see the file comment). Returns its name.
std::string declareKernel(OpBuilder &b, Operation *op, const KernelCall &call,
                          bool gpu, TypeRange buffers) {
  auto module = op->getParentOfType<ModuleOp>();
  Location loc = op->getLoc();
  Type element =
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  // The decompositions' kernels exist for complex matrices (_c64, _c128);
  // FFTW's kernel is named by the parts' type of its complex values.
  std::string suffix;
  if (auto complex = dyn_cast<ComplexType>(element)) {
    bool f64 = complex.getElementType().isF64();
    suffix = isa<adj::FftOp>(op) ? (f64 ? "_f64" : "_f32")
                                 : (f64 ? "_c128" : "_c64");
  } else {
    suffix = element.isF64() ? "_f64" : "_f32";
  }
  std::string kernel =
      gpu ? call.wrapper + "_kernel" : "adj_kernel_" + call.kernel + suffix;
  if (module.lookupSymbol(kernel))
    return kernel;
  SmallVector<Type> params;
  if (gpu)
    params.append(buffers.begin(), buffers.end());
  else
    params.append(buffers.size(), b.getIndexType());
  params.append(call.scalars.size(), b.getI64Type());
  // A routed call (fft on a GPU) gives the runtime's ticket.
  SmallVector<Type> results;
  if (gpu && isa<adj::FftOp>(op))
    results.push_back(b.getI64Type());
  auto decl = func::FuncOp::create(b, loc, kernel,
                                   b.getFunctionType(params, results));
  decl.setPrivate();
  if (gpu)
    decl->setAttr(kLinearAlgebraAttrName, b.getStringAttr(call.kernel));
  return kernel;
}

/// The results of a routed wrapper (fft on a GPU): the library's
/// `libraryResults` where the runtime's `ticket` says it computed them,
/// else those of the generated function `op` names; then the end of the
/// route (GpuABI.h's adj_rt_gpu_linalg_end, which times the kernels):
///
///   %r = scf.if %ticket == 0 { libraryResults } else { call @generated }
///   call @adj_rt_gpu_linalg_end(%ticket)
SmallVector<Value> routeToGenerated(OpBuilder &b, Operation *op, Value ticket,
                                    ValueRange libraryResults,
                                    ValueRange operands) {
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  auto generated = op->getAttrOfType<FlatSymbolRefAttr>(kGeneratedFftAttrName);
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 64);
  Value library =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ticket, zero);
  auto branch = scf::IfOp::create(b, loc, op->getResultTypes(), library,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    scf::YieldOp::create(b, loc, libraryResults);
    b.setInsertionPointToStart(branch.elseBlock());
    auto call = func::CallOp::create(b, loc, generated.getValue(),
                                     op->getResultTypes(), operands);
    scf::YieldOp::create(b, loc, call.getResults());
  }
  StringRef end = "adj_rt_gpu_linalg_end";
  if (!module.lookupSymbol(end)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    func::FuncOp::create(b, loc, end,
                         b.getFunctionType({b.getI64Type()}, {}))
        .setPrivate();
  }
  func::CallOp::create(b, loc, end, TypeRange{}, ValueRange{ticket});
  return SmallVector<Value>(branch.getResults());
}

/// Defines `call.wrapper` (see the file comment) unless the module has it.
void defineWrapper(OpBuilder &b, Operation *op, const KernelCall &call,
                   bool gpu) {
  auto module = op->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(call.wrapper))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  Location loc = op->getLoc();
  auto func = func::FuncOp::create(
      b, loc, call.wrapper,
      b.getFunctionType(op->getOperandTypes(), op->getResultTypes()));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto bufferOf = [](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    return MemRefType::get(tensor.getShape(), tensor.getElementType());
  };
  SmallVector<Value> buffers;
  for (BlockArgument operand : entry->getArguments())
    buffers.push_back(bufferization::ToBufferOp::create(
        b, loc, bufferOf(operand.getType()), operand, /*read_only=*/true));
  SmallVector<Value> outputs;
  for (Type type : op->getResultTypes())
    outputs.push_back(memref::AllocOp::create(b, loc, bufferOf(type),
                                              b.getI64IntegerAttr(64)));
  buffers.append(outputs);
  SmallVector<Value> args;
  for (Value buffer : buffers)
    args.push_back(gpu ? buffer
                       : memref::ExtractAlignedPointerAsIndexOp::create(
                             b, loc, buffer)
                             .getResult());
  for (int64_t scalar : call.scalars)
    args.push_back(arith::ConstantIntOp::create(b, loc, scalar, 64));
  std::string kernel;
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(func);
    kernel = declareKernel(b, op, call, gpu, ValueRange(buffers).getTypes());
  }
  auto kernelCall = func::CallOp::create(
      b, loc, kernel, module.lookupSymbol<func::FuncOp>(kernel).getResultTypes(),
      args);
  SmallVector<Value> results;
  for (auto [type, buffer] : llvm::zip(op->getResultTypes(), outputs))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, type, buffer, /*restrict=*/true, /*writable=*/true));
  if (kernelCall.getNumResults())
    results = routeToGenerated(b, op, kernelCall.getResult(0), results,
                               entry->getArguments());
  func::ReturnOp::create(b, loc, results);
}

template <typename OpTy>
struct LinearAlgebraPattern : OpConversionPattern<OpTy> {
  LinearAlgebraPattern(MLIRContext *ctx, bool gpu)
      : OpConversionPattern<OpTy>(ctx), gpu(gpu) {}
  bool gpu;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    KernelCall call = describe(op);
    defineWrapper(rewriter, op, call, gpu);
    rewriter.replaceOpWithNewOp<func::CallOp>(op, call.wrapper,
                                              op->getResultTypes(),
                                              adaptor.getOperands());
    return success();
  }
};

} // namespace

void lowering::populateLinearAlgebraPatterns(RewritePatternSet &patterns,
                                             bool gpu) {
  patterns.add<LinearAlgebraPattern<adj::CholeskyOp>,
               LinearAlgebraPattern<adj::TriangularSolveOp>,
               LinearAlgebraPattern<adj::LuOp>, LinearAlgebraPattern<adj::QrOp>,
               LinearAlgebraPattern<adj::EighOp>,
               LinearAlgebraPattern<adj::EigOp>,
               LinearAlgebraPattern<adj::SvdOp>>(patterns.getContext(), gpu);
  patterns.add<LinearAlgebraPattern<adj::FftOp>>(patterns.getContext(), gpu);
}
