//===- KernelsFourier.cpp - adj.fft on FFTW -------------------------------===//
//
// One FFTW plan per transform configuration (type, lengths, batch,
// alignment), made under a lock and run on the call's buffers with the
// new-array execute functions, which are thread-safe. The last 256
// configurations used keep their plans (a program that meets many shapes
// would otherwise keep every plan's tables); a plan dropped from the cache
// is destroyed once no call runs it (shared ownership), under the lock
// FFTW's planner needs.
// Plans are made by measurement (FFTW_MEASURE) on scratch arrays, which it
// overwrites: ESTIMATE's guess is up to 3x slower on 2-D transforms of
// 1024^2 (docs/cpu-backend.md, "FFT"), and measuring costs once per
// configuration what a few calls gain back; ADJOINT_FFTW_PLANNER=estimate
// trades the other way. FFTW is unnormalized and its c2r overwrites its
// input, so ifft/irfft scale afterwards and irfft runs on a copy.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/KernelsFourier.h"
#include "adjoint/Runtime/AlignedBuffer.h"
#include "adjoint/Runtime/Invoke.h"

#include "CPU/Fftw.h"
#include "CPU/Fourier.h"

#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <tuple>

using namespace adjoint::rt;
using cpu::FftwRoutines;

namespace {

enum class Type : int64_t { Fft = 0, Ifft = 1, Rfft = 2, Irfft = 3 };

enum class Outcome { Done, NoFftw, NoMemory, BadArgument };

/// A transform configuration: what a plan is made for.
struct Config {
  Type type;
  int rank;
  int64_t n[3];
  int64_t batch;
  bool unaligned;

  auto tie() const {
    return std::tie(type, rank, n[0], n[1], n[2], batch, unaligned);
  }
  bool operator<(const Config &o) const { return tie() < o.tie(); }

  int64_t points() const { return n[0] * n[1] * n[2]; }
  /// Elements of one transform's complex half spectrum.
  int64_t halfPoints() const { return points() / n[rank - 1] * (n[rank - 1] / 2 + 1); }
  /// Elements (real or complex) of one transform's input and output.
  int64_t inElements() const { return type == Type::Irfft ? halfPoints() : points(); }
  int64_t outElements() const { return type == Type::Rfft ? halfPoints() : points(); }
  bool realIn() const { return type == Type::Rfft; }
  bool realOut() const { return type == Type::Irfft; }
};

bool estimateOnly() {
  const char *planner = std::getenv("ADJOINT_FFTW_PLANNER");
  return planner && std::string_view(planner) == "estimate";
}

/// The plans of one precision kept for the configurations used last (at
/// most kCapacity), made on first use.
template <typename R> class Plans {
public:
  using Fn = FftwRoutines<R>;
  using C = typename Fn::C;
  using Plan = std::shared_ptr<void>;
  /// The number of plans kept (torch keeps 4096 cuFFT plans; FFTW's hold
  /// only their tables, yet a long-running program meets few shapes).
  static constexpr size_t kCapacity = 256;

  /// `c`'s plan, now the most recently used; null without memory.
  Plan get(const Fn &fn, const Config &c) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(c);
    if (it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);
      return it->second->second;
    }
    void *raw;
    {
      std::lock_guard<std::mutex> planning(plannerMutex());
      raw = make(fn, c);
    }
    if (!raw)
      return nullptr;
    Plan plan(raw, [destroy = fn.destroy_plan](void *p) {
      std::lock_guard<std::mutex> planning(plannerMutex());
      destroy(p);
    });
    order_.emplace_front(c, plan);
    index_[c] = order_.begin();
    // A dropped plan that a call still runs lives until that call ends.
    while (order_.size() > kCapacity) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return plan;
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return order_.size();
  }

