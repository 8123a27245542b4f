//===- Factorizations.cpp - cholesky, triangular_solve, lu, qr kernels ----===//
//
// Right-looking factorizations, one column per step: the step's serial
// part (a pivot search, a reflector) runs in the first work item, its
// update of the trailing matrix is spread over the workgroup, and a
// barrier separates the steps. Triangular solves need no barrier: each
// work item substitutes whole columns (or rows) of the right-hand side.
//
//===----------------------------------------------------------------------===//

#include "LinearAlgebraKernels.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <limits>

using namespace mlir;
using namespace adjoint::gpu;

void adjoint::gpu::emitCholesky(OpBuilder &b, const LinearAlgebraCall &call) {
  Value in = call.buffers[0], out = call.buffers[1];
  int64_t size = call.matrix(0).first;
  emitMatrixLaunch(b, call, threadsFor(size), {}, {},
                   [&](MatrixKernel &k, const KernelBuffers &) {
    Value zero = k.index(0), n = k.index(size), one = k.index(1);
    // The lower triangle of the input, zeros above.
    k.spread(zero, n, zero, n, [&](Value i, Value j) {
      Value v = k.select(k.le(j, i), k.load(in, {i, j}), k.real(0));
      k.store(v, out, {i, j});
    });
    k.sync();
    Value failed = k.serial(zero, n, {k.boolean(false)},
                            [&](Value j, ValueRange carried) {
      Value pivot = k.load(out, {j, j});
      // potrf's test: not positive (or NaN) ends the factorization.
      Value bad = k.negate(k.gt(pivot, k.real(0)));
      Value d = k.sqrt(pivot);
      k.sync(); // everyone has read the pivot
      k.leader([&] { k.store(d, out, {j, j}); });
      Value next = k.add(j, one);
      k.spread(next, n, [&](Value i) {
        k.store(k.div(k.load(out, {i, j}), d), out, {i, j});
      });
      k.sync();
      k.spread(next, n, next, n, [&](Value i, Value c) {
        k.when(k.le(c, i), [&] {
          Value update = k.mul(k.load(out, {i, j}), k.load(out, {c, j}));
          k.store(k.sub(k.load(out, {i, c}), update), out, {i, c});
        });
      });
      k.sync();
      return MatrixKernel::Carried{k.either(carried[0], bad)};
    })[0];
    // A failed factorization is all NaNs, as LAPACK's kernels give it.
    k.when(failed, [&] {
      k.spread(zero, n, zero, n, [&](Value i, Value j) {
        k.store(k.real(std::numeric_limits<double>::quiet_NaN()), out,
                {i, j});
      });
    });
  });
}

void adjoint::gpu::emitTriangularSolve(OpBuilder &b,
                                       const LinearAlgebraCall &call) {
  Value a = call.buffers[0], rhs = call.buffers[1], out = call.buffers[2];
  bool left = call.scalars[3], lower = call.scalars[4],
       transpose = call.scalars[5], unit = call.scalars[6];
  auto [rows, cols] = call.matrix(1);
  int64_t size = call.matrix(0).first;
  // op(a) x = b column by column (left), or x op(a) = b row by row, i.e.
  // op(a)^T x^T = b^T. Either way one triangular system s y = c per line:
  // s is op(a) or its transpose, forward substitution when s is lower.
  bool opLower = lower != transpose;
  bool sTransposed = transpose != !left;
  bool forward = left ? opLower : !opLower;
  int64_t lines = left ? cols : rows;
  emitMatrixLaunch(b, call, threadsFor(lines), {}, {},
                   [&](MatrixKernel &k, const KernelBuffers &) {
    auto s = [&](Value i, Value j) {
      return sTransposed ? k.load(a, {j, i}) : k.load(a, {i, j});
    };
    k.spread(k.index(0), k.index(lines), [&](Value line) {
      auto at = [&](Value i) -> SmallVector<Value> {
        if (left)
          return {i, line};
        return {line, i};
      };
      auto solveAt = [&](Value i, Value lo, Value hi) {
        Value acc = k.serial(lo, hi, {k.load(rhs, at(i))},
                             [&](Value j, ValueRange carried) {
          Value term = k.mul(s(i, j), k.load(out, at(j)));
          return MatrixKernel::Carried{k.sub(carried[0], term)};
        })[0];
        k.store(unit ? acc : k.div(acc, s(i, i)), out, at(i));
      };
      Value n = k.index(size);
      if (forward)
        k.serial(k.index(0), n, [&](Value i) { solveAt(i, k.index(0), i); });
      else
        k.serialDown(k.index(0), n, [&](Value i) {
          solveAt(i, k.add(i, k.index(1)), n);
        });
    });
  });
}

