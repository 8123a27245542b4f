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
  for (auto [i, t] : llvm::enumerate(fn.getInputs())) {
    if (inAxes[i] < -1)
      return emitOptionalError(loc, "adj.vmap: in_axes entries are axes or "
                                    "-1 (not batched), got ",
                               inAxes[i]);
    if (inAxes[i] == -1) {
      inputs.push_back(t);
      continue;
    }
    FailureOr<Type> b = withBatchDim(loc, "argument", i, t, inAxes[i], size);
    if (failed(b))
      return failure();
    inputs.push_back(*b);
  }
  for (auto [i, t] : llvm::enumerate(fn.getResults())) {
    if (outAxes[i] < 0)
      return emitOptionalError(loc, "adj.vmap: out_axes entries are axes, "
                                    "got ",
                               outAxes[i]);
    FailureOr<Type> b = withBatchDim(loc, "result", i, t, outAxes[i], size);
    if (failed(b))
      return failure();
    outputs.push_back(*b);
  }
  results.push_back(FnType::get(ctx, inputs, outputs));
  return success();
}
