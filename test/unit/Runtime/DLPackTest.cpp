//===- DLPackTest.cpp - Managed tensors in and out of the runtime ---------===//

#include "adjoint/Runtime/DLPack.h"
#include "adjoint/Support/Error.h"

#include <catch2/catch.hpp>

#include <memory>
#include <vector>

using namespace adjoint::rt;
using namespace adjoint::rt::dlpack;
using adjoint::DType;

namespace {

/// A producer's DLTensor over `data` and an owner that counts releases.
struct Producer {
  std::vector<float> data;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int released = 0;

  DLTensor tensor(DLDevice device = {kDLCPU, 0}, uint64_t byteOffset = 0) {
    return {data.data(),
            device,
            static_cast<int32_t>(shape.size()),
            {2, 32, 1},
            shape.data(),
            strides.empty() ? nullptr : strides.data(),
            byteOffset};
  }
  std::shared_ptr<void> owner() {
    return std::shared_ptr<void>(this, [](void *p) {
      ++static_cast<Producer *>(p)->released;
    });
  }
};

} // namespace

TEST_CASE("an export describes the tensor and holds its storage") {
  Tensor t = Tensor::fromDoubles(DType::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  DLManagedTensorVersioned *m = exportTensorVersioned(t);
  REQUIRE(m->version.major == 1);
  REQUIRE(m->flags == 0);
  REQUIRE(m->dl_tensor.data == t.data());
  REQUIRE(m->dl_tensor.device.device_type == kDLCPU);
  REQUIRE(m->dl_tensor.ndim == 2);
  REQUIRE(m->dl_tensor.shape[0] == 2);
  REQUIRE(m->dl_tensor.shape[1] == 3);
  REQUIRE(m->dl_tensor.strides == nullptr);
  REQUIRE(m->dl_tensor.dtype.code == 2);
  REQUIRE(m->dl_tensor.dtype.bits == 32);
  void *data = t.data();
  t = Tensor(); // the export keeps the storage alive
  REQUIRE(static_cast<float *>(data)[5] == 6.0f);
  m->deleter(m);

  Tensor ro = Tensor::fromDoubles(DType::I32, {2}, {7, 8}).asReadOnly();
  DLManagedTensorVersioned *r = exportTensorVersioned(ro, /*copied=*/true);
  REQUIRE(r->flags == (kFlagReadOnly | kFlagIsCopied));
  REQUIRE(r->dl_tensor.dtype.code == 0);
  r->deleter(r);

  DLManagedTensor *legacy = exportTensor(ro);
  REQUIRE(legacy->dl_tensor.data == ro.data());
  legacy->deleter(legacy);
}

TEST_CASE("an import wraps the producer's memory until the tensor dies") {
  Producer p{{0, 1, 2, 3, 4, 5, 6, 7}, {2, 3}, {}};
  {
    Tensor t = importTensor(p.tensor({kDLCPU, 0}, 2 * sizeof(float)),
                            p.owner());
    REQUIRE(t.isOnHost());
    REQUIRE(t.data() == p.data.data() + 2);
    REQUIRE(t.toDoubles() == std::vector<double>{2, 3, 4, 5, 6, 7});
    REQUIRE_FALSE(t.isReadOnly());
    Tensor copy = t;
    t = Tensor();
    REQUIRE(p.released == 0);
  }
  REQUIRE(p.released == 1);
  // Pinned CUDA host memory is host memory.
  Tensor pinned = importTensor(p.tensor({kDLCUDAHost, 0}), p.owner(), true);
  REQUIRE(pinned.isOnHost());
  REQUIRE(pinned.isReadOnly());
}

TEST_CASE("an empty import has any strides") {
  // torch.empty(3, 0) has the strides (1, 1): no element, no layout.
  Producer p{{}, {3, 0}, {1, 1}};
  Tensor t = importTensor(p.tensor(), p.owner());
  REQUIRE(t.shape() == std::vector<int64_t>{3, 0});
  REQUIRE(t.numel() == 0);
}

TEST_CASE("imports refuse what they cannot wrap, releasing the producer") {
  Producer p{{0, 1, 2, 3, 4, 5}, {2, 3}, {1, 2}};
  REQUIRE_THROWS_WITH(importTensor(p.tensor(), p.owner()),
                      Catch::Contains("not row-major contiguous"));
  REQUIRE(p.released == 1);
  p.strides = {3, 1}; // row-major, written out: accepted
  REQUIRE(importTensor(p.tensor(), p.owner()).numel() == 6);
  p.strides = {};
  REQUIRE_THROWS_WITH(importTensor(p.tensor({kDLCPU, 0}, 3), p.owner()),
                      Catch::Contains("not a multiple of the element size"));
  REQUIRE_THROWS_WITH(importTensor(p.tensor({9, 0}), p.owner()),
                      Catch::Contains("unsupported DLPack device type 9"));
  // No runtime device allocated this oneAPI pointer (host memory here).
  REQUIRE_THROWS_WITH(importTensor(p.tensor({kDLOneAPI, 0}), p.owner()),
                      Catch::Contains("no OpenCL or Level Zero device"));
  REQUIRE_THROWS_WITH(importTensor(p.tensor({kDLCUDA, -1}), p.owner()),
                      Catch::Contains("negative device id"));
  REQUIRE(p.released == 6);
}