void adjoint::gpu::emitLu(OpBuilder &b, const LinearAlgebraCall &call) {
  Value in = call.buffers[0], lu = call.buffers[1], pivots = call.buffers[2],
        perm = call.buffers[3];
  auto [rows, cols] = call.matrix(0);
  int64_t steps = std::min(rows, cols);
  MemRefType slot = workgroupBuffer({1}, b.getI32Type());
  emitMatrixLaunch(
      b, call, threadsFor(std::max(rows, cols)), {}, {slot},
      [&](MatrixKernel &k, const KernelBuffers &buffers) {
        Value chosen = buffers.workgroup[0];
        Value zero = k.index(0), one = k.index(1);
        Value m = k.index(rows), n = k.index(cols);
        k.spread(zero, m, zero, n, [&](Value i, Value j) {
          k.store(k.load(in, {i, j}), lu, {i, j});
        });
        k.spread(zero, m, [&](Value i) { k.store(k.toI32(i), perm, {i}); });
        k.sync();
        k.serial(zero, k.index(steps), [&](Value j) {
          // The first entry of largest magnitude on or below the
          // diagonal, as getrf (and the interpreter) choose it.
          k.leader([&] {
            Value start = k.abs(k.load(lu, {j, j}));
            Value best = k.serial(k.add(j, one), m, {j, start},
                                  [&](Value r, ValueRange carried) {
              Value v = k.abs(k.load(lu, {r, j}));
              Value better = k.gt(v, carried[1]);
              return MatrixKernel::Carried{k.select(better, r, carried[0]),
                                           k.select(better, v, carried[1])};
            })[0];
            k.store(k.toI32(best), pivots, {j});
            k.store(k.toI32(best), chosen, {zero});
            Value pj = k.load(perm, {j}), pb = k.load(perm, {best});
            k.store(pb, perm, {j});
            k.store(pj, perm, {best});
          });
          k.sync();
          Value p = k.toIndex(k.load(chosen, {zero}));
          k.when(k.ne(p, j), [&] {
            k.spread(zero, n, [&](Value c) {
              Value x = k.load(lu, {j, c}), y = k.load(lu, {p, c});
              k.store(y, lu, {j, c});
              k.store(x, lu, {p, c});
            });
          });
          k.sync();
          Value pivot = k.load(lu, {j, j});
          Value next = k.add(j, one);
          // A zero pivot leaves its column as it is (getrf goes on).
          k.when(k.ne(pivot, k.real(0)), [&] {
            k.spread(next, m, [&](Value r) {
              k.store(k.div(k.load(lu, {r, j}), pivot), lu, {r, j});
            });
            k.sync();
            k.spread(next, m, next, n, [&](Value r, Value c) {
              Value update = k.mul(k.load(lu, {r, j}), k.load(lu, {j, c}));
              k.store(k.sub(k.load(lu, {r, c}), update), lu, {r, c});
            });
          });
          k.sync();
        });
      });
}

/// target[j:m, c] -= tau (v . target[j:m, c]) v: column c of `target`
/// times reflector j, whose v is (1, work[j+1:m, j]) (geqrf's storage),
/// as the factorization applies it to A's later columns and orgqr to q's.
static void applyReflector(MatrixKernel &k, Value work, Value j, Value tau,
                           Value m, Value target, Value c) {
  Value next = k.add(j, k.index(1));
  Value dot = k.serial(next, m, {k.load(target, {j, c})},
                       [&](Value i, ValueRange carried) {
    Value term = k.mul(k.load(work, {i, j}), k.load(target, {i, c}));
    return MatrixKernel::Carried{k.add(carried[0], term)};
  })[0];
  Value s = k.mul(dot, tau);
  k.store(k.sub(k.load(target, {j, c}), s), target, {j, c});
  k.serial(next, m, [&](Value i) {
    Value update = k.mul(s, k.load(work, {i, j}));
    k.store(k.sub(k.load(target, {i, c}), update), target, {i, c});
  });
}

