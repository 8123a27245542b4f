//===- GemmRecord.cpp - Contractions a GEMM library can compute -----------===//

#include "GemmRecord.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// Elements between consecutive values of each loop in `operand` (0 for
/// loops it does not use or uses with extent 1), or failure for dynamic
/// strides.
FailureOr<SmallVector<int64_t>> loopStrides(linalg::LinalgOp op,
                                            OpOperand &operand) {
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return failure();
  SmallVector<int64_t> perLoop(op.getNumLoops(), 0);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return failure();
    if (type.getDimSize(i) != 1)
      perLoop[dim.getPosition()] = strides[i];
  }
  return perLoop;
}

/// The layout of a rows x cols matrix whose rows and columns are
/// `rowStride` and `colStride` apart, or failure when neither is
/// contiguous. An extent-1 dimension's stride is free: it never moves.
FailureOr<MatrixLayout> matrixLayout(int64_t rows, int64_t cols,
                                     int64_t rowStride, int64_t colStride) {
  MatrixLayout layout;
  if (cols == 1 || colStride == 1) {
    layout.rowMajor = true;
    layout.ld = rows == 1 ? std::max<int64_t>(cols, 1) : rowStride;
    if (layout.ld >= std::max<int64_t>(cols, 1))
      return layout;
  }
  if (rows == 1 || rowStride == 1) {
    layout.rowMajor = false;
    layout.ld = cols == 1 ? std::max<int64_t>(rows, 1) : colStride;
    if (layout.ld >= std::max<int64_t>(rows, 1))
      return layout;
  }
  return failure();
}

/// One stride for the batch loops flattened outer first, or failure.
FailureOr<int64_t> batchStride(ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> ranges,
                               ArrayRef<unsigned> batch) {
  std::optional<int64_t> inner;
  int64_t innerRange = 1;
  for (unsigned d : llvm::reverse(batch)) {
    if (ranges[d] == 1)
      continue;
    if (!inner)
      inner = strides[d];
    else if (strides[d] != *inner * innerRange)
      return failure();
    innerRange *= ranges[d];
  }
  return inner.value_or(0);
}

DictionaryAttr matrixAttr(Builder &b, const MatrixLayout &layout) {
  return b.getDictionaryAttr(
      {b.getNamedAttr("order", b.getStringAttr(layout.rowMajor ? "row"
                                                               : "col")),
       b.getNamedAttr("ld", b.getI64IntegerAttr(layout.ld)),
       b.getNamedAttr("batch_stride",
                      b.getI64IntegerAttr(layout.batchStride))});
}

} // namespace

FailureOr<GemmRecord> adjoint::gpu::gemmRecordOf(linalg::LinalgOp op,
                                                 unsigned m, unsigned n,
                                                 unsigned k,
                                                 ArrayRef<unsigned> batch) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  GemmRecord record;
  record.m = ranges[m];
  record.n = ranges[n];
  record.k = ranges[k];
  for (unsigned d : batch)
    record.batch *= ranges[d];
  struct Operand {
    OpOperand *operand;
    unsigned rows, cols;
    MatrixLayout *layout;
  } operands[] = {{op.getDpsInputOperand(0), m, k, &record.a},
                  {op.getDpsInputOperand(1), k, n, &record.b},
                  {op.getDpsInitOperand(0), m, n, &record.c}};
  for (const Operand &o : operands) {
    FailureOr<SmallVector<int64_t>> strides = loopStrides(op, *o.operand);
    if (failed(strides))
      return failure();
    FailureOr<MatrixLayout> layout =
        matrixLayout(ranges[o.rows], ranges[o.cols], (*strides)[o.rows],
                     (*strides)[o.cols]);
    FailureOr<int64_t> stride = batchStride(*strides, ranges, batch);
    if (failed(layout) || failed(stride))
      return failure();
    *o.layout = *layout;
    o.layout->batchStride = *stride;
  }
  // Each batch entry needs a C of its own.
  if (record.batch > 1 && record.c.batchStride == 0)
    return failure();
  return record;
}

