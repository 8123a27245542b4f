//===- Fourier.cpp - Shape rules of adj.fft --------------------------------===//
//
// Result-type inference (and so verification) of the discrete Fourier
// transform: one to three trailing dimensions of `lengths`, complex in and
// out for fft/ifft, real to the half spectrum for rfft and back for irfft.
// An untyped operand gives !adj.any.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace adjoint::adj;

LogicalResult FftOp::inferReturnTypes(MLIRContext *ctx,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  Type type = adaptor.getInput().getType();
  if (isa<AnyType>(type)) {
    results.push_back(AnyType::get(ctx));
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitOptionalError(loc, "adj.fft: expected a ranked tensor, got ",
                             type);
  FftType kind = adaptor.getFftType();
  ArrayRef<int64_t> lengths = adaptor.getLengths();
  int64_t axes = static_cast<int64_t>(lengths.size());
  if (axes < 1 || axes > 3)
    return emitOptionalError(loc, "adj.fft: expected one to three lengths, "
                                  "got ",
                             axes);
  for (int64_t n : lengths)
    if (n < 1)
      return emitOptionalError(loc, "adj.fft: lengths must be positive, got ",
                               formatShape(lengths));
  if (tensor.getRank() < axes)
    return emitOptionalError(loc, "adj.fft: a transform over ", axes,
                             " dimensions needs rank >= ", axes, ", got ",
                             formatShape(tensor.getShape()));

  Type element = tensor.getElementType();
  auto complex = dyn_cast<ComplexType>(element);
  Type real = complex ? complex.getElementType() : element;
  if (!real.isF32() && !real.isF64())
    return emitOptionalError(loc, "adj.fft: expected f32, f64 or their "
                                  "complex types, got ",
                             element);
  bool realInput = kind == FftType::rfft;
  if (realInput == static_cast<bool>(complex))
    return emitOptionalError(loc, "adj.fft: ", stringifyFftType(kind),
                             realInput ? " takes a real tensor, got "
                                       : " takes a complex tensor, got ",
                             element);

  // The trailing dimensions the input must have, and the result's.
  SmallVector<int64_t> expected(lengths), produced(lengths);
  int64_t half = lengths.back() / 2 + 1;
  if (kind == FftType::rfft)
    produced.back() = half;
  if (kind == FftType::irfft)
    expected.back() = half;
  ArrayRef<int64_t> shape = tensor.getShape();
  ArrayRef<int64_t> trailing = shape.take_back(axes);
  for (auto [have, want] : llvm::zip(trailing, expected))
    if (have != want && have != ShapedType::kDynamic)
      return emitOptionalError(
          loc, "adj.fft: ", stringifyFftType(kind), " with lengths ",
          formatShape(lengths), " expects trailing dimensions ",
          formatShape(expected), ", got ", formatShape(shape));

  SmallVector<int64_t> out(shape.drop_back(axes));
  out.append(produced.begin(), produced.end());
  Type outElement = element;
  if (kind == FftType::rfft)
    outElement = ComplexType::get(real);
  if (kind == FftType::irfft)
    outElement = real;
  results.push_back(RankedTensorType::get(out, outElement));
  return success();
}
