//===- CublasLtTest.cpp - GEMMs through cuBLASLt or the kernel ------------===//
//
// CublasLtGemm behind the GEMM router, wired as the CUDA device wires them
// (GPU/StreamDevice.h), against the fake libcublasLt.so.13
// (FakeCublasLt.cpp, first on LD_LIBRARY_PATH under ctest), which computes
// on host memory with
// cuBLASLt's column-major semantics: device memory is host memory here, the
// "kernel" is a callback that records its launches, and the device's timer
// is a callback that tells which route ran and reports a set time for it.
//
//===----------------------------------------------------------------------===//

#include "CUDA/CublasLtGemm.h"
#include "FakeCublasLt.h"
#include "adjoint/Runtime/DType.h"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace adjoint::rt;
using namespace adjoint::rt::cuda;
using adjoint::DType;
using gpu::GemmRoute;

namespace {

const CublasLtApi &api() {
  const CublasLtApi *table = nullptr;
  Status status = loadCublasLt(&table);
  INFO("the fake libcublasLt.so.13 must be on LD_LIBRARY_PATH (ctest puts "
       "it there): "
       << status.toString());
  REQUIRE(status.ok());
  return *table;
}

std::vector<FakeLtMatmul> &fakeCalls() {
  api();
  void *library = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library);
  auto fn = reinterpret_cast<FakeLtCallsFn>(dlsym(library, "fakeCublasLtCalls"));
  REQUIRE(fn);
  return *static_cast<std::vector<FakeLtMatmul> *>(fn());
}

void setAlgorithms(int n) {
  void *library = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library);
  reinterpret_cast<FakeLtSetAlgorithmsFn>(
      dlsym(library, "fakeCublasLtSetAlgorithms"))(n);
}

cudaStream_t fakeStream() {
  static int stream;
  return reinterpret_cast<cudaStream_t>(&stream);
}

/// A device of host memory whose timer reports `libraryMs` for work that
/// called the library and `kernelMs` for work that launched the kernel.
struct FakeDevice {
  double libraryMs = 1, kernelMs = 2;
  int kernelLaunches = 0, timings = 0, live = 0;

  gpu::GemmRouter::Device lend() {
    gpu::GemmRouter::Device device;
    device.allocate = [this](size_t bytes, void **ptr) {
      *ptr = std::malloc(bytes);
      ++live;
      return Status::success();
    };
    device.deallocate = [this](void *ptr) {
      std::free(ptr);
      --live;
    };
    device.time = [this](const std::function<Status()> &work, double *ms) {
      ++timings;
      size_t before = fakeCalls().size();
      int launchesBefore = kernelLaunches;
      Status status = work();
      *ms = fakeCalls().size() > before ? libraryMs
            : kernelLaunches > launchesBefore ? kernelMs
                                              : 0;
      return status;
    };
    return device;
  }
  /// The library workspace: one block, made on the first request.
  void *workspaceBlock = nullptr;
  int workspaceRequests = 0;
  ~FakeDevice() { std::free(workspaceBlock); }
  gpu::LibraryWorkspace workspace() {
    return [this](void **block) {
      if (!workspaceBlock)
        workspaceBlock = std::malloc(gpu::kLibraryWorkspaceBytes);
      ++workspaceRequests;
      *block = workspaceBlock;
      return Status::success();
    };
  }
  std::function<Status()> kernel() {
    return [this] {
      ++kernelLaunches;
      return Status::success();
    };
  }
};

/// cuBLASLt (none where `api` is null, for `why`) behind the router, on
/// `device`.
struct RoutedGemm {
  std::unique_ptr<CublasLtGemm> library;
  gpu::GemmRouter router;

  RoutedGemm(const CublasLtApi *api, Status why, FakeDevice &device,
             GemmRoute route)
      : library(api ? std::make_unique<CublasLtGemm>(*api, fakeStream(),
                                                     device.workspace())
                    : nullptr),
        router("ADJOINT_CUDA_GEMM", std::move(why), device.lend(), route) {}
  Status run(const adj_rt_gpu_gemm_desc &gemm, void *a, void *b, void *c,
             const std::function<Status()> &kernel) {
    return router.run(library.get(), gemm, a, b, c, kernel);
  }
  size_t measurements() const { return router.measurements(); }
  GemmRoute cachedRoute(const adj_rt_gpu_gemm_desc &gemm,
                        uint32_t alignment) const {
    return router.cachedRoute(gemm, alignment);
  }
};

