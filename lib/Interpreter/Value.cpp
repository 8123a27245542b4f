//===- Value.cpp - Run-time values of the reference interpreter -----------===//
//
// Tensors with shared, copy-on-write storage, and the Value variant of
// tensors, tuples, function values and environments.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Interpreter/Value.h"
#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/ElementTypes.h"
#include "adjoint/Support/CheckedSize.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

DType interp::dtypeOf(Type type) {
  if (std::optional<DType> dtype = adj::dtypeOf(type))
    return *dtype;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  throw Error("unsupported element type " + s);
}

Type interp::mlirType(DType dtype, MLIRContext *ctx) {
  return adj::elementTypeOf(dtype, ctx);
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

struct Tensor::Storage {
  uint8_t *bytes = nullptr;
  size_t size = 0;

  /// `size` bytes, zero-filled or copied from `from`; throws the
  /// out-of-memory error naming `tensor` when the system refuses.
  Storage(size_t size, const uint8_t *from, const Tensor &tensor)
      : size(size) {
    // calloc(0) may return null: ask for one byte so that null means OOM.
    bytes = static_cast<uint8_t *>(from ? std::malloc(size ? size : 1)
                                        : std::calloc(size ? size : 1, 1));
    if (!bytes)
      throw AllocationError("out of memory: " + std::to_string(size) +
                            " bytes for " + tensor.typeString());
    if (from && size)
      std::memcpy(bytes, from, size);
  }
  ~Storage() { std::free(bytes); }
  Storage(const Storage &) = delete;
  Storage &operator=(const Storage &) = delete;
};

Tensor::Tensor() : Tensor(DType::F32, {}) {}

Tensor::Tensor(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)) {
  for (int64_t d : shape_)
    if (d < 0)
      throw Error("negative dimension in shape " + shapeString(shape_));
  std::optional<int64_t> bytes =
      checkedTensorBytes(shape_, static_cast<int64_t>(dtypeSize(dtype)));
  if (!bytes)
    throw AllocationError(typeString() +
                          " is too large: its element count or byte size "
                          "does not fit in 64 bits");
  storage_ = std::make_shared<Storage>(static_cast<size_t>(*bytes), nullptr,
                                       *this);
}

Tensor Tensor::fromDoubles(DType dtype, std::vector<int64_t> shape,
                           llvm::ArrayRef<double> values) {
  Tensor t(dtype, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.numel())
    throw Error("a tensor of shape " + shapeString(t.shape()) + " needs " +
                std::to_string(t.numel()) + " values, got " +
                std::to_string(values.size()));
  dispatchAny(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *out = ptr<T>(t);
    for (size_t i = 0; i < values.size(); ++i)
      out[i] = fromDouble<T>(values[i]);
  });
  return t;
}

Tensor Tensor::scalar(DType dtype, double value) {
  return fromDoubles(dtype, {}, {value});
}

int64_t Tensor::numel() const { return numElements(shape_); }

double Tensor::at(int64_t index) const {
  if (index < 0 || index >= numel())
    throw Error("element " + std::to_string(index) +
                " is out of range for " + typeString());
  return dispatch(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return toDouble(ptr<T>(*this)[index]);
  });
}

std::vector<double> Tensor::toDoubles() const {
  std::vector<double> out(numel());
  dispatch(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *in = ptr<T>(*this);
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = toDouble(in[i]);
  });
  return out;
}

const void *Tensor::data() const { return storage_->bytes; }

size_t Tensor::byteSize() const { return storage_->size; }

void *Tensor::mutableData() {
  if (storage_.use_count() > 1)
    storage_ =
        std::make_shared<Storage>(storage_->size, storage_->bytes, *this);
  return storage_->bytes;
}

std::string Tensor::typeString() const {
  std::string s = "tensor<";
  for (int64_t d : shape_)
    s += std::to_string(d) + "x";
  return s + dtypeName(dtype_) + ">";
}

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

interp::Value interp::Value::tuple(std::vector<interp::Value> elements) {
  return interp::Value(Storage(
      std::make_shared<const TupleValue>(TupleValue{std::move(elements)})));
}

interp::Value interp::Value::function(FunctionValue function) {
  return interp::Value(
      Storage(std::make_shared<const FunctionValue>(std::move(function))));
}

interp::Value interp::Value::env(EnvValue env) {
  return interp::Value(
      Storage(std::make_shared<const EnvValue>(std::move(env))));
}

