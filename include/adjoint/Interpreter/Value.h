//===- Value.h - Run-time values of the reference interpreter ---*- C++ -*-===//
//
// The values an adj program computes: dense tensors (every element type of
// the dialect), tuples, function values (closures with their captured
// values, or references to top-level functions) and sensitivity
// environments. All values are immutable and cheap to copy (shared storage).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_INTERPRETER_VALUE_H
#define ADJOINT_INTERPRETER_VALUE_H

#include "adjoint/Runtime/DType.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace mlir {
class Type;
class MLIRContext;
class Operation;
} // namespace mlir

namespace adjoint::interp {

/// The DType of an MLIR element type; throws adjoint::Error if unsupported.
DType dtypeOf(mlir::Type elementType);
/// The MLIR element type of a DType.
mlir::Type mlirType(DType dtype, mlir::MLIRContext *ctx);

/// A dense, row-major, immutable tensor. Rank 0 is a scalar.
class Tensor {
public:
  /// An f32 scalar zero.
  Tensor();
  /// A zero-filled tensor. Throws adjoint::Error when its size does not fit
  /// in 64 bits or the system cannot allocate it ("out of memory").
  Tensor(DType dtype, std::vector<int64_t> shape);
  /// A tensor from values converted to `dtype` (rounding as a cast would).
  static Tensor fromDoubles(DType dtype, std::vector<int64_t> shape,
                            llvm::ArrayRef<double> values);
  static Tensor scalar(DType dtype, double value);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t numel() const;

  /// Element `index` (row-major) converted to double.
  double at(int64_t index) const;
  /// All elements converted to double.
  std::vector<double> toDoubles() const;

  /// Raw row-major storage: dtypeSize(dtype()) bytes per element; i1 is one
  /// byte (0 or 1); f16 and bf16 are their IEEE/bfloat bit patterns.
  const void *data() const;
  size_t byteSize() const;
  /// Writable storage; copies first if the storage is shared.
  void *mutableData();

  /// "tensor<2x3xf32>".
  std::string typeString() const;

private:
  /// Zero-filled bytes from calloc. Not a std::vector: operator new aborts
  /// on failure in tools that install LLVM's out-of-memory handler, and a
  /// too large tensor must be an adjoint::Error instead.
  struct Storage;
  DType dtype_;
  std::vector<int64_t> shape_;
  std::shared_ptr<Storage> storage_;
};

/// Seeded input data for tools and tests (ir-run's `rand:` arguments), not
/// the semantics of any op: element i (row-major) is
/// low + (high - low) * u(i), u(k) = (splitmix64(seed * 0x9E3779B97F4A7C15
/// + k) >> 11) * 2^-53, rounded to `dtype` (a float type, or an integer type
/// into which the values are truncated).
Tensor randomUniform(DType dtype, std::vector<int64_t> shape, int64_t seed,
                     double low, double high);
/// Seeded normal input data: element i is mean + std *
/// sqrt(-2 log(1 - u(2i))) * cos(2 pi u(2i + 1)) (Box-Muller).
Tensor randomNormal(DType dtype, std::vector<int64_t> shape, int64_t seed,
                    double mean, double std);

struct TupleValue;
struct FunctionValue;
struct EnvValue;

/// Any value of an adj program.
class Value {
public:
  Value() = default;
  Value(Tensor tensor) : v_(std::move(tensor)) {}
  static Value tuple(std::vector<Value> elements);
  /// A function value (a closure or a function reference).
  static Value function(FunctionValue function);
  /// An environment value.
  static Value env(EnvValue env);

  bool isTensor() const { return std::holds_alternative<Tensor>(v_); }
  bool isTuple() const;
  bool isFunction() const;
  bool isEnv() const;

  /// Throw adjoint::Error when the value is of another kind.
  const Tensor &tensor() const;
  const std::vector<Value> &elements() const;
  const FunctionValue &function() const;
  const EnvValue &env() const;

  /// A short human-readable form (tensors print their elements).
  std::string toString() const;

  using Storage = std::variant<Tensor, std::shared_ptr<const TupleValue>,
                               std::shared_ptr<const FunctionValue>,
                               std::shared_ptr<const EnvValue>>;
  const Storage &storage() const { return v_; }
  explicit Value(Storage s) : v_(std::move(s)) {}

private:
  Storage v_;
};

struct TupleValue {
  std::vector<Value> elements;
};

/// A sensitivity environment: free-variable key -> sensitivity.
struct EnvValue {
  std::map<int64_t, Value> entries;
};

/// A function value: an adj.lambda with the values of its free variables
/// (a closure), or an adj.func with bound leading arguments (made by
/// adj.closure; none for a plain function reference).
struct FunctionValue {
  /// The adj.lambda or adj.func op; owned by the interpreted module.
  mlir::Operation *callee = nullptr;
  /// For an adj.lambda, the values of its free variables in the order the
  /// interpreter lists them (first use in the region). For an adj.func, the
  /// arguments that every call prepends to its own.
  std::vector<Value> captures;
};

} // namespace adjoint::interp

#endif // ADJOINT_INTERPRETER_VALUE_H
