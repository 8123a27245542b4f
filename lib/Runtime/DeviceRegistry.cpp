//===- DeviceRegistry.cpp - The devices present ---------------------------===//
//
// Adding a driver: a folder lib/Runtime/<Driver> with a GpuDevice subclass
// and a probeDevices() function, and one line in kDrivers below.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/DeviceRegistry.h"
#include "CUDA/CudaDevice.h"
#include "LevelZero/LevelZeroDevice.h"
#include "GPU/GpuDevice.h"
#include "HIP/HipDevice.h"
#include "OpenCL/OpenCLDevice.h"

#include <memory>
#include <mutex>

using namespace adjoint::rt;

namespace {

struct Driver {
  DeviceKind kind;
  Status (*probe)(std::vector<std::unique_ptr<Device>> &devices);
};

constexpr Driver kDrivers[] = {
    {DeviceKind::CUDA, cuda::probeDevices},
    {DeviceKind::HIP, hip::probeDevices},
    {DeviceKind::LevelZero, levelzero::probeDevices},
    {DeviceKind::OpenCL, opencl::probeDevices},
};

struct Registry {
  std::vector<Device *> all;
  std::vector<std::unique_ptr<Device>> owned;
  /// Per kind: its devices and the probe's status.
  struct Kind {
    DeviceKind kind;
    std::vector<Device *> devices;
    Status status;
  };
  std::vector<Kind> kinds;
};

const Registry &registry() {
  // Never destroyed: tensors on a device may outlive static destructors.
  static const Registry *instance = [] {
    auto *r = new Registry();
    r->all.push_back(&cpuDevice());
    for (const Driver &driver : kDrivers) {
      std::vector<std::unique_ptr<Device>> found;
      Status status = driver.probe(found);
      Registry::Kind kind{driver.kind, {}, status};
      if (status.ok())
        for (auto &device : found) {
          kind.devices.push_back(device.get());
          r->owned.push_back(std::move(device));
        }
      r->kinds.push_back(std::move(kind));
    }
    // The list is ordered by kind as the enum orders them, whatever order
    // the drivers are probed in.
    for (DeviceKind k : {DeviceKind::CUDA, DeviceKind::HIP,
                         DeviceKind::LevelZero, DeviceKind::OpenCL})
      for (const Registry::Kind &kind : r->kinds)
        if (kind.kind == k)
          r->all.insert(r->all.end(), kind.devices.begin(),
                        kind.devices.end());
    return r;
  }();
  return *instance;
}

} // namespace

const std::vector<Device *> &adjoint::rt::devices() {
  return registry().all;
}

Status adjoint::rt::driverStatus(DeviceKind kind) {
  if (kind == DeviceKind::CPU)
    return Status::success();
  for (const Registry::Kind &k : registry().kinds)
    if (k.kind == kind)
      return k.status;
  return Status::error(StatusCode::Unavailable,
                       std::string(deviceKindName(kind)) +
                           " devices are not supported yet");
}

Status adjoint::rt::findDevice(const std::string &id, Device **device) {
  *device = nullptr;
  if (id == "cpu") {
    *device = &cpuDevice();
    return Status::success();
  }
  size_t colon = id.find(':');
  std::string kindName = id.substr(0, colon);
  long index = 0;
  if (colon != std::string::npos) {
    std::string digits = id.substr(colon + 1);
    bool ok = !digits.empty() && digits.size() < 9 &&
              digits.find_first_not_of("0123456789") == std::string::npos;
    if (!ok)
      return Status::error(StatusCode::InvalidArgument,
                           "malformed device id '" + id +
                               "' (expected kind:index, as opencl:0)");
    index = std::stol(digits);
  }
  for (DeviceKind kind : {DeviceKind::CUDA, DeviceKind::HIP,
                          DeviceKind::LevelZero, DeviceKind::OpenCL}) {
    if (kindName != deviceKindName(kind))
      continue;
    Status status = driverStatus(kind);
    if (!status.ok())
      return status;
    for (const Registry::Kind &k : registry().kinds)
      if (k.kind == kind) {
        if (index < static_cast<long>(k.devices.size())) {
          *device = k.devices[index];
          return Status::success();
        }
        return Status::error(
            StatusCode::Unavailable,
            id + " does not exist: " + std::to_string(k.devices.size()) +
                " " + kindName + " device" +
                (k.devices.size() == 1 ? "" : "s"));
      }
  }
  return Status::error(StatusCode::InvalidArgument,
                       "unknown device kind '" + kindName + "' in '" + id +
                           "' (cpu, cuda, hip, level_zero, opencl)");
}

void adjoint::rt::forgetLoadedGpuCode() {
  // Only executables compiled for a GPU kind call this, after they ran on
  // one of its devices: the registry exists and nothing new is probed.
  for (Device *device : registry().all)
    if (device->kind() != DeviceKind::CPU)
      static_cast<gpu::GpuDevice *>(device)->forgetLoadedCode();
}
