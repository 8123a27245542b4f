//===- ErrorsTest.cpp - Bad programs and bad inputs are clear errors ------===//

#include "Helpers.h"

#include "adjoint/InitAll.h"
#include "adjoint/Runtime/Closures.h"
#include "adjoint/Runtime/MemoryPool.h"


using namespace adjoint;
using namespace adjoint::test;

namespace {
bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}
} // namespace

TEST_CASE("a missing function is an error") {
  api::Module m;
  m.function("f", {f32({2})}, [](api::Value x) { return x; });
  std::string message =
      errorOf([&] { compile(m, "g", Target::cpu(), noCache()); });
  REQUIRE(message == "compile: no adj.func named 'g' in the module");
}

TEST_CASE("function values cannot cross the entry point") {
  api::Module m;
  api::Type fn = api::Type::fn({f32({2})}, {f32({2})});
  m.function("apply", {fn, f32({2})},
             [](api::Value f, api::Value x) { return f(x); });
  m.function("make", {f32({2})}, [&](api::Value x) {
    return api::lambda(m, {f32({2})}, [&](api::Value y) { return x * y; });
  });
  std::string message =
      errorOf([&] { compile(m, "apply", Target::cpu(), noCache()); });
  REQUIRE(contains(message, "compile @apply: input #0"));
  REQUIRE(contains(message, "function values cannot be passed to or "
                            "returned from compiled code"));
  message = errorOf([&] { compile(m, "make", Target::cpu(), noCache()); });
  REQUIRE(contains(message, "compile @make: output #0"));
  REQUIRE(contains(message, "!adj.fn<"));
}

TEST_CASE("an op the lowering does not handle is an error with the "
          "diagnostic") {
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    adj.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
      adj.return %y : tensor<4xf32>
    }
  )mlir",
                                              context.get());
  REQUIRE(module);
  std::string message =
      errorOf([&] { compile(*module, "f", Target::cpu(), noCache()); });
  INFO(message);
  REQUIRE(contains(message, "compile @f: "));
  REQUIRE(contains(message, "error: "));
  REQUIRE(contains(message, "tosa.abs"));
  // The caller's module is untouched.
  REQUIRE(module->lookupSymbol("f"));
}

TEST_CASE("wrong inputs are errors naming the input") {
  api::Module m;
  m.function("f", {f32({4}), f32({})},
             [](api::Value x, api::Value s) { return x * s; });
  Executable exe = compile(m, "f", Target::cpu(), noCache());
  REQUIRE(exe.signature().serialize() == "f32[4] f32[] -> f32[4]");
  rt::Tensor x = rt::Tensor::zeros(DType::F32, {4});
  rt::Tensor s = rt::Tensor::zeros(DType::F32, {});
  REQUIRE(errorOf([&] { exe.run({x}); }) ==
          "@f: invalid argument: expected 2 inputs, got 1");
  REQUIRE(errorOf([&] {
            exe.run({rt::Tensor::zeros(DType::F32, {3}), s});
          }) == "@f: invalid argument: input #0: expected tensor<4xf32>, "
                "got tensor<3xf32>");
  REQUIRE(errorOf([&] {
            exe.run({x, rt::Tensor::zeros(DType::I32, {})});
          }) == "@f: invalid argument: input #1: expected tensor<f32>, got "
                "tensor<i32>");
  REQUIRE(errorOf([&] { Executable().run({}); }) ==
          "Executable: empty (not made by compile())");
}

TEST_CASE("bad options and foreign targets are errors") {
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return x; });
  CompileOptions options = noCache();
  options.optLevel = 4;
  REQUIRE(errorOf([&] { compile(m, "f", Target::cpu(), options); }) ==
          "compile: optLevel must be 0 to 3, got 4");
  Target arm = Target::cpu();
  arm.triple = "aarch64-unknown-linux-gnu";
  REQUIRE(contains(errorOf([&] { compile(m, "f", arm, noCache()); }),
                   "the JIT runs code for the host"));
}

