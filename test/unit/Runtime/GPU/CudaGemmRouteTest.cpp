//===- CudaGemmRouteTest.cpp - adj_rt_gpu_gemm on the fake cuda:0 ---------===//
//
// The GpuABI's GEMM on cuda:0 of the fake libcuda.so.1 with the fake
// libcublasLt.so.13 (ctest puts both on the library path): host code as the
// GPU lowering emits it calls adj_rt_gpu_gemm with a fallback kernel, which
// the fake driver records without running, and ADJOINT_CUDA_GEMM picks the
// route. The fake driver's clock (advanced by each launch, and by each
// library call through the fake cuBLASLt) decides the measured choice.
//
//===----------------------------------------------------------------------===//

#include "CUDA/CudaDevice.h"
#include "FakeCublasLt.h"
#include "FakeStreamJournal.h"
#include "GpuTestSupport.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstdlib>
#include <cstring>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {

/// A PTX module with gemm_fallback(a, b, c: pointers, n: i64): the fake
/// driver reads the parameters from the .entry and runs nothing.
const char kPtx[] = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry gemm_fallback(\n .param .u64 a,\n"
                    " .param .u64 b,\n .param .u64 c,\n .param .u64 n\n)\n"
                    "{\n ret;\n}\n";
const adj_rt_gpu_kernel &fallbackKernel() {
  static const adj_rt_gpu_module module = {ADJ_RT_GPU_CUDA, 0, kPtx,
                                           sizeof(kPtx), "gemm_kernels"};
  static const uint32_t sizes[] = {0, 0, 0, 8};
  static const adj_rt_gpu_kernel kernel = {&module, "gemm_fallback", 4, 0,
                                           sizes};
  return kernel;
}

/// The product gemmEntry computes: row-major f32 A (m x k), B (k x n), C.
adj_rt_gpu_gemm_desc gDesc;

adj_rt_gpu_gemm_desc product(uint64_t m, uint64_t n, uint64_t k) {
  adj_rt_gpu_gemm_desc d{};
  d.dtype = uint32_t(DType::F32);
  d.batch = 1;
  d.m = m;
  d.n = n;
  d.k = k;
  d.a = {ADJ_RT_GPU_ROW_MAJOR, 0, k, 0};
  d.b = {ADJ_RT_GPU_ROW_MAJOR, 0, n, 0};
  d.c = {ADJ_RT_GPU_ROW_MAJOR, 0, n, 0};
  d.fallback = &fallbackKernel();
  d.grid[0] = d.grid[1] = d.grid[2] = 1;
  d.block[0] = 32;
  d.block[1] = d.block[2] = 1;
  return d;
}

/// (a: m*k, b: k*n, c0: m*n, all f32 vectors) -> c0 + a b, as compiled
/// code does it: c = a copy of c0, then adj_rt_gpu_gemm into c.
void gemmEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  void *pa = reinterpret_cast<void *>(static_cast<int64_t *>(args[1])[1]);
  void *pb = reinterpret_cast<void *>(static_cast<int64_t *>(args[2])[1]);
  void *c0 = reinterpret_cast<void *>(static_cast<int64_t *>(args[3])[1]);
  int64_t n = int64_t(gDesc.m * gDesc.n);
  void *c = adj_rt_gpu_alloc(uint64_t(n) * sizeof(float));
  adj_rt_gpu_memcpy(c, c0, uint64_t(n) * sizeof(float));
  void *argv[] = {&pa, &pb, &c, &n};
  adj_rt_gpu_gemm(&gDesc, pa, pb, c, argv);
  writeDescriptor(out, c, n);
}

struct Run {
  std::vector<double> a, b, c0, result;
};

/// Runs gemmEntry on gDesc's product with distinct values.
Run runGemm(Device &device) {
  Run r;
  int64_t m = int64_t(gDesc.m), n = int64_t(gDesc.n), k = int64_t(gDesc.k);
  r.a = ramp(m * k, 1, 0);
  r.b = ramp(k * n, 2, 1);
  r.c0 = ramp(m * n, 3, 2);
  Signature sig;
  sig.inputs = {{DType::F32, {m * k}}, {DType::F32, {k * n}},
                {DType::F32, {m * n}}};
  sig.outputs = {{DType::F32, {m * n}}};
  std::vector<Tensor> inputs = {
      Tensor::fromDoubles(DType::F32, {m * k}, r.a).to(device),
      Tensor::fromDoubles(DType::F32, {k * n}, r.b).to(device),
      Tensor::fromDoubles(DType::F32, {m * n}, r.c0).to(device)};
  std::vector<Tensor> outputs;
  Status status = invoke(gemmEntry, sig, inputs, outputs, nullptr, &device);
  INFO(status.toString());
  REQUIRE(status.ok());
  r.result = outputs[0].toHost().toDoubles();
  return r;
}

/// c0 + a b in doubles.
std::vector<double> expectedProduct(const Run &r) {
  std::vector<double> c = r.c0;
  for (uint64_t i = 0; i < gDesc.m; ++i)
    for (uint64_t j = 0; j < gDesc.n; ++j)
      for (uint64_t p = 0; p < gDesc.k; ++p)
        c[i * gDesc.n + j] += r.a[i * gDesc.k + p] * r.b[p * gDesc.n + j];
  return c;
}

