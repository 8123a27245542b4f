//===- Bindings.h - Pieces of the adjoint Python extension ------*- C++ -*-===//
//
// The extension is split by topic; each file adds its part of the API to the
// module. The bindings only convert between Python and the C++ API: every
// behaviour lives in the C++ libraries.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PYTHON_BINDINGS_H
#define ADJOINT_PYTHON_BINDINGS_H

#include "adjoint/API/Builder.h"
#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/Tensor.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

namespace adjoint::python {

namespace py = pybind11;

/// The Python face of an api::Value: the value and a reference to its
/// Module, so that the Module (which owns the IR) lives as long as any Value
/// of it does, whatever order Python collects them in.
struct PyValue {
  api::Value value;
  std::shared_ptr<api::Module> module;
};

/// Records the Module behind `module->state()`, for PyValues made later.
void registerModule(const std::shared_ptr<api::Module> &module);
/// The Module that owns `value` (null when unknown).
std::shared_ptr<api::Module> moduleOf(const api::Value &value);

/// Module, Function, Type, DType and Value (with its operators).
void bindBuilder(py::module_ &m);
/// The tensor functions, control flow and AD requests.
void bindOps(py::module_ &m);
/// Pass pipelines by name and the IR text.
void bindPasses(py::module_ &m);
/// Runtime tensors: numpy (buffer protocol) and DLPack.
void bindTensor(py::module_ &m);
/// compile() and interpret().
void bindRun(py::module_ &m);
/// Devices, device_put and to_numpy.
void bindDevices(py::module_ &m);

/// Several results as Python: one Value itself, otherwise a tuple.
py::object toPython(const std::vector<api::Value> &values);

/// A region body from a Python callable taking Values and returning a Value
/// or a sequence of Values.
api::detail::BodyFn bodyFromPython(py::function fn);

/// A runtime tensor that borrows `array`'s memory when it is C-contiguous
/// with a supported dtype; otherwise throws adjoint::Error. The caller keeps
/// `array` alive while the tensor is in use.
rt::Tensor borrowArray(const py::array &array);
/// Whether `object` is a numpy array that borrowArray takes as it is for an
/// input of `dtype` (C-contiguous, that dtype in native byte order): the
/// quick check of the call path, which converts anything else.
bool borrowsAs(const py::handle &object, DType dtype);
/// A numpy array over `tensor`'s memory (no copy); the array's base object
/// keeps the tensor's storage alive.
py::array adoptTensor(const rt::Tensor &tensor);
/// The numpy dtype of a runtime dtype; throws adjoint::Error for bf16.
py::dtype numpyDType(DType dtype);
/// numpyDType, and for bf16 ml_dtypes' bfloat16 (an ImportError when that
/// package is missing).
py::object numpyDTypeObject(DType dtype);
/// `x` as a C-contiguous numpy array in native byte order (a copy when it
/// is not one already); numpy's own exception when it cannot convert.
py::array hostArray(const py::handle &x);

/// The device `spec` names: an adjoint.Device or an id ("opencl:0");
/// throws adjoint::Error with the reason when it is unavailable.
rt::Device &deviceOf(const py::handle &spec);

} // namespace adjoint::python

namespace pybind11::detail {

/// api::Value crosses into Python as a PyValue (with its Module) and back as
/// the plain Value, so every binding can take and return api::Value.
template <> struct type_caster<adjoint::api::Value> {
  PYBIND11_TYPE_CASTER(adjoint::api::Value, const_name("Value"));

  bool load(handle src, bool convert) {
    make_caster<adjoint::python::PyValue> inner;
    if (!inner.load(src, convert))
      return false;
    value = cast_op<adjoint::python::PyValue &>(inner).value;
    return true;
  }

  static handle cast(const adjoint::api::Value &v, return_value_policy,
                     handle parent) {
    return make_caster<adjoint::python::PyValue>::cast(
        adjoint::python::PyValue{v, adjoint::python::moduleOf(v)},
        return_value_policy::move, parent);
  }
};

} // namespace pybind11::detail

#endif // ADJOINT_PYTHON_BINDINGS_H
