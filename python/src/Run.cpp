//===- Run.cpp - compile() and interpret() --------------------------------===//

#include "Bindings.h"

#include "adjoint/API/Compile.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

using namespace adjoint;
using namespace adjoint::python;

namespace {

/// One output as Python: a numpy array over host memory, an adjoint.Tensor
/// that stays on its device (read it with to_numpy).
py::object pyOutput(const rt::Tensor &output) {
  if (output.isOnHost())
    return adoptTensor(output);
  return py::cast(output);
}

/// Outputs as Python: one itself, otherwise a tuple.
py::object arrays(const std::vector<rt::Tensor> &outputs) {
  if (outputs.size() == 1)
    return pyOutput(outputs.front());
  py::tuple t(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i)
    t[i] = pyOutput(outputs[i]);
  return std::move(t);
}

/// Runs `exe` on Python inputs: adjoint.Tensors as they are, anything else
/// through numpy as a C-contiguous array of the expected dtype (no copy when
/// it already is one).
py::object runExecutable(const Executable &exe, const py::args &args,
                         const py::kwargs &kwargs) {
  rt::Device *device = nullptr;
  for (auto [key, value] : kwargs) {
    std::string name = py::str(key);
    if (name != "device")
      throw py::type_error("Executable() got an unexpected keyword argument '" +
                           name + "'");
    if (!value.is_none())
      device = &deviceOf(value);
  }
  const rt::Signature &sig = exe.signature();
  if (args.size() != sig.inputs.size())
    throw Error("@" + exe.function() + " takes " +
                std::to_string(sig.inputs.size()) + " inputs, got " +
                std::to_string(args.size()));
  std::vector<py::object> keepAlive;
  std::vector<rt::Tensor> inputs;
  inputs.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    // The common case first, without a Python call: a numpy array that is
    // already what the signature wants (args keeps it alive).
    if (borrowsAs(args[i], sig.inputs[i].dtype)) {
      inputs.push_back(borrowArray(py::reinterpret_borrow<py::array>(args[i])));
      continue;
    }
    if (py::isinstance<rt::Tensor>(args[i])) {
      inputs.push_back(args[i].cast<rt::Tensor>());
      continue;
    }
    py::array array = hostArray(args[i]);
    if (sig.inputs[i].dtype != DType::BF16)
      array = py::array::ensure(
          py::module_::import("numpy").attr("asarray")(
              array, numpyDType(sig.inputs[i].dtype)),
          py::array::c_style);
    keepAlive.push_back(array);
    inputs.push_back(borrowArray(array));
  }
  std::vector<rt::Tensor> outputs;
  {
    // Compiled code does not touch Python objects.
    py::gil_scoped_release release;
    outputs = exe.run(inputs, device);
  }
  return arrays(outputs);
}

