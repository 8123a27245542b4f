//===- Builder.h - Build adj programs from C++ ------------------*- C++ -*-===//
//
// Writes adj programs without MLIR boilerplate: a Module owns its context
// and its ModuleOp, functions are defined by C++ lambdas over Values, and
// Values have arithmetic operators. Every op is type-checked as it is built:
// a shape or type error throws adjoint::Error naming the op and the shapes,
// and the failed op is erased, so the module stays valid.
//
//   api::Module m;
//   api::Type x3 = api::Type::tensor(DType::F32, {3});
//   api::Type s = api::Type::scalar(DType::F32);
//   api::Function loss = m.function("loss", {x3, s}, [&](api::Value x,
//                                                        api::Value w) {
//     api::Value scale = api::lambda(m, {x3}, [&](api::Value v) {
//       return v * w;                       // w is captured (a free variable)
//     });
//     return api::sum(api::exp(scale(x)) + 1.0);
//   });
//   std::string ir = m.str();               // or m.op() for passes
//
// Regions (function bodies, closures, branches, loop bodies) are built by
// calling the C++ lambda given for them with the region's arguments. Such a
// lambda takes one `Value` per argument (or one `std::vector<Value>`) and
// returns a `Value` or a `Values`. A closure body that uses a Value of an
// enclosing region makes it a free variable of the closure.
//
// A Module must outlive the Values and Functions made from it. Values stay
// valid while their op exists: a region whose lambda throws is erased, and
// Values made inside it must not be used afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_API_BUILDER_H
#define ADJOINT_API_BUILDER_H

#include "adjoint/API/Type.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"

#include <complex>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <tuple>
#include <utility>
#include <vector>

namespace adjoint::adj {
class FuncOp;
} // namespace adjoint::adj

namespace adjoint::api {

namespace detail {
struct ModuleState;
} // namespace detail

class Module;
class Values;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// An SSA value of a module being built: a tensor, a function value or a
/// tuple. Cheap to copy. A default-constructed Value is empty; using it
/// throws adjoint::Error.
class Value {
public:
  Value() = default;
  Value(detail::ModuleState *state, mlir::Value value)
      : state_(state), value_(value) {}

  /// Whether this Value refers to an SSA value.
  explicit operator bool() const { return static_cast<bool>(value_); }

  /// The underlying MLIR value.
  mlir::Value mlir() const { return value_; }
  /// Its type.
  Type type() const;
  /// Tensor shortcuts; they throw adjoint::Error for non-tensors.
  DType dtype() const { return type().dtype(); }
  std::vector<int64_t> shape() const { return type().shape(); }
  int64_t rank() const { return type().rank(); }

  /// Whether both refer to the same SSA value (`==` builds a comparison).
  bool is(const Value &other) const { return value_ == other.value_; }

  /// Calls this function value (see api::call).
  template <typename... Args> Values operator()(Args &&...args) const;

  /// The module state this value belongs to (for the implementation).
  detail::ModuleState *state() const { return state_; }

private:
  detail::ModuleState *state_ = nullptr;
  mlir::Value value_;
};

/// The results of an op with several results (calls, loops, conditionals).
/// Converts to a Value when there is exactly one.
class Values : public std::vector<Value> {
public:
  using std::vector<Value>::vector;
  Values() = default;
  Values(std::vector<Value> values) : std::vector<Value>(std::move(values)) {}

