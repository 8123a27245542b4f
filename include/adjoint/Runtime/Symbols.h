//===- Symbols.h - The runtime's symbol table for the JIT -------*- C++ -*-===//
//
// The JIT resolves calls from compiled code to the runtime through this
// table (built from Symbols.def) rather than through the process's dynamic
// symbol table, which does not export the symbols of static libraries.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_SYMBOLS_H
#define ADJOINT_RUNTIME_SYMBOLS_H

#include <vector>

namespace adjoint::rt {

struct RuntimeSymbol {
  const char *name;
  void *address;
};

/// Every symbol of Symbols.def with its address in this process, plus
/// helper routines (half/bfloat16 conversions) that the host's C library
/// may lack.
const std::vector<RuntimeSymbol> &runtimeSymbols();

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_SYMBOLS_H