LogicalResult adjoint::gpu::emitGemmRecord(OpBuilder &b, Location loc,
                                           const GemmRecord &record, Value a,
                                           Value bMatrix, Value c) {
  auto module = b.getInsertionBlock()->getParentOp()->getParentOfType<
      ModuleOp>();
  Value operands[] = {a, bMatrix, c};
  // A call must match its callee's type: one declaration per signature,
  // marked (the name is only unique).
  FunctionType type = b.getFunctionType(ValueRange(operands).getTypes(), {});
  func::FuncOp callee;
  for (auto func : module.getOps<func::FuncOp>())
    if (func->hasAttr(kGemmRecordAttr) && func.getFunctionType() == type)
      callee = func;
  if (!callee) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    callee = func::FuncOp::create(mb, module.getLoc(), kGemmRecordCallee,
                                  type);
    callee.setPrivate();
    callee->setAttr(kGemmRecordAttr, mb.getUnitAttr());
    SymbolTable(module).insert(callee);
  }
  SmallVector<NamedAttribute> fields = {
      b.getNamedAttr("batch", b.getI64IntegerAttr(record.batch)),
      b.getNamedAttr("m", b.getI64IntegerAttr(record.m)),
      b.getNamedAttr("n", b.getI64IntegerAttr(record.n)),
      b.getNamedAttr("k", b.getI64IntegerAttr(record.k)),
      b.getNamedAttr("a", matrixAttr(b, record.a)),
      b.getNamedAttr("b", matrixAttr(b, record.b)),
      b.getNamedAttr("c", matrixAttr(b, record.c))};
  if (record.tf32)
    fields.push_back(b.getNamedAttr("tf32", b.getUnitAttr()));
  if (record.overwrite)
    fields.push_back(b.getNamedAttr("overwrite", b.getUnitAttr()));
  auto call = func::CallOp::create(b, loc, callee, operands);
  call->setAttr(kGemmRecordAttr, b.getDictionaryAttr(fields));
  return success();
}

FailureOr<GemmRecord> adjoint::gpu::parseGemmRecord(func::CallOp call) {
  auto bad = [&](const Twine &what) {
    return call.emitError("malformed GEMM record: ") << what;
  };
  auto dict = call->getAttrOfType<DictionaryAttr>(kGemmRecordAttr);
  if (!dict)
    return bad(Twine("no '") + kGemmRecordAttr + "' dictionary");
  if (call.getNumOperands() != 3 ||
      !llvm::all_of(call.getOperandTypes(), llvm::IsaPred<MemRefType>))
    return bad("A, B and C must be its three memref operands");
  auto integer = [&](DictionaryAttr d, StringRef name,
                     int64_t *out) -> LogicalResult {
    auto value = d.getAs<IntegerAttr>(name);
    if (!value || value.getInt() < 0)
      return bad("'") << name << "' is not a non-negative integer";
    *out = value.getInt();
    return success();
  };
  GemmRecord record;
  if (failed(integer(dict, "batch", &record.batch)) ||
      failed(integer(dict, "m", &record.m)) ||
      failed(integer(dict, "n", &record.n)) ||
      failed(integer(dict, "k", &record.k)))
    return failure();
  for (auto [name, layout] :
       {std::pair{"a", &record.a}, {"b", &record.b}, {"c", &record.c}}) {
    auto matrix = dict.getAs<DictionaryAttr>(name);
    if (!matrix)
      return bad("no layout of ") << name;
    auto order = matrix.getAs<StringAttr>("order");
    if (!order || (order.getValue() != "row" && order.getValue() != "col"))
      return bad("the order of ") << name << " is not \"row\" or \"col\"";
    layout->rowMajor = order.getValue() == "row";
    if (failed(integer(matrix, "ld", &layout->ld)) ||
        failed(integer(matrix, "batch_stride", &layout->batchStride)))
      return failure();
  }
  record.tf32 = dict.contains("tf32");
  record.overwrite = dict.contains("overwrite");
  return record;
}
