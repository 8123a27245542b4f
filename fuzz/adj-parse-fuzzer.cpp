//===- adj-parse-fuzzer.cpp - libFuzzer target for the adj parser ---------===//
//
// Feeds arbitrary bytes to the MLIR parser with the adj dialect loaded and
// verifies whatever parses. Diagnostics are expected and swallowed; what the
// fuzzer looks for is a crash, a sanitizer report, or a verified module that
// does not survive printing and parsing back (custom and generic form).
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {

/// The context is expensive compared with one small input, so it is shared
/// between inputs. Types and attributes are uniqued in it forever, though, so
/// it is replaced now and then to keep a long run from growing without bound.
mlir::MLIRContext &getContext() {
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses % 20000 == 0) {
    // Only adj and builtin: everything the dialect parses, and an order of
    // magnitude cheaper to load than every upstream dialect.
    mlir::DialectRegistry registry;
    registry.insert<adjoint::adj::AdjDialect>();
    context = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
  }
  return *context;
}

/// Parses `text` into a module without verifying it; null on a parse error.
mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &ctx,
                                        llvm::StringRef text) {
  mlir::ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  return mlir::parseSourceString<mlir::ModuleOp>(text, config);
}

std::string print(mlir::ModuleOp module, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);
  return text;
}

/// A verified module must print to text that parses and verifies again, and
/// printing that must give the same text (printing is a fixed point).
void checkRoundTrip(mlir::MLIRContext &ctx, mlir::ModuleOp module,
                    bool generic) {
  std::string first = print(module, generic);
  mlir::OwningOpRef<mlir::ModuleOp> again = parse(ctx, first);
  if (!again || failed(mlir::verify(*again)))
    __builtin_trap();
  if (print(*again, generic) != first)
    __builtin_trap();
}

} // namespace

/// LLVM's BumpPtrAllocator poisons the unused tail of a slab when it is
/// compiled with ASan, and its inline code is compiled into this binary while
/// libMLIR.so is not instrumented: memory that libMLIR.so then hands out from
/// such a slab stays poisoned, a false use-after-poison report. Manual
/// poisoning is therefore turned off; ASan still checks real heap misuse.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = getContext();
  mlir::ScopedDiagnosticHandler swallow(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  // The lexer expects a NUL after the last byte, which libFuzzer's buffer
  // does not have; a std::string does.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(ctx, text);
  if (!module || failed(mlir::verify(*module)))
    return 0;
  checkRoundTrip(ctx, *module, /*generic=*/false);
  checkRoundTrip(ctx, *module, /*generic=*/true);
  return 0;
}
