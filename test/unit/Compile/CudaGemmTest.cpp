//===- CudaGemmTest.cpp - Compiled GEMMs through a fake cuBLASLt ----------===//
//
// Programs made only of matrix products, compiled for cuda:sm_90 and run on
// cuda:0 of the fake libcuda.so.1 with the fake libcublasLt.so.13
// (test/unit/Runtime/GPU/Fake*.cpp; the ctest entry puts both on the
// library path and sets ADJOINT_CUDA_GEMM=library). The copies run on the
// fake driver's host memory and each product in the fake cuBLASLt, which
// computes it from the layouts compiled code passes; the zero fill of C is
// a kernel, which the fake driver records without running, so the check is
// D - C (C as the library saw it) against the interpreter's product. C's
// block is arranged to hold zeros (uninitialized memory may hold NaNs): a
// zero device tensor of its size goes back to the pool just before the
// run, which hands that block to the run's one allocation.
//
//===----------------------------------------------------------------------===//

#include "FakeCublasLt.h"
#include "FakeStreamJournal.h"
#include "Helpers.h"

#include "adjoint/Target/Target.h"
#include "adjoint/Runtime/DeviceRegistry.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace adjoint;
using namespace adjoint::test;

namespace {

std::vector<FakeLtMatmul> *fakeLtCalls() {
  void *library = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    return nullptr;
  auto calls =
      reinterpret_cast<FakeLtCallsFn>(dlsym(library, "fakeCublasLtCalls"));
  return calls ? static_cast<std::vector<FakeLtMatmul> *>(calls()) : nullptr;
}

struct Product {
  const char *name;
  DType dtype;
  Shape a, b;
  std::function<api::Value(api::Value, api::Value)> body;
};

} // namespace

TEST_CASE("matrix products compiled for cuda:sm_90 run in cuBLASLt",
          "[cuda-gemm]") {
  if (std::string(ADJOINT_TEST_CUDA_TOOLKIT).empty()) {
    WARN("no CUDA toolkit in this build (ADJOINT_CUDA_TOOLKIT)");
    return;
  }
  rt::Device *device = nullptr;
  rt::Status status = rt::findDevice("cuda:0", &device);
  const char *route = std::getenv("ADJOINT_CUDA_GEMM");
  if (!status.ok() || !findFakeCudaJournal() || !route ||
      std::string(route) != "library") {
    const char *required = std::getenv("ADJOINT_TEST_REQUIRE_DEVICES");
    if (required && std::strstr(required, "cuda:0"))
      FAIL("the fake cuda:0 with ADJOINT_CUDA_GEMM=library is required "
           "here: "
           << status.toString());
    WARN("no fake cuda:0 with ADJOINT_CUDA_GEMM=library: "
         << status.toString());
    return;
  }
  auto matmul = [](api::Value a, api::Value b) { return api::matmul(a, b); };
  std::vector<Product> products = {
      {"A B", DType::F32, {37, 29}, {29, 53}, matmul},
      {"A^T B", DType::F32, {29, 37}, {29, 53},
       [](api::Value a, api::Value b) {
         return api::matmul(api::transpose(a), b);
       }},
      {"A B^T", DType::F64, {37, 29}, {53, 29},
       [](api::Value a, api::Value b) {
         return api::matmul(a, api::transpose(b));
       }},
      {"a batch times one matrix (rows folded)", DType::F32, {2, 5, 7},
       {7, 3}, matmul},
      {"batch_matmul", DType::F64, {3, 5, 7}, {3, 7, 4}, matmul},
  };
  for (const Product &p : products) {
    INFO(p.name);
    api::Module m;
    m.function("f",
               {tensorType(p.dtype, p.a), tensorType(p.dtype, p.b)},
               [&](api::Value a, api::Value b) { return p.body(a, b); });
    Executable exe = compile(m, "f", Target::cuda("sm_90"), noCache());
    interp::Tensor a = sampleInput(p.dtype, p.a, 1);
    interp::Tensor b = sampleInput(p.dtype, p.b, 2);
    std::vector<interp::Tensor> expected =
        interpret(m.op(), "f", {interp::Value(a), interp::Value(b)});
    std::vector<rt::Tensor> inputs = {toRuntime(a).to(*device),
                                      toRuntime(b).to(*device)};
    {
      interp::Tensor zeros(p.dtype, expected[0].shape());
      std::memset(zeros.mutableData(), 0,
                  zeros.numel() * dtypeSize(p.dtype));
      rt::Tensor cached = toRuntime(zeros).to(*device);
    }
    std::vector<FakeLtMatmul> *calls = fakeLtCalls();
    size_t before = calls ? calls->size() : 0;
    std::vector<rt::Tensor> out = exe.run(inputs);
    calls = fakeLtCalls();
    REQUIRE(calls);
    // One product, one library call, writing the output's memory.
    REQUIRE(calls->size() == before + 1);
    const FakeLtMatmul &call = calls->back();
    REQUIRE(call.d == out[0].data());
    rt::Tensor result = out[0].toHost();
    REQUIRE(result.shape() == expected[0].shape());
    REQUIRE(int64_t(call.cBefore.size()) == result.numel());
    double tol = tolerance(p.dtype);
    for (int64_t i = 0; i < result.numel(); ++i) {
      INFO("C before the product: " << call.cBefore[i]);
      REQUIRE(std::isfinite(call.cBefore[i]));
      double e = expected[0].at(i), got = result.at(i) - call.cBefore[i];
      INFO("element " << i << ": expected " << e << ", got " << got);
      REQUIRE(std::abs(got - e) <= tol * std::max(1.0, std::abs(e)));
    }
  }

  // The precision is the target's: exact f32 unless +tf32 allows TF32
  // (cuBLAS's compute types CUBLAS_COMPUTE_32F = 68 and
  // CUBLAS_COMPUTE_32F_FAST_TF32 = 77).
  for (auto [spec, compute] : {std::pair{"cuda:sm_90", 68},
                               std::pair{"cuda:sm_90,+tf32", 77}}) {
    INFO(spec);
    api::Module m;
    m.function("f", {f32({8, 16}), f32({16, 4})}, matmul);
    Executable exe = compile(m, "f", Target::parse(spec), noCache());
    std::vector<rt::Tensor> inputs = {
        toRuntime(sampleInput(DType::F32, {8, 16}, 1)).to(*device),
        toRuntime(sampleInput(DType::F32, {16, 4}, 2)).to(*device)};
    exe.run(inputs);
    REQUIRE(fakeLtCalls()->back().compute == compute);
  }
}
