//===- Svd.cpp - svd by one-sided parallel Jacobi rotations ---------------===//
//
// One-sided (Hestenes) Jacobi: the columns of X (the input, or its
// transpose when it is wide) are rotated until orthogonal; the singular
// values are their norms, the long-side vectors the normalized columns,
// the short-side ones the accumulated V. A pair is rotated when its
// columns are further from orthogonal than rounding, and a sweep without
// rotations ends the iteration. Values are then sorted, vectors signed by
// the op's convention (Jacobi.h), and where the values leave no vector the
// basis is completed.
//
//===----------------------------------------------------------------------===//

#include "Jacobi.h"
#include "KernelBuilder.h"
#include "LinearAlgebraKernels.h"

#include <cmath>

using namespace mlir;
using namespace adjoint::gpu;
using namespace adjoint::gpu::jacobi;

namespace {

/// Completes the long-side vectors (columns of `longSide`, `length` rows)
/// to `count` orthonormal ones: the columns below `known` whose singular
/// value (in `values`) is not positive, and the columns from `known` on.
/// Each is the unit vector least in the span of the columns before it
/// (smallest squared row norm, kept in `weights`), orthogonalized against
/// them twice (classical Gram-Schmidt with the coefficients in
/// `coefficients`, a column per work item), then normalized. `real` and
/// `index` are one-element workgroup slots.
void completeBasis(MatrixKernel &k, const View &longSide, Value values,
                   int64_t length, int64_t known, int64_t count,
                   Value weights, Value coefficients, Value real,
                   Value index) {
  Value zero = k.index(0), r = k.index(length), n = k.index(known);
  // The zero columns of zero singular values count nothing.
  k.spread(zero, r, [&](Value i) {
    Value w = k.serial(zero, n, {k.real(0)}, [&](Value j, ValueRange acc) {
      Value e = longSide.load(k, i, j);
      return MatrixKernel::Carried{k.add(acc[0], k.mul(e, e))};
    })[0];
    k.store(w, weights, {i});
  });
  k.sync();
  k.serial(zero, k.index(count), [&](Value col) {
    Value given = k.choose(
        k.lt(col, n), boolType(k),
        [&] { return k.gt(k.load(values, {col}), k.real(0)); },
        [&] { return k.boolean(false); });
    k.when(k.negate(given), [&] {
      k.leader([&] {
        Value pick = k.serial(zero, r, {zero, k.real(2)},
                              [&](Value i, ValueRange acc) {
          Value w = k.load(weights, {i});
          Value better = k.lt(w, acc[1]);
          return MatrixKernel::Carried{k.select(better, i, acc[0]),
                                       k.select(better, w, acc[1])};
        })[0];
        k.store(k.toI32(pick), index, {zero});
      });
      k.sync();
      Value pick = k.toIndex(k.load(index, {zero}));
      k.spread(zero, r, [&](Value i) {
        longSide.store(k, k.select(k.eq(i, pick), k.real(1), k.real(0)), i,
                       col);
      });
      k.sync();
      for (int pass = 0; pass < 2; ++pass) {
        k.spread(zero, col, [&](Value j) {
          Value d = k.serial(zero, r, {k.real(0)},
                             [&](Value i, ValueRange acc) {
            Value t = k.mul(longSide.load(k, i, j), longSide.load(k, i, col));
            return MatrixKernel::Carried{k.add(acc[0], t)};
          })[0];
          k.store(d, coefficients, {j});
        });
        k.sync();
        k.spread(zero, r, [&](Value i) {
          Value v = k.serial(zero, col, {longSide.load(k, i, col)},
                             [&](Value j, ValueRange acc) {
            Value t = k.mul(k.load(coefficients, {j}), longSide.load(k, i, j));
            return MatrixKernel::Carried{k.sub(acc[0], t)};
          })[0];
          longSide.store(k, v, i, col);
        });
        k.sync();
      }
      k.leader([&] {
        Value sum = k.serial(zero, r, {k.real(0)},
                             [&](Value i, ValueRange acc) {
          Value e = longSide.load(k, i, col);
          return MatrixKernel::Carried{k.add(acc[0], k.mul(e, e))};
        })[0];
        k.store(k.sqrt(sum), real, {zero});
      });
      k.sync();
      Value norm = k.load(real, {zero});
      k.spread(zero, r, [&](Value i) {
        Value e = k.div(longSide.load(k, i, col), norm);
        longSide.store(k, e, i, col);
        k.store(k.add(k.load(weights, {i}), k.mul(e, e)), weights, {i});
      });
      k.sync();
    });
  });
}

} // namespace

