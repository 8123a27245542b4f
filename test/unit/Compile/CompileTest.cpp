//===- CompileTest.cpp - Compiled code agrees with the interpreter --------===//
//
// Builder-API programs compiled for the host and run on runtime tensors must
// give the interpreter's results: an MLP forward pass, a gradient, several
// results, every dtype, rank 0. The ownership rules of the calling
// convention are checked on the cases that tend to break them: a result
// that is an argument, a constant, or the same value twice; and inputs must
// come back unchanged even where updating them in place would be natural.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/InitAll.h"
#include "adjoint/Runtime/AlignedBuffer.h"
#include "adjoint/Runtime/MemoryPool.h"


#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace adjoint;
using namespace adjoint::test;

namespace {

/// logits = relu(x @ w1 + b1) @ w2 + b2.
api::Value mlp(api::Value x, api::Value w1, api::Value b1, api::Value w2,
               api::Value b2) {
  return api::linear(api::relu(api::linear(x, w1, b1)), w2, b2);
}

std::vector<api::Type> mlpTypes(DType dtype) {
  return {tensorType(dtype, {4, 3}), tensorType(dtype, {3, 8}),
          tensorType(dtype, {8}), tensorType(dtype, {8, 2}),
          tensorType(dtype, {2})};
}

std::vector<interp::Tensor> mlpInputs(DType dtype) {
  std::vector<interp::Tensor> inputs;
  std::vector<Shape> shapes = {{4, 3}, {3, 8}, {8}, {8, 2}, {2}};
  for (size_t i = 0; i < shapes.size(); ++i)
    inputs.push_back(sampleInput(dtype, shapes[i], 11 + int64_t(i)));
  return inputs;
}

/// Live pool blocks: compiled code must not leak.
uint64_t liveBlocks() { return rt::MemoryPool::global().stats().liveBlocks; }

} // namespace

TEST_CASE("MLP forward matches the interpreter in f32 and f64") {
  for (DType dtype : {DType::F32, DType::F64}) {
    api::Module m;
    m.function("mlp", mlpTypes(dtype),
               [](api::Value x, api::Value w1, api::Value b1, api::Value w2,
                  api::Value b2) { return mlp(x, w1, b1, w2, b2); });
    uint64_t before = liveBlocks();
    {
      auto outputs = compareWithInterpreter(
          m, "mlp", mlpInputs(static_cast<DType>(dtype)));
      REQUIRE(outputs[0].shape() == Shape{4, 2});
    }
    REQUIRE(liveBlocks() == before);
  }
}

TEST_CASE("a gradient (value_and_grad of an MLP loss) matches") {
  api::Module m;
  std::vector<api::Type> types = mlpTypes(DType::F64);
  m.function("loss", types,
             [](api::Value x, api::Value w1, api::Value b1, api::Value w2,
                api::Value b2) {
               return api::mean(api::tanh(mlp(x, w1, b1, w2, b2)));
             });
  m.function("step", types, [&](std::vector<api::Value> args) {
    api::Values out = api::call(
        api::value_and_grad(m.lookup("loss").ref(),
                            api::ADOptions{std::vector<int64_t>{1, 2, 3, 4},
                                           false}),
        args);
    return api::Values(out);
  });
  auto outputs =
      compareWithInterpreter(m, "step", mlpInputs(DType::F64));
  REQUIRE(outputs.size() == 5); // loss, dw1, db1, dw2, db2
  REQUIRE(outputs[1].shape() == Shape{3, 8});
}

TEST_CASE("several results and rank-0 tensors") {
  api::Module m;
  m.function("stats", {f32({2, 3}), f32({})},
             [](api::Value x, api::Value s) {
               api::Value y = x * s;
               return api::Values{api::sum(y), api::max(y, 1), y,
                                  api::transpose(y)};
             });
  auto outputs = compareWithInterpreter(
      m, "stats",
      {sampleInput(DType::F32, {2, 3}, 1),
       interp::Tensor::scalar(DType::F32, 1.5)});
  REQUIRE(outputs[0].rank() == 0);
  REQUIRE(outputs[3].shape() == Shape{3, 2});
}

