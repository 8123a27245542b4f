//===- DiagnosticCapture.cpp - MLIR diagnostics as text -------------------===//

#include "adjoint/Support/DiagnosticCapture.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace adjoint;
using namespace mlir;

namespace {
/// "file:line:col" for a location with a file (the first one found inside
/// fused and call-site locations), MLIR's own form otherwise, "" when
/// unknown.
std::string whereOf(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else if (!isa<UnknownLoc>(loc))
    os << loc;
  return text;
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

void printLine(llvm::raw_ostream &os, const std::string &where,
               const char *severity, const std::string &message) {
  if (!where.empty())
    os << where << ": ";
  os << severity << ": " << message;
}
} // namespace

DiagnosticCapture::DiagnosticCapture(MLIRContext *ctx, Level level)
    : ctx_(ctx), level_(level) {
  handler_ = ctx->getDiagEngine().registerHandler([this](Diagnostic &diag) {
    record(diag);
    return success();
  });
}

DiagnosticCapture::~DiagnosticCapture() {
  ctx_->getDiagEngine().eraseHandler(handler_);
}

void DiagnosticCapture::record(Diagnostic &diag) {
  DiagnosticSeverity severity = diag.getSeverity();
  bool keep = severity == DiagnosticSeverity::Error ||
              (severity == DiagnosticSeverity::Warning &&
               level_ != Level::Errors) ||
              level_ == Level::All;
  if (!keep)
    return;
  Record record{whereOf(diag.getLocation()), severityName(severity),
                diag.str(), {}};
  for (Diagnostic &note : diag.getNotes())
    record.notes.push_back({whereOf(note.getLocation()), note.str()});
  records_.push_back(std::move(record));
}

std::string DiagnosticCapture::text() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const Record &record : records_) {
    if (!text.empty())
      os << "\n";
    printLine(os, record.where, record.severity, record.message);
    for (const Note &note : record.notes)
      printLine(os << "\n", note.where, "note", note.message);
  }
  return text;
}

std::string DiagnosticCapture::messages(llvm::StringRef ifEmpty) const {
  if (records_.empty())
    return ifEmpty.str();
  std::string text;
  for (const Record &record : records_) {
    if (!text.empty())
      text += "; ";
    text += record.message;
    for (const Note &note : record.notes)
      text += " (" + note.message + ")";
  }
  return text;
}

std::string DiagnosticCapture::take() {
  std::string result = text();
  records_.clear();
  return result;
}
