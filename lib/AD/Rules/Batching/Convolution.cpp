//===- Convolution.cpp - Batching rules of convolution and pooling --------===//
//
// A batch of inputs folds into the images dimension N: one convolution over
// S * N images with the shared filter. A batch of filters (per-example
// weights) becomes a grouped convolution: the examples' channels are laid
// side by side and each example's filter sees only its own group.
//
//===----------------------------------------------------------------------===//

#include "BatchRules.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::ad::rules;
using namespace adjoint::ad::batching;

using Operands = ArrayRef<Batched>;
using Result = FailureOr<SmallVector<Batched>>;

/// [S, N, rest...] -> [S * N, rest...].
static Val foldIntoImages(Emitter &e, Val x) {
  SmallVector<int64_t> shape{x.shape()[0] * x.shape()[1]};
  llvm::append_range(shape, x.shape().drop_front(2));
  return e.reshape(x, shape);
}

/// [S * N, rest...] -> [S, N, rest...].
static Val unfoldImages(Emitter &e, Val x, int64_t size) {
  SmallVector<int64_t> shape{size, x.shape()[0] / size};
  llvm::append_range(shape, x.shape().drop_front());
  return e.reshape(x, shape);
}

static Result batchConv(Emitter &e, Operation *op, Operands operands,
                        int64_t size) {
  auto conv = cast<adj::Conv2DOp>(op);
  if (!operands[1].batched) {
    Val y = e.conv2d(foldIntoImages(e, e.val(operands[0].value)),
                     e.val(operands[1].value), conv.getStride(),
                     conv.getPadding(), conv.getDilation(), conv.getGroups());
    return SmallVector<Batched>{{unfoldImages(e, y, size), true}};
  }
  Val x = materialize(e, operands[0], size);
  Val w = e.val(operands[1].value);
  ArrayRef<int64_t> xs = x.shape(), ws = w.shape();
  // [S, N, C, H, W] -> [N, S * C, H, W].
  Val xt = e.reshape(e.transpose(x, {1, 0, 2, 3, 4}),
                     {xs[1], size * xs[2], xs[3], xs[4]});
  // [S, O, C / g, KH, KW] -> [S * O, C / g, KH, KW].
  Val wt = e.reshape(w, {size * ws[1], ws[2], ws[3], ws[4]});
  Val y = e.conv2d(xt, wt, conv.getStride(), conv.getPadding(),
                   conv.getDilation(), conv.getGroups() * size);
  ArrayRef<int64_t> ys = y.shape();
  Val split = e.reshape(y, {ys[0], size, ws[1], ys[2], ys[3]});
  return SmallVector<Batched>{{e.transpose(split, {1, 0, 2, 3, 4}), true}};
}

template <typename OpT>
static Result batchPool(Emitter &e, Operation *op, Operands operands,
                        int64_t size) {
  auto pool = cast<OpT>(op);
  Val y = e.make<OpT>(foldIntoImages(e, e.val(operands[0].value)),
                      pool.getKernel(), pool.getStride(), pool.getPadding());
  return SmallVector<Batched>{{unfoldImages(e, y, size), true}};
}

void adjoint::ad::batching::addConvolutionBatchRules(BatchRuleMap &map) {
  map[TypeID::get<adj::Conv2DOp>()] = batchConv;
  map[TypeID::get<adj::MaxPool2DOp>()] = batchPool<adj::MaxPool2DOp>;
  map[TypeID::get<adj::AvgPool2DOp>()] = batchPool<adj::AvgPool2DOp>;
}