/// A matrix of `rows` x `cols` per batch entry in `order` with leading
/// dimension `ld` and batch stride `stride`, filled with distinct values
/// (the padding too, which must stay as it is).
struct Matrix {
  adj_rt_gpu_matrix layout;
  uint64_t rows, cols, batch;
  std::vector<double> data;

  Matrix(uint32_t order, uint64_t rows, uint64_t cols, uint64_t ld,
         uint64_t stride, uint64_t batch, double seed)
      : layout{order, 0, ld, stride}, rows(rows), cols(cols), batch(batch) {
    data.resize(gpu::matrixExtent(layout, rows, cols, batch) + 3);
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = double((i * 7 + size_t(seed * 13)) % 11) - 5 + seed;
  }
  size_t index(uint64_t b, uint64_t i, uint64_t j) const {
    uint64_t inside = layout.order == ADJ_RT_GPU_ROW_MAJOR
                          ? i * layout.ld + j
                          : i + j * layout.ld;
    return b * layout.batchStride + inside;
  }
};

template <typename T> std::vector<T> as(const std::vector<double> &v) {
  return std::vector<T>(v.begin(), v.end());
}

adj_rt_gpu_gemm_desc describe(DType dtype, uint64_t batch, const Matrix &a,
                              const Matrix &b, const Matrix &c,
                              uint32_t flags = 0) {
  static const adj_rt_gpu_kernel kernel = {nullptr, "fallback", 0, 0,
                                           nullptr};
  adj_rt_gpu_gemm_desc gemm{};
  gemm.dtype = uint32_t(dtype);
  gemm.flags = flags;
  gemm.batch = batch;
  gemm.m = a.rows;
  gemm.k = a.cols;
  gemm.n = b.cols;
  gemm.a = a.layout;
  gemm.b = b.layout;
  gemm.c = c.layout;
  gemm.fallback = &kernel;
  return gemm;
}

/// C += A B through the library, in `T`, against the same in doubles; C =
/// A B with `flags` ADJ_RT_GPU_GEMM_OVERWRITE (C's values are not read).
template <typename T>
void checkLibrary(DType dtype, uint64_t batch, const Matrix &a,
                  const Matrix &b, const Matrix &c, uint32_t flags = 0) {
  FakeDevice fake;
  RoutedGemm gemm(&api(), Status::success(), fake,
                    GemmRoute::Library);
  std::vector<T> av = as<T>(a.data), bv = as<T>(b.data), cv = as<T>(c.data);
  adj_rt_gpu_gemm_desc desc = describe(dtype, batch, a, b, c);
  desc.flags |= flags;
  REQUIRE(gpu::checkGemm(desc).ok());
  size_t before = fakeCalls().size();
  REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel()).ok());
  REQUIRE(fakeCalls().size() == before + 1);
  REQUIRE(fake.kernelLaunches == 0);
  REQUIRE(fake.live == 0);
  // The GEMM's workspace is the device's one block, not the pool's.
  REQUIRE(fake.workspaceRequests == (fakeCalls().back().workspaceBytes ? 1 : 0));
  std::vector<double> expected = c.data;
  bool overwrite = flags & ADJ_RT_GPU_GEMM_OVERWRITE;
  for (uint64_t e = 0; e < batch; ++e)
    for (uint64_t i = 0; i < a.rows; ++i)
      for (uint64_t j = 0; j < b.cols; ++j) {
        double sum = 0;
        for (uint64_t p = 0; p < a.cols; ++p)
          sum += a.data[a.index(e, i, p)] * b.data[b.index(e, p, j)];
        expected[c.index(e, i, j)] =
            (overwrite ? 0 : expected[c.index(e, i, j)]) + sum;
      }
  for (size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    REQUIRE(double(cv[i]) == Approx(expected[i]));
  }
}

} // namespace

