//===- Eigh.cpp - eigh by two-sided parallel Jacobi rotations -------------===//
//
// A <- J^T A J zeroes a_pq for every pair of a round at once (the
// rotations' angles first, then the columns of A and V, then the rows of
// A, a barrier between); eigenvalues are the diagonal, eigenvectors the
// columns of V. A pair is rotated when its off-diagonal entry is further
// from zero than rounding, and a sweep without rotations ends the
// iteration. Values are then sorted and vectors signed by the op's
// convention (Jacobi.h).
//
//===----------------------------------------------------------------------===//

#include "Jacobi.h"
#include "KernelBuilder.h"
#include "LinearAlgebraKernels.h"

#include <cmath>

using namespace mlir;
using namespace adjoint::gpu;
using namespace adjoint::gpu::jacobi;

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
