//===- GemmRouter.cpp - A vendor GEMM library or the kernel ---------------===//

#include "GPU/GemmRouter.h"
#include "adjoint/Runtime/DType.h"

#include <cstdlib>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

Status adjoint::rt::gpu::gemmRouteFromEnvironment(const char *variable,
                                                  GemmRoute *route) {
  const char *value = std::getenv(variable);
  std::string text = value ? value : "";
  if (text.empty() || text == "measure")
    *route = GemmRoute::Measure;
  else if (text == "library")
    *route = GemmRoute::Library;
  else if (text == "kernels")
    *route = GemmRoute::Kernels;
  else
    return Status::error(StatusCode::InvalidArgument,
                         std::string(variable) + " is '" + text +
                             "'; it must be library, kernels or measure");
  return Status::success();
}

GemmLibrary::~GemmLibrary() = default;

GemmRouter::GemmRouter(std::string variable, Status unavailable,
                       Device device, GemmRoute route)
    : variable_(std::move(variable)), unavailable_(std::move(unavailable)),
      device_(std::move(device)), route_(route) {}

size_t GemmRouter::measurements() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return measurements_;
}

GemmRoute GemmRouter::settledRoute(GemmLibrary *library,
                                   const adj_rt_gpu_gemm_desc &gemm, void *a,
                                   void *b, void *c) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (route_ == GemmRoute::Kernels || !library)
    return GemmRoute::Kernels;
  GemmKey key(gemm, alignmentOf(a, b, c));
  bool available = false;
  // A failure to prepare fails run() the same way, recorded or not.
  if (!library->prepare(gemm, key, &available).ok())
    return GemmRoute::Kernels;
  if (route_ == GemmRoute::Library)
    return GemmRoute::Library;
  if (!available)
    return GemmRoute::Kernels;
  auto choice = choices_.find(key);
  return choice == choices_.end() ? GemmRoute::Measure : choice->second;
}

GemmRoute GemmRouter::cachedRoute(const adj_rt_gpu_gemm_desc &gemm,
                                  uint32_t alignment) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = choices_.find(GemmKey(gemm, alignment));
  return it == choices_.end() ? GemmRoute::Measure : it->second;
}

uint32_t GemmRouter::alignmentOf(const void *a, const void *b, const void *c) {
  uintptr_t bits = reinterpret_cast<uintptr_t>(a) |
                   reinterpret_cast<uintptr_t>(b) |
                   reinterpret_cast<uintptr_t>(c) | 256;
  return uint32_t(bits & -bits);
}

Status GemmRouter::onScratch(const adj_rt_gpu_gemm_desc &gemm,
                             const std::function<Status(void *)> &work) {
  uint64_t bytes =
      matrixExtent(gemm.c, gemm.m, gemm.n, gemm.batch) * gemmElementBytes(gemm);
  // The pool's blocks are 256-byte aligned: the scratch C is at least as
  // aligned as the real one, so the library's plan serves it.
  void *scratch = nullptr;
  if (Status s = device_.allocate(bytes, &scratch); !s.ok())
    return s;
  Status s = work(scratch);
  // Stream-ordered: the pool hands the block only to work queued later.
  device_.deallocate(scratch);
  return s;
}

Status GemmRouter::warmUp(GemmLibrary &library,
                          const adj_rt_gpu_gemm_desc &gemm, const GemmKey &key,
                          void *a, void *b,
                          const std::function<Status()> &kernel) {
  // Both routes load code on their first run (the kernel's module and the
  // driver's lazily loaded function; the library's kernels), with the
  // queue idle meanwhile: a first run timed between two events would
  // mostly measure the loading. So the first call of a problem runs each
  // once untimed, the kernel on the real C (the call's result), the
  // library on a scratch C, since C is accumulated into; the next call
  // measures. A failing library (an unsupported layout) is left for the
  // measurement to rule out.
  (void)onScratch(gemm, [&](void *scratch) {
    return library.enqueue(gemm, key, a, b, scratch);
  });
  warmed_.insert(key);
  return kernel();
}

Status GemmRouter::measure(GemmLibrary &library,
                           const adj_rt_gpu_gemm_desc &gemm,
                           const GemmKey &key, void *a, void *b,
                           const std::function<Status()> &kernel) {
  double libraryMs = 0, kernelMs = 0;
  Status measured = onScratch(gemm, [&](void *scratch) {
    return device_.time(
        [&] { return library.enqueue(gemm, key, a, b, scratch); },
        &libraryMs);
  });
  // Without room for a scratch C the call still runs; the choice waits for
  // a later call.
  if (measured.code() == StatusCode::OutOfMemory)
    return kernel();
  if (Status ran = device_.time(kernel, &kernelMs); !ran.ok())
    return ran;
  ++measurements_;
  // A library that fails on this problem (an unsupported layout) loses.
  choices_[key] = measured.ok() && libraryMs < kernelMs ? GemmRoute::Library
                                                        : GemmRoute::Kernels;
  return Status::success();
}

Status GemmRouter::run(GemmLibrary *library, const adj_rt_gpu_gemm_desc &gemm,
                       void *a, void *b, void *c,
                       const std::function<Status()> &launchKernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (route_ == GemmRoute::Kernels)
    return launchKernel();
  if (!library) {
    if (route_ == GemmRoute::Library)
      return Status::error(StatusCode::Unavailable,
                           variable_ + "=library: " + unavailable_.message());
    return launchKernel();
  }
  GemmKey key(gemm, alignmentOf(a, b, c));
  bool available = false;
  if (Status s = library->prepare(gemm, key, &available); !s.ok())
    return s;
  if (route_ == GemmRoute::Library) {
    if (!available)
      return Status::error(
          StatusCode::Unavailable,
          variable_ + "=library: " + library->name() +
              " has no algorithm for a " + std::to_string(gemm.batch) + "x" +
              std::to_string(gemm.m) + "x" + std::to_string(gemm.n) + "x" +
              std::to_string(gemm.k) + " " +
              dtypeName(static_cast<DType>(gemm.dtype)) + " GEMM");
    return library->enqueue(gemm, key, a, b, c);
  }
  if (!available)
    return launchKernel();
  auto choice = choices_.find(key);
  if (choice == choices_.end())
    return warmed_.count(key) ? measure(*library, gemm, key, a, b, launchKernel)
                              : warmUp(*library, gemm, key, a, b, launchKernel);
  if (choice->second == GemmRoute::Library)
    return library->enqueue(gemm, key, a, b, c);
  return launchKernel();
}
