//===- InvokeTest.cpp - The calling convention with hand-written code -----===//
//
// Plays compiled code with C++ functions that follow the packed ABI and
// allocate through the hooks, so that ownership of outputs and the
// allocation-failure path are tested without MLIR.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/AlignedBuffer.h"
#include "adjoint/Runtime/Invoke.h"
#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/ThreadPool.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

using namespace adjoint::rt;
using adjoint::DType;

namespace {

/// Writes a rank-1 descriptor of n contiguous floats at `desc`.
void writeVector(int64_t *desc, void *allocated, float *aligned, int64_t n) {
  desc[0] = reinterpret_cast<int64_t>(allocated);
  desc[1] = reinterpret_cast<int64_t>(aligned);
  desc[2] = 0;
  desc[3] = n;
  desc[4] = 1;
}

float *inputData(void **args, int i) {
  auto *desc = static_cast<int64_t *>(args[1 + i]);
  return reinterpret_cast<float *>(desc[1]) + desc[2];
}

float *allocFloats(int64_t n) {
  return static_cast<float *>(
      _mlir_memref_to_llvm_aligned_alloc(64, n * sizeof(float)));
}

bool gInputAligned = false;
/// The input memory the last plusOneTwice call saw.
const float *gInputData = nullptr;

/// (x: f32[4]) -> (x + 1, the same buffer again).
void plusOneTwice(void **args) {
  float *x = inputData(args, 0);
  gInputAligned = isBufferAligned(x);
  gInputData = x;
  float *y = allocFloats(4);
  for (int i = 0; i < 4; ++i)
    y[i] = x[i] + 1;
  auto *results = static_cast<int64_t *>(args[0]);
  writeVector(results, y, y, 4);
  writeVector(results + 5, y, y, 4);
}

/// (x: f32[4]) -> x itself (memory the call did not allocate), plus a
/// scratch block it forgets to free.
void identityAndLeak(void **args) {
  auto *in = static_cast<int64_t *>(args[1]);
  allocFloats(16);
  std::memcpy(args[0], in, 5 * sizeof(int64_t));
}

/// () -> f32[2, 3] transposed view of a [3, 2] block (strides [1, 2]).
void transposedView(void **args) {
  float *block = allocFloats(6);
  for (int i = 0; i < 6; ++i)
    block[i] = float(i); // block[r][c] = 2r + c, shape [3, 2]
  auto *desc = static_cast<int64_t *>(args[0]);
  desc[0] = desc[1] = reinterpret_cast<int64_t>(block);
  desc[2] = 0;
  desc[3] = 2;
  desc[4] = 3;
  desc[5] = 1;
  desc[6] = 2;
}

/// Allocates two blocks, then one too large for the pool's limit.
void exhaustsMemory(void **args) {
  allocFloats(256);
  allocFloats(256);
  allocFloats(int64_t(1) << 28);
  // Unreachable when the limit holds: the hook jumps back to invoke().
  auto *results = static_cast<int64_t *>(args[0]);
  writeVector(results, nullptr, nullptr, 4);
}

/// (x: f32[4]) -> x + 1, allocated inside a parallel loop (on whichever
/// thread runs the chunk), with scratch blocks allocated and freed there.
ThreadPool &loopPool() {
  static ThreadPool pool(3);
  return pool;
}

void parallelPlusOne(void **args) {
  float *x = inputData(args, 0);
  float *result = nullptr;
  loopPool().parallelFor(0, 8, 1, [&](int64_t b, int64_t) {
    float *scratch = allocFloats(1024);
    _mlir_memref_to_llvm_free(scratch);
    if (b == 5) {
      result = allocFloats(4);
      for (int i = 0; i < 4; ++i)
        result[i] = x[i] + 1;
    }
  });
  writeVector(static_cast<int64_t *>(args[0]), result, result, 4);
}

/// Allocates more than the limit allows inside every chunk of a parallel
/// loop, where the hook cannot jump back.
void parallelExhaustsMemory(void **args) {
  loopPool().parallelFor(0, 6, 1, [&](int64_t, int64_t) {
    float *big = allocFloats(int64_t(1) << 18);
    big[0] = 1.0f; // the memory is real even past the limit
  });
  float *y = allocFloats(4);
  writeVector(static_cast<int64_t *>(args[0]), y, y, 4);
}

Signature vectorSignature(int outputs) {
  Signature sig;
  sig.inputs = {{DType::F32, {4}}};
  for (int i = 0; i < outputs; ++i)
    sig.outputs.push_back({DType::F32, {4}});
  return sig;
}

Tensor sampleVector() {
  return Tensor::fromDoubles(DType::F32, {4}, {1.0, 2.0, 3.0, 4.0});
}

} // namespace