/// The module's IR as text that parses back into an equal module: the
/// generic form with locations round-trips exactly, even for a module that
/// does not verify (compile() and the interpreter report that, with their
/// diagnostics). compile() and interpret() print it while they hold the GIL
/// and then work on a copy parsed into a context of its own without the
/// GIL, so that other Python threads run meanwhile and nothing they do to
/// the Module (build into it, compile it too) races with the work.
std::string moduleText(const api::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.op().print(
      os, mlir::OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  return text;
}

/// `text` (from moduleText) parsed into the context of `owner`, a Module
/// of its own; needs no GIL.
mlir::OwningOpRef<mlir::ModuleOp> parseCopy(api::Module &owner,
                                            const std::string &text,
                                            const std::string &what) {
  mlir::ParserConfig config(owner.context(), /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (!parsed)
    throw Error(what + ": internal error: the module does not parse back");
  return parsed;
}

interp::Value interpArg(const py::handle &arg) {
  if (py::isinstance<py::tuple>(arg) || py::isinstance<py::list>(arg)) {
    std::vector<interp::Value> elements;
    for (py::handle e : arg)
      elements.push_back(interpArg(e));
    return interp::Value::tuple(std::move(elements));
  }
  rt::Tensor tensor;
  py::array array;
  if (py::isinstance<rt::Tensor>(arg)) {
    tensor = arg.cast<rt::Tensor>();
  } else {
    array = hostArray(arg);
    tensor = borrowArray(array);
  }
  return adjoint::toInterpreter(tensor);
}

py::object fromInterpreter(const interp::Value &value) {
  if (value.isTuple()) {
    const auto &elements = value.elements();
    py::tuple t(elements.size());
    for (size_t i = 0; i < elements.size(); ++i)
      t[i] = fromInterpreter(elements[i]);
    return std::move(t);
  }
  if (!value.isTensor())
    throw Error("interpret: a function or environment value cannot be "
                "returned to Python (" +
                value.toString() + ")");
  return adoptTensor(toRuntime(value.tensor()));
}

} // namespace

void adjoint::python::bindRun(py::module_ &m) {
  py::class_<Executable>(m, "Executable",
                         "A compiled function; call it with arrays.")
      .def("__call__", &runExecutable)
      .def_property_readonly("function", &Executable::function)
      .def_property_readonly(
          "inputs",
          [](const Executable &e) {
            std::vector<std::string> specs;
            for (const rt::TensorSpec &s : e.signature().inputs)
              specs.push_back(s.str());
            return specs;
          })
      .def_property_readonly(
          "outputs",
          [](const Executable &e) {
            std::vector<std::string> specs;
            for (const rt::TensorSpec &s : e.signature().outputs)
              specs.push_back(s.str());
            return specs;
          })
      .def_property_readonly("cache_outcome",
                             [](const Executable &e) {
                               return cacheOutcomeName(e.cacheOutcome());
                             })
      .def_property_readonly("compile_seconds", &Executable::compileSeconds)
      .def_property_readonly(
          "target", [](const Executable &e) { return e.target().spec(); },
          "What it was compiled for, as compile() takes it: \"cpu:znver4,"
          "+avx2,...\", \"cuda,+tf32\" (TF32 matmuls allowed).");

  m.def(
      "compile",
      [](const api::Module &module, const std::string &function,
         const std::string &target, bool optimize, unsigned optLevel,
         bool cache, const std::string &cacheDir,
         const std::vector<unsigned> &donate) {
        Target parsed = Target::parse(target);
        CompileOptions options;
        options.donate = donate;
        options.optimize = optimize;
        options.optLevel = optLevel;
        options.cache = cache;
        options.cacheDir = cacheDir;
        std::string text = moduleText(module);
        py::gil_scoped_release release;
        api::Module copy;
        return compile(*parseCopy(copy, text, "compile @" + function),
                       function, parsed, options);
      },
      py::arg("module"), py::arg("function"), py::kw_only(),
      py::arg("target") = "cpu", py::arg("optimize") = true,
      py::arg("opt_level") = 3, py::arg("cache") = true,
      py::arg("cache_dir") = "", py::arg("donate") = std::vector<unsigned>(),
      "Compiles one function of the module (the module is not modified) "
      "for `target`: \"cpu\", \"cpu:znver4\", \"opencl\", "
      "\"level_zero\". Inputs and outputs are its tensor leaves, tuples "
      "flattened depth-first. Call the result with arrays (and device=... "
      "for GPU code: by default the inputs' device, else device 0 of the "
      "kind); GPU results are adjoint.Tensor device arrays. `donate` lists "
      "inputs (flattened indices) the call may overwrite: an output of the "
      "same dtype and shape is computed into a donated adjoint.Tensor's "
      "memory and shares it (numpy arrays passed there are copied first).");

  m.def(
      "interpret",
      [](const api::Module &module, const std::string &function,
         py::args args) {
        std::vector<interp::Value> inputs;
        for (py::handle a : args)
          inputs.push_back(interpArg(a));
        std::string text = moduleText(module);
        // Results may refer to the copy's IR (function values): it lives
        // until they are converted.
        api::Module copy;
        mlir::OwningOpRef<mlir::ModuleOp> parsed;
        std::vector<interp::Value> results;
        {
          py::gil_scoped_release release;
          parsed = parseCopy(copy, text, "interpret @" + function);
          interp::Interpreter interpreter(*parsed);
          results = interpreter.call(function, inputs);
        }
        if (results.size() == 1)
          return fromInterpreter(results.front());
        py::tuple t(results.size());
        for (size_t i = 0; i < results.size(); ++i)
          t[i] = fromInterpreter(results[i]);
        return py::object(std::move(t));
      },
      py::arg("module"), py::arg("function"),
      "Evaluates a function with the reference interpreter. AD requests must "
      "have been expanded first (run_passes(module, \"adj-grad\")). Tuples "
      "are Python tuples.");
}
