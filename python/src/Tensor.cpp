//===- Tensor.cpp - Runtime tensors, numpy and DLPack ---------------------===//
//
// Inputs borrow numpy memory (C-contiguous arrays, no copy); outputs are
// numpy arrays over the runtime's own buffers, whose base object holds a
// reference to the buffer (no copy either). adjoint.Tensor wraps a runtime
// tensor with the buffer protocol and DLPack for other frameworks.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "adjoint/Runtime/DLPack.h"
#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/DeviceRegistry.h"
#include "adjoint/Support/Error.h"

#include <pybind11/stl.h>

#include <bit>
#include <cstring>
#include <utility>

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

/// numpy's type number of float16 (pybind11 2.10 names none).
constexpr int kNumpyHalf = 23;

/// The runtime dtype of a builtin numpy dtype in native byte order, read
/// from the descriptor's kind, byteorder and type_num fields, which numpy 1
/// and 2 lay out alike (the item size moved), so without a Python call:
/// this runs for every argument of every call. False for any other dtype.
bool builtinDType(const py::dtype &dt, DType &out) {
  using api = py::detail::npy_api;
  char order = dt.byteorder();
  bool little = std::endian::native == std::endian::little;
  if (!(order == '=' || order == '|' || order == (little ? '<' : '>')))
    return false;
  int num = dt.num();
  switch (dt.kind()) {
  case 'b':
    out = DType::I1;
    return num == api::NPY_BOOL_;
  case 'f':
    out = num == api::NPY_FLOAT_    ? DType::F32
          : num == api::NPY_DOUBLE_ ? DType::F64
                                    : DType::F16;
    return num == api::NPY_FLOAT_ || num == api::NPY_DOUBLE_ ||
           num == kNumpyHalf;
  case 'i':
    out = num == api::NPY_INT32_ ? DType::I32 : DType::I64;
    return num == api::NPY_INT32_ || num == api::NPY_INT64_ ||
           (num == api::NPY_LONGLONG_ && sizeof(long long) == 8);
  case 'c':
    out = num == api::NPY_CFLOAT_ ? DType::C64 : DType::C128;
    return num == api::NPY_CFLOAT_ || num == api::NPY_CDOUBLE_;
  default:
    return false;
  }
}

/// The runtime dtype of a numpy dtype; false when there is none.
bool runtimeDType(const py::dtype &dt, DType &out) {
  if (builtinDType(dt, out))
    return true;
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
  else if (kind == 'c' && size == 8)
    out = DType::C64;
  else if (kind == 'c' && size == 16)
    out = DType::C128;
  else
    return false;
  // Swapped bytes (">f4" read from FITS or HDF5 on a little-endian host)
  // would be misread as native: hostArray converts them first.
  char order = dt.attr("byteorder").cast<std::string>()[0];
  return order != (std::endian::native == std::endian::little ? '>' : '<');
}

std::vector<int64_t> shapeOf(const py::array &array) {
  return std::vector<int64_t>(array.shape(), array.shape() + array.ndim());
}

//===----------------------------------------------------------------------===//
// DLPack: the capsules and the stream protocol of the Python array API
// (the managed tensors themselves are the runtime's, adjoint/Runtime/DLPack.h)
//===----------------------------------------------------------------------===//

namespace dl = rt::dlpack;

/// The capsule names of the two managed tensor versions.
template <typename Managed> struct CapsuleName;
template <> struct CapsuleName<dl::DLManagedTensor> {
  static constexpr const char *fresh = "dltensor";
  static constexpr const char *used = "used_dltensor";
};
template <> struct CapsuleName<dl::DLManagedTensorVersioned> {
  static constexpr const char *fresh = "dltensor_versioned";
  static constexpr const char *used = "used_dltensor_versioned";
};

