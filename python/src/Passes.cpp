//===- Passes.cpp - Pass pipelines by name --------------------------------===//
//
// run_passes(): api::runPasses (include/adjoint/API/Passes.h) for Python.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include "adjoint/API/Passes.h"

#include <pybind11/stl.h>

using namespace adjoint;
using namespace adjoint::python;

void adjoint::python::bindPasses(py::module_ &m) {
  m.def(
      "run_passes",
      [](api::Module &module, const std::string &pipeline,
         bool printAfterEach) -> py::object {
        std::vector<api::PassSnapshot> list =
            api::runPasses(module, pipeline, printAfterEach);
        if (!printAfterEach)
          return py::none();
        py::list out;
        for (const api::PassSnapshot &s : list)
          out.append(py::make_tuple(s.pass, s.ir));
        return out;
      },
      py::arg("module"), py::arg("pipeline"),
      py::arg("print_after_each") = false,
      "Runs a textual pass pipeline (\"adj-grad,adj-optimize\") on the "
      "module in place. With print_after_each, returns [(pass, ir), ...] "
      "with the IR after every pass. Raises adjoint.Error with MLIR's "
      "diagnostics on failure.");
}
