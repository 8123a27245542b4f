//===- Tensor.cpp - Runtime tensors, numpy and DLPack ---------------------===//
//
// Inputs borrow numpy memory (C-contiguous arrays, no copy); outputs are
// numpy arrays over the runtime's own buffers, whose base object holds a
// reference to the buffer (no copy either). adjoint.Tensor wraps a runtime
// tensor with the buffer protocol and DLPack for other frameworks.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "adjoint/Runtime/Device.h"
#include "adjoint/Support/Error.h"

#include <pybind11/stl.h>

#include <cstring>

using namespace adjoint;
using namespace adjoint::python;

namespace {

/// Row-major byte strides of a tensor.
std::vector<py::ssize_t> rowMajorStrides(const rt::Tensor &t) {
  std::vector<py::ssize_t> strides(t.shape().size());
  py::ssize_t stride = py::ssize_t(dtypeSize(t.dtype()));
  for (size_t i = strides.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= t.shape()[i];
  }
  return strides;
}

/// The runtime dtype of a numpy dtype; false when there is none.
bool runtimeDType(const py::dtype &dt, DType &out) {
  // Read through Python attributes: pybind11 2.10's dtype accessors assume
  // numpy 1's descriptor layout, which numpy 2 changed.
  char kind = dt.attr("kind").cast<std::string>()[0];
  size_t size = dt.attr("itemsize").cast<size_t>();
  if (kind == 'f' && size == 8)
    out = DType::F64;
  else if (kind == 'f' && size == 4)
    out = DType::F32;
  else if (kind == 'f' && size == 2)
    out = DType::F16;
  else if (kind == 'i' && size == 8)
    out = DType::I64;
  else if (kind == 'i' && size == 4)
    out = DType::I32;
  else if (kind == 'b' && size == 1)
    out = DType::I1;
  else
    return false;
  return true;
}

std::vector<int64_t> shapeOf(const py::array &array) {
  return std::vector<int64_t>(array.shape(), array.shape() + array.ndim());
}

//===----------------------------------------------------------------------===//
// DLPack (the ABI of dlpack.h, version 0.8, written from its specification)
//===----------------------------------------------------------------------===//

struct DLDevice {
  int32_t device_type; // 1 = kDLCPU
  int32_t device_id;
};
struct DLDataType {
  uint8_t code; // 0 int, 1 uint, 2 float, 4 bfloat, 6 bool
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};
constexpr int32_t kDLCPU = 1;
/// Unified shared memory of a oneAPI device: what OpenCL (Intel USM) and
/// Level Zero device pointers are.
constexpr int32_t kDLOneAPI = 14;

/// The DLPack device of where `tensor` lives.
DLDevice dlDevice(const rt::Tensor &tensor) {
  if (tensor.isOnHost())
    return {kDLCPU, 0};
  rt::Device &device = tensor.device();
  switch (device.kind()) {
  case rt::DeviceKind::OpenCL:
  case rt::DeviceKind::LevelZero:
    return {kDLOneAPI, device.index()};
  default:
    throw Error(std::string("DLPack: tensors on ") + device.id() +
                " cannot be exported yet");
  }
}

DLDataType dlType(DType dtype) {
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
  }
  throw Error("unknown dtype");
}

DType fromDLType(DLDataType t) {
  for (DType d : kAllDTypes) {
    DLDataType e = dlType(d);
    if (e.code == t.code && e.bits == t.bits && t.lanes == 1)
      return d;
  }
  throw Error("from_dlpack: unsupported DLPack dtype (code " +
              std::to_string(t.code) + ", " + std::to_string(t.bits) +
              " bits, " + std::to_string(t.lanes) + " lanes)");
}

/// What an exported DLManagedTensor owns: the tensor (its storage) and the
/// shape array the DLTensor points to.
struct Export {
  DLManagedTensor managed;
  rt::Tensor tensor;
  std::vector<int64_t> shape;
};