void adjoint::gpu::emitQr(OpBuilder &b, const LinearAlgebraCall &call) {
  Value in = call.buffers[0], q = call.buffers[1], r = call.buffers[2];
  auto [rows, cols] = call.matrix(0);
  int64_t qCols = call.matrix(1).second, rRows = call.matrix(2).first;
  int64_t steps = std::min(rows, cols);
  // The factorization runs in place in whichever result has the input's
  // shape: r unless the reduced q of a tall matrix (LAPACK's geqrf + orgqr
  // in one buffer), where r is copied out before q is formed.
  bool inR = rRows == rows;
  Value work = inR ? r : q;
  emitMatrixLaunch(
      b, call, threadsFor(std::max(rows, cols)), {{steps}}, {},
      [&](MatrixKernel &k, const KernelBuffers &buffers) {
        Value taus = buffers.scratch[0];
        Value zero = k.index(0), one = k.index(1);
        Value m = k.index(rows), n = k.index(cols);
        k.spread(zero, m, zero, n, [&](Value i, Value j) {
          k.store(k.load(in, {i, j}), work, {i, j});
        });
        k.sync();
        // Reflector j: H = I - tau v v^T with v = (1, work[j+1:, j]),
        // beta = -sign(alpha) |x| (LAPACK's and Eigen's signs), tau = 0
        // when the tail is zero.
        k.serial(zero, k.index(steps), [&](Value j) {
          Value next = k.add(j, one);
          k.leader([&] {
            Value alpha = k.load(work, {j, j});
            Value tail = k.serial(next, m, {k.real(0)},
                                  [&](Value i, ValueRange carried) {
              Value x = k.load(work, {i, j});
              return MatrixKernel::Carried{k.add(carried[0], k.mul(x, x))};
            })[0];
            double tiny = k.element().isF64()
                              ? std::numeric_limits<double>::min()
                              : double(std::numeric_limits<float>::min());
            Value flat = k.le(tail, k.real(tiny));
            Value norm = k.sqrt(k.add(k.mul(alpha, alpha), tail));
            Value beta = k.select(
                flat, alpha,
                k.select(k.lt(alpha, k.real(0)), norm, k.neg(norm)));
            Value tau = k.select(flat, k.real(0),
                                 k.div(k.sub(beta, alpha), beta));
            Value scale = k.sub(alpha, beta);
            k.serial(next, m, [&](Value i) {
              Value v = k.div(k.load(work, {i, j}), scale);
              k.store(k.select(flat, k.real(0), v), work, {i, j});
            });
            k.store(beta, work, {j, j});
            k.store(tau, taus, {j});
          });
          k.sync();
          Value tau = k.load(taus, {j});
          k.spread(next, n, [&](Value c) {
            applyReflector(k, work, j, tau, m, work, c);
          });
          k.sync();
        });
        Value kq = k.index(qCols), stepCount = k.index(steps);
        if (!inR) {
          k.spread(zero, n, zero, n, [&](Value i, Value c) {
            Value v = k.select(k.le(i, c), k.load(work, {i, c}), k.real(0));
            k.store(v, r, {i, c});
          });
          k.sync();
        }
        // q = H_0 ... H_{steps-1} I, accumulated backwards as orgqr does:
        // columns beyond the reflectors start as the identity's, then
        // step j applies H_j to the columns after j and sets column j to
        // H_j e_j. Column j of a q formed in place still holds v_j until
        // its own step.
        k.spread(zero, m, stepCount, kq, [&](Value i, Value c) {
          k.store(k.select(k.eq(i, c), k.real(1), k.real(0)), q, {i, c});
        });
        k.sync();
        k.serialDown(zero, stepCount, [&](Value j) {
          Value next = k.add(j, one);
          Value tau = k.load(taus, {j});
          k.spread(next, kq, [&](Value c) {
            applyReflector(k, work, j, tau, m, q, c);
          });
          k.sync();
          k.spread(zero, m, [&](Value i) {
            Value below = k.neg(k.mul(tau, k.load(work, {i, j})));
            Value v = k.select(
                k.lt(i, j), k.real(0),
                k.select(k.eq(i, j), k.sub(k.real(1), tau), below));
            k.store(v, q, {i, j});
          });
          k.sync();
        });
        // r read in place: the reflectors below its diagonal go.
        if (inR)
          k.spread(zero, m, zero, n, [&](Value i, Value c) {
            k.when(k.lt(c, i), [&] { k.store(k.real(0), r, {i, c}); });
          });
      });
}
