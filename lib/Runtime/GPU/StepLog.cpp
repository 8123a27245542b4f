//===- StepLog.cpp - A compiled call's queued work, as recorded -----------===//

#include "GPU/StepLog.h"

using namespace adjoint::rt::gpu;

void StepLog::keepArgs(Op &op, uint32_t count, const uint32_t *sizes,
                       void **args) {
  op.firstArg = argOffsets_.size();
  op.numArgs = count;
  for (uint32_t i = 0; i < count; ++i) {
    // Size 0 is a device pointer (GpuABI.h).
    size_t size = sizes[i] ? sizes[i] : sizeof(void *);
    argOffsets_.push_back(argBytes_.size());
    argBytes_.append(static_cast<const char *>(args[i]), size);
    signature_.append(static_cast<const char *>(args[i]), size);
  }
}

void StepLog::launch(const adj_rt_gpu_kernel &kernel, void *handle,
                     const uint64_t grid[3], const uint64_t block[3],
                     uint32_t sharedBytes, void **args) {
  Op op{Kind::Launch};
  op.kernel = &kernel;
  op.handle = handle;
  for (int d = 0; d < 3; ++d) {
    op.grid[d] = grid[d];
    op.block[d] = block[d];
  }
  op.sharedBytes = sharedBytes;
  sign(op.kind);
  sign(op.kernel);
  sign(op.grid);
  sign(op.block);
  sign(op.sharedBytes);
  keepArgs(op, kernel.numArgs, kernel.argSizes, args);
  ops_.push_back(op);
}

void StepLog::gemm(const adj_rt_gpu_gemm_desc &gemm, int route, void *a,
                   void *b, void *c, void **fallbackArgs) {
  Op op{Kind::Gemm};
  op.gemm = &gemm;
  op.operands[0] = a;
  op.operands[1] = b;
  op.operands[2] = c;
  sign(op.kind);
  // The problem itself, not its address: the descriptor of compiled code
  // is a constant, but the router's choice is by problem.
  sign(gemm);
  sign(route);
  sign(op.operands);
  // The descriptor's checks (checkGemm) guarantee a fallback kernel.
  keepArgs(op, gemm.fallback->numArgs, gemm.fallback->argSizes, fallbackArgs);
  ops_.push_back(op);
}

void StepLog::copy(void *dst, const void *src, size_t bytes, CopyKind kind,
                   bool staged) {
  Op op{Kind::Copy};
  op.dst = dst;
  op.src = src;
  op.bytes = bytes;
  op.copyKind = kind;
  op.staged = staged;
  sign(op.kind);
  sign(op.dst);
  sign(op.src);
  sign(op.bytes);
  sign(op.copyKind);
  ops_.push_back(op);
}

void StepLog::fill(void *dst, uint8_t value, size_t bytes) {
  Op op{Kind::Fill};
  op.dst = dst;
  op.value = value;
  op.bytes = bytes;
  sign(op.kind);
  sign(op.dst);
  sign(op.value);
  sign(op.bytes);
  ops_.push_back(op);
}

std::vector<void *> StepLog::args(const Op &op) const {
  std::vector<void *> pointers(op.numArgs);
  for (uint32_t i = 0; i < op.numArgs; ++i)
    pointers[i] = const_cast<char *>(argBytes_.data()) +
                  argOffsets_[op.firstArg + i];
  return pointers;
}