TEST_CASE("every dtype compiles and matches") {
  using DT = DType;
  for (DT dtype : {DT::F64, DT::F32, DT::F16, DT::BF16, DT::I64, DT::I32}) {
    INFO("dtype " << int(dtype));
    api::Module m;
    m.function("f", {tensorType(dtype, {2, 3}), tensorType(dtype, {3})},
               [](api::Value x, api::Value y) {
                 api::Value z = x * y + x;
                 return api::Values{z, api::maximum(z, y), x > y,
                                    api::sum(z, 0)};
               });
    auto idt = static_cast<DType>(dtype);
    auto outputs = compareWithInterpreter(
        m, "f", {sampleInput(idt, {2, 3}, 3), sampleInput(idt, {3}, 4)});
    REQUIRE(outputs[2].dtype() == DType::I1);
  }
  // i1 in and out (one byte per element, 0 or 1), and a select on it.
  api::Module m;
  m.function("pick", {tensorType(DT::I1, {5}), f32({5}), f32({5})},
             [](api::Value c, api::Value a, api::Value b) {
               return api::Values{api::select(c, a, b), c == (a > b)};
             });
  auto outputs = compareWithInterpreter(
      m, "pick",
      {sampleInput(DType::I1, {5}, 0),
       sampleInput(DType::F32, {5}, 1),
       sampleInput(DType::F32, {5}, 2)});
  for (int64_t i = 0; i < 5; ++i) {
    uint8_t byte = outputs[1].data<uint8_t>()[i];
    REQUIRE((byte == 0 || byte == 1));
  }
}

TEST_CASE("complex numbers compile and match, with gradients") {
  for (DType dtype : {DType::C128, DType::C64}) {
    INFO("dtype " << dtypeName(dtype));
    api::Module m;
    m.function("f", {tensorType(dtype, {2, 3}), tensorType(dtype, {3, 2})},
               [](api::Value z, api::Value w) {
                 api::Value p = api::matmul(z, w);
                 api::Value e = api::exp(z) * api::conj(z) + 2.0;
                 return api::Values{p, e, api::sum(e, 0), api::abs(p),
                                    api::angle(z),
                                    api::real(api::transpose(w, {1, 0})) -
                                        api::imag(api::transpose(w, {1, 0}) /
                                                  z)};
               });
    compareWithInterpreter(m, "f",
                           {sampleInput(dtype, {2, 3}, 5),
                            sampleInput(dtype, {3, 2}, 6)});
    // The gradient of a real loss of complex inputs (JAX's convention) is
    // compiled too.
    api::Module g;
    g.function("loss", {tensorType(dtype, {4})}, [](api::Value z) {
      return api::sum(api::abs(api::sqrt(z) * z));
    });
    g.function("dloss", {tensorType(dtype, {4})}, [&](api::Value z) {
      return api::Values(api::call(api::grad(g.lookup("loss").ref()), {z}));
    });
    compareWithInterpreter(g, "dloss", {sampleInput(dtype, {4}, 7)});
  }
}

TEST_CASE("casts between dtypes match") {
  api::Module m;
  m.function("casts", {f32({6})}, [](api::Value x) {
    api::Value scaled = x * 100.0;
    return api::Values{api::cast(scaled, DType::F16),
                       api::cast(scaled, DType::BF16),
                       api::cast(scaled, DType::I32),
                       api::cast(scaled, DType::F64),
                       api::cast(api::cast(scaled, DType::F16),
                                 DType::F32)};
  });
  compareWithInterpreter(m, "casts",
                         {sampleInput(DType::F32, {6}, 9)});
}

TEST_CASE("results are owned by the caller and freed once") {
  api::Module m;
  m.function("identity", {f32({4})}, [](api::Value x) { return x; });
  m.function("constant", {}, [&] {
    return api::constant(m, {1.0, 2.0, 3.0}, {3});
  });
  m.function("twice", {f32({4})}, [](api::Value x) {
    api::Value y = x + 1.0;
    return api::Values{y, y};
  });
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {4}, {1, 2, 3, 4});
  uint64_t before = liveBlocks();
  {
    Executable identity = compile(m, "identity", Target::cpu(), noCache());
    std::vector<rt::Tensor> out = identity.run({x});
    REQUIRE(out[0].data() != x.data());
    REQUIRE(!out[0].isBorrowed());
    REQUIRE(out[0].toDoubles() == x.toDoubles());
    x.data<float>()[0] = -1.0f;
    REQUIRE(out[0].at(0) == 1.0);
    x.data<float>()[0] = 1.0f;

    Executable constant = compile(m, "constant", Target::cpu(), noCache());
    std::vector<rt::Tensor> c1 = constant.run({});
    c1[0].data<float>()[0] = 100.0f; // must not change the program
    std::vector<rt::Tensor> c2 = constant.run({});
    REQUIRE(c2[0].toDoubles() == std::vector<double>{1.0, 2.0, 3.0});
    REQUIRE(c1[0].data() != c2[0].data());

    Executable twice = compile(m, "twice", Target::cpu(), noCache());
    std::vector<rt::Tensor> t = twice.run({x});
    REQUIRE(t[0].toDoubles() == std::vector<double>{2, 3, 4, 5});
    REQUIRE(t[1].toDoubles() == std::vector<double>{2, 3, 4, 5});
    t[0] = rt::Tensor(); // t[1] stays valid
    REQUIRE(t[1].toDoubles() == std::vector<double>{2, 3, 4, 5});
  }
  // Everything the calls allocated went back exactly once.
  REQUIRE(liveBlocks() == before);
}

