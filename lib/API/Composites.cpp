//===- Composites.cpp - Neural-network building blocks from primitives ----===//
//
// softmax, log_softmax, cross_entropy, layer_norm, gelu and linear are
// compositions of primitives, not ops: the optimizer and fusion make them
// fast, and AD needs no rules for them. Each checks its inputs before it
// builds anything, so that a bad input throws without leaving dead ops.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include <cmath>

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

/// The type of `x`, which must be a floating-point tensor of rank >= 1
/// (or any rank with `anyRank`).
static Type floatTensor(llvm::StringRef fn, const Value &x,
                        llvm::StringRef what = "input", bool anyRank = false) {
  stateOf(fn, x);
  Type type = x.type();
  if (!type.isTensor() || !isFloat(type.dtype()) ||
      (!anyRank && type.rank() == 0))
    throw Error(fn.str() + ": the " + what.str() + " must be a floating-point "
                + (anyRank ? "tensor" : "tensor of rank >= 1") + ", got " +
                type.str());
  return type;
}

/// `axis` normalized for `type`; throws adjoint::Error naming `fn`.
static int64_t checkAxis(llvm::StringRef fn, const Type &type, int64_t axis) {
  int64_t normalized = axis < 0 ? axis + type.rank() : axis;
  if (normalized < 0 || normalized >= type.rank())
    throw Error(fn.str() + ": axis " + std::to_string(axis) +
                " is out of range for shape " + formatShape(type.shape()));
  return normalized;
}

Value api::softmax(Value x, int64_t axis) {
  axis = checkAxis("softmax", floatTensor("softmax", x), axis);
  // Subtracting the maximum keeps exp from overflowing; it cancels out.
  Value e = exp(x - max(x, axis, /*keepdims=*/true));
  return e / sum(e, axis, /*keepdims=*/true);
}

Value api::log_softmax(Value x, int64_t axis) {
  axis = checkAxis("log_softmax", floatTensor("log_softmax", x), axis);
  Value shifted = x - max(x, axis, /*keepdims=*/true);
  return shifted - log(sum(exp(shifted), axis, /*keepdims=*/true));
}

Value api::cross_entropy(Value logits, Value labels) {
  Type lt = floatTensor("cross_entropy", logits, "logits");
  stateOf("cross_entropy", labels);
  Type yt = labels.type();
  std::vector<int64_t> batch(lt.shape().begin(), lt.shape().end() - 1);
  if (yt.isTensor() && isFloat(yt.dtype())) {
    if (yt != lt.withDType(yt.dtype()) || yt.dtype() != lt.dtype())
      throw Error("cross_entropy: target probabilities must have the type of "
                  "the logits " + lt.str() + ", got " + yt.str());
    Value nll = -sum(labels * log_softmax(logits), -1);
    return mean(nll);
  }
  if (!yt.isTensor() || yt.dtype() == DType::I1 || yt.shape() != batch)
    throw Error("cross_entropy: class indices must be an i32 or i64 tensor "
                "of shape " + formatShape(batch) + " for logits " +
                formatShape(lt.shape()) + ", got " + yt.str());
  // One-hot mask: class c of row r is picked where iota(c) == labels[r].
  ModuleState &s = *logits.state();
  OpSpec iota{"adj.iota"};
  iota.attributes.push_back(s.builder.getNamedAttr(
      "axis", s.builder.getI64IntegerAttr(lt.rank() - 1)));
  iota.resultTypes = std::vector<mlir::Type>{
      s.mlirType(lt.withDType(yt.dtype()))};
  std::vector<int64_t> column = batch;
  column.push_back(1);
  Value mask = createValue(s, iota) == reshape(labels, column);
  Value picked = sum(select(mask, log_softmax(logits), 0.0), -1);
  return -mean(picked);
}

Value api::layer_norm(Value x, Value gamma, Value beta, double eps) {
  Type type = floatTensor("layer_norm", x);
  std::vector<int64_t> features{type.shape().back()};
  for (auto [what, v] : {std::pair{"gamma", gamma}, std::pair{"beta", beta}}) {
    stateOf("layer_norm", v);
    if (v.type() != type.withShape(features))
      throw Error(std::string("layer_norm: ") + what + " must be " +
                  type.withShape(features).str() + " for an input " +
                  type.str() + ", got " + v.type().str());
  }
  Value centered = x - mean(x, -1, /*keepdims=*/true);
  Value variance = mean(centered * centered, -1, /*keepdims=*/true);
  return centered * rsqrt(variance + eps) * gamma + beta;
}

Value api::gelu(Value x) {
  floatTensor("gelu", x, "input", /*anyRank=*/true);
  return x * 0.5 * (1.0 + erf(x * M_SQRT1_2));
}

Value api::linear(Value x, Value w, Value b) { return matmul(x, w) + b; }

Value api::linear(Value x, Value w) { return matmul(x, w); }
