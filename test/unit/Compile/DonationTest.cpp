//===- DonationTest.cpp - Outputs computed into donated inputs ------------===//
//
// CompileOptions::donate: a training step's new parameters are computed
// into the donated parameters' memory and returned as that memory (no
// allocation, no copy), while inputs that are not donated, and donated ones
// the call may not write, come back unchanged.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/Runtime/MemoryPool.h"


using namespace adjoint;
using namespace adjoint::test;

namespace {

/// (w - lr * g, sum(w * w)): the update reads w, and so does the loss,
/// which the program computes after the update.
void defineStep(api::Module &m, int64_t n) {
  m.function("step", {f32({n}), f32({n}), f32({})},
             [](api::Value w, api::Value g, api::Value lr) {
               api::Value updated = w - lr * g;
               return api::Values{updated, api::sum(w * w)};
             });
}

CompileOptions donating(std::vector<unsigned> inputs) {
  CompileOptions options = noCache();
  options.donate = std::move(inputs);
  return options;
}

std::vector<double> ramp(int64_t n, double scale) {
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = scale * double(i % 17);
  return values;
}

/// The step's outputs computed on the host in double.
std::pair<std::vector<double>, double> expectedStep(std::vector<double> w,
                                                    std::vector<double> g,
                                                    double lr) {
  double loss = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    loss += w[i] * w[i];
    w[i] -= lr * g[i];
  }
  return {w, loss};
}

uint64_t liveBlocks() { return rt::MemoryPool::global().stats().liveBlocks; }

} // namespace

TEST_CASE("a donated parameter's update is computed into its memory") {
  constexpr int64_t n = 4096;
  api::Module m;
  defineStep(m, n);
  std::vector<double> w0 = ramp(n, 0.25), g0 = ramp(n, -0.5);
  auto [w1, loss] = expectedStep(w0, g0, 0.125);
  uint64_t before = liveBlocks();
  {
    Executable exe = compile(m, "step", Target::cpu(), donating({0}));
    REQUIRE(exe.signature().serialize() ==
            "f32[4096]! f32[4096] f32[] -> f32[4096] f32[]");
    rt::Tensor w = rt::Tensor::fromDoubles(DType::F32, {n}, w0);
    rt::Tensor g = rt::Tensor::fromDoubles(DType::F32, {n}, g0);
    rt::Tensor lr = rt::Tensor::fromDoubles(DType::F32, {}, {0.125});
    std::vector<rt::Tensor> out;
    rt::InvokeStats stats;
    REQUIRE(exe.tryRun({w, g, lr}, out, &stats).ok());
    // The new parameters are the donated memory: neither allocated nor
    // copied; the loss read w before the update overwrote it.
    REQUIRE(out[0].data() == w.data());
    REQUIRE(stats.outputsDonated == 1);
    REQUIRE(stats.outputsCopied == 0);
    REQUIRE(stats.donatedCopied == 0);
    REQUIRE(out[0].toDoubles() == w1);
    REQUIRE(out[1].at(0) == Approx(loss).epsilon(1e-6));
    REQUIRE(g.toDoubles() == g0);

    // The next step donates the output it got: the same memory again.
    void *memory = w.data();
    w = rt::Tensor();
    std::vector<rt::Tensor> next;
    REQUIRE(exe.tryRun({out[0], g, lr}, next, &stats).ok());
    REQUIRE(next[0].data() == memory);
    REQUIRE(next[0].toDoubles() == expectedStep(w1, g0, 0.125).first);
  }
  // Shared storage is freed once, when its last tensor goes.
  REQUIRE(liveBlocks() == before);
}

TEST_CASE("without donation the inputs come back unchanged") {
  constexpr int64_t n = 256;
  api::Module m;
  defineStep(m, n);
  Executable exe = compile(m, "step", Target::cpu(), noCache());
  std::vector<double> w0 = ramp(n, 1.5), g0 = ramp(n, 2.0);
  rt::Tensor w = rt::Tensor::fromDoubles(DType::F32, {n}, w0);
  rt::Tensor g = rt::Tensor::fromDoubles(DType::F32, {n}, g0);
  rt::Tensor lr = rt::Tensor::fromDoubles(DType::F32, {}, {0.5});
  std::vector<rt::Tensor> out = exe.run({w, g, lr});
  REQUIRE(out[0].data() != w.data());
  REQUIRE(w.toDoubles() == w0);
  REQUIRE(out[0].toDoubles() == expectedStep(w0, g0, 0.5).first);
  // Donation is part of the cache key: the same program compiles anew.
  Executable donated = compile(m, "step", Target::cpu(), donating({0}));
  REQUIRE(donated.cacheKey() != exe.cacheKey());
}