private:
  /// FFTW's planner (making and destroying plans) is not thread-safe:
  /// one lock for this precision's library, apart from mutex_ so that the
  /// last call of a dropped plan can destroy it.
  static std::mutex &plannerMutex() {
    static std::mutex *mutex = new std::mutex(); // outlives every plan
    return *mutex;
  }

  static void *make(const Fn &fn, const Config &c) {
    // Row-major strides of the trailing dimensions, in the input's and the
    // output's element counts (the last dimension of a half spectrum is
    // n/2 + 1 long).
    cpu::FftwIoDim dims[3];
    int64_t inStride = 1, outStride = 1;
    for (int d = c.rank - 1; d >= 0; --d) {
      dims[d] = {c.n[d], inStride, outStride};
      bool last = d == c.rank - 1;
      int64_t half = c.n[d] / 2 + 1;
      inStride *= last && c.type == Type::Irfft ? half : c.n[d];
      outStride *= last && c.type == Type::Rfft ? half : c.n[d];
    }
    cpu::FftwIoDim many{c.batch, c.inElements(), c.outElements()};
    size_t inBytes = c.batch * c.inElements() * (c.realIn() ? sizeof(R) : sizeof(C));
    size_t outBytes = c.batch * c.outElements() * (c.realOut() ? sizeof(R) : sizeof(C));
    // The runtime's buffers are 64-byte aligned, like these.
    AlignedBuffer in(inBytes), out(outBytes);
    if (!in || !out)
      return nullptr;
    unsigned flags = estimateOnly() ? cpu::kFftwEstimate : cpu::kFftwMeasure;
    if (c.unaligned)
      flags |= cpu::kFftwUnaligned;
    switch (c.type) {
    case Type::Fft:
    case Type::Ifft:
      return fn.plan_guru64_dft(
          c.rank, dims, 1, &many, static_cast<C *>(in.data()),
          static_cast<C *>(out.data()),
          c.type == Type::Fft ? cpu::kFftwForward : cpu::kFftwBackward, flags);
    case Type::Rfft:
      return fn.plan_guru64_dft_r2c(c.rank, dims, 1, &many,
                                    static_cast<R *>(in.data()),
                                    static_cast<C *>(out.data()), flags);
    case Type::Irfft:
      return fn.plan_guru64_dft_c2r(c.rank, dims, 1, &many,
                                    static_cast<C *>(in.data()),
                                    static_cast<R *>(out.data()), flags);
    }
    return nullptr;
  }

  std::mutex mutex_;
  using Entry = std::pair<Config, Plan>;
  /// Most recently used first.
  std::list<Entry> order_;
  std::map<Config, typename std::list<Entry>::iterator> index_;
};

template <typename R> Plans<R> &plans() {
  static Plans<R> *table = new Plans<R>(); // never destroyed: plans live on
  return *table;
}

template <typename R>
Outcome run(intptr_t inAddress, intptr_t outAddress, Config c) noexcept {
  using C = typename FftwRoutines<R>::C;
  if (c.rank < 1 || c.rank > 3 || c.batch < 0 ||
      static_cast<int64_t>(c.type) < 0 || static_cast<int64_t>(c.type) > 3)
    return Outcome::BadArgument;
  if (c.batch == 0)
    return Outcome::Done;
  const FftwRoutines<R> *fn = cpu::fftw<R>();
  if (!fn)
    return Outcome::NoFftw;
  // FFTW's SIMD code wants the alignment it planned for (a complex
  // number's, at least): other buffers get a plan that does not assume it.
  c.unaligned = inAddress % 16 != 0 || outAddress % 16 != 0;
  try {
    typename Plans<R>::Plan held = plans<R>().get(*fn, c);
    void *plan = held.get();
    if (!plan)
      return Outcome::NoMemory;
    switch (c.type) {
    case Type::Fft:
    case Type::Ifft:
      fn->execute_dft(plan, reinterpret_cast<C *>(inAddress),
                      reinterpret_cast<C *>(outAddress));
      break;
    case Type::Rfft:
      fn->execute_dft_r2c(plan, reinterpret_cast<R *>(inAddress),
                          reinterpret_cast<C *>(outAddress));
      break;
    case Type::Irfft: {
      // c2r overwrites its input, which is the caller's.
      size_t bytes = c.batch * c.inElements() * sizeof(C);
      AlignedBuffer copy(bytes);
      if (!copy)
        return Outcome::NoMemory;
      std::memcpy(copy.data(), reinterpret_cast<const void *>(inAddress),
                  bytes);
      fn->execute_dft_c2r(plan, static_cast<C *>(copy.data()),
                          reinterpret_cast<R *>(outAddress));
      break;
    }
    }
  } catch (const std::bad_alloc &) {
    return Outcome::NoMemory;
  }
  if (c.type == Type::Ifft || c.type == Type::Irfft) {
    R scale = R(1) / static_cast<R>(c.points());
    int64_t count = c.batch * c.outElements() * (c.realOut() ? 1 : 2);
    R *out = reinterpret_cast<R *>(outAddress);
    for (int64_t i = 0; i < count; ++i)
      out[i] *= scale;
  }
  return Outcome::Done;
}

