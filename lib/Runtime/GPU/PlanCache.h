//===- PlanCache.h - A vendor library's plans, least recently used out -*- C++ -*-===//
//
// cuFFT and rocFFT plans are made once per problem and kept, but each holds
// device memory of its own (cuFFT's work area, rocFFT's kernels), so a
// program that meets many shapes must not keep them all: the cache holds at
// most `capacity` plans and destroys the least recently used one to make
// room, after `drain` (the device's queue may still run it).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_PLANCACHE_H
#define ADJOINT_LIB_RUNTIME_GPU_PLANCACHE_H

#include "GPU/LinearAlgebraRouter.h"

#include <functional>
#include <list>
#include <unordered_map>
#include <utility>

namespace adjoint::rt::gpu {

template <typename Plan> class PlanCache {
public:
  /// The number of plans kept per device (torch keeps 4096 cuFFT plans;
  /// fewer here, as every one holds device memory outside the pool).
  static constexpr size_t kDefaultCapacity = 256;

  PlanCache(std::function<void(Plan &)> destroy,
            std::function<Status()> drain,
            size_t capacity = kDefaultCapacity)
      : destroy_(std::move(destroy)), drain_(std::move(drain)),
        capacity_(capacity) {}
  ~PlanCache() {
    for (auto &[problem, plan] : order_)
      destroy_(plan);
  }
  PlanCache(const PlanCache &) = delete;
  PlanCache &operator=(const PlanCache &) = delete;

  /// The plan of `problem`, now the most recently used; null if none.
  Plan *find(const LinearAlgebraProblem &problem) {
    auto it = index_.find(problem);
    if (it == index_.end())
      return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->second;
  }

  /// Keeps `plan` for `problem` (which has none), destroying the least
  /// recently used plans beyond the capacity after draining the queue.
  Status insert(const LinearAlgebraProblem &problem, Plan plan) {
    if (order_.size() >= capacity_) {
      if (Status status = drain_(); !status.ok()) {
        destroy_(plan);
        return status;
      }
      while (order_.size() >= capacity_) {
        destroy_(order_.back().second);
        index_.erase(order_.back().first);
        order_.pop_back();
      }
    }
    order_.emplace_front(problem, plan);
    index_[problem] = order_.begin();
    return Status::success();
  }

  size_t size() const { return order_.size(); }

private:
  using Entry = std::pair<LinearAlgebraProblem, Plan>;
  std::function<void(Plan &)> destroy_;
  std::function<Status()> drain_;
  size_t capacity_;
  /// Most recently used first.
  std::list<Entry> order_;
  std::unordered_map<LinearAlgebraProblem, typename std::list<Entry>::iterator,
                     LinearAlgebraProblemHash>
      index_;
};

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_PLANCACHE_H