void adjoint::gpu::emitSvd(OpBuilder &b, const LinearAlgebraCall &call) {
  Value in = call.buffers[0], u = call.buffers[1], s = call.buffers[2],
        vh = call.buffers[3];
  bool vectors = call.scalars[4];
  auto [rows, cols] = call.matrix(0);
  // X = A (tall) or A^T (wide): long x short, X V = L S with L the
  // long-side and V the short-side vectors. For a tall A, u = L and
  // vh = V^T; for a wide one u = V and vh = L^T.
  bool tall = rows >= cols;
  int64_t longSize = std::max(rows, cols), shortSize = std::min(rows, cols);
  int64_t longCols = tall ? call.matrix(1).second : call.matrix(3).first;
  View x{in, !tall};
  View longSide = tall ? View{u} : View{vh, true};
  View shortSide = tall ? View{vh, true} : View{u};
  int64_t players = shortSize + shortSize % 2, slots = players / 2;
  int64_t threads = threadsFor(std::max<int64_t>(slots, 1));
  // X, the column norms, the input's largest magnitude; with the vectors
  // V, the squared row norms of the long-side vectors so far, and
  // projection coefficients.
  SmallVector<SmallVector<int64_t>> scratch = {
      {longSize, shortSize}, {std::max<int64_t>(shortSize, 1)}, {1}};
  if (vectors) {
    scratch.push_back({shortSize, shortSize});
    scratch.push_back({std::max<int64_t>(longSize, 1)});
    scratch.push_back({std::max<int64_t>(longCols, 1)});
  }
  Type element = call.element();
  SmallVector<MemRefType> shared = {workgroupBuffer({threads}, b.getI32Type()),
                                    workgroupBuffer({1}, element),
                                    workgroupBuffer({1}, b.getI32Type())};
  // The rotations, values and vectors; then (a second kernel, which
  // keeps the registers of each within an AMD GPU's) the completion of
  // the long-side basis and the signs.
  MatrixKernelBody factor = [&](MatrixKernel &k,
                                const KernelBuffers &buffers) {
    View work{buffers.scratch[0]};
    Value norms = buffers.scratch[1], largestSeen = buffers.scratch[2];
    Value flags = buffers.workgroup[0], real = buffers.workgroup[1];
    Value zero = k.index(0), one = k.index(1);
    Value r = k.index(longSize), n = k.index(shortSize);
    // The input divided by its largest magnitude (as Eigen's SVDs do):
    // the column norms squared below neither overflow nor underflow.
    // A NaN or an infinity anywhere makes every output NaN, as
    // gesdd's refusal does on the CPU.
    k.leader([&] {
      MatrixKernel::Carried top = k.serial(
          zero, r, {k.real(0), k.boolean(false)},
          [&](Value i, ValueRange outer) {
        return k.serial(zero, n, outer, [&](Value j, ValueRange acc) {
          Value v = k.abs(x.load(k, i, j));
          return MatrixKernel::Carried{
              k.max(acc[0], v),
              k.either(acc[1], k.negate(k.lt(v, k.real(INFINITY))))};
        });
      });
      Value largest = k.select(top[1], k.real(NAN), top[0]);
      k.store(largest, real, {zero});
      k.store(largest, largestSeen, {zero});
    });
    k.sync();
    Value largest = k.load(real, {zero});
    Value bad = k.isNaN(largest);
    Value scale =
        k.select(k.gt(largest, k.real(0)), largest, k.real(1));
    k.spread(zero, r, zero, n, [&](Value i, Value j) {
      work.store(k, k.div(x.load(k, i, j), scale), i, j);
    });
    View vs{vectors ? buffers.scratch[3] : Value()};
    if (vectors)
      k.spread(zero, n, zero, n, [&](Value i, Value j) {
        vs.store(k, k.select(k.eq(i, j), k.real(1), k.real(0)), i, j);
      });
    k.sync();
    // Columns whose cosine is below rounding are orthogonal; LAPACK's
    // one-sided Jacobi (gesvj) uses sqrt(rows) ulps.
    double tolerance =
        std::max(8.0, std::sqrt(double(longSize))) * k.epsilon();
    auto dotOf = [&](const View &m, Value p, Value q, Value length) {
      return k.serial(zero, length, {k.real(0)},
                      [&](Value i, ValueRange carried) {
        Value term = k.mul(m.load(k, i, p), m.load(k, i, q));
        return MatrixKernel::Carried{k.add(carried[0], term)};
      })[0];
    };
    iterate(k, flags, [&] {
      k.serial(zero, k.index(std::max<int64_t>(players - 1, 0)),
               [&](Value round) {
        k.spread(zero, k.index(slots), [&](Value slot) {
          auto [p, q] = k.pairOf(round, slot, players);
          k.when(k.lt(q, n), [&] {
            Value alpha = dotOf(work, p, p, r),
                  beta = dotOf(work, q, q, r),
                  gamma = dotOf(work, p, q, r);
            Value bound = k.mul(k.real(tolerance),
                                k.mul(k.sqrt(alpha), k.sqrt(beta)));
            k.when(k.gt(k.abs(gamma), bound), [&] {
              Value zeta =
                  k.div(k.sub(beta, alpha), k.mul(k.real(2), gamma));
              auto [c, sn] = rotation(k, zeta);
              k.serial(zero, r, [&](Value i) {
                rotate(k, work, c, sn, i, p, i, q);
              });
              if (vectors)
                k.serial(zero, n, [&](Value i) {
                  rotate(k, vs, c, sn, i, p, i, q);
                });
              k.store(k.toI32(one), flags, {k.threadId()});
            });
          });
        });
        k.sync();
      });
    });
    k.spread(zero, n, [&](Value j) {
      k.store(k.sqrt(dotOf(work, j, j, r)), norms, {j});
    });
    k.sync();
    k.spread(zero, n, [&](Value j) {
      Value rank = rankOf(k, norms, j, shortSize, /*descending=*/true);
      Value sigma = k.load(norms, {j});
      k.store(k.mul(sigma, scale), s, {rank});
      if (!vectors)
        return;
      k.serial(zero, n, [&](Value i) {
        shortSide.store(k, vs.load(k, i, j), i, rank);
      });
      // A zero singular value has no long-side vector yet.
      Value positive = k.gt(sigma, k.real(0));
      k.serial(zero, r, [&](Value i) {
        Value scaled = k.div(work.load(k, i, j), sigma);
        longSide.store(k, k.select(positive, scaled, k.real(0)), i, rank);
      });
    });
    if (!vectors)
      k.when(bad, [&] { fillNaN(k, s, {shortSize}); });
  };
  MatrixKernelBody complete = [&](MatrixKernel &k,
                                  const KernelBuffers &buffers) {
    Value zero = k.index(0), n = k.index(shortSize);
    Value real = buffers.workgroup[1], index = buffers.workgroup[2];
    Value bad = k.isNaN(k.load(buffers.scratch[2], {zero}));
    completeBasis(k, longSide, s, longSize, shortSize, longCols,
                  buffers.scratch[4], buffers.scratch[5], real, index);
    // Signs: u's column decides for the pair (u column j, vh row j);
    // a full u's extra columns and a full vh's extra rows alone.
    View uView{u}, vhRows{vh, true};
    int64_t uCols = call.matrix(1).second;
    int64_t vhRowCount = call.matrix(3).first;
    k.spread(zero, n, [&](Value j) {
      signLine(k, uView, j, rows, [&] {
        k.serial(zero, k.index(cols), [&](Value c) {
          k.store(k.neg(k.load(vh, {j, c})), vh, {j, c});
        });
      });
    });
    k.spread(n, k.index(uCols),
             [&](Value j) { signLine(k, uView, j, rows); });
    k.spread(n, k.index(vhRowCount),
             [&](Value j) { signLine(k, vhRows, j, cols); });
    k.sync();
    k.when(bad, [&] {
      fillNaN(k, s, {shortSize});
      auto [uRows, uCols] = call.matrix(1);
      auto [vhRows, vhCols] = call.matrix(3);
      fillNaN(k, u, {uRows, uCols});
      fillNaN(k, vh, {vhRows, vhCols});
    });
  };
  if (vectors)
    emitMatrixLaunches(b, call, threads, scratch, shared, {factor, complete});
  else
    emitMatrixLaunch(b, call, threads, scratch, shared, factor);
}
