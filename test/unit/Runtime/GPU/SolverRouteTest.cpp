//===- SolverRouteTest.cpp - Decompositions through vendor solvers --------===//
//
// adj_rt_gpu_linalg's library route on the fake cuda:0 with the fake
// cuSOLVER and cuBLAS, and on the fake hip:0 with the fake rocSOLVER and
// rocBLAS (ctest puts them on the library path; FakeCusolver.cpp,
// FakeRocsolver.cpp): every op, the four element types (real and
// complex), tall, wide and square matrices, every flag, checked against the
// CPU's LAPACK kernels
// (CPU/LinearAlgebra.h) on the same inputs, which define the ops'
// conventions, and against the fake's record of the routines it ran.
//
//===----------------------------------------------------------------------===//

#include "CPU/LinearAlgebra.h"
#include "FakeSolver.h"
#include "GPU/GpuDevice.h"
#include "GpuTestSupport.h"

#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {

/// A vendor's device and the sonames of its fake libraries.
struct Vendor {
  const char *device;
  const char *solver;
  const char *blas;
};
constexpr Vendor kCuda{"cuda:0", "libcusolver.so.12", "libcublas.so.13"};
// The fake rocSOLVER records rocBLAS's trsm too (FakeRocsolver.cpp).
constexpr Vendor kHip{"hip:0", "librocsolver.so.0", "librocsolver.so.0"};

/// Operands of `op` that the op is defined on: symmetric (Hermitian)
/// positive definite for cholesky (unless `indefinite`), symmetric
/// (Hermitian) for eigh, triangular ones with a dominant diagonal for
/// triangular_solve, else uniform; complex numbers as their two parts.
std::vector<double> operand(uint32_t op, size_t index, int64_t batch,
                            int64_t rows, int64_t cols, std::mt19937 &rng,
                            bool complex, bool indefinite = false) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<std::complex<double>> data(batch * rows * cols);
  for (auto &x : data)
    x = {uniform(rng), complex ? uniform(rng) : 0.0};
  if (index == 0 && rows == cols) {
    int64_t n = rows;
    for (int64_t b = 0; b < batch; ++b) {
      std::complex<double> *m = data.data() + b * n * n;
      if (op == ADJ_RT_GPU_CHOLESKY || op == ADJ_RT_GPU_EIGH) {
        for (int64_t i = 0; i < n; ++i) {
          m[i * n + i] = m[i * n + i].real();
          for (int64_t j = 0; j < i; ++j)
            m[j * n + i] = std::conj(m[i * n + j]);
        }
        if (op == ADJ_RT_GPU_CHOLESKY)
          for (int64_t i = 0; i < n; ++i)
            m[i * n + i] = indefinite && b == 1 ? -1.0 : n + 1.0;
      }
      if (op == ADJ_RT_GPU_TRIANGULAR_SOLVE)
        for (int64_t i = 0; i < n; ++i)
          m[i * n + i] = 2.0 + i;
    }
  }
  std::vector<double> parts;
  for (const auto &x : data) {
    parts.push_back(x.real());
    if (complex)
      parts.push_back(x.imag());
  }
  return parts;
}