bool interp::Value::isTuple() const {
  return std::holds_alternative<std::shared_ptr<const TupleValue>>(v_);
}
bool interp::Value::isFunction() const {
  return std::holds_alternative<std::shared_ptr<const FunctionValue>>(v_);
}
bool interp::Value::isEnv() const {
  return std::holds_alternative<std::shared_ptr<const EnvValue>>(v_);
}

/// "a tensor<2xf32>", "a tuple", ... for error messages.
static std::string kindOf(const interp::Value &value) {
  if (value.isTensor())
    return "a tensor " + value.tensor().typeString();
  if (value.isTuple())
    return "a tuple";
  if (value.isFunction())
    return "a function";
  return "an environment";
}

const Tensor &interp::Value::tensor() const {
  if (auto *t = std::get_if<Tensor>(&v_))
    return *t;
  throw Error("expected a tensor, got " + kindOf(*this));
}

const std::vector<interp::Value> &interp::Value::elements() const {
  if (auto *t = std::get_if<std::shared_ptr<const TupleValue>>(&v_))
    return (*t)->elements;
  throw Error("expected a tuple, got " + kindOf(*this));
}

const FunctionValue &interp::Value::function() const {
  if (auto *f = std::get_if<std::shared_ptr<const FunctionValue>>(&v_))
    return **f;
  throw Error("expected a function, got " + kindOf(*this));
}

const EnvValue &interp::Value::env() const {
  if (auto *e = std::get_if<std::shared_ptr<const EnvValue>>(&v_))
    return **e;
  throw Error("expected an environment, got " + kindOf(*this));
}

/// Shortest round-trip text of one element.
template <typename T> static void printElement(std::string &out, T value) {
  if constexpr (std::is_same_v<T, bool>) {
    out += value ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    out += std::to_string(value);
  } else if constexpr (kIsComplex<T>) {
    // NumPy's form: (1+2j), (1-0j), (nan+infj).
    out += '(';
    printElement(out, value.real());
    if (!std::signbit(value.imag()) || std::isnan(value.imag()))
      out += '+';
    printElement(out, value.imag());
    out += "j)";
  } else {
    char buf[64];
    std::to_chars_result r;
    if constexpr (std::is_same_v<T, double>)
      r = std::to_chars(buf, buf + sizeof buf, value);
    else
      r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(value));
    out.append(buf, r.ptr);
  }
}

/// Nested lists in row-major order: "[[1, 2], [3, 4]]"; a scalar is bare.
static void printElements(std::string &out, const Tensor &t) {
  dispatchAny(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *data = ptr<T>(t);
    const std::vector<int64_t> &shape = t.shape();
    std::vector<int64_t> strides = stridesOf(shape);
    // Recursion over the dimensions only: its depth is the rank.
    auto rec = [&](auto &self, size_t dim, int64_t base) -> void {
      if (dim == shape.size()) {
        printElement(out, data[base]);
        return;
      }
      out += '[';
      for (int64_t i = 0; i < shape[dim]; ++i) {
        if (i)
          out += ", ";
        self(self, dim + 1, base + i * strides[dim]);
      }
      out += ']';
    };
    rec(rec, 0, 0);
  });
}

std::string interp::Value::toString() const {
  std::string out;
  if (isTensor()) {
    out = tensor().typeString() + " ";
    printElements(out, tensor());
  } else if (isTuple()) {
    out = "(";
    for (size_t i = 0; i < elements().size(); ++i)
      out += (i ? ", " : "") + elements()[i].toString();
    out += ")";
  } else if (isFunction()) {
    const FunctionValue &fn = function();
    auto func = dyn_cast_or_null<adj::FuncOp>(fn.callee);
    if (func && !fn.captures.empty())
      out = "<closure of @" + func.getSymName().str() + " with " +
            std::to_string(fn.captures.size()) + " captured values>";
    else if (func)
      out = "<function @" + func.getSymName().str() + ">";
    else if (fn.callee)
      out = "<closure at " + formatLocation(fn.callee->getLoc()) + " with " +
            std::to_string(fn.captures.size()) + " captured values>";
    else
      out = "<null function>";
  } else {
    out = "env{";
    bool first = true;
    for (const auto &[key, value] : env().entries) {
      out += (first ? "" : ", ") + std::to_string(key) + ": " +
             value.toString();
      first = false;
    }
    out += "}";
  }
  return out;
}
