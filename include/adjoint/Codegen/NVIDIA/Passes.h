//===- Passes.h - NVIDIA (NVVM) codegen -------------------------*- C++ -*-===//
//
// Declarations and registration of the NVIDIA vendor passes (see
// Passes.td): the NVVM target of the GPU kernels, serialized to PTX and
// cubin with a CUDA toolkit's ptxas and libdevice.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_NVIDIA_PASSES_H
#define ADJOINT_CODEGEN_NVIDIA_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace adjoint::nvidia {

#define GEN_PASS_DECL
#include "adjoint/Codegen/NVIDIA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/NVIDIA/Passes.h.inc"

/// The CUDA toolkit folder (bin/ptxas, nvvm/libdevice/libdevice.10.bc) the
/// NVIDIA pipeline uses: `requested` when not empty, else the environment's
/// ADJOINT_CUDA_TOOLKIT, else the build's default (the CMake cache variable
/// of the same name; empty when the build found none).
std::string resolveCudaToolkit(llvm::StringRef requested);
/// `<toolkit>/nvvm/libdevice/libdevice.10.bc`.
std::string libdevicePath(llvm::StringRef toolkit);
/// Whether the toolkit folder `toolkit` (resolved) holds libdevice.
bool hasLibdevice(llvm::StringRef toolkit);

} // namespace adjoint::nvidia

#endif // ADJOINT_CODEGEN_NVIDIA_PASSES_H
