//===- Signature.h - The tensors a compiled function takes ------*- C++ -*-===//
//
// A compiled entry point takes and returns the tensor leaves of its adj
// signature, tuples flattened depth-first. The signature travels inside the
// object file as a string (so a cached or ahead-of-time compiled object
// describes itself) in the form
//
//   f32[2,3]! i64[] -> f32[2,3] f32[]
//
// where `!` marks a donated input (CompileOptions::donate): the call may
// write it and an output may take over its memory.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_SIGNATURE_H
#define ADJOINT_RUNTIME_SIGNATURE_H

#include "adjoint/Runtime/Tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace adjoint::rt {

/// The dtype and static shape of one input or output.
struct TensorSpec {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// An input the call may overwrite, whose memory an output of the same
  /// type may take over (invoke() then hands the output that memory).
  bool donated = false;

  int64_t numel() const { return numElements(shape); }
  /// "tensor<2x3xf32>".
  std::string str() const { return tensorTypeString(dtype, shape); }
  bool matches(const Tensor &t) const {
    return t.valid() && t.dtype() == dtype && t.shape() == shape;
  }
  bool operator==(const TensorSpec &other) const = default;
};

struct Signature {
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;

  /// The text form above.
  std::string serialize() const;
  /// Parses serialize()'s text; nullopt when malformed.
  static std::optional<Signature> parse(const std::string &text);
  bool operator==(const Signature &other) const = default;
};

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_SIGNATURE_H
