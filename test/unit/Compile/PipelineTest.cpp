//===- PipelineTest.cpp - compile() runs the registered pipeline ----------===//
//
// compile() and ir-opt must lower with one definition: what compile()
// translates to LLVM IR is exactly what the registered pipelines
// -adj-grad, -adj-optimize and -adj-lower-to-<kind> make of the module.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "adjoint/InitAll.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

using namespace adjoint;
using namespace adjoint::test;

namespace {
/// `module` after `pipeline` (ir-opt's syntax, without the builtin.module
/// anchor, which on a module pass manager would nest and do nothing),
/// printed.
std::string runPipeline(mlir::ModuleOp module, const std::string &pipeline) {
  mlir::OwningOpRef<mlir::ModuleOp> clone(module.clone());
  mlir::PassManager pm(module.getContext());
  std::string errors;
  llvm::raw_string_ostream os(errors);
  REQUIRE(mlir::succeeded(mlir::parsePassPipeline(pipeline, pm, os)));
  REQUIRE(mlir::succeeded(pm.run(*clone)));
  std::string text;
  llvm::raw_string_ostream out(text);
  clone->print(out);
  return text;
}
} // namespace

TEST_CASE("compile() lowers with the registered -adj-lower-to-cpu") {
  registerAllPasses();
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  // A dense layer with a gradient: kernels, fused loops, the runtime's
  // thread pool and an entry argument that bufferization must not write.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    adj.func private @loss(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>)
        -> tensor<f32> {
      %h = adj.matmul %x, %w : tensor<64x32xf32>, tensor<32x16xf32>
      %t = adj.tanh %h : tensor<64x16xf32>
      %s = adj.reduce_sum %t axes = [0, 1] : tensor<64x16xf32>
      adj.return %s : tensor<f32>
    }
    adj.func @step(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>)
        -> tensor<32x16xf32> {
      %f = adj.func_ref @loss
          : !adj.fn<(tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<f32>>
      %g = adj.grad %f wrt = [1]
          : !adj.fn<(tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<f32>>
      %d = adj.call %g(%x, %w)
          : !adj.fn<(tensor<64x32xf32>, tensor<32x16xf32>)
                    -> tensor<32x16xf32>>
      %u = adj.sub %w, %d : tensor<32x16xf32>, tensor<32x16xf32>
      adj.return %u : tensor<32x16xf32>
    }
  )mlir",
                                              context.get());
  REQUIRE(module);
  std::string compiled = compileToMLIR(*module, "step", Target::cpu(),
                                       noCache());
  std::string named =
      runPipeline(*module, "adj-grad,adj-optimize,adj-lower-to-cpu");
  REQUIRE(compiled == named);
  // The lowering went all the way and kept its CPU character.
  REQUIRE(compiled.find("llvm.func @step(") != std::string::npos);
  REQUIRE(compiled.find("adj_kernel_matmul_f32") != std::string::npos);
  REQUIRE(compiled.find("adj.") == std::string::npos);
}
