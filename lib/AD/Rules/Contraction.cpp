//===- Contraction.cpp - Rules of matmul -----------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace adjoint;
using namespace adjoint::adj;
using namespace adjoint::ad::rules;

using Ts = ArrayRef<Val>;

void adjoint::ad::rules::addContractionRules(RuleMap &m) {
  // C = A @ B over broadcast batch dimensions: dA = dC @ B^T and
  // dB = A^T @ dC, summed over the batch dimensions each operand was
  // broadcast along.
  define<MatmulOp>(
      m,
      [](Emitter &e, MatmulOp op, Val dy) -> Sens {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        return {e.unbroadcast(e.matmul(dy, e.transposeLast2(b)), a),
                e.unbroadcast(e.matmul(e.transposeLast2(a), dy), b)};
      },
      [](Emitter &e, MatmulOp op, Ts t) {
        Val a = e.val(op.getLhs()), b = e.val(op.getRhs());
        return e.sum({t[0] ? e.matmul(t[0], b) : Val(),
                      t[1] ? e.matmul(a, t[1]) : Val()},
                     op.getType());
      });
}