void requireNear(const std::vector<double> &actual,
                 const std::vector<double> &expected) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO("element " << i);
    REQUIRE(actual[i] == Approx(expected[i]));
  }
}

} // namespace

TEST_CASE("adj_rt_gpu_gemm on cuda: cuBLASLt, the kernel, the measured "
          "choice",
          "[cuda-gemm]") {
  Device *device = deviceOrSkip("cuda:0");
  FakeStreamJournal *j = device ? findFakeCudaJournal() : nullptr;
  if (!j)
    return;
  // The library loads on the first GEMM; its calls are then visible.
  gDesc = product(2, 3, 4);
  setenv("ADJOINT_CUDA_GEMM", "library", 1);
  runGemm(*device);
  void *lt = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(lt);
  auto &calls = *static_cast<std::vector<FakeLtMatmul> *>(
      reinterpret_cast<FakeLtCallsFn>(dlsym(lt, "fakeCublasLtCalls"))());
  auto setMatmulMs = reinterpret_cast<FakeLtSetMatmulMsFn>(
      dlsym(lt, "fakeCublasLtSetMatmulMs"));
  REQUIRE(setMatmulMs);
  size_t libraryCalls = calls.size();
  size_t launches = j->launches.size();

  SECTION("library: cuBLASLt on the device's stream computes C += A B") {
    gDesc = product(5, 7, 3);
    Run r = runGemm(*device);
    requireNear(r.result, expectedProduct(r));
    REQUIRE(calls.size() == libraryCalls + 1);
    REQUIRE(calls.back().stream == static_cast<cuda::CudaDevice *>(device)
                                       ->stream());
    REQUIRE(j->launches.size() == launches);
  }
  SECTION("kernels: the fallback launch with its arguments") {
    setenv("ADJOINT_CUDA_GEMM", "kernels", 1);
    gDesc = product(5, 7, 3);
    Run r = runGemm(*device);
    REQUIRE(calls.size() == libraryCalls);
    REQUIRE(j->launches.size() == launches + 1);
    REQUIRE(j->launches.back().function == "gemm_fallback");
    REQUIRE(j->launches.back().block[0] == 32);
    REQUIRE(j->launches.back().args.size() == 4);
    // The fake runs no kernel: C is still c0.
    requireNear(r.result, r.c0);
  }
  SECTION("measure: the library is faster, then taken unmeasured") {
    setenv("ADJOINT_CUDA_GEMM", "measure", 1);
    gDesc = product(6, 5, 4);
    j->launchMs = 3;
    setMatmulMs(1);
    // The first call warms both up untimed (the library on a scratch C,
    // the kernel on C: the call's result, which the fake does not
    // compute); the second times the library on a scratch C and the
    // kernel on C.
    Run first = runGemm(*device);
    REQUIRE(calls.size() == libraryCalls + 1);
    REQUIRE(j->launches.size() == launches + 1);
    requireNear(first.result, first.c0);
    Run second = runGemm(*device);
    REQUIRE(calls.size() == libraryCalls + 2);
    REQUIRE(j->launches.size() == launches + 2);
    requireNear(second.result, second.c0);
    // Then the library on C, unmeasured.
    Run third = runGemm(*device);
    REQUIRE(calls.size() == libraryCalls + 3);
    REQUIRE(j->launches.size() == launches + 2);
    requireNear(third.result, expectedProduct(third));
  }
  SECTION("measure: the kernel is faster, then taken unmeasured") {
    setenv("ADJOINT_CUDA_GEMM", "measure", 1);
    gDesc = product(6, 5, 3);
    j->launchMs = 1;
    setMatmulMs(4);
    runGemm(*device);
    runGemm(*device);
    REQUIRE(calls.size() == libraryCalls + 2);
    runGemm(*device);
    REQUIRE(calls.size() == libraryCalls + 2);
    REQUIRE(j->launches.size() == launches + 3);
  }
  SECTION("an unknown route is the call's error") {
    setenv("ADJOINT_CUDA_GEMM", "fastest", 1);
    gDesc = product(2, 2, 2);
    std::vector<Tensor> inputs, outputs;
    for (int i = 0; i < 3; ++i)
      inputs.push_back(
          Tensor::fromDoubles(DType::F32, {4}, ramp(4, 1, 0)).to(*device));
    Signature sig;
    sig.inputs = {{DType::F32, {4}}, {DType::F32, {4}}, {DType::F32, {4}}};
    sig.outputs = {{DType::F32, {4}}};
    Status status = invoke(gemmEntry, sig, inputs, outputs, nullptr, device);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    REQUIRE(status.message() == "ADJOINT_CUDA_GEMM is 'fastest'; it must be "
                                "library, kernels or measure");
  }
  j->launchMs = 0;
  setMatmulMs(0);
  unsetenv("ADJOINT_CUDA_GEMM");
}