  /// The only value; throws adjoint::Error unless there is exactly one.
  operator Value() const;
};

//===----------------------------------------------------------------------===//
// Regions built from C++ lambdas
//===----------------------------------------------------------------------===//

namespace detail {

/// A region body: the region's arguments to the values it returns/yields.
using BodyFn = std::function<std::vector<Value>(const std::vector<Value> &)>;

/// Throws adjoint::Error: a body lambda takes `expected` Values but the
/// region has `actual` arguments.
[[noreturn]] void throwArityMismatch(size_t expected, size_t actual);

inline std::vector<Value> toValues(Value v) { return {std::move(v)}; }
inline std::vector<Value> toValues(std::vector<Value> v) { return v; }
inline std::vector<Value> toValues(Values v) { return std::move(v); }

/// The parameter count of a lambda's call operator.
template <typename F> struct Arity : Arity<decltype(&F::operator())> {};
template <typename C, typename R, typename... A>
struct Arity<R (C::*)(A...) const> {
  static constexpr size_t value = sizeof...(A);
};
template <typename C, typename R, typename... A> struct Arity<R (C::*)(A...)> {
  static constexpr size_t value = sizeof...(A);
};

template <typename F, size_t... I>
std::vector<Value> callWithValues(F &f, const std::vector<Value> &args,
                                  std::index_sequence<I...>) {
  return toValues(f(args[I]...));
}

/// Adapts a lambda taking either `std::vector<Value>` or one Value per region
/// argument, and returning a Value or Values, to a BodyFn.
template <typename F> BodyFn wrapBody(F &&f) {
  using Fn = std::decay_t<F>;
  if constexpr (std::is_invocable_v<Fn &, const std::vector<Value> &> &&
                !std::is_invocable_v<Fn &, Value>) {
    return [f = Fn(std::forward<F>(f))](
               const std::vector<Value> &args) mutable {
      return toValues(f(args));
    };
  } else {
    static constexpr size_t n = Arity<Fn>::value;
    return [f = Fn(std::forward<F>(f))](
               const std::vector<Value> &args) mutable {
      if (args.size() != n)
        throwArityMismatch(n, args.size());
      return callWithValues(f, args, std::make_index_sequence<n>());
    };
  }
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

/// A top-level function (`adj.func`). Declared with its signature first, it
/// can be referenced (for recursion) before its body is defined.
class Function {
public:
  Function() = default;
  Function(detail::ModuleState *state, adj::FuncOp op);

  /// The symbol name.
  std::string name() const;
  /// Its type as a function value.
  Type type() const;
  /// Whether the body has been defined.
  bool isDefined() const;
  /// The adj.func op.
  adj::FuncOp op() const;

  /// Builds the body from `body`, called with the parameters; it returns the
  /// results, which must match the declared result types. Throws
  /// adjoint::Error when already defined or when the results do not match.
  template <typename F> void define(F &&body) {
    defineImpl(detail::wrapBody(std::forward<F>(body)));
  }

  /// Erases the function, which nothing may refer to any more (a
  /// declaration to make again with other types); throws adjoint::Error
  /// otherwise. The Function is empty afterwards.
  void erase();

  /// `adj.func_ref`: this function as a value, in the region being built.
  Value ref() const;

  /// Calls the function from the region being built.
  template <typename... Args> Values operator()(Args &&...args) const;

private:
  friend class Module;
  /// With `inferResults`, the result types become those of the returned
  /// values (Module::function); otherwise they must match the declaration.
  void defineImpl(const detail::BodyFn &body, bool inferResults = false);

  detail::ModuleState *state_ = nullptr;
  mlir::Operation *op_ = nullptr;
};

/// An adj module being built. Owns its MLIRContext (with every dialect
/// Adjoint uses loaded) and its ModuleOp. Movable, not copyable.
class Module {
public:
  Module();
  ~Module();
  Module(Module &&) noexcept;
  Module &operator=(Module &&) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// The module op.
  mlir::ModuleOp op() const;
  /// The owned context.
  mlir::MLIRContext *context() const;

  /// Declares `name` with a signature; define it later with
  /// Function::define. Throws adjoint::Error if the name is taken.
  Function declare(const std::string &name, std::vector<Type> inputs,
                   std::vector<Type> results);

  /// Defines `name` in one step; the result types are those of the values
  /// `body` returns. (Use declare + define for recursion.)
  template <typename F>
  Function function(const std::string &name, std::vector<Type> inputs,
                    F &&body) {
    return functionImpl(name, std::move(inputs),
                        detail::wrapBody(std::forward<F>(body)));
  }

  /// The function named `name`; throws adjoint::Error if there is none.
  Function lookup(const std::string &name) const;

  /// Checks the whole module with mlir::verify (and that every declared
  /// function was defined); throws adjoint::Error with the diagnostics.
  void verify() const;
  /// Whether verify() would succeed.
  bool isValid() const;

  /// The module in MLIR's textual form.
  std::string str() const;

  /// The implementation state (shared by Values of this module).
  detail::ModuleState *state() const { return state_.get(); }

private:
  Function functionImpl(const std::string &name, std::vector<Type> inputs,
                        const detail::BodyFn &body);

  std::unique_ptr<detail::ModuleState> state_;
};

//===----------------------------------------------------------------------===//
// Tensor creation
//===----------------------------------------------------------------------===//

/// `adj.constant` from row-major `data` (converted to `dtype`; integer and
/// i1 types need integral values). `data.size()` must match `shape`.
Value constant(Module &m, llvm::ArrayRef<double> data,
               std::vector<int64_t> shape, DType dtype = DType::F32);
/// A rank-0 constant.
Value scalar(Module &m, double value, DType dtype = DType::F32);
/// `adj.constant` from integers, exact for every int64 (a double holds
/// integers only up to 2^53); a float dtype converts them.
Value integer_constant(Module &m, llvm::ArrayRef<int64_t> data,
                       std::vector<int64_t> shape, DType dtype = DType::I64);
/// A rank-0 integer constant, exact for every int64.
Value integer_scalar(Module &m, int64_t value, DType dtype = DType::I64);
/// `adj.constant` of a complex dtype (c64 or c128) from row-major values.
Value complex_constant(Module &m, llvm::ArrayRef<std::complex<double>> data,
                       std::vector<int64_t> shape, DType dtype = DType::C128);
/// `adj.fill`: every element equal to `value`.
Value fill(Module &m, double value, std::vector<int64_t> shape,
           DType dtype = DType::F32);
Value zeros(Module &m, std::vector<int64_t> shape, DType dtype = DType::F32);
Value ones(Module &m, std::vector<int64_t> shape, DType dtype = DType::F32);
/// `adj.iota`: each element is its index along `axis` (negative counts from
/// the end).
Value iota(Module &m, std::vector<int64_t> shape, int64_t axis = 0,
           DType dtype = DType::I64);
/// Normal / uniform samples, deterministic in `seed` (a rank-0 i64 Value):
/// conveniences over keys, `random::normal(random::key(seed), ...)` scaled
/// and shifted, and `random::uniform(random::key(seed), ...)`.
Value random_normal(Value seed, std::vector<int64_t> shape,
                    DType dtype = DType::F32, double mean = 0.0,
                    double std = 1.0);
Value random_uniform(Value seed, std::vector<int64_t> shape,
                     DType dtype = DType::F32, double low = 0.0,
                     double high = 1.0);

//===----------------------------------------------------------------------===//
// Elementwise primitives (NumPy broadcasting)
//===----------------------------------------------------------------------===//

Value add(Value a, Value b);
Value sub(Value a, Value b);
Value mul(Value a, Value b);
Value div(Value a, Value b);
Value pow(Value a, Value b);
Value pow(Value a, double b);
Value maximum(Value a, Value b);
Value maximum(Value a, double b);
Value minimum(Value a, Value b);
Value minimum(Value a, double b);
/// atan2(y, x): the angle of the point (x, y), in [-pi, pi].
Value atan2(Value y, Value x);

Value neg(Value x);
Value exp(Value x);
Value log(Value x);
Value log1p(Value x);
Value expm1(Value x);
Value tanh(Value x);
Value sigmoid(Value x);
Value relu(Value x);
Value sqrt(Value x);
Value rsqrt(Value x);
Value abs(Value x);
Value sign(Value x);
Value sin(Value x);
Value cos(Value x);
Value erf(Value x);

/// Complex numbers (NumPy's functions: a real operand is a complex number
/// with a zero imaginary part). `complex(re, im)`: re + i im, the parts
/// promoted to f32 or f64 (c64 or c128).
Value complex(Value re, Value im);
/// The real part; a real tensor itself.
Value real(Value z);
/// The imaginary part; zeros for a real tensor.
Value imag(Value z);
/// The complex conjugate; a real tensor itself.
Value conj(Value z);
/// The argument of z in [-pi, pi] (atan2(imag, real)); real tensors too.
Value angle(Value z);

/// The predicates of `adj.cmp`.
enum class Cmp { EQ, NE, LT, LE, GT, GE };
/// `adj.cmp`: an i1 tensor of the broadcast shape.
Value cmp(Cmp predicate, Value a, Value b);

/// `adj.select`: `cond ? a : b` elementwise, broadcasting all three.
Value select(Value cond, Value a, Value b);
Value select(Value cond, Value a, double b);
Value select(Value cond, double a, Value b);

/// `adj.cast` to another element type (same shape).
Value cast(Value x, DType dtype);

/// Arithmetic and comparisons. A double operand becomes a rank-0 constant
/// of the other operand's element type (`x * 2.0`); two tensors of
/// different dtypes are promoted (api::promoteTypes), here and in every
/// binary op, cmp, select and matmul.
Value operator+(Value a, Value b);
Value operator-(Value a, Value b);
Value operator*(Value a, Value b);
Value operator/(Value a, Value b);
Value operator-(Value x);
Value operator+(Value a, double b);
Value operator-(Value a, double b);
Value operator*(Value a, double b);
Value operator/(Value a, double b);
Value operator+(double a, Value b);
Value operator-(double a, Value b);
Value operator*(double a, Value b);
Value operator/(double a, Value b);
Value operator<(Value a, Value b);
Value operator<=(Value a, Value b);
Value operator>(Value a, Value b);
Value operator>=(Value a, Value b);
Value operator==(Value a, Value b);
Value operator!=(Value a, Value b);
Value operator<(Value a, double b);
Value operator<=(Value a, double b);
Value operator>(Value a, double b);
Value operator>=(Value a, double b);
Value operator==(Value a, double b);
Value operator!=(Value a, double b);

//===----------------------------------------------------------------------===//
// Bits (i32/i64 words read unsigned; NumPy broadcasting)
//===----------------------------------------------------------------------===//

Value bitwise_and(Value a, Value b);
Value bitwise_or(Value a, Value b);
Value bitwise_xor(Value a, Value b);
/// Shifts give 0 when the amount, read unsigned, is the width or more.
Value shift_left(Value a, Value b);
Value shift_right_logical(Value a, Value b);
/// `adj.bitcast`: the same bits read as `dtype` (of the same width).
Value bitcast(Value x, DType dtype);
/// `adj.threefry2x32`: the Threefry-2x32 hash of counter words (x0, x1)
/// under key words (k0, k1) (i32), its two words packed high-first in an
/// i64 of the broadcast shape.
Value threefry2x32(Value k0, Value k1, Value x0, Value x1);

//===----------------------------------------------------------------------===//
// Random numbers from keys (Random.cpp)
//===----------------------------------------------------------------------===//

/// Counter-based random numbers as pure functions of a key, as jax.random
/// with its default threefry implementation (jax_threefry_partitionable):
/// the same key gives the same numbers on every target, under grad and in
/// every call. A key is a tensor<2xi32> (JAX's raw uint32[2] key data, the
/// words read as unsigned); `split` gives a tensor<Nx2xi32> of keys.
namespace random {
/// The key of an integer seed (rank-0 i32 or i64). An i32 seed s gives
/// [0, s], as jax.random.key with 32-bit seeds; an i64 seed gives its high
/// and low words, as JAX with jax_enable_x64.
Value key(Value seed);
/// key() of a constant seed: i32 when it fits, i64 otherwise.
Value key(Module &m, int64_t seed);
/// `num` new keys, tensor<num x 2 x i32>.
Value split(Value key, int64_t num = 2);
/// The key `key` folded with rank-0 integer `data` (its low 32 bits).
Value fold_in(Value key, Value data);
Value fold_in(Value key, int64_t data);
/// Uniform random words of `shape`: i32 (32 bits) or i64 (64 bits).
Value bits(Value key, std::vector<int64_t> shape, DType dtype = DType::I32);
/// Uniform floats in [minval, maxval) (minval at least).
Value uniform(Value key, std::vector<int64_t> shape, DType dtype = DType::F32,
              double minval = 0.0, double maxval = 1.0);
/// Standard normal floats: sqrt(2) * erfinv(u) for u uniform in (-1, 1).
Value normal(Value key, std::vector<int64_t> shape, DType dtype = DType::F32);
/// i1 tensor of `shape`, true with probability `p` (uniform < p, in p's
/// float dtype; `shape` defaults to p's).
Value bernoulli(Value key, Value p, std::vector<int64_t> shape);
Value bernoulli(Value key, Value p);
/// With a constant probability, compared in `dtype`.
Value bernoulli(Value key, double p, std::vector<int64_t> shape,
                DType dtype = DType::F32);
/// Samples of the categorical distribution with unnormalized log
/// probabilities `logits` along `axis` (Gumbel-max): i32 indices of the
/// shape of `logits` without `axis`, or of `shape` (which must end with
/// that shape; its leading dimensions draw independent samples).
Value categorical(Value key, Value logits, int64_t axis = -1,
                  std::optional<std::vector<int64_t>> shape = std::nullopt);
/// Inverted dropout: x / (1 - rate) where bernoulli(key, 1 - rate) holds,
/// else 0.
Value dropout(Value key, Value x, double rate);
} // namespace random

//===----------------------------------------------------------------------===//
// Contractions and reductions
//===----------------------------------------------------------------------===//

/// `adj.matmul` (NumPy's `a @ b`): [..., m, k] x [..., k, n] -> [..., m, n].
Value matmul(Value a, Value b);

/// Reduction axes: all axes by default (`Axes()` or `{}`), one axis, or a
/// list. Negative axes count from the end.
class Axes {
public:
  Axes() = default;
  Axes(int64_t axis) : axes_{axis}, all_(false) {}
  Axes(std::initializer_list<int64_t> axes)
      : axes_(axes), all_(axes.size() == 0) {}
  Axes(std::vector<int64_t> axes) : axes_(std::move(axes)), all_(false) {}
  static Axes all() { return Axes(); }

  bool isAll() const { return all_; }
  /// The axes normalized for a rank-`rank` tensor, sorted.
  std::vector<int64_t> resolve(int64_t rank) const;

private:
  std::vector<int64_t> axes_;
  bool all_ = true;
};

/// `adj.reduce_sum` / `adj.reduce_max` / `adj.reduce_mean`.
Value sum(Value x, Axes axes = {}, bool keepdims = false);
Value max(Value x, Axes axes = {}, bool keepdims = false);
Value mean(Value x, Axes axes = {}, bool keepdims = false);

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

/// `adj.broadcast_to` (NumPy rules).
Value broadcast_to(Value x, std::vector<int64_t> shape);
/// `adj.reshape`; one dimension may be -1 (inferred from the element count).
Value reshape(Value x, std::vector<int64_t> shape);
/// `adj.transpose`: result dim i is input dim perm[i] (negative entries count
/// from the end). Without `perm`, reverses the dimensions.
Value transpose(Value x, std::vector<int64_t> perm);
Value transpose(Value x);
/// `adj.slice`: x[start:limit:stride] per dimension (stride 1 by default).
Value slice(Value x, std::vector<int64_t> start, std::vector<int64_t> limit,
            std::vector<int64_t> stride = {});
/// `adj.concat` along `axis` (negative counts from the end).
Value concat(const std::vector<Value> &xs, int64_t axis = 0);
/// `adj.pad` with `value`: low[i] before and high[i] after dimension i.
Value pad(Value x, std::vector<int64_t> low, std::vector<int64_t> high,
          double value = 0.0);
/// `adj.gather`: slices of `table` along `axis` at integer `indices`.
Value gather(Value table, Value indices, int64_t axis = 0);
/// `adj.scatter_add`: `target` with `updates` added at `indices`.
Value scatter_add(Value target, Value indices, Value updates,
                  int64_t axis = 0);
/// How `scatter` combines a slot of its target with an update (JAX's
/// x.at[i].set/add/mul/min/max).
enum class Scatter { Set, Add, Mul, Min, Max };
/// `target` with `updates` combined into the slices at `indices` along
/// `axis`: `adj.scatter` (`adj.scatter_add` for Add). Repeated indices apply
/// in order: the last Set wins, Add/Mul/Min/Max combine them all.
Value scatter(Scatter mode, Value target, Value indices, Value updates,
              int64_t axis = 0);

//===----------------------------------------------------------------------===//
// Indexing: numpy's and lax's forms, as gather and scatter
//===----------------------------------------------------------------------===//

/// numpy's `x[i0, i1, ...]` with integer index tensors over x's leading
/// dimensions, broadcast together; negative entries count from the end.
/// The result is [broadcast index shape..., remaining dims of x...].
Value index(Value x, std::vector<Value> indices);
/// JAX's `x.at[i0, i1, ...].<mode>(updates)`: `updates` broadcast to the
/// shape of `index(x, indices)`; repeated positions as in `scatter`.
Value index_update(Scatter mode, Value x, std::vector<Value> indices,
                   Value updates);
/// lax.dynamic_slice: `sizes[d]` elements from `starts[d]` (rank-0 integer
/// Values, e.g. a loop index) along every dimension d, each start clamped
/// into [0, shape[d] - sizes[d]].
Value dynamic_slice(Value x, std::vector<Value> starts,
                    std::vector<int64_t> sizes);
/// lax.dynamic_update_slice: `x` with `update` written at `starts`
/// (clamped as in dynamic_slice).
Value dynamic_update_slice(Value x, Value update, std::vector<Value> starts);
/// `x` reversed along `axes` (numpy's `x[::-1]` per axis).
Value reverse(Value x, std::vector<int64_t> axes);

//===----------------------------------------------------------------------===//
// Convolution and pooling (NCHW)
//===----------------------------------------------------------------------===//

/// Options of conv2d; `padding` is [top, bottom, left, right].
struct Conv2DOptions {
  std::vector<int64_t> stride = {1, 1};
  std::vector<int64_t> padding = {0, 0, 0, 0};
  std::vector<int64_t> dilation = {1, 1};
  int64_t groups = 1;
};
/// `adj.conv2d`: input [N, C, H, W], filter [O, C / groups, KH, KW].
Value conv2d(Value input, Value filter, const Conv2DOptions &options = {});

/// `adj.max_pool2d` / `adj.avg_pool2d` with a [KH, KW] kernel; the stride
/// defaults to the kernel and the padding ([top, bottom, left, right]) to 0.
Value max_pool2d(Value input, std::vector<int64_t> kernel,
                 std::vector<int64_t> stride = {},
                 std::vector<int64_t> padding = {0, 0, 0, 0});
Value avg_pool2d(Value input, std::vector<int64_t> kernel,
                 std::vector<int64_t> stride = {},
                 std::vector<int64_t> padding = {0, 0, 0, 0});

//===----------------------------------------------------------------------===//
// Linear algebra: decompositions over the last two dimensions, batched over
// the leading ones (f32, f64). The composites of np.linalg (solve, inv,
// det, ...) are built from these in Python (adjoint.numpy.linalg).
//===----------------------------------------------------------------------===//

/// `adj.cholesky`: the lower factor l of a = l l^T (a's lower triangle is
/// read); NaNs when a is not positive definite.
Value cholesky(Value a);
/// Options of triangular_solve: op(a) x = b (`left_side`) or x op(a) = b,
/// op(a) = a or a^T (`transpose_a`), a's `lower` or upper triangle read,
/// its diagonal taken as ones with `unit_diagonal`.
struct TriangularSolveOptions {
  bool left_side = true;
  bool lower = true;
  bool transpose_a = false;
  bool unit_diagonal = false;
};
/// `adj.triangular_solve`; a and b have equal batch dimensions.
Value triangular_solve(Value a, Value b,
                       const TriangularSolveOptions &options = {});
/// `adj.lu`: (lu, pivots, permutation) of p a = l u (LAPACK's getrf).
std::tuple<Value, Value, Value> lu(Value a);
/// `adj.qr`: (q, r), reduced or, with `full_matrices`, complete.
std::pair<Value, Value> qr(Value a, bool full_matrices = false);
/// `adj.eigh`: (eigenvalues ascending, eigenvectors as columns) of a
/// symmetric matrix, reading its lower (or `upper`) triangle.
std::pair<Value, Value> eigh(Value a, bool upper = false);
/// `adj.eig`: (eigenvalues sorted by real then imaginary part, unit
/// eigenvectors as columns) of a general square matrix, both complex.
std::pair<Value, Value> eig(Value a);
/// `adj.svd`: (u, s descending, vh).
std::tuple<Value, Value, Value> svd(Value a, bool full_matrices = false);

/// The transforms of `adj.fft` (JAX's lax.FftType).
enum class Fft { Fft, Ifft, Rfft, Irfft };
/// `adj.fft` over the last `lengths.size()` (1 to 3) dimensions: Fft and
/// Ifft (divided by the product of the lengths) complex to complex, Rfft
/// real to the half spectrum ([..., n/2 + 1] for a last length n), Irfft
/// back (the input's last dimension n/2 + 1, the result's n). Operands are
/// converted as jax.numpy.fft converts them: integers and f16/bf16 to f32,
/// and a real operand of Fft, Ifft or Irfft to complex.
Value fft(Value x, Fft type, const std::vector<int64_t> &lengths);

//===----------------------------------------------------------------------===//
// Functions, closures, calls and tuples
//===----------------------------------------------------------------------===//

namespace detail {
Value lambdaImpl(Module &m, const std::vector<Type> &params,
                 const BodyFn &body);
} // namespace detail

/// `adj.lambda`: a closure with parameters `params`, built in the region
/// being built. Values of enclosing regions that `body` uses are captured.
template <typename F>
Value lambda(Module &m, const std::vector<Type> &params, F &&body) {
  return detail::lambdaImpl(m, params, detail::wrapBody(std::forward<F>(body)));
}

/// `adj.call`: applies a function value; returns its results.
Values call(Value fn, const std::vector<Value> &args);

/// `adj.tuple` (at least one element; use the Module overload for `()`).
Value make_tuple(const std::vector<Value> &elements);
Value make_tuple(Module &m, const std::vector<Value> &elements);
/// `adj.get`: element `index` of a tuple (negative counts from the end).
Value get(Value tuple, int64_t index);

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

namespace detail {
Values ifImpl(Value cond, const BodyFn &thenBody, const BodyFn &elseBody);
Values forImpl(Value lb, Value ub, Value step, const std::vector<Value> &inits,
               const BodyFn &body);
Values whileImpl(const std::vector<Value> &inits, const BodyFn &cond,
                 const BodyFn &body);
Value indexScalar(Value like, int64_t value);
} // namespace detail

/// `adj.if`: `thenBody()` or `elseBody()` (lambdas without parameters) gives
/// the results, of the join of the two branches' types (api::joinTypes: an
/// i64 branch and an f32 one give an f32, a scalar and a vector the vector);
/// types that do not join throw adjoint::Error.
template <typename T, typename E>
Values if_(Value cond, T &&thenBody, E &&elseBody) {
  return detail::ifImpl(cond, detail::wrapBody(std::forward<T>(thenBody)),
                        detail::wrapBody(std::forward<E>(elseBody)));
}

/// `adj.for` for i = lb, lb + step, ... while i < ub (rank-0 i64 Values):
/// `body(i, carried...)` returns the next carried values; the results are
/// the last ones. A carried value has the join of its initial type and the
/// types the body gives it: when the body widens one, the loop is built
/// again with the joins, so `body` may run more than once.
template <typename F>
Values for_(Value lb, Value ub, Value step, const std::vector<Value> &inits,
            F &&body) {
  return detail::forImpl(lb, ub, step, inits,
                         detail::wrapBody(std::forward<F>(body)));
}
/// `adj.for` with constant bounds; `inits` must not be empty.
template <typename F>
Values for_(int64_t lb, int64_t ub, int64_t step,
            const std::vector<Value> &inits, F &&body) {
  if (inits.empty())
    throw Error("adj.for: constant bounds need at least one carried value "
                "(use the overload with Value bounds)");
  return for_(detail::indexScalar(inits.front(), lb),
              detail::indexScalar(inits.front(), ub),
              detail::indexScalar(inits.front(), step), inits,
              std::forward<F>(body));
}

/// `adj.while`: while `cond(carried...)` (a rank-0 i1) holds,
/// `body(carried...)` gives the next carried values (joined as in for_).
template <typename C, typename F>
Values while_(const std::vector<Value> &inits, C &&cond, F &&body) {
  return detail::whileImpl(inits, detail::wrapBody(std::forward<C>(cond)),
                           detail::wrapBody(std::forward<F>(body)));
}

//===----------------------------------------------------------------------===//
// Automatic differentiation requests (expanded by -adj-grad)
//===----------------------------------------------------------------------===//

/// Which arguments to differentiate (all when `wrt` is unset) and, for grad
/// and value_and_grad, whether the output sensitivity is an extra trailing
/// argument instead of ones.
///
/// With `hasAux`, the function's results after the first are auxiliary:
/// only the first is differentiated, and the others are returned as they
/// are, after the gradients (grad: (sens(A_i)..., Aux...)) or after the
/// value (value_and_grad: (R, Aux..., sens(A_i)...); vjp: (R, Aux...,
/// pullback) with `pullback: (sens(R)) -> (sens(A_i)...)`). The function
/// must be typed; the request is built from adj.vjp.
struct ADOptions {
  std::optional<std::vector<int64_t>> wrt;
  bool customSens = false;
  bool hasAux = false;
};

/// `adj.grad`: (A...) -> (sens(A_i)...).
Value grad(Value fn, const ADOptions &options = {});
/// `adj.value_and_grad`: (A...) -> (R, sens(A_i)...).
Value value_and_grad(Value fn, const ADOptions &options = {});
/// `adj.vjp`: (A...) -> (R..., pullback). customSens is not allowed.
Value vjp(Value fn, const ADOptions &options = {});
/// `adj.jvp`: (A..., tangents...) -> (R..., tangents of R...).
Value jvp(Value fn, const ADOptions &options = {});

//===----------------------------------------------------------------------===//
// Batching (expanded by -adj-grad, with the AD requests)
//===----------------------------------------------------------------------===//

/// The in_axes entry of an argument that vmap does not batch (shared by
/// every example, as JAX's None), and the out_axes entry of a result that
/// is returned without the batch (it must not depend on it).
inline constexpr int64_t kNotBatched = -1;

/// `adj.vmap`: `fn` mapped over a batch of `batchSize` examples. Argument
/// `i` carries the batch at axis `inAxes[i]` (kNotBatched: shared); result
/// `j` returns it at axis `outAxes[j]` (kNotBatched: returned unbatched; a
/// result that depends on the batch is then a diagnostic when -adj-grad
/// expands the request). Other axes are non-negative. The batch
/// size is given because the per-example function's type does not hold it;
/// a call checks it against the batched arguments' shapes.
Value vmap(Value fn, const std::vector<int64_t> &inAxes,
           const std::vector<int64_t> &outAxes, int64_t batchSize);

/// Jacobians of a typed `fn: (A...) -> (R...)` of tensors, with respect to
/// the arguments `wrt` (all when empty): functions (A...) -> (J_r_i...),
/// one block per result r and argument i (r-major), each of shape
/// `R_r.shape + A_i.shape`. Each is one adj.vmap over basis vectors:
/// jacrev maps the pullback over an identity the size of the flattened
/// results, jacfwd the pushforward over one the size of the flattened
/// arguments in `wrt`.
Value jacrev(Value fn, const std::vector<int64_t> &wrt = {});
Value jacfwd(Value fn, const std::vector<int64_t> &wrt = {});
/// jacfwd(jacrev(fn, wrt), wrt) of a function with one scalar result: the
/// blocks H_i_j of shape `A_i.shape + A_j.shape`, i-major.
Value hessian(Value fn, const std::vector<int64_t> &wrt = {});

//===----------------------------------------------------------------------===//
// Derivative annotations: stop_gradient, custom rules, rematerialization
//===----------------------------------------------------------------------===//

/// `adj.stop_gradient`: `x` (a tensor or a tuple), with zero derivatives.
Value stop_gradient(Value x);
/// `adj.custom_vjp`: a function that computes `fn: (A...) -> (R...)` and
/// whose reverse mode is `fwd: (A...) -> (R..., Res...)` followed by
/// `bwd: (Res..., sens(R)...) -> (sens(A)...)`. Values that the three
/// close over get no sensitivity through it. Forward mode refuses it.
Value custom_vjp(Value fn, Value fwd, Value bwd);
/// `adj.custom_jvp`: a function that computes `fn: (A...) -> (R...)` and
/// whose forward mode is `rule: (A..., sens(A)...) -> (R..., sens(R)...)`
/// (linear in the tangents); reverse mode transposes the rule.
Value custom_jvp(Value fn, Value rule);
/// `adj.checkpoint`: a function that computes `fn`, whose reverse mode keeps
/// only its arguments and recomputes its forward pass when going backward.
Value checkpoint(Value fn);

//===----------------------------------------------------------------------===//
// Composites (built from primitives; no dedicated ops)
//===----------------------------------------------------------------------===//

/// softmax(x)_i = exp(x_i - max(x)) / sum_j exp(x_j - max(x)) along `axis`.
Value softmax(Value x, int64_t axis = -1);
/// log_softmax(x)_i = (x_i - max(x)) - log(sum_j exp(x_j - max(x))).
Value log_softmax(Value x, int64_t axis = -1);
/// The mean negative log-likelihood of `logits` [..., C]:
///  - integer `labels` [...] are class indices:
///      mean(-log_softmax(logits)[..., labels])
///  - floating `labels` [..., C] are target probabilities (e.g. one-hot):
///      mean(-sum_c labels[..., c] * log_softmax(logits)[..., c])
Value cross_entropy(Value logits, Value labels);
/// Normalizes the last axis: (x - mean) / sqrt(var + eps) * gamma + beta,
/// with the biased variance mean((x - mean)^2).
Value layer_norm(Value x, Value gamma, Value beta, double eps = 1e-5);
/// The exact GELU: 0.5 * x * (1 + erf(x / sqrt(2))).
Value gelu(Value x);
/// x @ W + b (and x @ W).
Value linear(Value x, Value w, Value b);
Value linear(Value x, Value w);

//===----------------------------------------------------------------------===//
// Template definitions
//===----------------------------------------------------------------------===//

template <typename... Args> Values Value::operator()(Args &&...args) const {
  return call(*this, std::vector<Value>{Value(std::forward<Args>(args))...});
}

template <typename... Args> Values Function::operator()(Args &&...args) const {
  return call(ref(), std::vector<Value>{Value(std::forward<Args>(args))...});
}

} // namespace adjoint::api

#endif // ADJOINT_API_BUILDER_H