TEST_CASE("outputs sharing a block share one owner and free it once") {
  MemoryPool &pool = MemoryPool::global();
  Tensor x = sampleVector();
  PoolStats before = pool.stats();
  {
    std::vector<Tensor> outputs;
    InvokeStats stats;
    Status status = invoke(&plusOneTwice, vectorSignature(2), {x}, outputs,
                           &stats);
    REQUIRE(status.ok());
    REQUIRE(outputs.size() == 2);
    REQUIRE(outputs[0].data() == outputs[1].data());
    REQUIRE(stats.inputsCopied == 0);
    REQUIRE(stats.outputsCopied == 0);
    REQUIRE(stats.blocksReleased == 0);
    REQUIRE(gInputAligned);
    for (int i = 0; i < 4; ++i)
      REQUIRE(outputs[1].at(i) == x.at(i) + 1);
    outputs[0] = Tensor(); // the block stays alive for outputs[1]
    REQUIRE(pool.owns(outputs[1].data()));
  }
  PoolStats after = pool.stats();
  REQUIRE(after.liveBlocks == before.liveBlocks);
  REQUIRE(after.deallocations == before.deallocations + 1);
}

TEST_CASE("host inputs aligned to their element are passed as they are") {
  // Four bytes past a 64-byte boundary: an f32's alignment, not a cache
  // line's (numpy's small arrays are often placed so).
  AlignedBuffer buffer(64 + 4 * sizeof(float));
  float *offset = reinterpret_cast<float *>(
      static_cast<char *>(buffer.data()) + sizeof(float));
  for (int i = 0; i < 4; ++i)
    offset[i] = float(10 * i);
  Tensor x = Tensor::borrow(DType::F32, {4}, offset);
  std::vector<Tensor> outputs;
  InvokeStats stats;
  REQUIRE(invoke(&plusOneTwice, vectorSignature(2), {x}, outputs, &stats)
              .ok());
  REQUIRE(stats.inputsCopied == 0);
  REQUIRE(gInputData == offset);
  REQUIRE(outputs[0].at(3) == 31.0);
  REQUIRE(offset[3] == 30.0f);
}

TEST_CASE("inputs misaligned for their element are copied once, aligned") {
  AlignedBuffer buffer(64 + 1 + 4 * sizeof(float));
  char *misaligned = static_cast<char *>(buffer.data()) + 1;
  for (int i = 0; i < 4; ++i) {
    float v = float(10 * i);
    std::memcpy(misaligned + i * sizeof(float), &v, sizeof(float));
  }
  Tensor x = Tensor::borrow(DType::F32, {4}, misaligned);
  std::vector<Tensor> outputs;
  InvokeStats stats;
  gInputAligned = false;
  REQUIRE(invoke(&plusOneTwice, vectorSignature(2), {x}, outputs, &stats)
              .ok());
  REQUIRE(stats.inputsCopied == 1);
  REQUIRE(gInputAligned);
  REQUIRE(outputs[0].at(3) == 31.0);
}

TEST_CASE("outputs aliasing other memory are copied, leaks are released") {
  MemoryPool &pool = MemoryPool::global();
  Tensor x = sampleVector();
  PoolStats before = pool.stats();
  {
    std::vector<Tensor> outputs;
    InvokeStats stats;
    REQUIRE(invoke(&identityAndLeak, vectorSignature(1), {x}, outputs,
                   &stats)
                .ok());
    REQUIRE(stats.outputsCopied == 1);
    REQUIRE(stats.blocksReleased == 1);
    REQUIRE(outputs[0].data() != x.data());
    REQUIRE(!outputs[0].isBorrowed());
    static_cast<float *>(x.data())[0] = 99.0f;
    REQUIRE(outputs[0].at(0) == 1.0);
  }
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
}

