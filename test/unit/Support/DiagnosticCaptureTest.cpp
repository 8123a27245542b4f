//===- DiagnosticCaptureTest.cpp - MLIR diagnostics as error text ---------===//

#include "adjoint/Support/DiagnosticCapture.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

using namespace adjoint;

TEST_CASE("captured diagnostics become text with locations and notes") {
  mlir::MLIRContext ctx;
  mlir::Builder b(&ctx);
  mlir::Location file = mlir::FileLineColLoc::get(&ctx, "prog.mlir", 3, 7);
  mlir::Location unknown = b.getUnknownLoc();
  DiagnosticCapture capture(&ctx, DiagnosticCapture::Level::ErrorsAndWarnings);
  REQUIRE(capture.empty());
  REQUIRE(capture.messages("nothing") == "nothing");
  {
    mlir::InFlightDiagnostic diag = mlir::emitError(file, "bad shape");
    diag.attachNote(unknown) << "from here";
  }
  mlir::emitWarning(unknown, "slow path");
  mlir::emitRemark(file, "dropped at this level");
  REQUIRE(!capture.empty());
  REQUIRE(capture.text() == "prog.mlir:3:7: error: bad shape\n"
                            "note: from here\n"
                            "warning: slow path");
  REQUIRE(capture.messages() == "bad shape (from here); slow path");
  std::string text = capture.text();
  REQUIRE(capture.take() == text);
  REQUIRE(capture.empty());
}

TEST_CASE("the capture level decides what is kept, and nothing leaks out") {
  mlir::MLIRContext ctx;
  mlir::Location loc = mlir::FileLineColLoc::get(&ctx, "a.mlir", 1, 1);
  std::string outer;
  // An enclosing handler sees nothing while a capture is alive.
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &diag) {
    outer += diag.str();
    return mlir::success();
  });
  {
    DiagnosticCapture errors(&ctx);
    mlir::emitWarning(loc, "w");
    mlir::emitError(loc, "e");
    REQUIRE(errors.text() == "a.mlir:1:1: error: e");
  }
  {
    DiagnosticCapture all(&ctx, DiagnosticCapture::Level::All);
    mlir::emitRemark(loc, "r");
    REQUIRE(all.text() == "a.mlir:1:1: remark: r");
  }
  REQUIRE(outer.empty());
  // Once the captures are gone, diagnostics reach the outer handler again.
  mlir::emitError(loc, "after");
  REQUIRE(outer == "after");
}
