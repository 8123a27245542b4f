//===- Compiled.cpp - ir-run --compile: run a function natively -----------===//

#include "Compiled.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "llvm/Support/raw_ostream.h"

using namespace adjoint;

namespace {

void flatten(const interp::Value &value, std::vector<rt::Tensor> &leaves) {
  if (value.isTuple()) {
    for (const interp::Value &element : value.elements())
      flatten(element, leaves);
    return;
  }
  // Function values and environments are rejected by compile() with a
  // message naming the argument; tensor() throws for them here only if
  // compile() accepted the signature, which it does not.
  leaves.push_back(toRuntime(value.tensor()));
}

/// Rebuilds a value of `type` from the flat outputs starting at `next`.
interp::Value nest(mlir::Type type, const std::vector<rt::Tensor> &outputs,
                   size_t &next) {
  if (auto tuple = mlir::dyn_cast<adj::TupleType>(type)) {
    std::vector<interp::Value> elements;
    for (mlir::Type element : tuple.getTypes())
      elements.push_back(nest(element, outputs, next));
    return interp::Value::tuple(std::move(elements));
  }
  if (next >= outputs.size())
    throw Error("compiled code returned fewer tensors than its signature has");
  return interp::Value(toInterpreter(outputs[next++]));
}

} // namespace

std::vector<interp::Value>
irrun::runCompiled(mlir::ModuleOp module, const std::string &function,
                   const std::vector<interp::Value> &args,
                   const Target &target, const CompileOptions &options,
                   bool stats) {
  Executable exe = compile(module, function, target, options);
  if (stats)
    llvm::errs() << "compile: " << cacheOutcomeName(exe.cacheOutcome())
                 << "\n";
  std::vector<rt::Tensor> inputs;
  for (const interp::Value &arg : args)
    flatten(arg, inputs);
  std::vector<rt::Tensor> outputs = exe.run(inputs);

  auto func = mlir::cast<adj::FuncOp>(
      mlir::SymbolTable::lookupSymbolIn(module, function));
  std::vector<interp::Value> results;
  size_t next = 0;
  for (mlir::Type type : func.getFunctionType().getResults())
    results.push_back(nest(type, outputs, next));
  return results;
}
