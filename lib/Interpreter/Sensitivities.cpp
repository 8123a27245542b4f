//===- Sensitivities.cpp - zeros_like, grad_add and environment sums ------===//
//
// The sensitivity algebra works on run-time values, so it also serves
// untyped programs: a zero is built from the value it stands for, and sums
// recurse through tuples and environments.
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;

interp::Value adjoint::interp::detail::zerosLike(const interp::Value &value) {
  if (value.isTensor())
    return Tensor(value.tensor().dtype(), value.tensor().shape());
  if (value.isTuple()) {
    std::vector<interp::Value> zeros;
    for (const interp::Value &element : value.elements())
      zeros.push_back(zerosLike(element));
    return interp::Value::tuple(std::move(zeros));
  }
  return interp::Value::env({});
}

interp::Value adjoint::interp::detail::zeroOfType(Operation *op, Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (tensor.hasStaticShape())
      return Tensor(dtypeOf(tensor.getElementType()),
                    std::vector<int64_t>(tensor.getShape().begin(),
                                         tensor.getShape().end()));
  } else if (auto tuple = dyn_cast<adj::TupleType>(type)) {
    std::vector<interp::Value> zeros;
    for (Type element : tuple.getTypes())
      zeros.push_back(zeroOfType(op, element));
    return interp::Value::tuple(std::move(zeros));
  } else if (isa<adj::EnvType>(type)) {
    return interp::Value::env({});
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  fail(op, "the key is absent and the type " + s + " has no known zero");
}

/// lhs + rhs for tensors of one shape and element type.
static Tensor addTensors(Operation *op, const Tensor &lhs, const Tensor &rhs) {
  if (lhs.dtype() != rhs.dtype() || lhs.shape() != rhs.shape())
    fail(op, "cannot add sensitivities " + lhs.typeString() + " and " +
                 rhs.typeString());
  Tensor out(lhs.dtype(), lhs.shape());
  dispatchAny(lhs.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *a = ptr<T>(lhs), *b = ptr<T>(rhs);
    T *o = ptr<T>(out);
    for (int64_t i = 0, n = out.numel(); i < n; ++i) {
      if constexpr (kIsComplex<T>)
        o[i] = a[i] + b[i];
      else if constexpr (std::is_same_v<T, bool>)
        o[i] = a[i] || b[i];
      else if constexpr (kIsFloat<T>)
        o[i] = fromDouble<T>(toDouble(a[i]) + toDouble(b[i]));
      else // Wrap around like compiled code instead of overflowing (UB).
        o[i] = static_cast<T>(static_cast<uint64_t>(a[i]) +
                              static_cast<uint64_t>(b[i]));
    }
  });
  return out;
}

interp::Value adjoint::interp::detail::gradAdd(Operation *op,
                                               const interp::Value &lhs,
                                               const interp::Value &rhs) {
  if (lhs.isTensor() && rhs.isTensor())
    return addTensors(op, lhs.tensor(), rhs.tensor());
  if (lhs.isTuple() && rhs.isTuple()) {
    const auto &a = lhs.elements(), &b = rhs.elements();
    if (a.size() != b.size())
      fail(op, "cannot add tuples of " + Twine(a.size()) + " and " +
                   Twine(b.size()) + " elements");
    std::vector<interp::Value> sum;
    for (size_t i = 0; i < a.size(); ++i)
      sum.push_back(gradAdd(op, a[i], b[i]));
    return interp::Value::tuple(std::move(sum));
  }
  if (lhs.isEnv() && rhs.isEnv()) {
    EnvValue sum = lhs.env();
    for (const auto &[key, value] : rhs.env().entries) {
      auto [it, inserted] = sum.entries.try_emplace(key, value);
      if (!inserted)
        it->second = gradAdd(op, it->second, value);
    }
    return interp::Value::env(std::move(sum));
  }
  auto kind = [](const interp::Value &v) -> std::string {
    if (v.isTensor())
      return v.tensor().typeString();
    return v.isTuple() ? "a tuple" : v.isFunction() ? "a function" : "an env";
  };
  fail(op, "cannot add sensitivities " + kind(lhs) + " and " + kind(rhs));
}
