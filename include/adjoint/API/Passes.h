//===- Passes.h - Pass pipelines by name on a builder module ----*- C++ -*-===//
//
// What `ir-opt -pass-pipeline=...` does, for a module being built with the
// API (and for the Python bindings): a textual pipeline of any registered
// pass or named pipeline, run in place, with the IR after each pass on
// request and MLIR's diagnostics in the adjoint::Error of a failure.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_API_PASSES_H
#define ADJOINT_API_PASSES_H

#include "adjoint/API/Builder.h"

#include <string>
#include <vector>

namespace adjoint::api {

/// The IR right after one pass ran.
struct PassSnapshot {
  /// The pass's command-line name ("adj-grad").
  std::string pass;
  std::string ir;
};

/// Runs `pipeline` ("adj-grad,adj-optimize", or the same wrapped in
/// "builtin.module(...)") on `module` in place. With `snapshots`, returns
/// the IR after every pass (running passes on one thread, in order).
/// Throws adjoint::Error when the text does not parse or a pass fails, with
/// the diagnostics.
std::vector<PassSnapshot> runPasses(Module &module, const std::string &pipeline,
                                    bool snapshots = false);

} // namespace adjoint::api

#endif // ADJOINT_API_PASSES_H