TEST_CASE("compiled code never writes its inputs") {
  api::Module m;
  // x + 1 could reuse x's buffer in place: x is dead afterwards.
  m.function("inc", {f32({1024})}, [](api::Value x) { return x + 1.0; });
  m.function("chain", {f32({8, 8}), f32({8, 8})},
             [](api::Value a, api::Value b) {
               return api::relu(api::exp(a) * b - a);
             });
  Executable inc = compile(m, "inc", Target::cpu(), noCache());
  std::vector<double> values(1024);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = double(i);
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {1024}, values);
  rt::InvokeStats stats;
  std::vector<rt::Tensor> out;
  REQUIRE(inc.tryRun({x}, out, &stats).ok());
  REQUIRE(stats.inputsCopied == 0); // zero-copy: x was passed as is
  REQUIRE(x.toDoubles() == values);
  REQUIRE(out[0].at(1023) == 1024.0);

  Executable chain = compile(m, "chain", Target::cpu(), noCache());
  rt::Tensor a = toRuntime(sampleInput(DType::F32, {8, 8}, 1));
  rt::Tensor b = toRuntime(sampleInput(DType::F32, {8, 8}, 2));
  std::vector<double> a0 = a.toDoubles(), b0 = b.toDoubles();
  chain.run({a, b});
  REQUIRE(a.toDoubles() == a0);
  REQUIRE(b.toDoubles() == b0);
}

TEST_CASE("an update in place of an argument is made on a copy") {
  // tensor.insert into an argument bufferizes to a store into the
  // argument's buffer unless the argument is marked non-writable.
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    adj.func @poke(%x: tensor<4xf32>) -> tensor<4xf32> {
      %c = arith.constant 7.0 : f32
      %i = arith.constant 2 : index
      %y = tensor.insert %c into %x[%i] : tensor<4xf32>
      adj.return %y : tensor<4xf32>
    }
  )mlir",
                                              context.get());
  REQUIRE(module);
  Executable exe = compile(*module, "poke", Target::cpu(), noCache());
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {4}, {1, 2, 3, 4});
  std::vector<rt::Tensor> out;
  rt::InvokeStats stats;
  REQUIRE(exe.tryRun({x}, out, &stats).ok());
  REQUIRE(stats.inputsCopied == 0);
  REQUIRE(out[0].toDoubles() == std::vector<double>{1, 2, 7, 4});
  REQUIRE(x.toDoubles() == std::vector<double>{1, 2, 3, 4});
}

TEST_CASE("caller memory is used in place when element-aligned, copied "
          "otherwise") {
  api::Module m;
  m.function("sum", {f32({16})}, [](api::Value x) { return api::sum(x); });
  Executable exe = compile(m, "sum", Target::cpu(), noCache());
  rt::AlignedBuffer first(16 * sizeof(float));
  rt::AlignedBuffer second(64 + 16 * sizeof(float));
  rt::AlignedBuffer third(64 + 1 + 16 * sizeof(float));
  auto *aligned = static_cast<float *>(first.data());
  // Aligned to a float, not to a cache line: compiled code reads it in place.
  float *offset = static_cast<float *>(second.data()) + 1;
  char *misaligned = static_cast<char *>(third.data()) + 1;
  for (int i = 0; i < 16; ++i) {
    aligned[i] = offset[i] = float(i);
    std::memcpy(misaligned + i * sizeof(float), &aligned[i], sizeof(float));
  }
  for (void *data : {static_cast<void *>(aligned), static_cast<void *>(offset),
                     static_cast<void *>(misaligned)}) {
    std::vector<rt::Tensor> out;
    rt::InvokeStats stats;
    REQUIRE(exe.tryRun({rt::Tensor::borrow(DType::F32, {16}, data)}, out,
                       &stats)
                .ok());
    REQUIRE(stats.inputsCopied == (data == misaligned ? 1u : 0u));
    REQUIRE(out[0].at(0) == 120.0);
  }
}

TEST_CASE("executables run concurrently from several threads") {
  api::Module m;
  m.function("mlp", mlpTypes(DType::F32),
             [](api::Value x, api::Value w1, api::Value b1, api::Value w2,
                api::Value b2) { return mlp(x, w1, b1, w2, b2); });
  Executable exe = compile(m, "mlp", Target::cpu(), noCache());
  std::vector<rt::Tensor> inputs;
  for (const interp::Tensor &t : mlpInputs(DType::F32))
    inputs.push_back(toRuntime(t));
  std::vector<double> expected = exe.run(inputs)[0].toDoubles();
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int r = 0; r < 50; ++r)
        if (exe.run(inputs)[0].toDoubles() != expected)
          ++mismatches;
    });
  for (std::thread &t : threads)
    t.join();
  REQUIRE(mismatches == 0);
}

