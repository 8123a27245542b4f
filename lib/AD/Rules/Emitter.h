//===- Emitter.h - The vocabulary of the derivative rules -------*- C++ -*-===//
//
// Rules are meant to read like the math they implement (`dy * (1 - y * y)`),
// so they are written against a small vocabulary instead of raw OpBuilder
// calls: an Emitter (a builder and a location) makes adj ops, and Val (a
// value with its emitter) overloads arithmetic. Scalars in expressions become
// rank-0 constants of the other operand's element type, which broadcast.
//
// Rules may assume typed IR with static shapes wherever they must build
// shapes (reshape, pad, conv2d); the grad transform runs after inference and
// monomorphization.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_AD_RULES_EMITTER_H
#define ADJOINT_LIB_AD_RULES_EMITTER_H

#include "adjoint/AD/Rules.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace adjoint::ad::rules {

class Emitter;

/// A value a rule computes with. A null Val is a zero sensitivity or tangent.
class Val {
public:
  Val() = default;
  Val(Emitter &e, mlir::Value v) : e_(&e), v_(v) {}

  operator mlir::Value() const { return v_; }
  explicit operator bool() const { return static_cast<bool>(v_); }
  mlir::Value value() const { return v_; }
  Emitter &emitter() const { return *e_; }
  /// The value's tensor type (null when it is not a ranked tensor).
  mlir::RankedTensorType type() const;
  /// The value's shape; requires a ranked tensor.
  llvm::ArrayRef<int64_t> shape() const { return type().getShape(); }

private:
  Emitter *e_ = nullptr;
  mlir::Value v_;
};

Val operator+(Val a, Val b);
Val operator-(Val a, Val b);
Val operator*(Val a, Val b);
Val operator/(Val a, Val b);
Val operator-(Val a);
Val operator+(Val a, double b);
Val operator+(double a, Val b);
Val operator-(Val a, double b);
Val operator-(double a, Val b);
Val operator*(Val a, double b);
Val operator*(double a, Val b);
Val operator/(Val a, double b);
Val operator/(double a, Val b);

/// Emits adj ops at a builder's insertion point, all with one location.
class Emitter {
public:
  Emitter(mlir::OpBuilder &b, mlir::Location loc) : b_(b), loc_(loc) {}

  mlir::OpBuilder &builder() { return b_; }
  mlir::Location loc() const { return loc_; }
  Val val(mlir::Value v) { return Val(*this, v); }

  /// Creates `OpT` (result types inferred or given first) and wraps its
  /// single result.
  template <typename OpT, typename... Args> Val make(Args &&...args) {
    return val(OpT::create(b_, loc_, std::forward<Args>(args)...).getResult());
  }

  //===--- Constants --------------------------------------------------===//

  /// `adj.constant dense<x> : tensor<elt>`, a rank-0 constant.
  Val scalar(double x, mlir::Type elementType);
  /// A rank-0 constant of `like`'s element type.
  Val scalarLike(double x, Val like) {
    return scalar(x, like.type().getElementType());
  }
  /// `adj.fill x` of a static tensor type.
  Val fill(double x, mlir::RankedTensorType type);
  /// An i64 constant tensor (indices for gather and scatter_add).
  Val indices(llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> values);
  Val zerosLike(mlir::Value v) { return make<adj::ZerosLikeOp>(v); }

  //===--- Elementwise ------------------------------------------------===//

