//===- Fourier.cpp - adj.fft ----------------------------------------------===//
//
// The builder's side of the Fourier transform: the operand's conversions
// (jax.numpy.fft's: integers and half types compute in f32, f64 stays f64,
// and complex transforms take a real operand as complex) and the op.
// numpy's n, axes and norm are the Python front end's (adjoint.numpy.fft).
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

Value api::fft(Value x, Fft type, const std::vector<int64_t> &lengths) {
  ModuleState &s = stateOf("adj.fft", x);
  if (x.type().isTensor()) {
    DType dtype = x.type().dtype();
    DType real = isComplex(dtype) ? realPart(dtype) : dtype;
    if (real != DType::F64)
      real = DType::F32;
    if (type == Fft::Rfft) {
      // A complex operand is the op's error to report, not a cast that
      // drops the imaginary part.
      if (!isComplex(dtype) && dtype != real)
        x = cast(x, real);
    } else if (!isComplex(dtype) || realPart(dtype) != real) {
      x = cast(x, real == DType::F64 ? DType::C128 : DType::C64);
    }
  }
  OpSpec spec{"adj.fft", {x}};
  spec.attributes.push_back(s.builder.getNamedAttr(
      "fft_type", s.builder.getI32IntegerAttr(static_cast<int32_t>(type))));
  spec.attributes.push_back(s.builder.getNamedAttr(
      "lengths", s.builder.getDenseI64ArrayAttr(lengths)));
  return createValue(s, spec);
}