TEST_CASE("cuBLASLt computes C += A B for every order and stride",
          "[cublaslt]") {
  constexpr uint32_t R = ADJ_RT_GPU_ROW_MAJOR, C = ADJ_RT_GPU_COL_MAJOR;
  const uint64_t m = 5, k = 4, n = 3;
  for (uint32_t ao : {R, C})
    for (uint32_t bo : {R, C})
      for (uint32_t co : {R, C}) {
        INFO("orders " << ao << bo << co);
        // Leading dimensions past the rows or columns (padding).
        uint64_t lda = (ao == R ? k : m) + 2, ldb = (bo == R ? n : k) + 1;
        uint64_t ldc = (co == R ? n : m) + 3;
        Matrix a(ao, m, k, lda, 0, 1, 1), b(bo, k, n, ldb, 0, 1, 2),
            c(co, m, n, ldc, 0, 1, 3);
        checkLibrary<float>(DType::F32, 1, a, b, c);
        checkLibrary<double>(DType::F64, 1, a, b, c);
      }
}

TEST_CASE("cuBLASLt overwrites C where the descriptor says so (beta 0)",
          "[cublaslt]") {
  // C's values (nonzero here) must not reach the result.
  Matrix a(ADJ_RT_GPU_ROW_MAJOR, 3, 5, 5, 0, 1, 1);
  Matrix b(ADJ_RT_GPU_COL_MAJOR, 5, 4, 5, 0, 1, 2);
  Matrix c(ADJ_RT_GPU_ROW_MAJOR, 3, 4, 4, 0, 1, 3);
  checkLibrary<float>(DType::F32, 1, a, b, c, ADJ_RT_GPU_GEMM_OVERWRITE);
  checkLibrary<double>(DType::F64, 1, a, b, c, ADJ_RT_GPU_GEMM_OVERWRITE);
}

TEST_CASE("cuBLASLt runs strided and broadcast batches", "[cublaslt]") {
  constexpr uint32_t R = ADJ_RT_GPU_ROW_MAJOR, C = ADJ_RT_GPU_COL_MAJOR;
  const uint64_t batch = 3, m = 4, k = 6, n = 5;
  SECTION("batch_matmul, batch strides past the matrices") {
    Matrix a(R, m, k, k, m * k + 2, batch, 1), b(C, k, n, k + 1, 40, batch, 2),
        c(R, m, n, n, m * n, batch, 3);
    checkLibrary<double>(DType::F64, batch, a, b, c);
    checkLibrary<float>(DType::F32, batch, a, b, c);
  }
  SECTION("B shared by every entry (batch stride 0)") {
    Matrix a(C, m, k, m, m * k, batch, 1), b(R, k, n, n, 0, batch, 2),
        c(C, m, n, m + 1, (m + 1) * n, batch, 3);
    checkLibrary<float>(DType::F32, batch, a, b, c);
  }
  SECTION("f16, accumulated in f32") {
    Matrix a(R, m, k, k, m * k, batch, 1), b(R, k, n, n, k * n, batch, 2),
        c(R, m, n, n, m * n, batch, 3);
    checkLibrary<_Float16>(DType::F16, batch, a, b, c);
    REQUIRE(fakeCalls().back().compute == CUBLAS_COMPUTE_32F);
    REQUIRE(fakeCalls().back().scale == CUDA_R_32F);
  }
}

