//===- Jacobi.cpp - eigh and svd kernels by parallel Jacobi rotations -----===//
//
// Jacobi methods suit a workgroup: the rotations of one round of a
// round-robin ordering touch disjoint pairs of indices, so a round is one
// parallel step (MatrixKernel::pairOf). They converge quadratically and
// are as accurate as the matrix allows.
//
//   eigh  two-sided: A <- J^T A J zeroes a_pq for every pair of a round at
//         once (the rotations' angles first, then the columns of A and V,
//         then the rows of A, a barrier between); eigenvalues are the
//         diagonal, eigenvectors the columns of V.
//   svd   one-sided (Hestenes): the columns of X (the input, or its
//         transpose when it is wide) are rotated until orthogonal; the
//         singular values are their norms, the long-side vectors the
//         normalized columns, the short-side ones the accumulated V.
//
// A pair is rotated when it is further from diagonal (orthogonal) than
// rounding, and a sweep without rotations ends the iteration. Results are
// then sorted (each work item counts the values that precede its own, a
// total order with NaNs last) and vectors signed by the ops' convention.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "LinearAlgebraKernels.h"

#include <cmath>

using namespace mlir;
using namespace adjoint::gpu;

namespace {

/// Sweeps before giving up on convergence; a Jacobi method needs some 5 to
/// 15 for matrices of up to thousands of rows.
constexpr int64_t kMaxSweeps = 40;

Type boolType(MatrixKernel &k) {
  return IntegerType::get(k.element().getContext(), 1);
}

/// A matrix buffer read as itself or as its transpose.
struct View {
  Value buffer;
  bool transposed = false;