/// A capsule over a managed tensor. A consumer renames it to its "used"
/// name and calls the deleter itself; an unconsumed capsule calls it when
/// it dies.
template <typename Managed> py::capsule managedCapsule(Managed *managed) {
  PyCapsule_Destructor destroy = [](PyObject *c) {
    const char *name = CapsuleName<Managed>::fresh;
    if (!PyCapsule_IsValid(c, name))
      return; // consumed: the consumer calls the deleter
    auto *m = static_cast<Managed *>(PyCapsule_GetPointer(c, name));
    m->deleter(m);
  };
  PyObject *capsule =
      PyCapsule_New(managed, CapsuleName<Managed>::fresh, destroy);
  if (!capsule) {
    managed->deleter(managed);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::capsule>(capsule);
}

/// Takes the managed tensor of an unused capsule: renamed as used, it is
/// ours from here on (also when the import throws), released through the
/// returned owner, which calls the producer's deleter.
template <typename Managed>
std::pair<Managed *, std::shared_ptr<void>> takeCapsule(PyObject *c) {
  auto *managed = static_cast<Managed *>(
      PyCapsule_GetPointer(c, CapsuleName<Managed>::fresh));
  PyCapsule_SetName(c, CapsuleName<Managed>::used);
  std::shared_ptr<void> owner(managed, [](void *p) {
    auto *m = static_cast<Managed *>(p);
    if (m->deleter)
      m->deleter(m);
  });
  return {managed, std::move(owner)};
}

/// Waits for the device's queue unless the consumer said it synchronizes
/// itself (stream -1). Our work runs on the device's one in-order queue,
/// whose handle consumers do not know: waiting for it makes the memory
/// ready for whatever stream the consumer uses.
void readyForConsumer(const rt::Tensor &t, const py::object &stream) {
  if (!stream.is_none() && !py::isinstance<py::int_>(stream))
    throw py::type_error("__dlpack__: stream must be an int or None");
  if (t.isOnHost()) {
    if (!stream.is_none() && stream.cast<long long>() != -1)
      throw py::value_error("__dlpack__: the tensor is in host memory; "
                            "stream must be None");
    return;
  }
  if (!stream.is_none() && stream.cast<long long>() == -1)
    return;
  rt::Status status;
  {
    py::gil_scoped_release release;
    status = t.device().synchronize();
  }
  if (!status.ok())
    throw Error("__dlpack__: " + t.device().id() + ": " + status.toString());
}

/// Tensor.__dlpack__ (the array API's signature): the tensor's memory
/// without a copy; a host copy when `dl_device` asks for the CPU (unless
/// copy=False); a fresh copy with copy=True. A consumer passing
/// max_version >= (1, 0) gets a versioned capsule (with the read-only and
/// is-copied flags), older ones the 0.x capsule.
py::capsule exportCapsule(const rt::Tensor &t, const py::object &stream,
                          const py::object &maxVersion,
                          const py::object &dlDevice,
                          const py::object &copy) {
  rt::Tensor tensor = t;
  bool copied = false;
  bool mayCopy = copy.is_none() || copy.cast<bool>();
  if (!dlDevice.is_none()) {
    auto wanted = dlDevice.cast<std::pair<int32_t, int32_t>>();
    dl::DLDevice here = dl::deviceOf(t);
    if (wanted.first != here.device_type || wanted.second != here.device_id) {
      if (wanted.first != dl::kDLCPU || !mayCopy)
        throw py::buffer_error(
            "__dlpack__: the tensor is on " + t.device().id() +
            "; it can be exported there or copied to the CPU (dl_device "
            "(1, 0)), not to (" + std::to_string(wanted.first) + ", " +
            std::to_string(wanted.second) + ")");
      py::gil_scoped_release release;
      tensor = t.toHost(); // waits for the work that computes it
      copied = true;
    }
  }
  if (!copied && !copy.is_none() && copy.cast<bool>()) {
    py::gil_scoped_release release;
    tensor = t.clone();
    copied = true;
  }
  // A host copy is complete already (toHost waited for it).
  if (!(copied && tensor.isOnHost()))
    readyForConsumer(tensor, stream);
  bool versioned = !maxVersion.is_none() &&
                   maxVersion.cast<std::pair<uint32_t, uint32_t>>().first >= 1;
  if (!versioned)
    return managedCapsule(dl::exportTensor(tensor));
  return managedCapsule(dl::exportTensorVersioned(tensor, copied));
}

/// The stream argument a consumer on our queue passes to a producer of
/// memory on `where` (its __dlpack_device__), so that the producer orders
/// its pending work before ours: the device's own stream where the driver
/// exposes it (CUDA); else the legacy default stream for CUDA (1) and the
/// default stream for ROCm (0), whose waits reach blocking streams only;
/// none for host and oneAPI memory (whose producers synchronize).
py::object consumerStream(std::pair<int32_t, int32_t> where) {
  const char *kind = nullptr;
  if (where.first == dl::kDLCUDA || where.first == dl::kDLCUDAManaged)
    kind = "cuda";
  else if (where.first == dl::kDLROCM)
    kind = "hip";
  else
    return py::none();
  rt::Device *device = nullptr;
  std::string id = std::string(kind) + ":" + std::to_string(where.second);
  if (rt::findDevice(id, &device).ok())
    if (uintptr_t stream = device->nativeStream())
      return py::int_(stream);
  return py::int_(where.first == dl::kDLROCM ? 0 : 1);
}

rt::Tensor fromDLPack(const py::object &source) {
  py::object capsule = source;
  if (py::hasattr(source, "__dlpack__")) {
    std::pair<int32_t, int32_t> where{dl::kDLCPU, 0};
    if (py::hasattr(source, "__dlpack_device__"))
      where = source.attr("__dlpack_device__")()
                  .cast<std::pair<int32_t, int32_t>>();
    py::object stream = consumerStream(where);
    try {
      capsule = source.attr("__dlpack__")(
          py::arg("stream") = stream,
          py::arg("max_version") = py::make_tuple(dl::kVersion.major,
                                                  dl::kVersion.minor));
    } catch (py::error_already_set &e) {
      // A producer of the 0.x protocol knows no max_version.
      if (!e.matches(PyExc_TypeError))
        throw;
      capsule = source.attr("__dlpack__")(py::arg("stream") = stream);
    }
  }
  PyObject *c = capsule.ptr();
  if (PyCapsule_IsValid(c, "dltensor_versioned")) {
    auto [managed, owner] = takeCapsule<dl::DLManagedTensorVersioned>(c);
    if (managed->version.major != dl::kVersion.major)
      throw Error("from_dlpack: DLPack version " +
                  std::to_string(managed->version.major) + "." +
                  std::to_string(managed->version.minor) +
                  " is not supported (1.x is)");
    bool readOnly = managed->flags & dl::kFlagReadOnly;
    return dl::importTensor(managed->dl_tensor, std::move(owner), readOnly);
  }
  if (PyCapsule_IsValid(c, "dltensor")) {
    auto [managed, owner] = takeCapsule<dl::DLManagedTensor>(c);
    return dl::importTensor(managed->dl_tensor, std::move(owner));
  }
  throw Error("from_dlpack: expected an object with __dlpack__ or an "
              "unused 'dltensor' or 'dltensor_versioned' capsule");
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

py::array adjoint::python::hostArray(const py::handle &x) {
  // numpy.asarray, not py::array::ensure: ensure clears numpy's exception
  // (a ragged list, a broadcast too large to copy, an __array__ that
  // raises), so the caller could only report that something failed. (Not
  // ascontiguousarray either: it makes a 0-d array 1-d.)
  py::module_ np = py::module_::import("numpy");
  py::object array = np.attr("asarray")(x, py::arg("order") = "C");
  py::object dtype = array.attr("dtype");
  char order = dtype.attr("byteorder").cast<std::string>()[0];
  if (order == (std::endian::native == std::endian::little ? '>' : '<'))
    array = array.attr("astype")(dtype.attr("newbyteorder")("="));
  return py::reinterpret_borrow<py::array>(array);
}

py::object adjoint::python::numpyDTypeObject(DType dtype) {
  if (dtype != DType::BF16)
    return numpyDType(dtype);
  // numpy has no bfloat16; ml_dtypes' is the one JAX and TensorFlow use.
  return py::module_::import("numpy").attr("dtype")(
      py::module_::import("ml_dtypes").attr("bfloat16"));
}

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
  case DType::C64:
    return py::dtype("complex64");
  case DType::C128:
    return py::dtype("complex128");
  case DType::BF16:
    break;
  }
  throw Error("numpy has no bf16 dtype; cast the result to f32 first");
}