TEST_CASE("the compute type follows the element type and the TF32 flag",
          "[cublaslt]") {
  constexpr uint32_t R = ADJ_RT_GPU_ROW_MAJOR;
  Matrix a(R, 2, 3, 3, 0, 1, 1), b(R, 3, 4, 4, 0, 1, 2), c(R, 2, 4, 4, 0, 1, 3);
  FakeDevice fake;
  RoutedGemm gemm(&api(), Status::success(), fake,
                    GemmRoute::Library);
  std::vector<float> af = as<float>(a.data), bf = as<float>(b.data),
                     cf = as<float>(c.data);
  std::vector<double> ad = a.data, bd = b.data, cd = c.data;
  REQUIRE(gemm.run(describe(DType::F32, 1, a, b, c), af.data(), bf.data(),
                   cf.data(), fake.kernel())
              .ok());
  REQUIRE(fakeCalls().back().compute == CUBLAS_COMPUTE_32F);
  REQUIRE(gemm.run(describe(DType::F32, 1, a, b, c, ADJ_RT_GPU_GEMM_TF32),
                   af.data(), bf.data(), cf.data(), fake.kernel())
              .ok());
  REQUIRE(fakeCalls().back().compute == CUBLAS_COMPUTE_32F_FAST_TF32);
  // TF32 is about f32 inputs: f64 stays f64.
  REQUIRE(gemm.run(describe(DType::F64, 1, a, b, c, ADJ_RT_GPU_GEMM_TF32),
                   ad.data(), bd.data(), cd.data(), fake.kernel())
              .ok());
  REQUIRE(fakeCalls().back().compute == CUBLAS_COMPUTE_64F);
  REQUIRE(fakeCalls().back().scale == CUDA_R_64F);
  REQUIRE(fakeCalls().back().stream == fakeStream());
  // Row-major C: the library computes C^T = B^T A^T, a 4x2 problem.
  REQUIRE(fakeCalls().back().m == 4);
  REQUIRE(fakeCalls().back().n == 2);
  REQUIRE(fakeCalls().back().k == 3);
}

TEST_CASE("views at an offset get algorithms for their alignment",
          "[cublaslt]") {
  REQUIRE(gpu::GemmRouter::alignmentOf(reinterpret_cast<void *>(0x1000),
                                    reinterpret_cast<void *>(0x2000),
                                    reinterpret_cast<void *>(0x3100)) == 256);
  REQUIRE(gpu::GemmRouter::alignmentOf(reinterpret_cast<void *>(0x1000),
                                    reinterpret_cast<void *>(0x2004),
                                    reinterpret_cast<void *>(0x3100)) == 4);
  constexpr uint32_t R = ADJ_RT_GPU_ROW_MAJOR;
  Matrix a(R, 2, 3, 3, 0, 1, 1), b(R, 3, 4, 4, 0, 1, 2), c(R, 2, 4, 4, 0, 1, 3);
  FakeDevice fake;
  RoutedGemm gemm(&api(), Status::success(), fake,
                    GemmRoute::Library);
  // 256-byte aligned blocks, A a view one element in.
  std::vector<void *> blocks;
  auto block = [&](const std::vector<double> &values, size_t offset) {
    void *p = std::aligned_alloc(256, 1024);
    blocks.push_back(p);
    std::vector<float> f = as<float>(values);
    std::memcpy(static_cast<float *>(p) + offset, f.data(),
                f.size() * sizeof(float));
    return static_cast<float *>(p) + offset;
  };
  float *pa = block(a.data, 0), *pb = block(b.data, 0), *pc = block(c.data, 0);
  float *va = block(a.data, 1);
  adj_rt_gpu_gemm_desc desc = describe(DType::F32, 1, a, b, c);
  REQUIRE(gemm.run(desc, pa, pb, pc, fake.kernel()).ok());
  REQUIRE(fakeCalls().back().alignment == 256);
  Status view = gemm.run(desc, va, pb, pc, fake.kernel());
  for (void *p : blocks)
    std::free(p);
  REQUIRE(view.ok());
  REQUIRE(fakeCalls().back().alignment == 4);
}

