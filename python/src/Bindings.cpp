//===- Bindings.cpp - The adjoint._adjoint extension module ---------------===//

#include "Bindings.h"

#include "adjoint/InitAll.h"
#include "adjoint/Support/Error.h"

using namespace adjoint;
using namespace adjoint::python;

PYBIND11_MODULE(_adjoint, m) {
  m.doc() = "Bindings of Adjoint's C++ API (builder, passes, compile, run)";

  // Pass pipelines are parsed by name from MLIR's global registry.
  registerAllPasses();

  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const Error &e) {
      error(e.what());
    }
  });

  bindBuilder(m);
  bindOps(m);
  bindPasses(m);
  bindTensor(m);
  bindRun(m);
}
