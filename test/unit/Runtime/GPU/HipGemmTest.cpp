//===- HipGemmTest.cpp - adj_rt_gpu_gemm on the fake hip:0 ----------------===//
//
// The HIP device's GEMMs on the fake libamdhip64.so.6, with the fake
// librocblas.so.4 ("[hip-gemm]": both on the library path) or without
// rocBLAS ("[hip]"). The fake rocBLAS computes on host memory exactly what
// its column-major arguments say, so the products check the translation of
// every row- and column-major layout; its calls and the fallback kernel's
// launches advance the fake runtime's clock, which decides the measured
// choice (GPU/GemmRouter.h).
//
//===----------------------------------------------------------------------===//

#include "FakeRocblas.h"
#include "StreamVendors.h"
#include "adjoint/Runtime/DType.h"

#include <cstdlib>
#include <string>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {
/// The fallback: scale(out, in, factor, n) of the test code object (the
/// fake runtime records its launches without running them), under a
/// module descriptor of its own (loaded apart from the other tests').
const adj_rt_gpu_kernel &fallbackKernel() {
  static const adj_rt_gpu_module module = {
      ADJ_RT_GPU_HSACO, 0, hipCodeObject().data(), hipCodeObject().size(),
      "gemm_kernels"};
  static const uint32_t sizes[] = {0, 0, 4, 8};
  static const adj_rt_gpu_kernel kernel = {&module, "scale", 4, 0, sizes};
  return kernel;
}

/// A batched product with the given orders; leading dimensions padded by
/// 1 and batch strides padded by 3 so that a mix-up shows in the result.
struct Problem {
  adj_rt_gpu_gemm_desc desc{};
  std::vector<double> a, b, c;
};

size_t indexOf(const adj_rt_gpu_matrix &x, uint64_t e, uint64_t i,
               uint64_t j) {
  return e * x.batchStride +
         (x.order == ADJ_RT_GPU_ROW_MAJOR ? i * x.ld + j : i + j * x.ld);
}
adj_rt_gpu_matrix matrix(uint32_t order, uint64_t rows, uint64_t cols,
                         uint64_t batch) {
  uint64_t ld = (order == ADJ_RT_GPU_ROW_MAJOR ? cols : rows) + 1;
  uint64_t lines = order == ADJ_RT_GPU_ROW_MAJOR ? rows : cols;
  return {order, 0, ld, batch > 1 ? ld * lines + 3 : 0};
}

Problem problem(DType dtype, uint64_t batch, uint64_t m, uint64_t n,
                uint64_t k, uint32_t orderA, uint32_t orderB,
                uint32_t orderC) {
  Problem p;
  adj_rt_gpu_gemm_desc &d = p.desc;
  d.dtype = uint32_t(dtype);
  d.batch = batch;
  d.m = m;
  d.n = n;
  d.k = k;
  d.a = matrix(orderA, m, k, batch);
  d.b = matrix(orderB, k, n, batch);
  d.c = matrix(orderC, m, n, batch);
  d.fallback = &fallbackKernel();
  d.grid[0] = d.grid[1] = d.grid[2] = 1;
  d.block[0] = 64;
  d.block[1] = d.block[2] = 1;
  auto extent = [&](const adj_rt_gpu_matrix &x, uint64_t rows,
                    uint64_t cols) {
    return (batch - 1) * x.batchStride + x.ld * (x.order == ADJ_RT_GPU_ROW_MAJOR
                                                     ? rows
                                                     : cols);
  };
  p.a = ramp(int64_t(extent(d.a, m, k)), 0.5, -1);
  p.b = ramp(int64_t(extent(d.b, k, n)), -0.25, 2);
  p.c = ramp(int64_t(extent(d.c, m, n)), 1, 3);
  return p;
}

/// C + A B in doubles, at C's layout (padding untouched).
std::vector<double> expected(const Problem &p) {
  const adj_rt_gpu_gemm_desc &d = p.desc;
  std::vector<double> c = p.c;
  for (uint64_t e = 0; e < d.batch; ++e)
    for (uint64_t i = 0; i < d.m; ++i)
      for (uint64_t j = 0; j < d.n; ++j)
        for (uint64_t q = 0; q < d.k; ++q)
          c[indexOf(d.c, e, i, j)] +=
              p.a[indexOf(d.a, e, i, q)] * p.b[indexOf(d.b, e, q, j)];
  return c;
}