TEST_CASE("forced routes and the measured choice", "[cublaslt]") {
  constexpr uint32_t R = ADJ_RT_GPU_ROW_MAJOR;
  Matrix a(R, 3, 2, 2, 0, 1, 1), b(R, 2, 4, 4, 0, 1, 2), c(R, 3, 4, 4, 0, 1, 3);
  std::vector<float> av = as<float>(a.data), bv = as<float>(b.data),
                     cv = as<float>(c.data);
  adj_rt_gpu_gemm_desc desc = describe(DType::F32, 1, a, b, c);
  FakeDevice fake;
  std::vector<FakeLtMatmul> &calls = fakeCalls();

  SECTION("kernels: the library is never called") {
    RoutedGemm gemm(&api(), Status::success(), fake,
                      GemmRoute::Kernels);
    size_t before = calls.size();
    REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                .ok());
    REQUIRE(fake.kernelLaunches == 1);
    REQUIRE(calls.size() == before);
    REQUIRE(cv == as<float>(c.data)); // the fake kernel computes nothing
  }
  SECTION("measure: the library is faster") {
    RoutedGemm gemm(&api(), Status::success(), fake,
                      GemmRoute::Measure);
    fake.libraryMs = 0.5;
    fake.kernelMs = 2;
    uint32_t alignment =
        gpu::GemmRouter::alignmentOf(av.data(), bv.data(), cv.data());
    size_t before = calls.size();
    // The first call warms both routes up, untimed: the library on a
    // scratch C, the kernel (the call's result) on the real one.
    REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                .ok());
    REQUIRE(calls.size() == before + 1);
    REQUIRE(calls[before].d != cv.data());
    REQUIRE(fake.kernelLaunches == 1);
    REQUIRE(fake.timings == 0);
    REQUIRE(gemm.measurements() == 0);
    REQUIRE(gemm.cachedRoute(desc, alignment) == GemmRoute::Measure);
    // The second times the library on a scratch C and the kernel, which is
    // the call's result.
    REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                .ok());
    REQUIRE(calls.size() == before + 2);
    REQUIRE(calls[before + 1].d != cv.data());
    REQUIRE(fake.kernelLaunches == 2);
    REQUIRE(fake.timings == 2);
    REQUIRE(fake.live == 0);
    REQUIRE(cv == as<float>(c.data));
    REQUIRE(gemm.measurements() == 1);
    REQUIRE(gemm.cachedRoute(desc, alignment) == GemmRoute::Library);
    // The next call takes the library on the real C, unmeasured.
    REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                .ok());
    REQUIRE(calls.size() == before + 3);
    REQUIRE(calls.back().d == cv.data());
    REQUIRE(fake.kernelLaunches == 2);
    REQUIRE(fake.timings == 2);
    REQUIRE(gemm.measurements() == 1);
    REQUIRE(cv[0] == c.data[0] + a.data[0] * b.data[0] +
                         a.data[1] * b.data[4]);
  }
  SECTION("measure: the kernel is faster") {
    RoutedGemm gemm(&api(), Status::success(), fake,
                      GemmRoute::Measure);
    fake.libraryMs = 3;
    fake.kernelMs = 1;
    for (int call = 0; call < 2; ++call)
      REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                  .ok());
    REQUIRE(gemm.cachedRoute(desc, gpu::GemmRouter::alignmentOf(
                                       av.data(), bv.data(), cv.data())) ==
            GemmRoute::Kernels);
    size_t before = calls.size();
    REQUIRE(gemm.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                .ok());
    REQUIRE(calls.size() == before);
    REQUIRE(fake.kernelLaunches == 3);
    REQUIRE(gemm.measurements() == 1);
    // Another problem (another leading dimension of C) is measured anew,
    // on its second call.
    Matrix wide(R, 3, 4, 6, 0, 1, 3);
    std::vector<float> wv = as<float>(wide.data);
    for (int call = 0; call < 2; ++call)
      REQUIRE(gemm.run(describe(DType::F32, 1, a, b, wide), av.data(),
                       bv.data(), wv.data(), fake.kernel())
                  .ok());
    REQUIRE(gemm.measurements() == 2);
  }
  SECTION("no algorithm for the problem: the kernel, or an error if forced") {
    setAlgorithms(0);
    RoutedGemm measure(&api(), Status::success(), fake,
                         GemmRoute::Measure);
    Status status =
        measure.run(desc, av.data(), bv.data(), cv.data(), fake.kernel());
    RoutedGemm library(&api(), Status::success(), fake,
                         GemmRoute::Library);
    Status forced =
        library.run(desc, av.data(), bv.data(), cv.data(), fake.kernel());
    setAlgorithms(1);
    REQUIRE(status.ok());
    REQUIRE(fake.kernelLaunches == 1);
    REQUIRE(measure.measurements() == 0);
    REQUIRE(forced.code() == StatusCode::Unavailable);
    REQUIRE(forced.message() == "ADJOINT_CUDA_GEMM=library: cuBLASLt has no "
                                "algorithm for a 1x3x4x2 f32 GEMM");
  }
  SECTION("no library: the kernel, or an error if forced") {
    Status why = Status::error(StatusCode::Unavailable,
                               "cuBLASLt unavailable: not installed");
    RoutedGemm measure(nullptr, why, fake, GemmRoute::Measure);
    REQUIRE(measure.run(desc, av.data(), bv.data(), cv.data(), fake.kernel())
                .ok());
    REQUIRE(fake.kernelLaunches == 1);
    RoutedGemm library(nullptr, why, fake, GemmRoute::Library);
    Status forced =
        library.run(desc, av.data(), bv.data(), cv.data(), fake.kernel());
    REQUIRE(forced.message() ==
            "ADJOINT_CUDA_GEMM=library: cuBLASLt unavailable: not installed");
  }
}

