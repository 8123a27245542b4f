//===- Detail.h - Helpers shared by the interpreter's kernels ---*- C++ -*-===//
//
// Element-type dispatch, conversions between element types and double,
// row-major index walking with broadcasting, error reporting with the op's
// location, and the entry points of the primitive families. Internal to
// lib/Interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_INTERPRETER_DETAIL_H
#define ADJOINT_LIB_INTERPRETER_DETAIL_H

#include "adjoint/Interpreter/Value.h"
#include "adjoint/Support/CheckedSize.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <Eigen/Core>

#include <cmath>
#include <complex>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace adjoint::interp::detail {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// "file:line:col" of the first file location inside `loc`, or "<unknown>".
std::string formatLocation(mlir::Location loc);

/// Throws adjoint::Error "<file:line:col>: <op name>: <message>".
[[noreturn]] void fail(mlir::Operation *op, const llvm::Twine &message);

/// "[2, 3]".
std::string shapeString(llvm::ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// Tag that carries an element storage type through generic lambdas.
template <typename T> struct Tag {
  using type = T;
};

template <typename T> struct IsComplex : std::false_type {};
template <typename T> struct IsComplex<std::complex<T>> : std::true_type {};
template <typename T> inline constexpr bool kIsComplex = IsComplex<T>::value;

template <typename T>
inline constexpr bool kIsFloat =
    std::is_floating_point_v<T> || std::is_same_v<T, Eigen::half> ||
    std::is_same_v<T, Eigen::bfloat16>;

/// Throws adjoint::Error for a complex `dtype` reaching a kernel that only
/// knows real elements (the ops' type rules reject such operands first).
[[noreturn]] void failComplex(DType dtype);

/// Calls `f(Tag<T>{})` with the storage type of `dtype`: double, float,
/// Eigen::half, Eigen::bfloat16, int64_t, int32_t or bool (i1 is one byte).
/// Complex types are not dispatched (see dispatchComplex): most kernels have
/// no complex meaning, and each one that has says so.
template <typename F> decltype(auto) dispatch(DType dtype, F &&f) {
  switch (dtype) {
  case DType::C64:
  case DType::C128:
    failComplex(dtype);
  case DType::F64:
    return f(Tag<double>{});
  case DType::F32:
    return f(Tag<float>{});
  case DType::F16:
    return f(Tag<Eigen::half>{});
  case DType::BF16:
    return f(Tag<Eigen::bfloat16>{});
  case DType::I64:
    return f(Tag<int64_t>{});
  case DType::I32:
    return f(Tag<int32_t>{});
  case DType::I1:
    break;
  }
  return f(Tag<bool>{});
}

/// Calls `f(Tag<std::complex<float>>{})` for c64 and
/// `f(Tag<std::complex<double>>{})` for c128.
template <typename F> decltype(auto) dispatchComplex(DType dtype, F &&f) {
  if (dtype == DType::C64)
    return f(Tag<std::complex<float>>{});
  return f(Tag<std::complex<double>>{});
}

/// dispatch for every dtype, complex ones included: for kernels that handle
/// `kIsComplex<T>` themselves.
template <typename F> decltype(auto) dispatchAny(DType dtype, F &&f) {
  if (isComplex(dtype))
    return dispatchComplex(dtype, std::forward<F>(f));
  return dispatch(dtype, std::forward<F>(f));
}


/// Rounds `value` to float with round-to-odd. Narrowing the result to half or
/// bfloat16 (round to nearest even) then rounds `value` correctly, which a
/// plain double -> float -> half chain does not (double rounding).
float roundToOddFloat(double value);

template <typename T> double toDouble(T value) {
  if constexpr (std::is_same_v<T, Eigen::half> ||
                std::is_same_v<T, Eigen::bfloat16>)
    return static_cast<double>(static_cast<float>(value));
  else
    return static_cast<double>(value);
}

/// Converts a double to an element type as adj.cast does: floats round to
/// nearest even, integers truncate toward zero (saturating, NaN -> 0, so that
/// no input is undefined behaviour), i1 tests for non-zero; complex numbers
/// get a zero imaginary part.
template <typename T> T fromDouble(double value) {
  if constexpr (kIsComplex<T>) {
    return T(static_cast<typename T::value_type>(value));
  } else if constexpr (std::is_same_v<T, bool>) {
    return value != 0;
  } else if constexpr (std::is_same_v<T, double>) {
    return value;
  } else if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(value);
  } else if constexpr (kIsFloat<T>) {
    return T(roundToOddFloat(value));
  } else {
    return saturatingFloatToInt<T>(value);
  }
}