template <typename T> std::vector<char> bytesOf(const std::vector<double> &v) {
  std::vector<char> bytes(v.size() * sizeof(T));
  for (size_t i = 0; i < v.size(); ++i) {
    T x = T(v[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
  }
  return bytes;
}

template <typename T> double valueAt(const std::vector<char> &bytes, size_t i) {
  T x;
  std::memcpy(&x, bytes.data() + i * sizeof(T), sizeof(T));
  return double(x);
}

/// Runs `problem` on `device`'s library route and on the CPU's kernels and
/// compares every result: i32 buffers exactly, values (complex ones part by
/// part) to `tolerance` (NaN where the CPU has NaN).
void compareWithHost(GpuDevice &device, const LinearAlgebraProblem &problem,
                     std::mt19937 &rng, bool indefinite = false) {
  const int64_t *s = problem.scalars.data();
  std::vector<cpu::LinearAlgebraBuffer> layout;
  REQUIRE(cpu::linearAlgebraBuffers(problem.op, problem.dtype, s, &layout)
              .ok());
  bool complex = isComplex(problem.dtype);
  bool f64 = problem.dtype == DType::F64 || problem.dtype == DType::C128;
  // Values are compared in parts: a complex number is two.
  size_t size = f64 ? 8 : 4;
  std::vector<std::vector<char>> host(layout.size());
  std::vector<void *> onDevice(4, nullptr);
  for (size_t i = 0; i < layout.size(); ++i) {
    host[i].assign(layout[i].bytes, 0);
    if (layout[i].operand) {
      // Operand 0 is the op's matrix: batch x rows x cols as the buffer's
      // size gives it (the sizes of triangular_solve's B and A differ).
      int64_t elements =
          int64_t(layout[i].bytes / dtypeSize(problem.dtype));
      int64_t rows = problem.op == ADJ_RT_GPU_TRIANGULAR_SOLVE && i == 0
                         ? (s[3] ? s[1] : s[2])
                         : s[1];
      int64_t cols = elements / std::max<int64_t>(1, s[0] * rows);
      if (problem.op == ADJ_RT_GPU_TRIANGULAR_SOLVE && i == 1)
        cols = s[2];
      std::vector<double> values =
          operand(problem.op, i, s[0], rows, cols, rng, complex, indefinite);
      host[i] = f64 ? bytesOf<double>(values) : bytesOf<float>(values);
    }
    REQUIRE(device.allocate(std::max<uint64_t>(layout[i].bytes, 1),
                            &onDevice[i])
                .ok());
    if (layout[i].operand && layout[i].bytes)
      REQUIRE(device
                  .copyHostToDevice(onDevice[i], host[i].data(),
                                    layout[i].bytes)
                  .ok());
  }
  setenv("ADJOINT_GPU_LINALG", "library", 1);
  int64_t ticket = -1;
  Status status = device.linearAlgebraBegin(problem, onDevice.data(), &ticket);
  unsetenv("ADJOINT_GPU_LINALG");
  REQUIRE(status.ok());
  CHECK(ticket == ADJ_RT_GPU_LINALG_DONE);
  REQUIRE(device.linearAlgebraEnd(ticket).ok());

  std::vector<intptr_t> addresses;
  for (auto &buffer : host)
    addresses.push_back(reinterpret_cast<intptr_t>(buffer.data()));
  REQUIRE(cpu::linearAlgebra(problem.op, problem.dtype, addresses.data(), s)
              .ok());
  double tolerance = f64 ? 1e-9 : 2e-4;
  bool vectors = (problem.op == ADJ_RT_GPU_EIGH && s[3]) ||
                 (problem.op == ADJ_RT_GPU_SVD && s[4]);
  for (size_t i = 0; i < layout.size(); ++i) {
    // Without vectors eigh and svd leave their vector buffers unwritten.
    bool unwritten = !vectors && ((problem.op == ADJ_RT_GPU_EIGH && i == 2) ||
                                  (problem.op == ADJ_RT_GPU_SVD && i != 2));
    if (layout[i].operand || unwritten || !layout[i].bytes)
      continue;
    std::vector<char> got(layout[i].bytes);
    REQUIRE(device.copyDeviceToHost(got.data(), onDevice[i], got.size())
                .ok());
    INFO("op " << problem.op << " buffer " << i << " " << dtypeName(problem.dtype));
    bool i32 = problem.op == ADJ_RT_GPU_LU && i >= 2;
    if (i32) {
      CHECK(got == host[i]);
      continue;
    }
    for (size_t e = 0; e < got.size() / size; ++e) {
      double want = f64 ? valueAt<double>(host[i], e) : valueAt<float>(host[i], e);
      double have = f64 ? valueAt<double>(got, e) : valueAt<float>(got, e);
      INFO("element " << e);
      if (std::isnan(want))
        CHECK(std::isnan(have));
      else
        CHECK(std::abs(have - want) <= tolerance * (1 + std::abs(want)));
    }
  }
  for (void *buffer : onDevice)
    if (buffer)
      device.deallocate(buffer);
}

LinearAlgebraProblem problem(uint32_t op, DType dtype,
                             std::initializer_list<int64_t> scalars) {
  LinearAlgebraProblem p{op, dtype, {}};
  std::copy(scalars.begin(), scalars.end(), p.scalars.begin());
  return p;
}

/// Every op through `vendor`'s solver route.
void everyOp(const Vendor &vendor) {
  Device *found = test::deviceOrSkip(vendor.device);
  if (!found)
    return;
  auto &device = static_cast<GpuDevice &>(*found);
  std::mt19937 rng(7);
  for (DType dtype : {DType::F32, DType::F64, DType::C64, DType::C128}) {
    DYNAMIC_SECTION("cholesky " << dtypeName(dtype)) {
      compareWithHost(device, problem(ADJ_RT_GPU_CHOLESKY, dtype, {2, 5}),
                      rng);
      // The second matrix is not positive definite: NaNs, the first intact.
      compareWithHost(device, problem(ADJ_RT_GPU_CHOLESKY, dtype, {2, 4}),
                      rng, /*indefinite=*/true);
    }
    DYNAMIC_SECTION("triangular_solve " << dtypeName(dtype)) {
      for (int flags = 0; flags < 16; ++flags)
        compareWithHost(device,
                        problem(ADJ_RT_GPU_TRIANGULAR_SOLVE, dtype,
                                {2, 4, 3, flags & 1, (flags >> 1) & 1,
                                 (flags >> 2) & 1, (flags >> 3) & 1}),
                        rng);
    }
    DYNAMIC_SECTION("lu " << dtypeName(dtype)) {
      for (auto [m, n] : {std::pair{5, 3}, {3, 5}, {4, 4}})
        compareWithHost(device, problem(ADJ_RT_GPU_LU, dtype, {2, m, n}), rng);
    }
    DYNAMIC_SECTION("qr " << dtypeName(dtype)) {
      for (auto [m, n] : {std::pair{5, 3}, {3, 5}, {4, 4}})
        for (int full : {0, 1})
          compareWithHost(device,
                          problem(ADJ_RT_GPU_QR, dtype, {2, m, n, full}), rng);
    }
    DYNAMIC_SECTION("eigh " << dtypeName(dtype)) {
      for (int upper : {0, 1})
        for (int vectors : {0, 1})
          compareWithHost(device,
                          problem(ADJ_RT_GPU_EIGH, dtype,
                                  {2, 5, upper, vectors}),
                          rng);
    }
    DYNAMIC_SECTION("svd " << dtypeName(dtype)) {
      for (auto [m, n] : {std::pair{5, 3}, {3, 5}, {4, 4}})
        for (int full : {0, 1})
          for (int vectors : {0, 1})
            compareWithHost(device,
                            problem(ADJ_RT_GPU_SVD, dtype,
                                    {2, m, n, full, vectors}),
                            rng);
    }
  }
}

/// The routines `vendor`'s fakes ran, in order; its libraries must be
/// loaded.
std::vector<std::string> solverCalls(const Vendor &vendor) {
  FakeSolverJournal *solver = findFakeSolverJournal(vendor.solver);
  REQUIRE(solver);
  return solver->calls;
}

} // namespace

TEST_CASE("cuSOLVER computes every decomposition as the CPU does",
          "[gpu][cuda-solver]") {
  everyOp(kCuda);
}

TEST_CASE("rocSOLVER computes every decomposition as the CPU does",
          "[gpu][hip-solver]") {
  everyOp(kHip);
}

TEST_CASE("a solver route runs one routine per matrix on the device's "
          "stream",
          "[gpu][cuda-solver][hip-solver]") {
  for (const Vendor &vendor : {kCuda, kHip}) {
    Device *found = nullptr;
    if (!findDevice(vendor.device, &found).ok())
      continue;
    auto &device = static_cast<GpuDevice &>(*found);
    std::mt19937 rng(11);
    compareWithHost(device, problem(ADJ_RT_GPU_CHOLESKY, DType::F64, {3, 4}),
                    rng);
    std::vector<std::string> calls = solverCalls(vendor);
    REQUIRE(calls.size() >= 3);
    for (size_t i = calls.size() - 3; i < calls.size(); ++i)
      CHECK(calls[i] == "potrf d 4 4");
    FakeSolverJournal *solver = findFakeSolverJournal(vendor.solver);
    CHECK(solver->stream == reinterpret_cast<const void *>(
                                device.nativeStream()));

    // Complex matrices take the vendor's z (and c) routines.
    size_t real = solverCalls(vendor).size();
    compareWithHost(device, problem(ADJ_RT_GPU_CHOLESKY, DType::C128, {2, 4}),
                    rng);
    calls = solverCalls(vendor);
    REQUIRE(calls.size() == real + 2);
    CHECK(calls.back() == "potrf z 4 4");

    // Triangular solves go to the vendor's BLAS, on the same stream.
    compareWithHost(device,
                    problem(ADJ_RT_GPU_TRIANGULAR_SOLVE, DType::F32,
                            {1, 3, 2, 1, 1, 0, 0}),
                    rng);
    FakeSolverJournal *blas = findFakeSolverJournal(vendor.blas);
    REQUIRE(blas);
    REQUIRE_FALSE(blas->calls.empty());
    CHECK(blas->calls.back().rfind("trsm s 2 3", 0) == 0);
    CHECK(blas->stream == solver->stream);

    // Empty problems go to LAPACK on the host: no routine runs.
    size_t before = solverCalls(vendor).size();
    compareWithHost(device, problem(ADJ_RT_GPU_QR, DType::F64, {2, 0, 3, 1}),
                    rng);
    compareWithHost(device, problem(ADJ_RT_GPU_EIGH, DType::F64, {0, 3, 0, 1}),
                    rng);
    CHECK(solverCalls(vendor).size() == before);
  }
}

TEST_CASE("without cuSOLVER the library route is LAPACK on the host",
          "[gpu][cuda]") {
  Device *found = test::deviceOrSkip("cuda:0");
  if (!found)
    return;
  auto &device = static_cast<GpuDevice &>(*found);
  std::mt19937 rng(3);
  compareWithHost(device, problem(ADJ_RT_GPU_SVD, DType::F64, {2, 4, 3, 0, 1}),
                  rng);
  CHECK(findFakeSolverJournal(kCuda.solver) == nullptr);
}
