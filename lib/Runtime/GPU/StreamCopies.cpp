//===- StreamCopies.cpp - Copies of a stream device through pinned memory -===//
//
// A copy between pageable host memory and the device goes through the
// driver's own pinned staging at about half the bandwidth, and blocks the
// host meanwhile. Large blocking transfers go through two pinned bounce
// buffers of our own instead: the host fills (or empties) one while the
// copy engine works on the other. Host memory that is pinned already is
// copied directly, and so are small transfers (the driver stages them
// well enough).
//
//===----------------------------------------------------------------------===//

#include "GPU/StreamDevice.h"

#include <algorithm>
#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {
/// Host transfers from or to pageable memory up to this size go directly;
/// larger ones through the bounce buffers.
constexpr size_t kMinBounceCopy = size_t(1) << 20;
/// The size of each of the two bounce buffers.
constexpr size_t kBounceBytes = size_t(4) << 20;
} // namespace

Status StreamDevice::enqueueCopy(void *dst, const void *src, size_t bytes,
                                 CopyKind kind, bool blocking) {
  ADJ_STREAM_CURRENT(current.status());
  bool bounce = blocking && bytes >= kMinBounceCopy;
  if (bounce && kind == CopyKind::HostToDevice && !isPinned(src) &&
      haveBounceBuffers())
    return bounceToDevice(static_cast<char *>(dst),
                          static_cast<const char *>(src), bytes);
  if (bounce && kind == CopyKind::DeviceToHost && !isPinned(dst) &&
      haveBounceBuffers())
    return bounceToHost(static_cast<char *>(dst),
                        static_cast<const char *>(src), bytes);
  Status status = copyAsync(dst, src, bytes, kind);
  if (!status.ok() || !blocking)
    return status;
  return finish();
}

bool StreamDevice::haveBounceBuffers() {
  if (bounceTried_)
    return bounce_[1].done != nullptr;
  bounceTried_ = true;
  for (Bounce &bounce : bounce_) {
    bool ok = allocatePinned(kBounceBytes, &bounce.host).ok() &&
              createEvent(&bounce.done).ok();
    if (!ok) {
      // Without both buffers, copies go directly: give back what we got.
      for (Bounce &b : bounce_) {
        if (b.host)
          freePinned(b.host);
        if (b.done)
          (void)entries_.eventDestroy.fn(b.done);
        b = Bounce();
      }
      return false;
    }
  }
  return true;
}

Status StreamDevice::waitFor(Bounce &bounce) {
  if (!bounce.pending)
    return Status::success();
  bounce.pending = false;
  return waitEvent(bounce.done);
}

Status StreamDevice::bounceToDevice(char *dst, const char *src,
                                    size_t bytes) {
  Status status;
  for (size_t done = 0, chunk = 0; done < bytes && status.ok(); ++chunk) {
    Bounce &bounce = bounce_[chunk % 2];
    size_t n = std::min(kBounceBytes, bytes - done);
    status = waitFor(bounce);
    if (!status.ok())
      break;
    std::memcpy(bounce.host, src + done, n);
    status = copyAsync(dst + done, bounce.host, n, CopyKind::HostToDevice);
    if (status.ok())
      status = recordEvent(bounce.done);
    bounce.pending = status.ok();
    done += n;
  }
  // The source may be reused when this returns: wait for the last chunks.
  Status finished = finish();
  bounce_[0].pending = bounce_[1].pending = false;
  return status.ok() ? finished : status;
}

Status StreamDevice::bounceToHost(char *dst, const char *src, size_t bytes) {
  size_t chunks = (bytes + kBounceBytes - 1) / kBounceBytes;
  auto chunkBytes = [&](size_t chunk) {
    return std::min(kBounceBytes, bytes - chunk * kBounceBytes);
  };
  auto enqueue = [&](size_t chunk) {
    Bounce &bounce = bounce_[chunk % 2];
    Status status = copyAsync(bounce.host, src + chunk * kBounceBytes,
                              chunkBytes(chunk), CopyKind::DeviceToHost);
    if (status.ok())
      status = recordEvent(bounce.done);
    bounce.pending = status.ok();
    return status;
  };
  // The copy engine fills the next buffer while the host empties this one.
  Status status = enqueue(0);
  for (size_t chunk = 0; chunk < chunks && status.ok(); ++chunk) {
    if (chunk + 1 < chunks)
      status = enqueue(chunk + 1);
    if (status.ok())
      status = waitFor(bounce_[chunk % 2]);
    if (status.ok())
      std::memcpy(dst + chunk * kBounceBytes, bounce_[chunk % 2].host,
                  chunkBytes(chunk));
  }
  if (!status.ok()) {
    (void)finish();
    bounce_[0].pending = bounce_[1].pending = false;
  }
  return status;
}
