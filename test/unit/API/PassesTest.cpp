//===- PassesTest.cpp - Pass pipelines by name on a builder module --------===//
//
// api::runPasses runs a textual pipeline in place, returns the IR after
// each pass on request, and reports bad text and failing passes as
// adjoint::Error with MLIR's diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/API/Passes.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::test;

namespace {

/// @f(x) = sum(x * x) and @df = grad(f).
void buildGrad(Module &m) {
  Function f = m.function("f", {f32({3})},
                          [](Value x) { return sum(x * x); });
  m.function("df", {f32({3})}, [&](Value x) {
    return call(grad(f.ref()), {x});
  });
}

} // namespace

TEST_CASE("runPasses runs a pipeline by name in place") {
  Module m;
  buildGrad(m);
  REQUIRE(m.str().find("adj.grad %") != std::string::npos);
  std::vector<PassSnapshot> none = runPasses(m, "adj-grad,adj-optimize");
  CHECK(none.empty());
  std::string ir = m.str();
  CHECK(ir.find("adj.grad %") == std::string::npos);
  // The optimized gradient of sum(x * x) is first order: no closure left.
  CHECK(ir.find("adj.lambda") == std::string::npos);
  CHECK(ir.find("adj.closure") == std::string::npos);
  CHECK(m.isValid());
}

TEST_CASE("runPasses returns the IR after each pass on request") {
  Module m;
  buildGrad(m);
  std::vector<PassSnapshot> steps =
      runPasses(m, "builtin.module(adj-grad,canonicalize)", true);
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].pass == "adj-grad");
  CHECK(steps[1].pass == "canonicalize");
  CHECK(steps[0].ir.find("adj.grad %") == std::string::npos);
  CHECK(steps[1].ir == m.str());
}

TEST_CASE("runPasses reports bad pipelines and failing passes") {
  Module m;
  buildGrad(m);
  std::string unknown = errorOf([&] { runPasses(m, "adj-no-such-pass"); });
  CHECK(unknown.find("cannot parse the pipeline 'adj-no-such-pass'") !=
        std::string::npos);
  // -adj-to-linalg needs the AD requests expanded first: its diagnostic
  // names the op.
  std::string failed = errorOf([&] { runPasses(m, "adj-to-linalg"); });
  CHECK(failed.find("'adj-to-linalg' failed") != std::string::npos);
  CHECK(failed.find("adj.grad") != std::string::npos);
}