TEST_CASE("strided outputs come back contiguous") {
  Signature sig;
  sig.outputs = {{DType::F32, {2, 3}}};
  std::vector<Tensor> outputs;
  InvokeStats stats;
  PoolStats before = MemoryPool::global().stats();
  REQUIRE(invoke(&transposedView, sig, {}, outputs, &stats).ok());
  REQUIRE(stats.outputsCopied == 1);
  REQUIRE(stats.blocksReleased == 1);
  // out[i][j] = block[j][i] = 2j + i.
  std::vector<double> expected = {0, 2, 4, 1, 3, 5};
  REQUIRE(outputs[0].toDoubles() == expected);
  outputs.clear();
  REQUIRE(MemoryPool::global().stats().liveBlocks == before.liveBlocks);
}

TEST_CASE("an allocation failure in compiled code is a status") {
  MemoryPool &pool = MemoryPool::global();
  Tensor x = sampleVector();
  PoolStats before = pool.stats();
  pool.setByteLimit(before.bytesInUse + before.bytesCached + (1 << 20));
  std::vector<Tensor> outputs;
  Status status = invoke(&exhaustsMemory, vectorSignature(1), {x}, outputs);
  pool.setByteLimit(0);
  REQUIRE(!status.ok());
  REQUIRE(status.code() == StatusCode::OutOfMemory);
  REQUIRE(status.message().find("could not allocate 1073741824 bytes") !=
          std::string::npos);
  REQUIRE(outputs.empty());
  // The two blocks the call did get were released.
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
  // Calls work again once memory is available.
  REQUIRE(invoke(&plusOneTwice, vectorSignature(2), {x}, outputs).ok());
}

TEST_CASE("inputs are validated before the call") {
  auto messageOf = [](const std::vector<Tensor> &inputs) {
    std::vector<Tensor> outputs;
    Status status = invoke(&plusOneTwice, vectorSignature(2), inputs, outputs);
    REQUIRE(status.code() == StatusCode::InvalidArgument);
    return status.message();
  };
  REQUIRE(messageOf({}) == "expected 1 inputs, got 0");
  REQUIRE(messageOf({Tensor::zeros(DType::F32, {3})}) ==
          "input #0: expected tensor<4xf32>, got tensor<3xf32>");
  REQUIRE(messageOf({Tensor::zeros(DType::F64, {4})}) ==
          "input #0: expected tensor<4xf32>, got tensor<4xf64>");
  REQUIRE(messageOf({Tensor()}) ==
          "input #0 is an empty tensor, expected tensor<4xf32>");
}

TEST_CASE("blocks allocated in parallel loops belong to the call") {
  MemoryPool &pool = MemoryPool::global();
  Tensor x = sampleVector();
  PoolStats before = pool.stats();
  {
    std::vector<Tensor> outputs;
    InvokeStats stats;
    REQUIRE(invoke(&parallelPlusOne, vectorSignature(1), {x}, outputs,
                   &stats)
                .ok());
    REQUIRE(stats.outputsCopied == 0); // the worker's block was adopted
    REQUIRE(stats.blocksReleased == 0);
    REQUIRE(outputs[0].toDoubles() == std::vector<double>{2, 3, 4, 5});
  }
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
}

TEST_CASE("an allocation failure inside a parallel loop fails the call "
          "after the loop") {
  MemoryPool &pool = MemoryPool::global();
  Tensor x = sampleVector();
  pool.trim();
  PoolStats before = pool.stats();
  pool.setByteLimit(before.bytesInUse + (1 << 20) + 4096);
  std::vector<Tensor> outputs;
  Status status =
      invoke(&parallelExhaustsMemory, vectorSignature(1), {x}, outputs);
  pool.setByteLimit(0);
  REQUIRE(status.code() == StatusCode::OutOfMemory);
  REQUIRE(outputs.empty());
  REQUIRE(pool.stats().liveBlocks == before.liveBlocks);
  REQUIRE(!insideParallelChunk());
  REQUIRE(taskContext() == nullptr);
}