TEST_CASE("tuples in the signature are flattened depth-first") {
  api::Module m;
  api::Type pair = api::Type::tuple({f32({2}), f32({})});
  m.function("nest", {pair, f32({2})}, [&](api::Value p, api::Value z) {
    api::Value y = api::get(p, 0) * api::get(p, 1);
    api::Value inner = api::make_tuple({api::get(p, 1), y + z});
    return api::Values{api::make_tuple({y, inner}), z};
  });
  Executable exe = compile(m, "nest", Target::cpu(), noCache());
  // (a, s), z -> (y, (s, w)), z
  REQUIRE(exe.signature().serialize() ==
          "f32[2] f32[] f32[2] -> f32[2] f32[] f32[2] f32[2]");
  std::vector<rt::Tensor> out =
      exe.run({rt::Tensor::fromDoubles(DType::F32, {2}, {1, 2}),
               rt::Tensor::fromDoubles(DType::F32, {}, {3}),
               rt::Tensor::fromDoubles(DType::F32, {2}, {10, 20})});
  REQUIRE(out.size() == 4);
  REQUIRE(out[0].toDoubles() == std::vector<double>{3, 6});
  REQUIRE(out[1].toDoubles() == std::vector<double>{3});
  REQUIRE(out[2].toDoubles() == std::vector<double>{13, 26});
  REQUIRE(out[3].toDoubles() == std::vector<double>{10, 20});
  // The interpreter agrees leaf by leaf.
  compareValuesWithInterpreter(
      m, "nest",
      {
          interp::Value::tuple(
              {interp::Tensor::fromDoubles(DType::F32, {2}, {1, 2}),
               interp::Tensor::scalar(DType::F32, 3)}),
          interp::Tensor::fromDoubles(DType::F32, {2}, {10, 20})});
}

TEST_CASE("compiling leaves the caller's module unchanged") {
  api::Module m;
  m.function("helper", {f32({3})}, [](api::Value x) { return x * 2.0; });
  m.function("main", {f32({3})}, [&](api::Value x) {
    return m.lookup("helper")(x)[0] + 1.0;
  });
  std::string before = m.str();
  compile(m, "main", Target::cpu(), noCache());
  REQUIRE(m.str() == before);
  REQUIRE_NOTHROW(m.verify());
}

TEST_CASE("threads compile different modules at the same time") {
  std::vector<std::string> failures(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      try {
        api::Module m;
        m.function("f", {f32({8})}, [t](api::Value x) {
          return api::sum(x * double(t + 1));
        });
        Executable exe = compile(m, "f", Target::cpu(), noCache());
        double total =
            exe.run({rt::Tensor::fromDoubles(DType::F32, {8},
                                             std::vector<double>(8, 1.0))})[0]
                .at(0);
        if (total != 8.0 * (t + 1))
          failures[t] = "wrong sum " + std::to_string(total);
      } catch (const std::exception &e) {
        failures[t] = e.what();
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (const std::string &failure : failures)
    REQUIRE(failure == "");
}

TEST_CASE("ADJOINT_PERF_MAP lists the JIT's functions for perf") {
  // A sum and a max over the same input: two loop nests, each outlined
  // into an internal function that perf should be able to name.
  api::Module m;
  m.function("sum_max", {f32({64, 32})}, [](api::Value x) {
    return api::sum(x * 2.0) + api::max(x + 1.0);
  });
  std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
  std::remove(path.c_str());
  CompileOptions options;
  options.cache = false;
  ::setenv("ADJOINT_PERF_MAP", "1", 1);
  Executable exe = compile(m, "sum_max", Target::cpu(), options);
  ::unsetenv("ADJOINT_PERF_MAP");
  std::vector<double> ones(64 * 32, 1.0);
  std::vector<rt::Tensor> out =
      exe.run({rt::Tensor::fromDoubles(DType::F32, {64, 32}, ones)});
  REQUIRE(out[0].toDoubles() == std::vector<double>{64 * 32 * 2.0 + 2.0});

  std::ifstream file(path);
  REQUIRE(file.good());
  std::set<std::string> names;
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream fields(line);
    std::string start, size, name;
    REQUIRE(static_cast<bool>(fields >> start >> size >> name));
    // "<start> <size> <name>" in hex, a non-empty range.
    REQUIRE(std::stoull(start, nullptr, 16) != 0);
    REQUIRE(std::stoull(size, nullptr, 16) != 0);
    names.insert(name);
  }
  std::remove(path.c_str());
  CHECK(names.count("_adj_entry_sum_max") == 1);
  CHECK(names.count("sum_max_loop_0") == 1);
  CHECK(names.count("sum_max_loop_1") == 1);
  // Data (the signature string) is not code.
  CHECK(names.count("_adj_signature_sum_max") == 0);
}
