//===- Jacobi.cpp - What the Jacobi eigh and svd kernels share ------------===//

#include "Jacobi.h"

#include <cmath>

using namespace mlir;
using namespace adjoint::gpu;
using namespace adjoint::gpu::jacobi;

namespace {

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

} // namespace

std::pair<Value, Value> jacobi::rotation(MatrixKernel &k, Value zeta) {
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

void jacobi::rotate(MatrixKernel &k, const View &m, Value c, Value s,
                    Value xi, Value xj, Value yi, Value yj) {
  Value x = m.load(k, xi, xj), y = m.load(k, yi, yj);
  m.store(k, k.sub(k.mul(c, x), k.mul(s, y)), xi, xj);
  m.store(k, k.add(k.mul(s, x), k.mul(c, y)), yi, yj);
}

void jacobi::iterate(MatrixKernel &k, Value flags,
                     const std::function<void()> &sweep) {
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

Value jacobi::rankOf(MatrixKernel &k, Value values, Value i, int64_t count,
                     bool descending) {
  Value vi = k.load(values, {i});
  return k.serial(k.index(0), k.index(count), {k.index(0)},
                  [&](Value j, ValueRange carried) {
    Value p = precedes(k, k.load(values, {j}), j, vi, i, descending);
    return MatrixKernel::Carried{
        k.select(p, k.add(carried[0], k.index(1)), carried[0])};
  })[0];
}

void jacobi::signLine(MatrixKernel &k, const View &m, Value line,
                      int64_t length,
                      const std::function<void()> &alsoFlip) {
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

void jacobi::fillNaN(MatrixKernel &k, Value buffer, ArrayRef<int64_t> sizes) {
  Value nan = k.real(NAN), zero = k.index(0);
  if (sizes.size() == 1) {
    k.spread(zero, k.index(sizes[0]),
             [&](Value i) { k.store(nan, buffer, {i}); });
    return;
  }
  k.spread(zero, k.index(sizes[0]), zero, k.index(sizes[1]),
           [&](Value i, Value j) { k.store(nan, buffer, {i, j}); });
}