TEST_CASE("ADJOINT_CUDA_GEMM names the route", "[cublaslt]") {
  GemmRoute route = GemmRoute::Library;
  unsetenv("ADJOINT_CUDA_GEMM");
  REQUIRE(gpu::gemmRouteFromEnvironment("ADJOINT_CUDA_GEMM", &route).ok());
  REQUIRE(route == GemmRoute::Measure);
  setenv("ADJOINT_CUDA_GEMM", "kernels", 1);
  REQUIRE(gpu::gemmRouteFromEnvironment("ADJOINT_CUDA_GEMM", &route).ok());
  REQUIRE(route == GemmRoute::Kernels);
  setenv("ADJOINT_CUDA_GEMM", "library", 1);
  REQUIRE(gpu::gemmRouteFromEnvironment("ADJOINT_CUDA_GEMM", &route).ok());
  REQUIRE(route == GemmRoute::Library);
  setenv("ADJOINT_CUDA_GEMM", "fast", 1);
  Status bad = gpu::gemmRouteFromEnvironment("ADJOINT_CUDA_GEMM", &route);
  unsetenv("ADJOINT_CUDA_GEMM");
  REQUIRE(bad.code() == StatusCode::InvalidArgument);
  REQUIRE(bad.message() ==
          "ADJOINT_CUDA_GEMM is 'fast'; it must be library, kernels or "
          "measure");
}

TEST_CASE("GEMM descriptors are checked", "[cublaslt]") {
  constexpr uint32_t R = ADJ_RT_GPU_ROW_MAJOR, C = ADJ_RT_GPU_COL_MAJOR;
  Matrix a(R, 3, 2, 2, 0, 1, 1), b(C, 2, 4, 2, 0, 1, 2), c(R, 3, 4, 4, 0, 1, 3);
  adj_rt_gpu_gemm_desc desc = describe(DType::F32, 1, a, b, c);
  REQUIRE(gpu::checkGemm(desc).ok());
  SECTION("a leading dimension shorter than a row") {
    desc.a.ld = 1;
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: A is 3x2 row-major with leading dimension 1");
  }
  SECTION("a leading dimension shorter than a column") {
    desc.b.ld = 1;
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: B is 2x4 column-major with leading dimension "
            "1");
  }
  SECTION("an integer GEMM") {
    desc.dtype = uint32_t(DType::I32);
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: element type 5 is not f64, f32 or f16");
  }
  SECTION("C broadcast over a batch") {
    desc.batch = 2;
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: C is broadcast over a batch of 2");
  }
  SECTION("no fallback") {
    desc.fallback = nullptr;
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: no fallback kernel");
  }
  SECTION("an unknown order and flags") {
    desc.c.order = 7;
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: C has unknown order 7");
    desc.c.order = R;
    desc.flags = 6;
    REQUIRE(gpu::checkGemm(desc).message() ==
            "adj_rt_gpu_gemm: unknown flags 6");
  }
  REQUIRE(gpu::checkGemm(desc).code() == StatusCode::InvalidArgument);
}
