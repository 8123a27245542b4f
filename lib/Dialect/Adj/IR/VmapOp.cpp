//===- VmapOp.cpp - Result type of adj.vmap -------------------------------===//
//
// The type of a batched function follows from the function's type, the
// axes and the batch size; inference is also the verifier, so a request
// whose axes do not fit its function is a diagnostic at the op.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace mlir;
using namespace adjoint::adj;

/// `type` with a dimension of size `size` inserted at `axis`, or a
/// diagnostic naming `what`.
static FailureOr<Type> withBatchDim(std::optional<Location> loc,
                                    StringRef what, size_t index, Type type,
                                    int64_t axis, int64_t size) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitOptionalError(loc, "adj.vmap: ", what, " #", index,
                             " is batched but is not a tensor: ", type);
  if (axis > tensor.getRank())
    return emitOptionalError(loc, "adj.vmap: axis ", axis, " of ", what, " #",
                             index, " is out of range for ", type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape.insert(shape.begin() + axis, size);
  return Type(RankedTensorType::get(shape, tensor.getElementType()));
}

/// `types` with the batch inserted at `axes` (-1: left as it is, shared by
/// every example), or a diagnostic naming `what`.
static LogicalResult withBatchDims(std::optional<Location> loc,
                                  StringRef what, ArrayRef<Type> types,
                                  ArrayRef<int64_t> axes, int64_t size,
                                  SmallVectorImpl<Type> &out) {
  for (auto [i, t] : llvm::enumerate(types)) {
    if (axes[i] < -1)
      return emitOptionalError(loc, "adj.vmap: axes are non-negative or -1 "
                                    "(not batched), got ",
                               axes[i], " for ", what, " #", i);
    if (axes[i] == -1) {
      out.push_back(t);
      continue;
    }
    FailureOr<Type> b = withBatchDim(loc, what, i, t, axes[i], size);
    if (failed(b))
      return failure();
    out.push_back(*b);
  }
  return success();
}

LogicalResult VmapOp::inferReturnTypes(MLIRContext *ctx,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  Type type = adaptor.getFn().getType();
  if (isa<AnyType>(type)) {
    results.push_back(type);
    return success();
  }
  auto fn = dyn_cast<FnType>(type);
  if (!fn)
    return emitOptionalError(loc, "adj.vmap: expected a function value, got ",
                             type);
  ArrayRef<int64_t> inAxes = adaptor.getInAxes();
  ArrayRef<int64_t> outAxes = adaptor.getOutAxes();
  int64_t size = adaptor.getBatchSize();
  if (size < 1)
    return emitOptionalError(loc, "adj.vmap: the batch size must be "
                                  "positive, got ",
                             size);
  if (inAxes.size() != fn.getInputs().size() ||
      outAxes.size() != fn.getResults().size())
    return emitOptionalError(
        loc, "adj.vmap: expected one in_axes entry per argument (",
        fn.getInputs().size(), ") and one out_axes entry per result (",
        fn.getResults().size(), "), got ", inAxes.size(), " and ",
        outAxes.size());
  if (!inAxes.empty() && llvm::all_of(inAxes, [](int64_t a) { return a < 0; }))
    return emitOptionalError(loc, "adj.vmap: no argument is batched");
  SmallVector<Type> inputs, outputs;
  if (failed(withBatchDims(loc, "argument", fn.getInputs(), inAxes, size,
                           inputs)) ||
      failed(withBatchDims(loc, "result", fn.getResults(), outAxes, size,
                           outputs)))
    return failure();
  results.push_back(FnType::get(ctx, inputs, outputs));
  return success();
}
