//===- LinearAlgebraRouteTest.cpp - adj_rt_gpu_linalg's routes ------------===//
//
// The router's measurement protocol against a library that counts its
// calls (and may be made slow), a GPU device's library route on opencl:0
// (LAPACK and FFTW on the host through copies of device buffers), and the
// vendor FFT libraries' bounded plan cache.
//
//===----------------------------------------------------------------------===//

#include "GPU/GpuDevice.h"
#include "GPU/LinearAlgebraRouter.h"
#include "GPU/PlanCache.h"
#include "GpuTestSupport.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {

struct CountingLibrary : LinearAlgebraLibrary {
  int calls = 0;
  bool available = true;
  std::chrono::milliseconds delay{0};
  const char *name() const override { return "counting"; }
  bool computes(const LinearAlgebraProblem &) const override {
    return available;
  }
  Status compute(const LinearAlgebraProblem &, void *const *) override {
    ++calls;
    std::this_thread::sleep_for(delay);
    return Status::success();
  }
};

const LinearAlgebraProblem kCholesky{ADJ_RT_GPU_CHOLESKY, DType::F64,
                                     {2, 3, 0, 0, 0, 0, 0}};

/// One call of the host code: begin, the kernels when asked for (taking
/// `kernelTime`), end. Gives the ticket begin returned.
int64_t call(LinearAlgebraRouter &router, CountingLibrary &library,
             GemmRoute route,
             std::chrono::milliseconds kernelTime = {},
             const LinearAlgebraProblem &problem = kCholesky) {
  void *buffers[4] = {};
  int64_t ticket = -1;
  REQUIRE(router.begin(&library, problem, buffers, route, &ticket).ok());
  if (ticket != ADJ_RT_GPU_LINALG_DONE)
    std::this_thread::sleep_for(kernelTime);
  REQUIRE(router.end(ticket).ok());
  return ticket;
}

} // namespace

TEST_CASE("the linear algebra router measures both routes, then keeps the "
          "faster",
          "[gpu][linalg]") {
  int drains = 0;
  LinearAlgebraRouter router([&] {
    ++drains;
    return Status::success();
  });
  CountingLibrary library;
  using std::chrono::milliseconds;

  SECTION("kernels slower: the library stays") {
    // Library untimed, kernels untimed, library timed, kernels timed.
    CHECK(call(router, library, GemmRoute::Measure) == ADJ_RT_GPU_LINALG_DONE);
    CHECK(call(router, library, GemmRoute::Measure) ==
          ADJ_RT_GPU_LINALG_KERNELS);
    CHECK(drains == 0);
    CHECK(call(router, library, GemmRoute::Measure) == ADJ_RT_GPU_LINALG_DONE);
    CHECK(drains == 2);
    CHECK(router.cachedRoute(kCholesky) == GemmRoute::Measure);
    CHECK(call(router, library, GemmRoute::Measure, milliseconds(40)) >
          ADJ_RT_GPU_LINALG_KERNELS);
    CHECK(drains == 4);
    CHECK(library.calls == 2);
    CHECK(router.cachedRoute(kCholesky) == GemmRoute::Library);
    for (int i = 0; i < 3; ++i)
      CHECK(call(router, library, GemmRoute::Measure) ==
            ADJ_RT_GPU_LINALG_DONE);
    CHECK(library.calls == 5);
    CHECK(drains == 4);
    // Another problem is measured on its own.
    LinearAlgebraProblem other = kCholesky;
    other.scalars[1] = 4;
    CHECK(router.cachedRoute(other) == GemmRoute::Measure);
    CHECK(call(router, library, GemmRoute::Measure, milliseconds(0), other) ==
          ADJ_RT_GPU_LINALG_DONE);
  }

  SECTION("library slower: the kernels win") {
    library.delay = milliseconds(40);
    for (int i = 0; i < 4; ++i)
      call(router, library, GemmRoute::Measure);
    CHECK(library.calls == 2);
    CHECK(router.cachedRoute(kCholesky) == GemmRoute::Kernels);
    CHECK(call(router, library, GemmRoute::Measure) ==
          ADJ_RT_GPU_LINALG_KERNELS);
    CHECK(library.calls == 2);
  }

  SECTION("forced routes, and problems the library does not compute") {
    CHECK(call(router, library, GemmRoute::Library) == ADJ_RT_GPU_LINALG_DONE);
    CHECK(call(router, library, GemmRoute::Kernels) ==
          ADJ_RT_GPU_LINALG_KERNELS);
    CHECK(library.calls == 1);
    library.available = false;
    CHECK(call(router, library, GemmRoute::Library) ==
          ADJ_RT_GPU_LINALG_KERNELS);
    CHECK(call(router, library, GemmRoute::Measure) ==
          ADJ_RT_GPU_LINALG_KERNELS);
    CHECK(library.calls == 1);
    CHECK(drains == 0);
  }

  SECTION("an unknown ticket is an error") {
    Status status = router.end(ADJ_RT_GPU_LINALG_KERNELS + 7);
    CHECK(status.code() == StatusCode::InvalidArgument);
    CHECK(router.end(ADJ_RT_GPU_LINALG_DONE).ok());
  }
}

