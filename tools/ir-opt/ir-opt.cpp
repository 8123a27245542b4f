//===- ir-opt.cpp - The Adjoint pass driver -------------------------------===//
//
// mlir-opt with the adj dialect and passes: parses a .mlir file, runs the
// passes named on the command line (adj passes start with --adj-) and
// prints the result. Malformed input is a diagnostic and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "adjoint/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  adjoint::registerAllPasses();
  mlir::DialectRegistry registry;
  adjoint::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Adjoint pass driver\n", registry));
}