TEST_CASE("a donated input the call may not write is copied first") {
  constexpr int64_t n = 64;
  api::Module m;
  defineStep(m, n);
  Executable exe = compile(m, "step", Target::cpu(), donating({0}));
  std::vector<double> w0 = ramp(n, 3.0), g0 = ramp(n, 1.0);
  std::vector<double> w1 = expectedStep(w0, g0, 2.0).first;
  rt::Tensor owned = rt::Tensor::fromDoubles(DType::F32, {n}, w0);
  rt::Tensor lr = rt::Tensor::fromDoubles(DType::F32, {}, {2.0});
  // The caller's own memory (borrowed), memory lent read-only, and the
  // same memory passed again as the gradient the call reads.
  rt::Tensor borrowed = rt::Tensor::borrow(DType::F32, {n}, owned.data());
  rt::Tensor readOnly = owned.asReadOnly();
  struct Case {
    rt::Tensor w, g;
    std::vector<double> expected;
  };
  rt::Tensor g = rt::Tensor::fromDoubles(DType::F32, {n}, g0);
  std::vector<Case> cases = {
      {borrowed, g, w1},
      {readOnly, g, w1},
      {owned, owned, expectedStep(w0, w0, 2.0).first}};
  for (const Case &c : cases) {
    std::vector<rt::Tensor> out;
    rt::InvokeStats stats;
    REQUIRE(exe.tryRun({c.w, c.g, lr}, out, &stats).ok());
    REQUIRE(stats.donatedCopied == 1);
    REQUIRE(stats.outputsDonated == 1);
    REQUIRE(out[0].data() != owned.data());
    REQUIRE(!out[0].isBorrowed());
    REQUIRE(out[0].toDoubles() == c.expected);
    REQUIRE(owned.toDoubles() == w0);
  }
}

TEST_CASE("a donated input returned as it is is the output") {
  api::Module m;
  m.function("swap", {f32({3}), f32({3})}, [](api::Value a, api::Value b) {
    return api::Values{b, a};
  });
  Executable exe = compile(m, "swap", Target::cpu(), donating({1}));
  rt::Tensor a = rt::Tensor::fromDoubles(DType::F32, {3}, {1, 2, 3});
  rt::Tensor b = rt::Tensor::fromDoubles(DType::F32, {3}, {4, 5, 6});
  std::vector<rt::Tensor> out;
  rt::InvokeStats stats;
  REQUIRE(exe.tryRun({a, b}, out, &stats).ok());
  REQUIRE(out[0].data() == b.data());
  REQUIRE(stats.outputsDonated == 1);
  // a is not donated: its output is a copy of the caller's memory.
  REQUIRE(out[1].data() != a.data());
  REQUIRE(out[1].toDoubles() == std::vector<double>{1, 2, 3});
}

TEST_CASE("donated inputs must exist and be named once") {
  api::Module m;
  defineStep(m, 8);
  REQUIRE(errorOf([&] {
            compile(m, "step", Target::cpu(), donating({3}));
          }) == "compile @step: donated input #3 does not exist (3 inputs, "
                "tuples flattened)");
  REQUIRE(errorOf([&] {
            compile(m, "step", Target::cpu(), donating({1, 1}));
          }) == "compile @step: input #1 is donated twice");
}

TEST_CASE("donation on a GPU device reuses device memory") {
  rt::Device *device = openclOrWarn();
  if (!device)
    return;
  constexpr int64_t n = 1024;
  api::Module m;
  defineStep(m, n);
  Executable exe = compile(m, "step", Target::parse("opencl"), donating({0}));
  std::vector<double> w0 = ramp(n, 0.5), g0 = ramp(n, 0.25);
  auto [w1, loss] = expectedStep(w0, g0, 0.5);
  rt::Tensor w = rt::Tensor::fromDoubles(DType::F32, {n}, w0).to(*device);
  rt::Tensor g = rt::Tensor::fromDoubles(DType::F32, {n}, g0).to(*device);
  rt::Tensor lr = rt::Tensor::fromDoubles(DType::F32, {}, {0.5}).to(*device);
  std::vector<rt::Tensor> out;
  rt::InvokeStats stats;
  REQUIRE(exe.tryRun({w, g, lr}, out, &stats, device).ok());
  REQUIRE(out[0].data() == w.data());
  REQUIRE(&out[0].device() == device);
  REQUIRE(stats.outputsDonated == 1);
  REQUIRE(out[0].toHost().toDoubles() == w1);
  REQUIRE(out[1].toHost().at(0) == Approx(loss).epsilon(1e-6));
}