py::capsule toDLPack(const rt::Tensor &tensor) {
  auto *e = new Export{{}, tensor, tensor.shape()};
  DLTensor &t = e->managed.dl_tensor;
  t.data = tensor.data();
  t.device = dlDevice(tensor);
  t.ndim = int32_t(tensor.rank());
  t.dtype = dlType(tensor.dtype());
  t.shape = e->shape.data();
  t.strides = nullptr; // row-major
  t.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = [](DLManagedTensor *self) {
    delete static_cast<Export *>(self->manager_ctx);
  };
  // A consumer renames the capsule to "used_dltensor" and calls the deleter
  // itself; an unconsumed capsule deletes the tensor here.
  PyObject *capsule = PyCapsule_New(&e->managed, "dltensor", [](PyObject *c) {
    if (PyCapsule_IsValid(c, "dltensor")) {
      auto *managed =
          static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, "dltensor"));
      managed->deleter(managed);
    }
  });
  if (!capsule) {
    delete e;
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

rt::Tensor fromDLPack(const py::object &source) {
  py::object capsule = py::hasattr(source, "__dlpack__")
                           ? source.attr("__dlpack__")()
                           : source;
  if (!PyCapsule_IsValid(capsule.ptr(), "dltensor"))
    throw Error("from_dlpack: expected an object with __dlpack__ or an "
                "unused 'dltensor' capsule");
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  // The tensor is ours from here on (also when we throw below): the capsule
  // must not free it again.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  std::shared_ptr<void> owner(managed, [](void *p) {
    auto *m = static_cast<DLManagedTensor *>(p);
    if (m->deleter)
      m->deleter(m);
  });
  const DLTensor &t = managed->dl_tensor;
  if (t.device.device_type != kDLCPU)
    throw Error("from_dlpack: only CPU tensors can be imported (device "
                "type " +
                std::to_string(t.device.device_type) +
                "); copy the tensor to the host first");
  DType dtype = fromDLType(t.dtype);
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  if (t.strides) {
    int64_t expected = 1;
    for (int32_t i = t.ndim - 1; i >= 0; --i) {
      if (shape[i] != 1 && t.strides[i] != expected)
        throw Error("from_dlpack: the tensor is not row-major contiguous; "
                    "make it contiguous first");
      expected *= shape[i];
    }
  }
  void *data = static_cast<char *>(t.data) + t.byte_offset;
  return rt::Tensor::adopt(dtype, std::move(shape), data, std::move(owner));
}

/// pybind11's buffer hook cannot fail (a getter that throws terminates the
/// process), and device memory must not be handed out as a host buffer:
/// the type's hook refuses device tensors with a BufferError first. numpy
/// then falls back to __array__, which copies to the host.
getbufferproc pybindGetBuffer = nullptr;

extern "C" int getTensorBuffer(PyObject *obj, Py_buffer *view, int flags) {
  const rt::Tensor *tensor = nullptr;
  try {
    tensor = &py::handle(obj).cast<const rt::Tensor &>();
  } catch (const py::cast_error &) {
  }
  if (tensor && !tensor->isOnHost()) {
    if (view)
      view->obj = nullptr;
    std::string message = "the tensor is on " + tensor->device().id() +
                          ": copy it to the host first (adjoint.to_numpy(x) "
                          "or x.numpy())";
    PyErr_SetString(PyExc_BufferError, message.c_str());
    return -1;
  }
  return pybindGetBuffer(obj, view, flags);
}

void guardBufferOfDeviceTensors(py::class_<rt::Tensor> &cls) {
  auto *type = reinterpret_cast<PyTypeObject *>(cls.ptr());
  pybindGetBuffer = type->tp_as_buffer->bf_getbuffer;
  type->tp_as_buffer->bf_getbuffer = getTensorBuffer;
}

} // namespace

py::dtype adjoint::python::numpyDType(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return py::dtype::of<double>();
  case DType::F32:
    return py::dtype::of<float>();
  case DType::F16:
    return py::dtype("float16");
  case DType::I64:
    return py::dtype::of<int64_t>();
  case DType::I32:
    return py::dtype::of<int32_t>();
  case DType::I1:
    return py::dtype::of<bool>();
  case DType::BF16:
    break;
  }
  throw Error("numpy has no bf16 dtype; cast the result to f32 first");
}

