//===- DeviceRegistry.h - The devices present -------------------*- C++ -*-===//
//
// Devices are found on first use, never at load time: the first call below
// loads each driver with dlopen and asks it for its devices. A driver that
// is missing or finds nothing lists no device, and findDevice() says why.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_DEVICEREGISTRY_H
#define ADJOINT_RUNTIME_DEVICEREGISTRY_H

#include "adjoint/Runtime/Device.h"

#include <string>
#include <vector>

namespace adjoint::rt {

/// Every usable device, the CPU first, then each driver's devices in
/// order of their index. The devices live as long as the process.
const std::vector<Device *> &devices();

/// The device with id `id` ("cpu", "opencl:0", "level_zero:1"; "opencl"
/// means "opencl:0"). InvalidArgument for a malformed id or an unknown
/// kind; Unavailable with the driver's reason when there is no such device
/// ("libze_loader.so.1 not found ...", "no OpenCL device with SPIR-V
/// support", "opencl:3 does not exist: 1 OpenCL device").
Status findDevice(const std::string &id, Device **device);

/// Every GPU device forgets the modules, kernels and constants it loaded
/// from compiled code (after the work that uses them), because code is
/// being unloaded whose descriptors' addresses later code may reuse (the
/// GpuABI caches by address). Executables call it when their code goes;
/// live executables load what they need again on their next launch. Does
/// not probe drivers that were never probed.
void forgetLoadedGpuCode();

/// Why a kind has no devices (Ok when it has some): the probe's status.
Status driverStatus(DeviceKind kind);

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_DEVICEREGISTRY_H