TEST_CASE("a GPU device's library route runs LAPACK on copies of its "
          "buffers",
          "[gpu][linalg][opencl]") {
  Device *found = test::openclOrSkip();
  if (!found)
    return;
  auto &device = static_cast<GpuDevice &>(*found);
  // Two 3x3 SPD matrices, row-major.
  const double a[18] = {4, 2, 0.4, 2, 5, 1, 0.4, 1, 3,
                        9, 3, 1,   3, 6, 2, 1,   2, 8};
  void *dA = nullptr, *dL = nullptr;
  REQUIRE(device.allocate(sizeof a, &dA).ok());
  REQUIRE(device.allocate(sizeof a, &dL).ok());
  REQUIRE(device.copyHostToDevice(dA, a, sizeof a).ok());
  void *buffers[4] = {dA, dL, nullptr, nullptr};

  setenv("ADJOINT_GPU_LINALG", "library", 1);
  int64_t ticket = -1;
  REQUIRE(device.linearAlgebraBegin(kCholesky, buffers, &ticket).ok());
  CHECK(ticket == ADJ_RT_GPU_LINALG_DONE);
  REQUIRE(device.linearAlgebraEnd(ticket).ok());
  double l[18];
  REQUIRE(device.copyDeviceToHost(l, dL, sizeof l).ok());
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double *lb = l + 9 * b;
        if (j > i)
          CHECK(lb[i * 3 + j] == 0);
        double product = 0;
        for (int k = 0; k < 3; ++k)
          product += lb[i * 3 + k] * lb[j * 3 + k];
        CHECK(product == Approx(a[9 * b + i * 3 + j]).epsilon(1e-12));
      }

  setenv("ADJOINT_GPU_LINALG", "kernels", 1);
  REQUIRE(device.linearAlgebraBegin(kCholesky, buffers, &ticket).ok());
  CHECK(ticket == ADJ_RT_GPU_LINALG_KERNELS);

  setenv("ADJOINT_GPU_LINALG", "fastest", 1);
  Status status = device.linearAlgebraBegin(kCholesky, buffers, &ticket);
  CHECK(status.code() == StatusCode::InvalidArgument);
  CHECK(status.message().find("ADJOINT_GPU_LINALG") != std::string::npos);
  unsetenv("ADJOINT_GPU_LINALG");

  buffers[1] = nullptr;
  status = device.linearAlgebraBegin(kCholesky, buffers, &ticket);
  CHECK(status.code() == StatusCode::InvalidArgument);
  CHECK(status.message().find("null device address") != std::string::npos);

  LinearAlgebraProblem unknown = kCholesky;
  unknown.op = 99;
  status = device.linearAlgebraBegin(unknown, buffers, &ticket);
  CHECK(status.code() == StatusCode::InvalidArgument);
  LinearAlgebraProblem f16 = kCholesky;
  f16.dtype = DType::F16;
  status = device.linearAlgebraBegin(f16, buffers, &ticket);
  CHECK(status.code() == StatusCode::InvalidArgument);
  CHECK(status.message().find("f16") != std::string::npos);

  device.deallocate(dA);
  device.deallocate(dL);
}

