//===- Bindings.cpp - The adjoint._adjoint extension module ---------------===//

#include "Bindings.h"

#include "adjoint/InitAll.h"
#include "adjoint/Support/Error.h"

#include <pybind11/numpy.h>

using namespace adjoint;
using namespace adjoint::python;

PYBIND11_MODULE(_adjoint, m) {
  m.doc() = "Bindings of Adjoint's C++ API (builder, passes, compile, run)";

  // Pass pipelines are parsed by name from MLIR's global registry.
  registerAllPasses();

  // pybind11 looks numpy's C API up on first use, in a function-local
  // static whose initializer imports numpy.core.multiarray. An import
  // releases the GIL, so a second thread that makes its first numpy call
  // then waits for that static while holding the GIL, and the importing
  // thread never gets the GIL back: a deadlock. Doing the lookup here, under
  // the import lock and before any other thread can call us, avoids it.
  py::module_::import("numpy");
  py::detail::npy_api::get();

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
  bindDevices(m);
  bindRun(m);
}
