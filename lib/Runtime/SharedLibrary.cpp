//===- SharedLibrary.cpp - libadjoint_runtime.so --------------------------===//
//
// The shared runtime library holds the whole static AdjointRuntime (linked
// as a whole archive); this file only gives the target a source.
//
//===----------------------------------------------------------------------===//