  Val exp(Val x) { return make<adj::ExpOp>(x); }
  Val log(Val x) { return make<adj::LogOp>(x); }
  Val sin(Val x) { return make<adj::SinOp>(x); }
  Val cos(Val x) { return make<adj::CosOp>(x); }
  Val sign(Val x) { return make<adj::SignOp>(x); }
  Val pow(Val x, Val y) { return make<adj::PowOp>(x, y); }
  Val cmp(adj::CmpPredicate p, Val a, Val b) {
    return make<adj::CmpOp>(p, a, b);
  }
  Val select(Val c, Val a, Val b) { return make<adj::SelectOp>(c, a, b); }
  /// cond ? a : 0, without materializing the zero tensor.
  Val where(Val c, Val a) { return select(c, a, scalarLike(0, a)); }
  /// cond ? 0 : a.
  Val whereNot(Val c, Val a) { return select(c, scalarLike(0, a), a); }
  /// 1 where `c` holds, 0 elsewhere, in `like`'s element type.
  Val indicator(Val c, Val like) {
    return select(c, scalarLike(1, like), scalarLike(0, like));
  }
  Val real(Val z) { return make<adj::RealOp>(z); }
  Val imag(Val z) { return make<adj::ImagOp>(z); }
  Val complex(Val re, Val im) { return make<adj::ComplexOp>(re, im); }
  /// The complex conjugate; a real tensor is its own.
  Val conj(Val z) {
    if (!mlir::isa<mlir::ComplexType>(z.type().getElementType()))
      return z;
    return complex(real(z), -imag(z));
  }
  Val cast(Val x, mlir::Type elementType) {
    return make<adj::CastOp>(x.type().clone(elementType), x);
  }

  //===--- Shapes and data movement -----------------------------------===//

  /// `x` broadcast to `type` (no op when it already has it).
  Val broadcastTo(Val x, mlir::Type type);
  /// `x` reshaped to `shape` (no op when it already has it).
  Val reshape(Val x, llvm::ArrayRef<int64_t> shape);
  Val transpose(Val x, llvm::ArrayRef<int64_t> perm) {
    return make<adj::TransposeOp>(x, perm);
  }
  /// Swaps the last two dimensions.
  Val transposeLast2(Val x);
  Val slice(Val x, llvm::ArrayRef<int64_t> start, llvm::ArrayRef<int64_t> limit,
            llvm::ArrayRef<int64_t> stride);
  /// A stride-1 slice.
  Val slice(Val x, llvm::ArrayRef<int64_t> start,
            llvm::ArrayRef<int64_t> limit);
  Val pad(Val x, llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
          double value = 0);
  /// Pads where `low`/`high` are positive and crops where they are negative.
  Val padOrCrop(Val x, llvm::ArrayRef<int64_t> low,
                llvm::ArrayRef<int64_t> high);
  /// Inserts `stride[d] - 1` zeros after each element along each dimension
  /// `d`, trailing ones included: a size-n dimension becomes n * stride[d].
  Val interleaveZeros(Val x, llvm::ArrayRef<int64_t> stride);
  Val gather(Val table, Val indices, int64_t axis) {
    return make<adj::GatherOp>(table, indices, axis);
  }
  Val scatterAdd(Val target, Val indices, Val updates, int64_t axis) {
    return make<adj::ScatterAddOp>(target, indices, updates, axis);
  }
  Val scatter(adj::ScatterMode mode, Val target, Val indices, Val updates,
              int64_t axis) {
    return make<adj::ScatterOp>(mode, target, indices, updates, axis);
  }

  //===--- Reductions and contractions --------------------------------===//

  Val reduceSum(Val x, llvm::ArrayRef<int64_t> axes, bool keepdims = false) {
    return make<adj::ReduceSumOp>(x, axes, keepdims);
  }
  Val matmul(Val a, Val b) { return make<adj::MatmulOp>(a, b); }
  Val conv2d(Val x, Val w, llvm::ArrayRef<int64_t> stride,
             llvm::ArrayRef<int64_t> padding, llvm::ArrayRef<int64_t> dilation,
             int64_t groups) {
    return make<adj::Conv2DOp>(x, w, stride, padding, dilation, groups);
  }

  //===--- Sensitivity algebra ----------------------------------------===//

  /// Sums a sensitivity `d` of a broadcast result back to `target`'s type:
  /// reduce_sum over the leading extra dimensions and over the dimensions
  /// that are 1 in the target, then reshape.
  Val unbroadcast(Val d, mlir::Type target);
  Val unbroadcast(Val d, mlir::Value target) {
    return unbroadcast(d, target.getType());
  }
  /// The sum of the non-null `terms`, broadcast to `type`; null when all
  /// are null. Zeros are never materialized.
  Val sum(llvm::ArrayRef<Val> terms, mlir::Type type);

private:
  mlir::OpBuilder &b_;
  mlir::Location loc_;
};

