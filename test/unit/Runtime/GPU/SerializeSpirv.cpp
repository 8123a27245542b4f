//===- SerializeSpirv.cpp - SPIR-V bytes of a lowered gpu.module ----------===//
//
// adj-test-serialize-spirv IN.mlir OUT.spv: writes the binary of the one
// spirv.module nested in IN (the output of convert-gpu-to-spirv, where the
// SPIR-V module sits inside its gpu.module, which mlir-translate's
// --serialize-spirv cannot reach). Used by the build of the GPU runtime
// tests.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: adj-test-serialize-spirv IN.mlir OUT.spv\n";
    return 2;
  }
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  memref::MemRefDialect, spirv::SPIRVDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  SmallVector<spirv::ModuleOp> found;
  module->walk([&](spirv::ModuleOp m) { found.push_back(m); });
  if (found.size() != 1) {
    llvm::errs() << argv[1] << ": expected one spirv.module, found "
                 << found.size() << "\n";
    return 1;
  }
  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(found.front(), words)))
    return 1;
  std::error_code ec;
  llvm::raw_fd_ostream out(argv[2], ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << argv[2] << ": " << ec.message() << "\n";
    return 1;
  }
  out.write(reinterpret_cast<const char *>(words.data()),
            words.size() * sizeof(uint32_t));
  return 0;
}