/// Converts an integer to an element type without going through double
/// (which would round i64 values above 2^53).
template <typename T> T fromInt(int64_t value) {
  if constexpr (std::is_same_v<T, bool>)
    return value != 0;
  else if constexpr (std::is_same_v<T, Eigen::half> ||
                     std::is_same_v<T, Eigen::bfloat16>)
    return T(static_cast<float>(value));
  else
    return static_cast<T>(value); // Modular for i32 (C++20).
}

template <typename T> T *ptr(Tensor &tensor) {
  return static_cast<T *>(tensor.mutableData());
}
template <typename T> const T *ptr(const Tensor &tensor) {
  return static_cast<const T *>(tensor.data());
}

/// The elements of `t` converted to the compute type `C` (an arithmetic
/// type: integers convert exactly, floats through double; or a complex type
/// for complex tensors).
template <typename C> std::vector<C> elementsAs(const Tensor &t) {
  std::vector<C> out(t.numel());
  dispatchAny(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T *in = ptr<T>(t);
    for (size_t i = 0; i < out.size(); ++i) {
      if constexpr (kIsComplex<T> != kIsComplex<C>)
        failComplex(t.dtype());
      else if constexpr (kIsComplex<T> || std::is_integral_v<C>)
        out[i] = static_cast<C>(in[i]);
      else
        out[i] = static_cast<C>(toDouble(in[i]));
    }
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Shapes and index walking
//===----------------------------------------------------------------------===//

/// The element count of `shape`; throws adjoint::Error when it does not fit
/// in int64_t.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// What Tensor's constructor throws when a tensor is too large to represent
/// or to allocate; evalPrimitive adds the op and its location.
class AllocationError : public Error {
public:
  using Error::Error;
};
/// Row-major strides of `shape`.
std::vector<int64_t> stridesOf(llvm::ArrayRef<int64_t> shape);
/// Strides with which an operand of shape `from` is read at the indices of
/// `to` under NumPy broadcasting (0 along broadcast dimensions); `from` must
/// broadcast to `to`.
std::vector<int64_t> broadcastStrides(llvm::ArrayRef<int64_t> from,
                                      llvm::ArrayRef<int64_t> to);

/// Walks the indices of `shape` in row-major order and keeps, for each of
/// several operands, the linear offset given by that operand's strides.
class IndexWalker {
public:
  IndexWalker(llvm::ArrayRef<int64_t> shape,
              std::vector<std::vector<int64_t>> strides);
  int64_t offset(size_t operand) const { return offsets_[operand]; }
  const std::vector<int64_t> &index() const { return index_; }
  /// Moves to the next index (wrapping to all zeros after the last).
  void next();

private:
  std::vector<int64_t> shape_, index_, offsets_;
  std::vector<std::vector<int64_t>> strides_;
};

/// The broadcast shape of `shapes`, or fail(op, ...) naming them.
std::vector<int64_t> broadcastOrFail(mlir::Operation *op,
                                     llvm::ArrayRef<const Tensor *> tensors);

/// Applies `f(a, b)` over the broadcast shape of `a` and `b`, with `A`/`R`
/// the storage types of the operands and of the result.
template <typename A, typename R, typename F>
Tensor mapBinary(mlir::Operation *op, const Tensor &a, const Tensor &b,
                 DType resultType, F f) {
  std::vector<int64_t> shape = broadcastOrFail(op, {&a, &b});
  Tensor out(resultType, shape);
  IndexWalker walk(shape, {broadcastStrides(a.shape(), shape),
                           broadcastStrides(b.shape(), shape)});
  const A *pa = ptr<A>(a), *pb = ptr<A>(b);
  R *po = ptr<R>(out);
  for (int64_t i = 0, n = out.numel(); i < n; ++i, walk.next())
    po[i] = f(pa[walk.offset(0)], pb[walk.offset(1)]);
  return out;
}

//===----------------------------------------------------------------------===//
// Primitive families. Each returns std::nullopt for ops of other families.
//===----------------------------------------------------------------------===//

/// Arithmetic, math functions, cmp, select and cast.
std::optional<Tensor> evalElementwise(mlir::Operation *op,
                                      llvm::ArrayRef<Tensor> operands);
/// adj.complex, adj.real, adj.imag, and the elementwise ops on complex
/// operands (Complex.cpp); std::nullopt when no complex tensor is involved.
std::optional<Tensor> evalComplex(mlir::Operation *op,
                                  llvm::ArrayRef<Tensor> operands);
/// reduce_sum, reduce_max, reduce_mean.
std::optional<Tensor> evalReductions(mlir::Operation *op,
                                     llvm::ArrayRef<Tensor> operands);
/// matmul.
std::optional<Tensor> evalContraction(mlir::Operation *op,
                                      llvm::ArrayRef<Tensor> operands);
/// broadcast_to, reshape, transpose, slice, concat, pad, gather,
/// scatter_add, scatter.
std::optional<Tensor> evalMovement(mlir::Operation *op,
                                   llvm::ArrayRef<Tensor> operands);
/// conv2d, max_pool2d, avg_pool2d.
std::optional<Tensor> evalConvolution(mlir::Operation *op,
                                      llvm::ArrayRef<Tensor> operands);
/// constant, fill, iota.
std::optional<Tensor> evalCreation(mlir::Operation *op,
                                   llvm::ArrayRef<Tensor> operands);
/// Every MatrixDecomposition op (cholesky, triangular_solve, lu, qr, eigh,
/// eig, svd): one tensor per result.
std::optional<std::vector<Tensor>>
evalLinearAlgebra(mlir::Operation *op, llvm::ArrayRef<Tensor> operands);
/// fft (Fourier.cpp).
std::optional<Tensor> evalFourier(mlir::Operation *op,
                                  llvm::ArrayRef<Tensor> operands);
/// bitwise_and/or/xor, shift_left, shift_right_logical, bitcast,
/// threefry2x32.
std::optional<Tensor> evalBits(mlir::Operation *op,
                               llvm::ArrayRef<Tensor> operands);

/// The static shape of a result whose type is a ranked tensor with static
/// shape; fails otherwise (created tensors have nothing else to go by).
std::vector<int64_t> staticResultShape(mlir::Operation *op);
/// The element type of a ranked-tensor result, or fail(op, ...).
DType resultDType(mlir::Operation *op);

/// Throws unless `tensor` has a floating-point element type.
void requireFloat(mlir::Operation *op, const Tensor &tensor);
/// Throws if `tensor` is i1.
void requireNotBool(mlir::Operation *op, const Tensor &tensor);
/// Throws unless all tensors share one element type.
void requireSameDType(mlir::Operation *op, llvm::ArrayRef<Tensor> tensors);

//===----------------------------------------------------------------------===//
// Sensitivities (Sensitivities.cpp)
//===----------------------------------------------------------------------===//

/// The zero sensitivity of a run-time value: zeros of a tensor's shape and
/// element type, a tuple of zeros, the empty environment for a function or
/// an environment.
Value zerosLike(const Value &value);
/// The zero of a static sensitivity type; fails for !adj.any and for types
/// without a zero (dynamic shapes, functions).
Value zeroOfType(mlir::Operation *op, mlir::Type type);
/// Tensors elementwise (same shape and element type; i1 adds as "or"),
/// tuples per element, environments key-wise.
Value gradAdd(mlir::Operation *op, const Value &lhs, const Value &rhs);

} // namespace adjoint::interp::detail

#endif // ADJOINT_LIB_INTERPRETER_DETAIL_H
