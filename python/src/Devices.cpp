//===- Devices.cpp - Devices, placement and transfers ---------------------===//
//
// adjoint.devices(), adjoint.device(id), and the explicit transfers
// device_put / to_numpy. Devices live as long as the process (the runtime's
// registry owns them), so Python holds plain references.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "adjoint/Runtime/DeviceRegistry.h"
#include "adjoint/Support/Error.h"

#include <pybind11/stl.h>

using namespace adjoint;
using namespace adjoint::python;

namespace {

py::dict propertiesDict(const rt::Device &device) {
  const rt::DeviceProperties &p = device.properties();
  py::dict d;
  d["name"] = p.name;
  d["vendor"] = p.vendor;
  d["driver_version"] = p.driverVersion;
  d["chip"] = p.chip;
  d["memory_bytes"] = p.memoryBytes;
  d["max_workgroup_size"] = p.maxWorkgroupSize;
  d["max_workgroup_dims"] = py::make_tuple(
      p.maxWorkgroupDims[0], p.maxWorkgroupDims[1], p.maxWorkgroupDims[2]);
  d["local_memory_bytes"] = p.localMemoryBytes;
  d["compute_units"] = p.computeUnits;
  d["subgroup_sizes"] = p.subgroupSizes;
  d["fp64"] = p.fp64;
  d["fp16"] = p.fp16;
  return d;
}

py::dict memoryStatsDict(const rt::Device &device) {
  rt::PoolStats s = device.memoryStats();
  py::dict d;
  d["bytes_in_use"] = s.bytesInUse;
  d["bytes_cached"] = s.bytesCached;
  d["peak_bytes_in_use"] = s.peakBytesInUse;
  d["live_blocks"] = s.liveBlocks;
  return d;
}

py::dict countersDict(const rt::Device &device) {
  rt::DeviceCounters c = device.counters();
  py::dict d;
  d["kernels"] = c.kernels;
  d["library_calls"] = c.libraryCalls;
  d["copies"] = c.copies;
  d["fills"] = c.fills;
  d["calls"] = c.calls;
  d["graph_calls"] = c.graphCalls;
  d["graph_captures"] = c.graphCaptures;
  d["graph_updates"] = c.graphUpdates;
  d["graph_interrupts"] = c.graphInterrupts;
  d["graph_fallbacks"] = c.graphFallbacks;
  return d;
}

py::list kernelTimesList(const rt::Device &device) {
  py::list times;
  for (const rt::KernelTime &t : device.kernelTimes()) {
    py::dict d;
    d["name"] = t.name;
    d["calls"] = t.calls;
    d["milliseconds"] = t.milliseconds;
    times.append(d);
  }
  return times;
}

} // namespace

rt::Device &adjoint::python::deviceOf(const py::handle &spec) {
  if (py::isinstance<rt::Device>(spec))
    return spec.cast<rt::Device &>();
  if (!py::isinstance<py::str>(spec))
    throw Error("a device is an adjoint.Device or an id such as \"cpu\" or "
                "\"opencl:0\", not " +
                std::string(py::str(py::type::of(spec).attr("__name__"))));
  std::string id = spec.cast<std::string>();
  rt::Device *device = nullptr;
  rt::Status status = rt::findDevice(id, &device);
  if (!status.ok())
    throw Error("device '" + id + "': " + status.toString());
  return *device;
}

