//===- Bits.cpp - Bitwise operators, shifts, bitcast and threefry2x32 -----===//
//
// Words are read as unsigned bit patterns of their width, as compiled code
// reads them; a shift by the width or more gives 0 (the lowering selects 0
// where the hardware shift would be undefined).
//
//===----------------------------------------------------------------------===//

#include "Detail.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Support/Threefry.h"

#include <cstring>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;
namespace adj = adjoint::adj;

namespace {
enum class BitsKind { And, Or, Xor, Shl, Shr };
} // namespace

template <typename U> static U applyBits(BitsKind kind, U a, U b) {
  constexpr U width = sizeof(U) * 8;
  switch (kind) {
  case BitsKind::And:
    return a & b;
  case BitsKind::Or:
    return a | b;
  case BitsKind::Xor:
    return a ^ b;
  case BitsKind::Shl:
    return b >= width ? U(0) : U(a << b);
  case BitsKind::Shr:
    return b >= width ? U(0) : U(a >> b);
  }
  return 0;
}

/// Applies `kind` over the broadcast shape with words of type `U`.
template <typename S, typename U>
static Tensor mapWords(Operation *op, BitsKind kind, const Tensor &a,
                       const Tensor &b) {
  std::vector<int64_t> shape = broadcastOrFail(op, {&a, &b});
  Tensor out(a.dtype(), shape);
  IndexWalker walk(shape, {broadcastStrides(a.shape(), shape),
                           broadcastStrides(b.shape(), shape)});
  const S *pa = ptr<S>(a), *pb = ptr<S>(b);
  S *po = ptr<S>(out);
  for (int64_t i = 0, n = out.numel(); i < n; ++i, walk.next())
    po[i] = static_cast<S>(applyBits<U>(kind, static_cast<U>(pa[walk.offset(0)]),
                                        static_cast<U>(pb[walk.offset(1)])));
  return out;
}

static Tensor evalBitsBinary(Operation *op, BitsKind kind,
                             ArrayRef<Tensor> operands) {
  requireSameDType(op, operands);
  switch (operands[0].dtype()) {
  case DType::I32:
    return mapWords<int32_t, uint32_t>(op, kind, operands[0], operands[1]);
  case DType::I64:
    return mapWords<int64_t, uint64_t>(op, kind, operands[0], operands[1]);
  default:
    fail(op, "expected an i32 or i64 tensor");
  }
}

static Tensor evalBitcast(Operation *op, const Tensor &x) {
  DType to = resultDType(op);
  if (dtypeSize(to) != dtypeSize(x.dtype()) || to == DType::I1 ||
      x.dtype() == DType::I1)
    fail(op, "needs element types of one width (not i1)");
  Tensor out(to, x.shape());
  std::memcpy(out.mutableData(), x.data(), x.byteSize());
  return out;
}

static Tensor evalThreefry(Operation *op, ArrayRef<Tensor> operands) {
  for (const Tensor &t : operands)
    if (t.dtype() != DType::I32)
      fail(op, "expected i32 words");
  std::vector<const Tensor *> all;
  for (const Tensor &t : operands)
    all.push_back(&t);
  std::vector<int64_t> shape = broadcastOrFail(op, all);
  std::vector<std::vector<int64_t>> strides;
  for (const Tensor &t : operands)
    strides.push_back(broadcastStrides(t.shape(), shape));
  Tensor out(DType::I64, shape);
  IndexWalker walk(shape, strides);
  auto word = [&](int k) {
    return static_cast<uint32_t>(ptr<int32_t>(operands[k])[walk.offset(k)]);
  };
  int64_t *po = ptr<int64_t>(out);
  for (int64_t i = 0, n = out.numel(); i < n; ++i, walk.next())
    po[i] = threefry::packed(
        threefry::threefry2x32(word(0), word(1), word(2), word(3)));
  return out;
}

std::optional<Tensor>
adjoint::interp::detail::evalBits(Operation *op, ArrayRef<Tensor> operands) {
  auto binary = [&](BitsKind kind) {
    return evalBitsBinary(op, kind, operands);
  };
  if (isa<adj::BitwiseAndOp>(op))
    return binary(BitsKind::And);
  if (isa<adj::BitwiseOrOp>(op))
    return binary(BitsKind::Or);
  if (isa<adj::BitwiseXorOp>(op))
    return binary(BitsKind::Xor);
  if (isa<adj::ShiftLeftOp>(op))
    return binary(BitsKind::Shl);
  if (isa<adj::ShiftRightLogicalOp>(op))
    return binary(BitsKind::Shr);
  if (isa<adj::BitcastOp>(op))
    return evalBitcast(op, operands[0]);
  if (isa<adj::Threefry2x32Op>(op))
    return evalThreefry(op, operands);
  return std::nullopt;
}
