//===- LevelZeroDevice.h - Intel GPUs through Level Zero --------*- C++ -*-===//
//
// Every GPU of every Level Zero driver ("level_zero:0", ...): device memory
// from zeMemAllocDevice, modules from SPIR-V, one in-order immediate command
// list per device as its queue.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_LEVELZERO_LEVELZERODEVICE_H
#define ADJOINT_LIB_RUNTIME_LEVELZERO_LEVELZERODEVICE_H

#include "adjoint/Runtime/Device.h"

#include <memory>
#include <vector>

namespace adjoint::rt::levelzero {

/// The Level Zero GPUs; when there are none, Unavailable with the reason
/// ("libze_loader.so.1 not found ...").
Status probeDevices(std::vector<std::unique_ptr<Device>> &devices);

} // namespace adjoint::rt::levelzero

#endif // ADJOINT_LIB_RUNTIME_LEVELZERO_LEVELZERODEVICE_H
