//===- AlignedBuffer.h - 64-byte aligned host memory ------------*- C++ -*-===//
//
// Every host buffer the runtime hands out is aligned to 64 bytes: a cache
// line, and the width of an AVX-512 register, so that vectorized code can
// use aligned loads and caller memory with this alignment can be passed to
// compiled code without a copy.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_ALIGNEDBUFFER_H
#define ADJOINT_RUNTIME_ALIGNEDBUFFER_H

#include <cstddef>
#include <cstdint>

namespace adjoint::rt {

/// The alignment of every runtime buffer, in bytes.
inline constexpr size_t kBufferAlignment = 64;

/// Whether `ptr` is aligned to kBufferAlignment.
inline bool isBufferAligned(const void *ptr) {
  return reinterpret_cast<uintptr_t>(ptr) % kBufferAlignment == 0;
}

/// Allocates `bytes` (at least one) with kBufferAlignment from the system;
/// nullptr on failure. Release with alignedFree.
void *alignedAlloc(size_t bytes);
/// Releases memory from alignedAlloc (nullptr is ignored).
void alignedFree(void *ptr);

/// An owned, uninitialized, aligned byte buffer from the system allocator
/// (not the pool: for long-lived memory such as the pool's own blocks and
/// constants). Movable, not copyable.
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  /// Allocates `bytes`; data() is nullptr if the system is out of memory.
  explicit AlignedBuffer(size_t bytes);
  ~AlignedBuffer();
  AlignedBuffer(AlignedBuffer &&other) noexcept;
  AlignedBuffer &operator=(AlignedBuffer &&other) noexcept;
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;

  void *data() { return data_; }
  const void *data() const { return data_; }
  size_t size() const { return size_; }
  explicit operator bool() const { return data_ != nullptr; }

private:
  void *data_ = nullptr;
  size_t size_ = 0;
};

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_ALIGNEDBUFFER_H