TEST_CASE("running out of pool memory is an error, and leaks nothing") {
  api::Module m;
  m.function("cube", {f32({128, 128})}, [](api::Value x) {
    return api::matmul(api::matmul(x, x), x) + 1.0;
  });
  Executable exe = compile(m, "cube", Target::cpu(), noCache());
  rt::Tensor x = toRuntime(sampleInput(DType::F32, {128, 128}, 5));
  rt::MemoryPool &pool = rt::MemoryPool::global();
  pool.trim();
  rt::PoolStats before = pool.stats();
  // Room for one 64 KiB intermediate, not for two.
  pool.setByteLimit(before.bytesInUse + 100 * 1024);
  std::vector<rt::Tensor> outputs;
  rt::Status status = exe.tryRun({x}, outputs);
  std::string message = errorOf([&] { exe.run({x}); });
  pool.setByteLimit(0);
  REQUIRE(status.code() == rt::StatusCode::OutOfMemory);
  REQUIRE(outputs.empty());
  REQUIRE(contains(message, "@cube: out of memory: compiled code could not "
                            "allocate 65536 bytes"));
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
  REQUIRE(pool.stats().bytesInUse == before.bytesInUse);
  // Same executable, memory available again: it runs and matches.
  std::vector<rt::Tensor> ok = exe.run({x});
  REQUIRE(ok[0].shape() == Shape{128, 128});
}

TEST_CASE("running out of pool memory in the closure runtime is an error, "
          "and leaks nothing") {
  // The gradient of a loop with a run-time trip count carries a chain of
  // backpropagator closures: each iteration boxes its captures (copies of
  // the carried tensor) in the closure runtime.
  api::Module m;
  m.function("grow", {f64({256}), f64({})}, [](api::Value x, api::Value w) {
    api::Values r = api::while_(
        {x}, [](api::Value a) { return api::sum(api::abs(a)) < 1e4; },
        [&](api::Value a) { return a * w + api::sin(a); });
    return api::sum(r[0]);
  });
  m.function("step", {f64({256}), f64({})},
             [&](api::Value x, api::Value w) {
               return api::Values(api::call(
                   api::value_and_grad(m.lookup("grow").ref()), {x, w}));
             });
  Executable exe = compile(m, "step", Target::cpu(), noCache());
  interp::Tensor x = sampleInput(DType::F64, {256}, 3);
  interp::Tensor w(DType::F64, {});
  *static_cast<double *>(w.mutableData()) = 1.25;
  std::vector<rt::Tensor> inputs{toRuntime(x), toRuntime(w)};

  rt::MemoryPool &pool = rt::MemoryPool::global();
  pool.trim();
  rt::PoolStats before = pool.stats();
  pool.resetPeak();
  exe.run(inputs);
  uint64_t peak = pool.stats().peakBytesInUse - before.bytesInUse;
  REQUIRE(adj_rt_live_objects() == 0);

  // Limits from nothing to the peak fail at every kind of allocation along
  // the way; some of them in the closure runtime.
  unsigned inRuntime = 0;
  constexpr unsigned kSteps = 64;
  for (unsigned k = 0; k < kSteps; ++k) {
    pool.trim();
    uint64_t room = peak * k / kSteps;
    pool.setByteLimit(before.bytesInUse + room);
    std::vector<rt::Tensor> outputs;
    rt::Status status = exe.tryRun(inputs, outputs);
    pool.setByteLimit(0);
    INFO("limit " << room << " of " << peak << " bytes: " << status.message());
    if (status.ok())
      continue;
    REQUIRE(status.code() == rt::StatusCode::OutOfMemory);
    REQUIRE(outputs.empty());
    inRuntime += contains(status.message(), "the closure runtime could not "
                                            "allocate");
    REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
    REQUIRE(pool.stats().bytesInUse == before.bytesInUse);
    REQUIRE(adj_rt_live_objects() == 0);
  }
  REQUIRE(inRuntime > 0);

  // The error is an adjoint::Error from run().
  pool.setByteLimit(before.bytesInUse + peak / 2);
  std::string message = errorOf([&] { exe.run(inputs); });
  pool.setByteLimit(0);
  REQUIRE(contains(message, "@step: out of memory: "));

  // Memory available again: the same executable matches the interpreter.
  std::vector<rt::Tensor> outputs = exe.run(inputs);
  std::vector<interp::Tensor> expected = interpret(m.op(), "step", {x, w});
  REQUIRE(outputs.size() == 3); // loss, dx, dw
  for (size_t i = 0; i < outputs.size(); ++i) {
    INFO("output #" << i);
    requireClose(expected[i], outputs[i]);
  }
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks + 3);
  outputs.clear();
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
  REQUIRE(adj_rt_live_objects() == 0);
}