struct OnDevice {
  Device &device;
  DType dtype;
  std::vector<void *> blocks;
  void *upload(const std::vector<double> &values) {
    size_t bytes = values.size() * adjoint::dtypeSize(dtype);
    std::vector<char> host(bytes);
    for (size_t i = 0; i < values.size(); ++i) {
      if (dtype == DType::F64)
        reinterpret_cast<double *>(host.data())[i] = values[i];
      else
        reinterpret_cast<float *>(host.data())[i] = float(values[i]);
    }
    void *block = nullptr;
    REQUIRE(device.allocate(bytes, &block).ok());
    REQUIRE(device.copyHostToDevice(block, host.data(), bytes).ok());
    blocks.push_back(block);
    return block;
  }
  std::vector<double> download(void *block, size_t count) {
    std::vector<double> values(count);
    std::vector<char> host(count * adjoint::dtypeSize(dtype));
    REQUIRE(device.copyDeviceToHost(host.data(), block, host.size()).ok());
    for (size_t i = 0; i < count; ++i)
      values[i] = dtype == DType::F64
                      ? reinterpret_cast<double *>(host.data())[i]
                      : reinterpret_cast<float *>(host.data())[i];
    return values;
  }
  ~OnDevice() {
    for (void *block : blocks)
      device.deallocate(block);
  }
};

/// Runs `p` through hip:0's adj_rt_gpu_gemm; C's values after it.
std::vector<double> runGemm(hip::HipDevice &device, const Problem &p,
                            Status *status) {
  OnDevice on{device, static_cast<DType>(p.desc.dtype), {}};
  void *a = on.upload(p.a), *b = on.upload(p.b), *c = on.upload(p.c);
  float factor = 1;
  int64_t n = 0;
  void *fallbackArgs[] = {&c, &a, &factor, &n};
  *status = device.gemm(p.desc, a, b, c, fallbackArgs);
  return on.download(c, p.c.size());
}

void requireNear(const std::vector<double> &actual,
                 const std::vector<double> &want) {
  REQUIRE(actual.size() == want.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO("element " << i);
    REQUIRE(actual[i] == Approx(want[i]).epsilon(1e-5));
  }
}

/// Sets ADJOINT_HIP_GEMM for a scope.
struct Route {
  explicit Route(const char *value) { setenv("ADJOINT_HIP_GEMM", value, 1); }
  ~Route() { unsetenv("ADJOINT_HIP_GEMM"); }
};
} // namespace

TEST_CASE("HIP GEMMs through rocBLAS: every layout, batches, f32 and f64",
          "[hip-gemm]") {
  FakeStreamJournal *j = nullptr;
  hip::HipDevice *device = fakeDevice<HipVendor>(&j);
  if (!device)
    return;
  Route library("library");
  const uint32_t orders[] = {ADJ_RT_GPU_ROW_MAJOR, ADJ_RT_GPU_COL_MAJOR};
  for (DType dtype : {DType::F32, DType::F64})
    for (uint32_t oa : orders)
      for (uint32_t ob : orders)
        for (uint32_t oc : orders) {
          INFO(adjoint::dtypeName(dtype) << " A " << oa << " B " << ob
                                         << " C " << oc);
          Problem p = problem(dtype, 2, 3, 4, 5, oa, ob, oc);
          size_t launches = j->launches.size();
          Status status;
          std::vector<double> c = runGemm(*device, p, &status);
          INFO(status.toString());
          REQUIRE(status.ok());
          requireNear(c, expected(p));
          // The library computed it; the kernel did not run.
          REQUIRE(j->launches.size() == launches);
        }
  // rocBLAS is loaded on the first GEMM.
  FakeRocblasJournal *blas = findFakeRocblasJournal();
  REQUIRE(blas);
  // All row-major: C^T = B^T A^T, each operand as stored (no transpose),
  // the sizes swapped, the padded leading dimensions and strides passed.
  Problem p = problem(DType::F32, 2, 3, 4, 5, ADJ_RT_GPU_ROW_MAJOR,
                      ADJ_RT_GPU_ROW_MAJOR, ADJ_RT_GPU_ROW_MAJOR);
  Status status;
  (void)runGemm(*device, p, &status);
  REQUIRE(status.ok());
  REQUIRE(blas->gemms.back() == "N N 4 3 5 5 6 5 28 21 18 2 f32");
  // Column-major C with row-major A: A is stored transposed.
  p = problem(DType::F64, 1, 3, 4, 5, ADJ_RT_GPU_ROW_MAJOR,
              ADJ_RT_GPU_COL_MAJOR, ADJ_RT_GPU_COL_MAJOR);
  (void)runGemm(*device, p, &status);
  REQUIRE(status.ok());
  REQUIRE(blas->gemms.back() == "T N 3 4 5 6 6 4 0 0 0 1 f64");
  // One handle, bound to the device's stream.
  REQUIRE(blas->handles == 1);
  REQUIRE(blas->stream == reinterpret_cast<void *>(device->nativeStream()));
  // The device's one library workspace, which graphs may replay on.
  REQUIRE(blas->workspace != nullptr);
  REQUIRE(blas->workspaceBytes == gpu::kLibraryWorkspaceBytes);
}

