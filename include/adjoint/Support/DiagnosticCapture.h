//===- DiagnosticCapture.h - MLIR diagnostics as text -----------*- C++ -*-===//
//
// Every place that turns MLIR diagnostics into the text of an adjoint::Error
// (compile(), run_passes, the builder API, type inference's reasons) uses
// this one helper instead of a handler of its own:
//
//   DiagnosticCapture capture(ctx);
//   if (failed(pm.run(module)))
//     throw Error("...: " + capture.text());
//
// While it is alive it takes the diagnostics of its context (they are not
// printed), and it never throws, so it may live inside MLIR frames.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_DIAGNOSTICCAPTURE_H
#define ADJOINT_SUPPORT_DIAGNOSTICCAPTURE_H

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace adjoint {

class DiagnosticCapture {
public:
  /// Which diagnostics are kept; the others are dropped (still not
  /// printed). Notes attached to a kept diagnostic are always kept.
  enum class Level { Errors, ErrorsAndWarnings, All };

  explicit DiagnosticCapture(mlir::MLIRContext *ctx,
                             Level level = Level::Errors);
  ~DiagnosticCapture();
  DiagnosticCapture(const DiagnosticCapture &) = delete;
  DiagnosticCapture &operator=(const DiagnosticCapture &) = delete;

  bool empty() const { return records_.empty(); }

  /// One line per diagnostic and per note, "file:line:col: error: message"
  /// (locations without a file are printed as MLIR prints them; unknown
  /// ones are left out).
  std::string text() const;
  /// The messages alone, joined by "; ", each followed by its notes in
  /// parentheses: for errors that name their op and place themselves.
  /// `ifEmpty` when nothing was captured.
  std::string messages(llvm::StringRef ifEmpty = "") const;
  /// text(), then forgets everything captured so far.
  std::string take();

private:
  struct Note {
    std::string where;
    std::string message;
  };
  struct Record {
    std::string where;
    const char *severity;
    std::string message;
    std::vector<Note> notes;
  };

  void record(mlir::Diagnostic &diag);

  mlir::MLIRContext *ctx_;
  Level level_;
  std::vector<Record> records_;
  mlir::DiagnosticEngine::HandlerID handler_;
};

} // namespace adjoint

#endif // ADJOINT_SUPPORT_DIAGNOSTICCAPTURE_H
