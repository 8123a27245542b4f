//===- Passes.h - GPU codegen shared by every vendor ------------*- C++ -*-===//
//
// Declarations and registration of the GPU passes that every GPU vendor
// uses (see Passes.td): linalg on buffers -> gpu.launch, host memory ->
// runtime calls, gpu.binary + gpu.launch_func -> runtime launches, and
// the tiled kernels of reductions, contractions and convolutions.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_GPU_PASSES_H
#define ADJOINT_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Pass/Pass.h"

namespace adjoint {

#define GEN_PASS_DECL
#include "adjoint/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/GPU/Passes.h.inc"

} // namespace adjoint

#endif // ADJOINT_CODEGEN_GPU_PASSES_H