TEST_CASE("HIP GEMMs: the faster of rocBLAS and the kernel, measured once",
          "[hip-gemm]") {
  FakeStreamJournal *j = nullptr;
  hip::HipDevice *device = fakeDevice<HipVendor>(&j);
  if (!device)
    return;
  FakeRocblasJournal *blas = findFakeRocblasJournal();
  REQUIRE(blas);
  auto measureWith = [&](double kernelMs, double libraryMs, uint64_t m) {
    j->launchMs = kernelMs;
    blas->gemmMs = libraryMs;
    Problem p = problem(DType::F32, 1, m, 8, 8, ADJ_RT_GPU_ROW_MAJOR,
                        ADJ_RT_GPU_ROW_MAJOR, ADJ_RT_GPU_ROW_MAJOR);
    Status status;
    // First call: both routes once, untimed; the kernel's run is the
    // result (the fake kernel computes nothing: C stays as it was).
    size_t launches = j->launches.size(), gemms = blas->gemms.size();
    std::vector<double> c = runGemm(*device, p, &status);
    REQUIRE(status.ok());
    REQUIRE(c == p.c);
    REQUIRE(j->launches.size() == launches + 1);
    REQUIRE(blas->gemms.size() == gemms + 1);
    const gpu::GemmRouter *router = device->gemmRouter();
    REQUIRE(router);
    size_t measured = router->measurements();
    // Second call: both timed (the library on a scratch C), the faster
    // kept.
    c = runGemm(*device, p, &status);
    REQUIRE(status.ok());
    REQUIRE(router->measurements() == measured + 1);
    // Third call: the winner only.
    launches = j->launches.size();
    gemms = blas->gemms.size();
    c = runGemm(*device, p, &status);
    REQUIRE(status.ok());
    j->launchMs = 0;
    blas->gemmMs = 0;
    bool library = blas->gemms.size() == gemms + 1;
    REQUIRE(j->launches.size() == launches + (library ? 0 : 1));
    if (library)
      requireNear(c, expected(p));
    return library;
  };
  REQUIRE(measureWith(5, 1, 16));   // rocBLAS faster
  REQUIRE(!measureWith(1, 5, 24));  // the kernel faster
}

TEST_CASE("HIP GEMMs: a malformed ADJOINT_HIP_GEMM is an error",
          "[hip-gemm]") {
  FakeStreamJournal *j = nullptr;
  hip::HipDevice *device = fakeDevice<HipVendor>(&j);
  if (!device)
    return;
  Route bogus("fastest");
  Problem p = problem(DType::F32, 1, 2, 2, 2, ADJ_RT_GPU_ROW_MAJOR,
                      ADJ_RT_GPU_ROW_MAJOR, ADJ_RT_GPU_ROW_MAJOR);
  Status status;
  (void)runGemm(*device, p, &status);
  REQUIRE(status.code() == StatusCode::InvalidArgument);
  REQUIRE(status.message() == "ADJOINT_HIP_GEMM is 'fastest'; it must be "
                              "library, kernels or measure");
}

TEST_CASE("HIP GEMMs without rocBLAS launch the kernel", "[gpu][hip]") {
  FakeStreamJournal *j = nullptr;
  hip::HipDevice *device = fakeDevice<HipVendor>(&j);
  if (!device)
    return;
  if (void *present = dlopen("librocblas.so.4", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(present);
    WARN("librocblas.so.4 is present: the kernel-only path is not tested");
    return;
  }
  Problem p = problem(DType::F32, 1, 2, 3, 4, ADJ_RT_GPU_ROW_MAJOR,
                      ADJ_RT_GPU_ROW_MAJOR, ADJ_RT_GPU_ROW_MAJOR);
  size_t launches = j->launches.size();
  Status status;
  (void)runGemm(*device, p, &status);
  REQUIRE(status.ok());
  REQUIRE(j->launches.size() == launches + 1);
  REQUIRE(j->launches.back().function == "scale");
  Route library("library");
  (void)runGemm(*device, p, &status);
  REQUIRE(status.code() == StatusCode::Unavailable);
  REQUIRE(status.message().find(
              "ADJOINT_HIP_GEMM=library: librocblas.so.4, librocblas.so.3, "
              "librocblas.so.0 or librocblas.so not found (librocblas.so.4: "
              "cannot open") == 0);
}