bool adjoint::python::borrowsAs(const py::handle &object, DType dtype) {
  if (!py::isinstance<py::array>(object))
    return false;
  auto array = py::reinterpret_borrow<py::array>(object);
  DType actual;
  return (array.flags() & py::array::c_style) &&
         builtinDType(array.dtype(), actual) && actual == dtype;
}

rt::Tensor adjoint::python::borrowArray(const py::array &array) {
  DType dtype;
  if (!runtimeDType(array.dtype(), dtype))
    throw Error("unsupported numpy dtype " +
                std::string(py::str(array.dtype())) +
                " (f64, f32, f16, i64, i32 and bool are)");
  if (!(array.flags() & py::array::c_style))
    throw Error("the array is not C-contiguous");
  rt::Tensor tensor = rt::Tensor::borrow(dtype, shapeOf(array),
                                        const_cast<void *>(array.data()));
  // A read-only array stays read-only when exported again (DLPack).
  return array.writeable() ? tensor : tensor.asReadOnly();
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
  py::array array(dt, shape, rowMajorStrides(tensor), tensor.data(), base);
  if (tensor.isReadOnly())
    array.attr("setflags")(py::arg("write") = false);
  return array;
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
      .def_property_readonly(
          "dtype",
          [](const rt::Tensor &t) { return numpyDTypeObject(t.dtype()); },
          "The element type as a numpy dtype (bf16: ml_dtypes.bfloat16).")
      .def_property_readonly(
          "shape",
          [](const rt::Tensor &t) { return py::tuple(py::cast(t.shape())); },
          "The shape, a tuple of ints as numpy's.")
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
      .def("__dlpack__", &exportCapsule, py::kw_only(),
           py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
           py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
           "The memory as a DLPack capsule (no copy). A device tensor's "
           "queue is waited for first unless stream is -1.")
      .def("__dlpack_device__",
           [](const rt::Tensor &t) {
             dl::DLDevice d = dl::deviceOf(t);
             return py::make_tuple(d.device_type, d.device_id);
           })
      .def_property_readonly("readonly", &rt::Tensor::isReadOnly,
                             "Whether the producer lent the memory "
                             "read-only (DLPack).")
      .def_buffer([](const rt::Tensor &t) {
        py::dtype dt = numpyDType(t.dtype());
        std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
        std::string format = py::str(dt.attr("char"));
        return py::buffer_info(t.data(), py::ssize_t(dtypeSize(t.dtype())),
                               format, py::ssize_t(shape.size()), shape,
                               rowMajorStrides(t), t.isReadOnly());
      });
  guardBufferOfDeviceTensors(cls);
  m.def("from_dlpack", &fromDLPack, py::arg("source"),
        "A Tensor sharing the memory of a DLPack tensor (numpy, torch, JAX, "
        "...) without a copy: host memory on the CPU, CUDA memory on "
        "cuda:N, ROCm memory on hip:N, oneAPI memory on the OpenCL or Level "
        "Zero device that allocated it. It must be row-major contiguous; "
        "it keeps the producer's memory alive.");
}
