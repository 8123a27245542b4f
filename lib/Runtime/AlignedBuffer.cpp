//===- AlignedBuffer.cpp - 64-byte aligned host memory --------------------===//

#include "adjoint/Runtime/AlignedBuffer.h"

#include <cstdlib>
#include <utility>

using namespace adjoint::rt;

void *adjoint::rt::alignedAlloc(size_t bytes) {
  // aligned_alloc wants a size that is a multiple of the alignment.
  size_t rounded = (bytes + kBufferAlignment - 1) / kBufferAlignment *
                   kBufferAlignment;
  if (rounded == 0)
    rounded = kBufferAlignment;
  if (rounded < bytes) // overflow
    return nullptr;
  return std::aligned_alloc(kBufferAlignment, rounded);
}

void adjoint::rt::alignedFree(void *ptr) { std::free(ptr); }

AlignedBuffer::AlignedBuffer(size_t bytes) : data_(alignedAlloc(bytes)) {
  if (data_)
    size_ = bytes;
}

AlignedBuffer::~AlignedBuffer() { alignedFree(data_); }

AlignedBuffer::AlignedBuffer(AlignedBuffer &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

AlignedBuffer &AlignedBuffer::operator=(AlignedBuffer &&other) noexcept {
  if (this != &other) {
    alignedFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}
