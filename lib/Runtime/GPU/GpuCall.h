//===- GpuCall.h - The GpuABI's link to the running invoke() ----*- C++ -*-===//
//
// GpuABI functions act on the device of the invoke() call running on this
// thread, record the blocks they hand out in that call and, on failure,
// jump back to it. The call's state lives in Invoke.cpp; these are its
// entry points for GpuABI.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_GPUCALL_H
#define ADJOINT_LIB_RUNTIME_GPU_GPUCALL_H

#include "adjoint/Runtime/Status.h"

namespace adjoint::rt::gpu {

class GpuDevice;

/// The GPU device of the current call; fails (see fail()) outside a call
/// or in a call on the CPU, naming `function`.
GpuDevice &currentDevice(const char *function);
/// The GPU device of the current call, or null in a call on the CPU and
/// outside calls (never fails).
GpuDevice *callDevice();
/// Records `block` as allocated by the current call, or forgets it.
void trackBlock(void *block);
void untrackBlock(void *block);
/// Ends the current call with `status`: jumps back to invoke() on the
/// call's thread; elsewhere (a worker of a parallel loop, or no call)
/// prints the message and aborts, as GpuABI.h says.
[[noreturn]] void fail(Status status);
/// fail()s with `status` when it is an error. Out of line, so that the
/// callers' Status temporaries are moved from before any jump.
void orFail(Status status);

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_GPUCALL_H