TEST_CASE("a GPU device's library route runs FFTW on copies of its buffers",
          "[gpu][linalg][opencl]") {
  Device *found = test::openclOrSkip();
  if (!found)
    return;
  auto &device = static_cast<GpuDevice &>(*found);
  // rfft of two rows of 6 real points: 4 complex outputs each.
  const double x[12] = {1, 2, 0, -1, 0.5, 3, -2, 0, 1, 1, 4, -0.25};
  LinearAlgebraProblem rfft{ADJ_RT_GPU_FFT, DType::F64, {2, 2, 1, 6, 1, 1, 0}};
  void *dX = nullptr, *dY = nullptr;
  REQUIRE(device.allocate(sizeof x, &dX).ok());
  REQUIRE(device.allocate(2 * 4 * 2 * sizeof(double), &dY).ok());
  REQUIRE(device.copyHostToDevice(dX, x, sizeof x).ok());
  void *buffers[4] = {dX, dY, nullptr, nullptr};

  setenv("ADJOINT_GPU_LINALG", "library", 1);
  int64_t ticket = -1;
  Status status = device.linearAlgebraBegin(rfft, buffers, &ticket);
  unsetenv("ADJOINT_GPU_LINALG");
  REQUIRE(status.ok());
  CHECK(ticket == ADJ_RT_GPU_LINALG_DONE);
  REQUIRE(device.linearAlgebraEnd(ticket).ok());
  double y[16];
  REQUIRE(device.copyDeviceToHost(y, dY, sizeof y).ok());
  // Against the definition: Y[k] = sum_j x[j] exp(-2 pi i j k / 6).
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 4; ++k) {
      double re = 0, im = 0;
      for (int j = 0; j < 6; ++j) {
        double angle = -2 * M_PI * j * k / 6;
        re += x[6 * b + j] * std::cos(angle);
        im += x[6 * b + j] * std::sin(angle);
      }
      CHECK(y[8 * b + 2 * k] == Approx(re).margin(1e-12));
      CHECK(y[8 * b + 2 * k + 1] == Approx(im).margin(1e-12));
    }
  // Measured: the library's run first, then the kernels' (a ticket).
  REQUIRE(device.linearAlgebraBegin(rfft, buffers, &ticket).ok());
  CHECK(ticket == ADJ_RT_GPU_LINALG_DONE);
  REQUIRE(device.linearAlgebraEnd(ticket).ok());
  REQUIRE(device.linearAlgebraBegin(rfft, buffers, &ticket).ok());
  CHECK(ticket != ADJ_RT_GPU_LINALG_DONE);
  REQUIRE(device.linearAlgebraEnd(ticket).ok());
  device.deallocate(dX);
  device.deallocate(dY);
}

TEST_CASE("the vendor FFT plan cache keeps the most recently used plans",
          "[gpu][linalg]") {
  std::vector<int> destroyed;
  int drains = 0;
  bool drainFails = false;
  auto problem = [](int64_t n) {
    return LinearAlgebraProblem{ADJ_RT_GPU_FFT, DType::F32,
                                {1, 0, 1, n, 1, 1, 0}};
  };
  {
    PlanCache<int> cache([&](int &plan) { destroyed.push_back(plan); },
                         [&] {
                           ++drains;
                           return drainFails
                                      ? Status::error(StatusCode::Internal,
                                                      "queue failed")
                                      : Status::success();
                         },
                         /*capacity=*/3);
    for (int i = 0; i < 3; ++i)
      REQUIRE(cache.insert(problem(10 + i), 100 + i).ok());
    CHECK(cache.size() == 3);
    CHECK(drains == 0);
    // 10 used again: 11 is now the least recently used, and goes (after
    // the queue has run everything that may use it).
    REQUIRE(cache.find(problem(10)));
    CHECK(*cache.find(problem(10)) == 100);
    REQUIRE(cache.insert(problem(13), 103).ok());
    CHECK(drains == 1);
    CHECK(destroyed == std::vector<int>{101});
    CHECK(cache.find(problem(11)) == nullptr);
    CHECK(cache.find(problem(12)) != nullptr);
    CHECK(cache.size() == 3);
    // A queue that fails: the new plan is not kept, the others stay.
    drainFails = true;
    Status status = cache.insert(problem(14), 104);
    CHECK(status.code() == StatusCode::Internal);
    CHECK(destroyed == std::vector<int>{101, 104});
    CHECK(cache.size() == 3);
  }
  // The rest go with the cache.
  std::sort(destroyed.begin(), destroyed.end());
  CHECK(destroyed == std::vector<int>{100, 101, 102, 103, 104});
}
