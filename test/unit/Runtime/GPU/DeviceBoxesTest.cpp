//===- DeviceBoxesTest.cpp - The closure runtime in calls on a GPU --------===//
//
// Host code written by hand as the GPU lowering emits it around closures:
// the __adj_put/__adj_get wrappers pass device addresses to the closure
// runtime, which must box them on the call's device (device-to-device
// copies, device fills, sums through the host) and give the blocks back to
// the device's pool when invoke() releases the arena.
//
//===----------------------------------------------------------------------===//

#include "GPU/CachingAllocator.h"
#include "GpuTestSupport.h"
#include "adjoint/Runtime/Closures.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/Tensor.h"

#include <cstring>

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

namespace {

constexpr int64_t kN = 300;
constexpr int64_t kBytes = kN * sizeof(float);

/// (a: tensor<300xf32>) -> (copy, zeros, sum): boxes a, reads it back into
/// a fresh block, reads an empty slot (zeros), and reads the slot of the
/// sum of an environment with itself (2 a), all in device memory.
void boxEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  auto *a = static_cast<int64_t *>(args[1]);
  int64_t mark = adj_rt_mark();
  void *tuple = adj_rt_tuple_new(2);
  adj_rt_tuple_put_tensor(tuple, 0, ADJ_RT_F32, a[1], kBytes);
  void *results[3];
  for (void *&r : results)
    r = adj_rt_gpu_alloc(kBytes);
  auto address = [](void *p) { return reinterpret_cast<intptr_t>(p); };
  adj_rt_tuple_get_tensor(tuple, 0, address(results[0]), kBytes);
  adj_rt_tuple_get_tensor(tuple, 1, address(results[1]), kBytes);
  void *env = adj_rt_env_set(nullptr, 7, tuple);
  void *sum = adj_rt_env_add(env, env);
  adj_rt_tuple_get_tensor(adj_rt_env_get(sum, 7), 0, address(results[2]),
                          kBytes);
  adj_rt_release(mark);
  for (int i = 0; i < 3; ++i)
    writeDescriptor(out + 5 * i, results[i], kN);
}

Signature boxSignature() {
  Signature sig;
  sig.inputs.push_back({DType::F32, {kN}});
  for (int i = 0; i < 3; ++i)
    sig.outputs.push_back({DType::F32, {kN}});
  return sig;
}

} // namespace

TEST_CASE("the closure runtime boxes tensors on the call's device",
          "[gpu][opencl][closures]") {
  Device *device = openclOrSkip();
  if (!device)
    return;
  Tensor a = Tensor::fromDoubles(DType::F32, {kN}, ramp(kN, 0.5, -20));
  Tensor onDevice = a.to(*device);
  uint64_t inUse = device->memoryStats().bytesInUse;
  int64_t objects = adj_rt_live_objects();
  std::vector<Tensor> outputs;
  SECTION("put, get, an empty slot and a sum") {
    Status status =
        invoke(boxEntry, boxSignature(), {onDevice}, outputs, nullptr, device);
    REQUIRE(status.toString() == "ok");
    REQUIRE(outputs.size() == 3);
    std::vector<double> copy = outputs[0].toHost().toDoubles();
    std::vector<double> zeros = outputs[1].toHost().toDoubles();
    std::vector<double> twice = outputs[2].toHost().toDoubles();
    for (int64_t i = 0; i < kN; ++i) {
      REQUIRE(copy[i] == a.at(i));
      REQUIRE(zeros[i] == 0.0);
      REQUIRE(twice[i] == 2.0 * a.at(i));
    }
    outputs.clear();
  }
  SECTION("device memory runs out in the box or after it") {
    // No block fits (the put fails), or the box and two of the three
    // result blocks do (the box is then released after the jump).
    for (size_t blocks : {0, 3}) {
      device->emptyCache();
      device->setMemoryLimit(device->memoryStats().bytesInUse +
                             blocks * gpu::CachingAllocator::roundSize(kBytes));
      Status status = invoke(boxEntry, boxSignature(), {onDevice}, outputs,
                             nullptr, device);
      device->setMemoryLimit(0);
      REQUIRE(status.code() == StatusCode::OutOfMemory);
      REQUIRE(outputs.empty());
      REQUIRE(device->memoryStats().bytesInUse == inUse);
    }
  }
  // The boxes' device blocks went back to the pool with the arena.
  REQUIRE(device->memoryStats().bytesInUse == inUse);
  REQUIRE(adj_rt_live_objects() == objects);
}