/// How a failed run ends: its status code and message.
StatusCode codeOf(Outcome outcome) {
  switch (outcome) {
  case Outcome::NoFftw:
    return StatusCode::Unavailable;
  case Outcome::NoMemory:
    return StatusCode::OutOfMemory;
  default:
    return StatusCode::InvalidArgument;
  }
}

template <typename R> const char *messageOf(Outcome outcome) {
  switch (outcome) {
  case Outcome::NoFftw:
    return cpu::fftwError<R>();
  case Outcome::NoMemory:
    return "no memory for an FFTW plan or scratch buffer";
  default:
    return "adj_kernel_fft: bad transform type or rank";
  }
}

/// The entry points' body: runs the kernel and turns a failure into
/// failCompiledCall from a frame that holds nothing with a destructor.
template <typename R>
void entry(intptr_t in, intptr_t out, int64_t batch, int64_t type,
           int64_t rank, int64_t n0, int64_t n1, int64_t n2) {
  Config c{static_cast<Type>(type), static_cast<int>(rank), {n0, n1, n2},
           batch, false};
  Outcome outcome = run<R>(in, out, c);
  if (outcome != Outcome::Done)
    failCompiledCall(codeOf(outcome), messageOf<R>(outcome));
}

} // namespace

Status cpu::fourier(DType dtype, intptr_t in, intptr_t out,
                    const int64_t *s) {
  if (dtype != DType::F32 && dtype != DType::F64)
    return Status::error(StatusCode::InvalidArgument,
                         std::string("the FFT computes in f32 or f64, not ") +
                             dtypeName(dtype));
  Config c{static_cast<Type>(s[1]), static_cast<int>(s[2]), {s[3], s[4], s[5]},
           s[0], false};
  bool f64 = dtype == DType::F64;
  Outcome outcome = f64 ? run<double>(in, out, c) : run<float>(in, out, c);
  if (outcome == Outcome::Done)
    return Status::success();
  return Status::error(codeOf(outcome), f64 ? messageOf<double>(outcome)
                                            : messageOf<float>(outcome));
}

size_t cpu::fftwPlansKept(DType dtype) {
  return dtype == DType::F64 ? plans<double>().size() : plans<float>().size();
}

size_t cpu::fftwPlanCapacity() { return Plans<double>::kCapacity; }

bool cpu::fourierAvailable(DType dtype) {
  return dtype == DType::F64 ? cpu::fftw<double>() != nullptr
                             : cpu::fftw<float>() != nullptr;
}

extern "C" void adj_kernel_fft_f32(intptr_t in, intptr_t out, int64_t batch,
                                   int64_t type, int64_t rank, int64_t n0,
                                   int64_t n1, int64_t n2) {
  entry<float>(in, out, batch, type, rank, n0, n1, n2);
}

extern "C" void adj_kernel_fft_f64(intptr_t in, intptr_t out, int64_t batch,
                                   int64_t type, int64_t rank, int64_t n0,
                                   int64_t n1, int64_t n2) {
  entry<double>(in, out, batch, type, rank, n0, n1, n2);
}