  Value load(MatrixKernel &k, Value i, Value j) const {
    return transposed ? k.load(buffer, {j, i}) : k.load(buffer, {i, j});
  }
  void store(MatrixKernel &k, Value v, Value i, Value j) const {
    if (transposed)
      k.store(v, buffer, {j, i});
    else
      k.store(v, buffer, {i, j});
  }
};

/// The rotation (c, s) with t = s / c = sign(zeta) / (|zeta| +
/// sqrt(1 + zeta^2)), the smaller root of t^2 + 2 zeta t - 1 = 0.
std::pair<Value, Value> rotation(MatrixKernel &k, Value zeta) {
  Value one = k.real(1);
  Value sign = k.select(k.lt(zeta, k.real(0)), k.real(-1), one);
  Value root = k.sqrt(k.add(one, k.mul(zeta, zeta)));
  // Beyond 1/sqrt(eps), zeta^2 may overflow: t = 1 / (2 zeta) there.
  Value huge = k.gt(k.abs(zeta), k.real(1 / std::sqrt(k.epsilon())));
  Value t = k.select(huge, k.div(one, k.mul(k.real(2), zeta)),
                     k.div(sign, k.add(k.abs(zeta), root)));
  Value c = k.div(one, k.sqrt(k.add(one, k.mul(t, t))));
  return {c, k.mul(c, t)};
}

/// (x, y) <- (c x - s y, s x + c y) for column (or row) entries at `x`, `y`.
void rotate(MatrixKernel &k, const View &m, Value c, Value s, Value xi,
            Value xj, Value yi, Value yj) {
  Value x = m.load(k, xi, xj), y = m.load(k, yi, yj);
  m.store(k, k.sub(k.mul(c, x), k.mul(s, y)), xi, xj);
  m.store(k, k.add(k.mul(s, x), k.mul(c, y)), yi, yj);
}

/// Runs `sweep` until it reports no rotation, at most kMaxSweeps times.
/// `sweep` sets flags[tid] when the work item rotated; every item then
/// reads all flags, so the decision is the same everywhere.
void iterate(MatrixKernel &k, Value flags, const std::function<void()> &sweep) {
  Value zero = k.index(0), tid = k.threadId();
  k.serial(zero, k.index(kMaxSweeps), {k.boolean(true)},
           [&](Value, ValueRange carried) {
    Value again = k.choose(carried[0], boolType(k), [&] {
      k.store(k.toI32(zero), flags, {tid});
      k.sync();
      sweep();
      k.sync();
      return k.serial(zero, k.index(k.threadCount()), {k.boolean(false)},
                      [&](Value i, ValueRange any) {
        Value set = k.ne(k.load(flags, {i}), k.toI32(zero));
        return MatrixKernel::Carried{k.either(any[0], set)};
      })[0];
    }, [&] { return k.boolean(false); });
    // Nobody resets its flag before everyone has read them all.
    k.sync();
    return MatrixKernel::Carried{again};
  });
}

/// Whether value `j` precedes value `i` in ascending (or descending)
/// order, NaNs last and ties by position: a total order, so the counts of
/// predecessors are a permutation.
Value precedes(MatrixKernel &k, Value vj, Value j, Value vi, Value i,
               bool descending) {
  auto before = [&](Value x, Value y) {
    Value ordered = descending ? k.gt(x, y) : k.lt(x, y);
    return k.either(ordered, k.both(k.isNaN(y), k.negate(k.isNaN(x))));
  };
  Value tie = k.both(k.negate(before(vj, vi)), k.negate(before(vi, vj)));
  return k.either(before(vj, vi), k.both(tie, k.lt(j, i)));
}

/// The position of `values[i]` among `values[0..count)` sorted.
Value rankOf(MatrixKernel &k, Value values, Value i, int64_t count,
             bool descending) {
  Value vi = k.load(values, {i});
  return k.serial(k.index(0), k.index(count), {k.index(0)},
                  [&](Value j, ValueRange carried) {
    Value p = precedes(k, k.load(values, {j}), j, vi, i, descending);
    return MatrixKernel::Carried{
        k.select(p, k.add(carried[0], k.index(1)), carried[0])};
  })[0];
}

/// Negates line `line` (a column of `m` over `length` rows) unless its
/// entry of largest magnitude (the first of equal ones) is positive;
/// `alsoFlip` negates a partner line too.
void signLine(MatrixKernel &k, const View &m, Value line, int64_t length,
              const std::function<void()> &alsoFlip = nullptr) {
  Value zero = k.index(0);
  MatrixKernel::Carried best =
      k.serial(zero, k.index(length), {zero, k.real(-1)},
               [&](Value i, ValueRange carried) {
    Value v = k.abs(m.load(k, i, line));
    Value better = k.gt(v, carried[1]);
    return MatrixKernel::Carried{k.select(better, i, carried[0]),
                                 k.select(better, v, carried[1])};
  });
  k.when(k.lt(m.load(k, best[0], line), k.real(0)), [&] {
    k.serial(zero, k.index(length), [&](Value i) {
      m.store(k, k.neg(m.load(k, i, line)), i, line);
    });
    if (alsoFlip)
      alsoFlip();
  });
}


/// Fills matrix (or vector, one size) `buffer` of the workgroup with NaN.
void fillNaN(MatrixKernel &k, Value buffer, ArrayRef<int64_t> sizes) {
  Value nan = k.real(NAN), zero = k.index(0);
  if (sizes.size() == 1) {
    k.spread(zero, k.index(sizes[0]),
             [&](Value i) { k.store(nan, buffer, {i}); });
    return;
  }
  k.spread(zero, k.index(sizes[0]), zero, k.index(sizes[1]),
           [&](Value i, Value j) { k.store(nan, buffer, {i, j}); });
}

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

void adjoint::gpu::emitEigh(OpBuilder &b, const LinearAlgebraCall &call) {
  Value in = call.buffers[0], w = call.buffers[1], v = call.buffers[2];
  bool upper = call.scalars[2], vectors = call.scalars[3];
  int64_t size = call.matrix(0).first;
  int64_t players = size + size % 2, slots = players / 2;
  int64_t threads = threadsFor(size);
  // A, the rotations' (c, s) of a round (then the unsorted eigenvalues),
  // and V when the vectors are used.
  SmallVector<SmallVector<int64_t>> scratch = {
      {size, size}, {std::max<int64_t>(players, 1)}};
  if (vectors)
    scratch.push_back({size, size});
  SmallVector<MemRefType> shared = {workgroupBuffer({threads}, b.getI32Type()),
                                    workgroupBuffer({1}, b.getI32Type())};
  emitMatrixLaunch(
      b, call, threads, scratch, shared,
      [&](MatrixKernel &k, const KernelBuffers &buffers) {
        View a{buffers.scratch[0]};
        Value angles = buffers.scratch[1], flags = buffers.workgroup[0],
              nonFinite = buffers.workgroup[1];
        View vs{vectors ? buffers.scratch[2] : Value()};
        Value zero = k.index(0), n = k.index(size);
        // The triangle the op reads, mirrored; V = I.
        k.spread(zero, n, zero, n, [&](Value i, Value j) {
          Value mirrored = upper ? k.le(i, j) : k.le(j, i);
          Value x = k.select(mirrored, k.load(in, {i, j}), k.load(in, {j, i}));
          a.store(k, x, i, j);
          if (vectors)
            vs.store(k, k.select(k.eq(i, j), k.real(1), k.real(0)), i, j);
        });
        k.sync();
        // A NaN or an infinity in the triangle read makes every output
        // NaN, as syevd's failure does on the CPU (rotations would leave
        // the vectors finite).
        k.leader([&] {
          Value any = k.serial(zero, n, {k.boolean(false)},
                               [&](Value i, ValueRange outer) {
            return k.serial(zero, n, outer, [&](Value j, ValueRange acc) {
              Value v = k.abs(a.load(k, i, j));
              return MatrixKernel::Carried{
                  k.either(acc[0], k.negate(k.lt(v, k.real(INFINITY))))};
            });
          })[0];
          k.store(k.toI32(k.select(any, k.index(1), zero)), nonFinite,
                  {zero});
        });
        k.sync();
        Value bad = k.ne(k.load(nonFinite, {zero}), k.toI32(zero));
        // Off-diagonal entries within a few ulps of the larger diagonal
        // one are rounding: rotating them again would not end.
        double tolerance = 8 * k.epsilon();
        using PairFn = std::function<void(Value, Value, Value)>;
        auto forPairs = [&](Value round, const PairFn &fn) {
          k.spread(zero, k.index(slots), [&](Value slot) {
            auto [p, q] = k.pairOf(round, slot, players);
            k.when(k.lt(q, n), [&] { fn(slot, p, q); });
          });
        };
        auto forPairEntries =
            [&](Value round,
                const std::function<void(Value, Value, Value, Value, Value)>
                    &fn) {
              k.spread(zero, k.index(slots), zero, n, [&](Value slot, Value i) {
                auto [p, q] = k.pairOf(round, slot, players);
                k.when(k.lt(q, n), [&] {
                  Value at = k.mul(slot, k.index(2));
                  Value c = k.load(angles, {at});
                  Value s = k.load(angles, {k.add(at, k.index(1))});
                  fn(p, q, i, c, s);
                });
              });
            };
        iterate(k, flags, [&] {
          k.serial(zero, k.index(std::max<int64_t>(players - 1, 0)),
                   [&](Value round) {
            forPairs(round, [&](Value slot, Value p, Value q) {
              Value app = a.load(k, p, p), aqq = a.load(k, q, q),
                    apq = a.load(k, p, q);
              Value scale = k.max(k.abs(app), k.abs(aqq));
              Value needed =
                  k.gt(k.abs(apq), k.mul(k.real(tolerance), scale));
              Value zeta = k.div(k.sub(aqq, app), k.mul(k.real(2), apq));
              auto [c, s] = rotation(k, zeta);
              Value at = k.mul(slot, k.index(2));
              k.store(k.select(needed, c, k.real(1)), angles, {at});
              k.store(k.select(needed, s, k.real(0)), angles,
                      {k.add(at, k.index(1))});
              k.when(needed, [&] {
                k.store(k.toI32(k.index(1)), flags, {k.threadId()});
              });
            });
            k.sync();
            // A <- A J and V <- V J: columns p and q.
            forPairEntries(round, [&](Value p, Value q, Value i, Value c,
                                      Value s) {
              rotate(k, a, c, s, i, p, i, q);
              if (vectors)
                rotate(k, vs, c, s, i, p, i, q);
            });
            k.sync();
            // A <- J^T A: rows p and q.
            forPairEntries(round, [&](Value p, Value q, Value i, Value c,
                                      Value s) {
              rotate(k, a, c, s, p, i, q, i);
            });
            k.sync();
          });
        });
        // Eigenvalues ascending; eigenvector columns follow them.
        Value diagonal = angles; // free again; holds n values
        k.spread(zero, n, [&](Value i) {
          k.store(a.load(k, i, i), diagonal, {i});
        });
        k.sync();
        k.spread(zero, n, [&](Value i) {
          Value rank = rankOf(k, diagonal, i, size, /*descending=*/false);
          k.store(k.load(diagonal, {i}), w, {rank});
          if (vectors)
            k.serial(zero, n, [&](Value row) {
              k.store(vs.load(k, row, i), v, {row, rank});
            });
        });
        k.sync();
        if (vectors) {
          k.spread(zero, n,
                   [&](Value col) { signLine(k, View{v}, col, size); });
          k.sync();
        }
        k.when(bad, [&] {
          fillNaN(k, w, {size});
          if (vectors)
            fillNaN(k, v, {size, size});
        });
      });
}

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
    Value flags = buffers.workgroup[0], real = buffers.workgroup[1],
          index = buffers.workgroup[2];
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
