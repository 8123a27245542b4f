//===- Symbols.cpp - The runtime's symbol table for the JIT ---------------===//
//
// Deliberately includes no runtime header: each symbol is redeclared here
// as a plain function so that Symbols.def can list any extern "C" entry
// point without this file knowing its prototype.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Runtime/Symbols.h"

#define ADJ_RUNTIME_SYMBOL(name) extern "C" void name();
#include "adjoint/Runtime/Symbols.def"

extern "C" void memrefCopy();
#if defined(__clang__) && defined(__x86_64__)
extern "C" void __truncsfbf2();
extern "C" void __truncdfbf2();
#endif

const std::vector<adjoint::rt::RuntimeSymbol> &adjoint::rt::runtimeSymbols() {
  static const std::vector<RuntimeSymbol> symbols = {
#define ADJ_RUNTIME_SYMBOL(name)                                               \
  {#name, reinterpret_cast<void *>(&name)},
#include "adjoint/Runtime/Symbols.def"
      {"memrefCopy", reinterpret_cast<void *>(&memrefCopy)},
#if defined(__clang__) && defined(__x86_64__)
      {"__truncsfbf2", reinterpret_cast<void *>(&__truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&__truncdfbf2)},
#endif
  };
  return symbols;
}
