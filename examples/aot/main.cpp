//===- main.cpp - A program that runs an ahead-of-time compiled model -----===//
//
// Links classify.o (generated from model.mlir by adj-aot at build time) and
// AdjointRuntime, nothing of MLIR or LLVM. Shows the raw-pointer entry
// point, the tensor entry point, and that bad inputs and memory exhaustion
// come back as a status rather than an abort.
//
//===----------------------------------------------------------------------===//

#include "classify.h"

#include "adjoint/Runtime/MemoryPool.h"

#include <cstdio>

using adjoint::DType;
using adjoint::rt::MemoryPool;
using adjoint::rt::Status;
using adjoint::rt::Tensor;

int main() {
  // 64-byte aligned caller memory goes to the compiled code without a copy.
  alignas(64) const float x[6] = {0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.5f};
  float probs[4] = {};
  Status status = adjoint::aot::classify::run(x, probs);
  if (!status.ok()) {
    std::fprintf(stderr, "classify failed: %s\n", status.toString().c_str());
    return 1;
  }
  std::printf("signature: %s\n", adjoint::aot::classify::kSignature);
  std::printf("probabilities: [%.4f, %.4f] [%.4f, %.4f]\n", probs[0],
              probs[1], probs[2], probs[3]);

  std::vector<Tensor> outputs;
  status = adjoint::aot::classify::run(
      {Tensor::fromDoubles(DType::F32, {2, 3}, {0.5, -1, 2, 1.5, 0.25, -0.5})},
      outputs);
  if (!status.ok() || outputs.size() != 1)
    return 1;
  const Tensor &p = outputs[0];
  std::printf("row sums: %.4f %.4f\n", p.at(0) + p.at(1), p.at(2) + p.at(3));

  status = adjoint::aot::classify::run({Tensor::zeros(DType::F32, {3, 3})},
                                       outputs);
  std::printf("wrong input: %s\n", status.toString().c_str());

  MemoryPool &pool = MemoryPool::global();
  pool.trim();
  pool.setByteLimit(pool.stats().bytesInUse + 64);
  status = adjoint::aot::classify::run(x, probs);
  pool.setByteLimit(0);
  std::printf("tiny memory pool: %s\n",
              adjoint::rt::statusCodeName(status.code()));
  return 0;
}
