//===- DLPack.cpp - Tensors exchanged with other frameworks ---------------===//

#include "adjoint/Runtime/DLPack.h"
#include "GPU/GpuDevice.h"
#include "adjoint/Runtime/DeviceRegistry.h"
#include "adjoint/Support/Error.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::dlpack;

DLDevice adjoint::rt::dlpack::deviceOf(const Tensor &tensor) {
  if (tensor.isOnHost())
    return {kDLCPU, 0};
  const Device &device = tensor.device();
  switch (device.kind()) {
  case DeviceKind::CUDA:
    return {kDLCUDA, device.index()};
  case DeviceKind::HIP:
    return {kDLROCM, device.index()};
  case DeviceKind::OpenCL:
  case DeviceKind::LevelZero:
    return {kDLOneAPI, device.index()};
  case DeviceKind::CPU:
    break;
  }
  return {kDLCPU, 0};
}

DLDataType adjoint::rt::dlpack::dataTypeOf(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return {2, 64, 1};
  case DType::F32:
    return {2, 32, 1};
  case DType::F16:
    return {2, 16, 1};
  case DType::BF16:
    return {4, 16, 1};
  case DType::I64:
    return {0, 64, 1};
  case DType::I32:
    return {0, 32, 1};
  case DType::I1:
    return {6, 8, 1};
  case DType::C64:
    return {5, 64, 1};
  case DType::C128:
    return {5, 128, 1};
  }
  throw Error("DLPack: unknown dtype");
}

namespace {

/// What an exported managed tensor owns: a reference to the tensor's
/// storage and the shape array its DLTensor points to.
template <typename Managed> struct Export {
  Managed managed;
  Tensor tensor;
  std::vector<int64_t> shape;
};

template <typename Managed>
Managed *exportAs(const Tensor &tensor) {
  if (!tensor.valid())
    throw Error("DLPack: cannot export an empty tensor");
  auto *e = new Export<Managed>{{}, tensor, tensor.shape()};
  DLTensor &t = e->managed.dl_tensor;
  t.data = tensor.data();
  t.device = deviceOf(tensor);
  t.ndim = int32_t(tensor.rank());
  t.dtype = dataTypeOf(tensor.dtype());
  t.shape = e->shape.data();
  t.strides = nullptr; // row-major
  t.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = [](Managed *self) {
    delete static_cast<Export<Managed> *>(self->manager_ctx);
  };
  return &e->managed;
}

DType dtypeOf(DLDataType t) {
  for (DType d : kAllDTypes) {
    DLDataType e = dataTypeOf(d);
    if (e.code == t.code && e.bits == t.bits && t.lanes == 1)
      return d;
  }
  throw Error("from_dlpack: unsupported DLPack dtype (code " +
              std::to_string(t.code) + ", " + std::to_string(t.bits) +
              " bits, " + std::to_string(t.lanes) + " lanes)");
}

/// The runtime device `cuda:N` / `hip:N` for a DLPack device id.
Device &deviceNamed(const char *kind, int32_t index, const char *memory) {
  std::string id = std::string(kind) + ":" + std::to_string(index);
  Device *device = nullptr;
  if (index < 0)
    throw Error(std::string("from_dlpack: ") + memory +
                " memory with a negative device id " + std::to_string(index));
  if (Status status = findDevice(id, &device); !status.ok())
    throw Error(std::string("from_dlpack: the tensor is ") + memory +
                " memory of " + id + ", which is unusable here: " +
                status.toString());
  return *device;
}

/// The OpenCL or Level Zero device whose pool holds `base` (the start of
/// the producer's block); oneAPI device ids number SYCL's devices, not
/// ours, so the pointer decides.
Device &oneApiDeviceOf(const void *base) {
  for (Device *device : devices()) {
    DeviceKind kind = device->kind();
    if ((kind == DeviceKind::OpenCL || kind == DeviceKind::LevelZero) &&
        static_cast<gpu::GpuDevice *>(device)->ownsBlock(base))
      return *device;
  }
  throw Error("from_dlpack: the tensor is oneAPI (kDLOneAPI) memory that no "
              "OpenCL or Level Zero device of this runtime allocated; only "
              "memory exported by adjoint can be imported on those devices "
              "(copy the tensor to the host first)");
}

/// Where a DLPack tensor's memory is, as a runtime device.
Device &deviceOfImport(const DLTensor &t) {
  switch (t.device.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
  case kDLROCMHost:
    return cpuDevice();
  case kDLCUDA:
  case kDLCUDAManaged:
    return deviceNamed("cuda", t.device.device_id, "CUDA");
  case kDLROCM:
    return deviceNamed("hip", t.device.device_id, "ROCm");
  case kDLOneAPI:
    return oneApiDeviceOf(t.data);
  default:
    throw Error("from_dlpack: unsupported DLPack device type " +
                std::to_string(t.device.device_type) +
                " (CPU, CUDA, ROCm and oneAPI memory are supported); copy "
                "the tensor to the host first");
  }
}

} // namespace

DLManagedTensor *adjoint::rt::dlpack::exportTensor(const Tensor &tensor) {
  return exportAs<DLManagedTensor>(tensor);
}

DLManagedTensorVersioned *
adjoint::rt::dlpack::exportTensorVersioned(const Tensor &tensor,
                                           bool copied) {
  DLManagedTensorVersioned *managed =
      exportAs<DLManagedTensorVersioned>(tensor);
  managed->version = kVersion;
  managed->flags = (tensor.isReadOnly() ? kFlagReadOnly : 0) |
                   (copied ? kFlagIsCopied : 0);
  return managed;
}

Tensor adjoint::rt::dlpack::importTensor(const DLTensor &t,
                                         std::shared_ptr<void> owner,
                                         bool readOnly) {
  if (t.ndim < 0 || (t.ndim > 0 && !t.shape))
    throw Error("from_dlpack: malformed DLPack tensor (rank " +
                std::to_string(t.ndim) + ")");
  DType dtype = dtypeOf(t.dtype);
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  // A tensor without elements has no layout to check (torch gives
  // empty(3, 0) the strides (1, 1)).
  bool empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
  if (t.strides && !empty) {
    int64_t expected = 1;
    for (int32_t i = t.ndim - 1; i >= 0; --i) {
      if (shape[i] != 1 && t.strides[i] != expected)
        throw Error("from_dlpack: the tensor is not row-major contiguous; "
                    "make it contiguous first");
      expected *= shape[i];
    }
  }
  if (t.byte_offset % dtypeSize(dtype) != 0)
    throw Error("from_dlpack: the byte offset " +
                std::to_string(t.byte_offset) +
                " is not a multiple of the element size " +
                std::to_string(dtypeSize(dtype)));
  Device &device = deviceOfImport(t);
  if (device.kind() != DeviceKind::CPU) {
    // invoke() returns with its kernels still queued: when the last tensor
    // dies, our queue may still read or write the producer's memory, and a
    // caching allocator (torch's) hands it out again at once to work on
    // its own stream. Give it back only once our queue has passed it.
    // Devices live for the whole process.
    owner = std::shared_ptr<void>(owner.get(),
                                  [producer = owner, &device](void *) mutable {
                                    (void)device.synchronize();
                                    producer.reset();
                                  });
  }
  void *data = static_cast<char *>(t.data) + t.byte_offset;
  Tensor tensor = Tensor::adopt(dtype, std::move(shape), data,
                                std::move(owner), &device);
  return readOnly ? tensor.asReadOnly() : tensor;
}
