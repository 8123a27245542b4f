//===- Passes.cpp - Pass pipelines by name on a builder module ------------===//
//
// The pipeline text is parsed by MLIR's registry (every upstream and
// Adjoint pass and named pipeline); failures come back as adjoint::Error
// carrying MLIR's diagnostics.
//
//===----------------------------------------------------------------------===//

#include "adjoint/API/Passes.h"
#include "adjoint/InitAll.h"
#include "adjoint/Support/DiagnosticCapture.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace adjoint;

namespace {

/// Records the IR after every pass, for printing the IR at each stage.
class Snapshots : public mlir::PassInstrumentation {
public:
  using List = std::vector<api::PassSnapshot>;
  explicit Snapshots(List &list) : list_(list) {}

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    std::string ir;
    llvm::raw_string_ostream os(ir);
    op->print(os);
    list_.push_back({pass->getArgument().str(), std::move(ir)});
  }

private:
  List &list_;
};

} // namespace

std::vector<api::PassSnapshot> api::runPasses(Module &module,
                                              const std::string &pipelineText,
                                              bool snapshots) {
  // Parsing a pipeline needs the passes registered (once per process).
  static std::once_flag registered;
  std::call_once(registered, [] { registerAllPasses(); });
  std::string pipeline = pipelineText;
  // A module-anchored pass manager would nest an explicit
  // "builtin.module(...)" once more and silently run nothing.
  llvm::StringRef text(pipeline);
  text = text.trim();
  if (text.consume_front("builtin.module(") && text.consume_back(")"))
    pipeline = text.str();

  mlir::MLIRContext *ctx = module.context();
  mlir::PassManager pm(ctx, mlir::ModuleOp::getOperationName());
  std::string parseErrors;
  llvm::raw_string_ostream errs(parseErrors);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, errs)))
    throw Error("run_passes: cannot parse the pipeline '" + pipeline +
                "': " + parseErrors);

  Snapshots::List list;
  if (snapshots) {
    // Snapshots must be taken in pass order, one operation at a time.
    ctx->disableMultithreading();
    pm.addInstrumentation(std::make_unique<Snapshots>(list));
  }
  DiagnosticCapture capture(ctx);
  mlir::LogicalResult result = pm.run(module.op());
  if (snapshots)
    ctx->enableMultithreading();
  if (mlir::failed(result))
    throw Error("run_passes: '" + pipeline + "' failed" +
                (capture.empty() ? std::string() : "\n" + capture.text()));
  return list;
}