void adjoint::python::bindDevices(py::module_ &m) {
  py::class_<rt::Device, std::unique_ptr<rt::Device, py::nodelete>>(
      m, "Device",
      "Where tensors live and compiled code runs: the host CPU or a GPU "
      "(adjoint.devices() lists them).")
      .def_property_readonly("id", &rt::Device::id,
                             "\"cpu\", \"opencl:0\", \"level_zero:1\", ...")
      .def_property_readonly("kind",
                             [](const rt::Device &d) {
                               return std::string(rt::deviceKindName(d.kind()));
                             })
      .def_property_readonly("index", &rt::Device::index)
      .def_property_readonly("name", &rt::Device::name)
      .def_property_readonly("properties", &propertiesDict,
                             "Limits and features: workgroup sizes, "
                             "subgroup sizes, memory, fp64/fp16.")
      .def("memory_stats", &memoryStatsDict,
           "The device's caching pool: bytes in use, cached, peak.")
      .def("counters", &countersDict,
           "What the device ran since the process began: kernels (launched "
           "or in graphs), vendor-library GEMMs, copies, fills, compiled "
           "calls, calls run as one graph launch, graphs captured and "
           "updated in place, and why functions run without graphs. Zeros "
           "on the CPU.")
      .def("set_profiling", &rt::Device::setProfiling, py::arg("on"),
           "Profiling mode: each kernel timed on the device (slow; graphs "
           "off). Switching it on clears kernel_times().")
      .def("kernel_times", &kernelTimesList,
           "The kernels timed while profiling, the most expensive first: "
           "name, calls, milliseconds (negative where the driver cannot "
           "time).")
      .def("empty_cache", &rt::Device::emptyCache,
           "Gives the pool's cached blocks back to the driver.")
      .def(
          "synchronize",
          [](rt::Device &d) {
            rt::Status status;
            {
              py::gil_scoped_release release;
              status = d.synchronize();
            }
            if (!status.ok())
              throw Error(d.id() + ": " + status.toString());
          },
          "Waits for the work queued on the device.")
      .def("__eq__",
           [](const rt::Device &a, const py::object &b) -> py::object {
             // Anything but a Device is unequal, not an error (== with a
             // string or None in user code and in containers).
             if (!py::isinstance<rt::Device>(b))
               return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             return py::bool_(&a == &b.cast<const rt::Device &>());
           })
      .def("__hash__",
           [](const rt::Device &d) { return std::hash<std::string>()(d.id()); })
      .def("__repr__", [](const rt::Device &d) {
        return "Device(" + d.id() + ", " + d.name() + ")";
      });

  m.def(
      "devices", [] { return rt::devices(); },
      py::return_value_policy::reference,
      "Every usable device, the CPU first. Drivers are probed on the first "
      "call; a missing driver lists no device (adjoint.device(id) says why).");
  m.def(
      "device", [](const py::object &spec) -> rt::Device & {
        return deviceOf(spec);
      },
      py::arg("id"), py::return_value_policy::reference,
      "The device with this id (\"cpu\", \"opencl:0\"; \"opencl\" is "
      "\"opencl:0\"); raises adjoint.Error with the reason when it is "
      "unavailable.");
  m.def(
      "device_put",
      [](const py::object &x, const py::object &spec) {
        rt::Device &device = deviceOf(spec);
        if (py::isinstance<rt::Tensor>(x)) {
          rt::Tensor tensor = x.cast<rt::Tensor>();
          py::gil_scoped_release release;
          return tensor.to(device);
        }
        // Any other array: borrowed while it is copied (once: to the
        // device, or into the host pool, since the result outlives it).
        py::array array = hostArray(x);
        rt::Tensor borrowed = borrowArray(array);
        py::gil_scoped_release release;
        return device.kind() == rt::DeviceKind::CPU ? borrowed.clone()
                                                    : borrowed.to(device);
      },
      py::arg("x"), py::arg("device"),
      "x (an array or an adjoint.Tensor) on `device`: a copy, unless it is "
      "already there. The result stays there between calls.");
  m.def(
      "to_numpy",
      [](const py::object &x) -> py::array {
        if (!py::isinstance<rt::Tensor>(x))
          return py::module_::import("numpy").attr("asarray")(x);
        rt::Tensor tensor = x.cast<rt::Tensor>();
        if (!tensor.isOnHost()) {
          py::gil_scoped_release release;
          tensor = tensor.toHost();
        }
        return adoptTensor(tensor);
      },
      py::arg("x"),
      "A numpy array of x: a view of a host tensor, a copy of a device "
      "tensor (after the work that computes it is done).");
}
