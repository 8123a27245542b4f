//===- PipelineText.h - Passes named as ir-opt takes them ------*- C++ -*-===//

#ifndef ADJOINT_CODEGEN_COMMON_PIPELINETEXT_H
#define ADJOINT_CODEGEN_COMMON_PIPELINETEXT_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

namespace adjoint {

/// Appends upstream passes written as ir-opt would take them. The texts of
/// the pipeline builders are fixed, so a parse failure is a bug there, not
/// a user error.
inline void addPipelineText(mlir::OpPassManager &pm, llvm::StringRef text) {
  if (mlir::failed(mlir::parsePassPipeline(text, pm)))
    llvm::report_fatal_error(llvm::Twine("bad built-in pipeline: ") + text);
}

} // namespace adjoint

#endif // ADJOINT_CODEGEN_COMMON_PIPELINETEXT_H
