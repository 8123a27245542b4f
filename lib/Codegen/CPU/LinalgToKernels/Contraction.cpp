//===- Contraction.cpp - linalg.matmul/batch_matmul to kernel calls -------===//
//
// A matmul whose operand maps are the default ones or transposed ones (as
// -adj-fuse-elementwise leaves them after folding a transpose) becomes a
// call of the runtime's GEMM on strided views: a transposed operand is a
// memref.transpose view, no copy. Other maps (broadcasts) stay loops.
// f32, f64, complex<f32> and complex<f64> have kernels.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace adjoint::kernels;

namespace {

/// How a contraction operand's map reads its matrix: dimensions (rows, cols)
/// in order, swapped, or some other way the kernels do not handle. The
/// leading `batch` results must be the leading loop dimensions.
enum class Access { Plain, Transposed, Other };

Access classify(AffineMap map, unsigned batch, unsigned rows, unsigned cols) {
  MLIRContext *ctx = map.getContext();
  if (map.getNumResults() != batch + 2)
    return Access::Other;
  for (unsigned i = 0; i < batch; ++i)
    if (map.getResult(i) != getAffineDimExpr(i, ctx))
      return Access::Other;
  AffineExpr r = getAffineDimExpr(rows, ctx), c = getAffineDimExpr(cols, ctx);
  AffineExpr first = map.getResult(batch), second = map.getResult(batch + 1);
  if (first == r && second == c)
    return Access::Plain;
  if (first == c && second == r)
    return Access::Transposed;
  return Access::Other;
}

/// `operand` as the kernel reads it: a transposed view swaps the last two
/// strides, so the GEMM sees the matrix the map describes without a copy.
Value view(OpBuilder &b, Location loc, Value operand, Access access,
           unsigned batch) {
  if (access == Access::Plain)
    return operand;
  SmallVector<unsigned> perm;
  for (unsigned i = 0; i < batch; ++i)
    perm.push_back(i);
  perm.push_back(batch + 1);
  perm.push_back(batch);
  auto permutation = AffineMap::getPermutationMap(perm, b.getContext());
  return memref::TransposeOp::create(b, loc, operand,
                                     AffineMapAttr::get(permutation));
}

/// linalg.matmul (batch = 0) and linalg.batch_matmul (batch = 1): loops
/// (batch..., m, n, k) with A[m, k], B[k, n], C[m, n].
template <typename OpTy, unsigned batch>
struct ContractionToKernel : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureBufferSemantics() ||
        op.getCast() != linalg::TypeFn::cast_signed)
      return rewriter.notifyMatchFailure(op, "not a plain product on memrefs");
    Value a = op.getDpsInputOperand(0)->get();
    Value b = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    Type elem = cast<MemRefType>(c.getType()).getElementType();
    StringRef suffix = kernelSuffix(elem, /*complex=*/true);
    if (suffix.empty() ||
        cast<MemRefType>(a.getType()).getElementType() != elem ||
        cast<MemRefType>(b.getType()).getElementType() != elem)
      return rewriter.notifyMatchFailure(op, "no kernel for these types");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned m = batch, n = batch + 1, k = batch + 2;
    Access accessA = classify(maps[0], batch, m, k);
    Access accessB = classify(maps[1], batch, k, n);
    // The kernels write C in order; a transposed output stays loops.
    if (accessA == Access::Other || accessB == Access::Other ||
        classify(maps[2], batch, m, n) != Access::Plain)
      return rewriter.notifyMatchFailure(
          op, "maps are not (m, k), (k, n), (m, n) up to transposition");

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    bool accumulate = !takeZeroFill(rewriter, op, c);
    std::string name = (llvm::Twine("adj_kernel_") +
                        (batch ? "batch_matmul_" : "matmul_") + suffix)
                           .str();
    Value args[] = {
        castToDynamic(rewriter, loc, view(rewriter, loc, a, accessA, batch)),
        castToDynamic(rewriter, loc, view(rewriter, loc, b, accessB, batch)),
        castToDynamic(rewriter, loc, c), i64Constant(rewriter, loc, accumulate)};
    replaceWithKernelCall(rewriter, op, name, args);
    return success();
  }
};

} // namespace

void adjoint::kernels::populateContractionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ContractionToKernel<linalg::MatmulOp, 0>,
               ContractionToKernel<linalg::BatchMatmulOp, 1>>(
      patterns.getContext());
}