rt::Tensor adjoint::python::borrowArray(const py::array &array) {
  DType dtype;
  if (!runtimeDType(array.dtype(), dtype))
    throw Error("unsupported numpy dtype " +
                std::string(py::str(array.dtype())) +
                " (f64, f32, f16, i64, i32 and bool are)");
  if (!(array.flags() & py::array::c_style))
    throw Error("the array is not C-contiguous");
  return rt::Tensor::borrow(dtype, shapeOf(array),
                            const_cast<void *>(array.data()));
}

py::array adjoint::python::adoptTensor(const rt::Tensor &device) {
  // numpy reads host memory only: a device tensor is copied (after the
  // work that computes it).
  rt::Tensor tensor = device.isOnHost() ? device : device.toHost();
  py::dtype dt = numpyDType(tensor.dtype());
  // The capsule owns a copy of the Tensor, i.e. a reference to its storage.
  auto *keep = new rt::Tensor(tensor);
  py::capsule base(keep, [](void *p) { delete static_cast<rt::Tensor *>(p); });
  std::vector<py::ssize_t> shape(tensor.shape().begin(), tensor.shape().end());
  return py::array(dt, shape, rowMajorStrides(tensor), tensor.data(), base);
}

void adjoint::python::bindTensor(py::module_ &m) {
  py::class_<rt::Tensor> cls(m, "Tensor", py::buffer_protocol(),
                         "A runtime tensor: row-major data that is owned "
                         "(shared) or borrowed from a numpy array.");
  cls.def_static(
          "from_numpy",
          [](py::array array) { return borrowArray(array); },
          py::arg("array"), py::keep_alive<0, 1>(),
          "Borrows a C-contiguous array's memory (no copy).")
      .def_property_readonly("dtype",
                             [](const rt::Tensor &t) {
                               return std::string(dtypeName(t.dtype()));
                             })
      .def_property_readonly("shape", &rt::Tensor::shape)
      .def_property_readonly(
          "data_ptr",
          [](const rt::Tensor &t) { return reinterpret_cast<uintptr_t>(t.data()); })
      .def_property_readonly("is_borrowed", &rt::Tensor::isBorrowed)
      .def(
          "numpy",
          [](const rt::Tensor &t) {
            if (t.isOnHost())
              return adoptTensor(t);
            rt::Tensor host;
            {
              // The copy waits for the device's queue.
              py::gil_scoped_release release;
              host = t.toHost();
            }
            return adoptTensor(host);
          },
          "A numpy array over this memory (no copy); for a device tensor, "
          "over a host copy (after the work that computes it is done).")
      .def(
          "__array__",
          [](const py::object &self, const py::object &dtype,
             const py::object &copy) {
            py::object array = self.attr("numpy")();
            if (!dtype.is_none())
              array = array.attr("astype")(dtype);
            return array;
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none())
      .def_property_readonly(
          "device", [](const rt::Tensor &t) -> rt::Device & { return t.device(); },
          py::return_value_policy::reference,
          "Where the data lives (adjoint.Device).")
      .def(
          "to",
          [](const rt::Tensor &t, const py::object &spec) {
            rt::Device &device = deviceOf(spec);
            py::gil_scoped_release release;
            return t.to(device);
          },
          py::arg("device"),
          "This tensor on `device` (itself when it is already there).")
      .def("__str__", &rt::Tensor::typeString)
      .def("__repr__",
           [](const rt::Tensor &t) {
             return "Tensor(" + t.typeString() + ", device=" +
                    t.device().id() + ")";
           })
      .def("__dlpack__", [](const rt::Tensor &t,
                            py::object stream) { return toDLPack(t); },
           py::arg("stream") = py::none())
      .def("__dlpack_device__",
           [](const rt::Tensor &t) {
             DLDevice d = dlDevice(t);
             return py::make_tuple(d.device_type, d.device_id);
           })
      .def_buffer([](const rt::Tensor &t) {
        py::dtype dt = numpyDType(t.dtype());
        std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
        std::string format = py::str(dt.attr("char"));
        return py::buffer_info(t.data(), py::ssize_t(dtypeSize(t.dtype())),
                               format, py::ssize_t(shape.size()), shape,
                               rowMajorStrides(t));
      });
  guardBufferOfDeviceTensors(cls);
  m.def("from_dlpack", &fromDLPack, py::arg("source"),
        "A Tensor sharing the memory of a CPU DLPack tensor (numpy, torch, "
        "...); it must be row-major contiguous.");
}