//===----------------------------------------------------------------------===//
// Rule tables
//===----------------------------------------------------------------------===//

/// Operand sensitivities returned by a rule (null = zero).
using Sens = llvm::SmallVector<mlir::Value>;
/// The table that lookupRules serves, keyed by the op's TypeID.
using RuleMap = llvm::DenseMap<mlir::TypeID, Rules>;

/// Whether `t` is a tensor with a floating-point element type.
bool isFloatTensor(mlir::Type t);

/// The ranked tensor type of `v` (rules run on typed IR).
inline mlir::RankedTensorType tensorOf(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}
/// The element type of the tensor `v`.
inline mlir::Type elementOf(mlir::Value v) {
  return tensorOf(v).getElementType();
}

/// Defines the rules of the single-result op `OpT` from typed lambdas:
///   bprop(Emitter &, OpT, Val dy) -> Sens   (one entry per operand)
///   jvp(Emitter &, OpT, ArrayRef<Val> t) -> Val
/// The wrappers give every rule the same contract: nothing is emitted for a
/// non-differentiable result (integer arithmetic, comparisons) or a null
/// sensitivity, sensitivities of non-differentiable operands (indices,
/// conditions) are dropped, and tangents of such operands arrive null.
template <typename OpT, typename BpropFn, typename JvpFn>
void define(RuleMap &map, BpropFn bprop, JvpFn jvp) {
  Rules rules;
  rules.bprop = [bprop](mlir::OpBuilder &b, mlir::Operation *op,
                        llvm::ArrayRef<mlir::Value> dys) {
    llvm::SmallVector<mlir::Value> out(op->getNumOperands());
    if (dys.empty() || !dys.front() ||
        !isDifferentiable(op->getResult(0).getType()))
      return out;
    Emitter e(b, op->getLoc());
    Sens sens = bprop(e, llvm::cast<OpT>(op), e.val(dys.front()));
    assert(sens.size() == out.size() && "one sensitivity per operand");
    for (auto [i, s] : llvm::enumerate(sens))
      if (s && isDifferentiable(op->getOperand(i).getType()))
        out[i] = s;
    return out;
  };
  rules.jvp = [jvp](mlir::OpBuilder &b, mlir::Operation *op,
                    llvm::ArrayRef<mlir::Value> tangents) {
    llvm::SmallVector<mlir::Value> out(op->getNumResults());
    if (!isDifferentiable(op->getResult(0).getType()))
      return out;
    Emitter e(b, op->getLoc());
    llvm::SmallVector<Val> t;
    bool any = false;
    for (auto [i, v] : llvm::enumerate(tangents)) {
      bool keep = v && isDifferentiable(op->getOperand(i).getType());
      t.push_back(keep ? e.val(v) : Val());
      any |= keep;
    }
    if (any)
      out[0] = jvp(e, llvm::cast<OpT>(op), llvm::ArrayRef<Val>(t));
    return out;
  };
  map[mlir::TypeID::get<OpT>()] = std::move(rules);
}

/// Rules of ops with no derivative at all (comparisons, sign, creation):
/// every sensitivity and tangent is zero.
template <typename OpT> void defineZero(RuleMap &map) {
  define<OpT>(
      map,
      [](Emitter &, OpT op, Val) { return Sens(op->getNumOperands()); },
      [](Emitter &, OpT, llvm::ArrayRef<Val>) { return Val(); });
}

// One rule table per op family, named as the family is in every layer.
void addElementwiseRules(RuleMap &map);
void addReductionsRules(RuleMap &map);
void addContractionRules(RuleMap &map);
void addLinearAlgebraRules(RuleMap &map);
void addFourierRules(RuleMap &map);
void addMovementRules(RuleMap &map);
void addConvolutionRules(RuleMap &map);
void addCreationRules(RuleMap &map);
void addBitsRules(RuleMap &map);
void addSensitivityRules(RuleMap &map);
void addDerivativesRules(RuleMap &map);

} // namespace adjoint::ad::rules

#endif // ADJOINT_LIB_AD_RULES_EMITTER_H
