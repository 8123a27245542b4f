//===- Passes.h - Passes every target uses ----------------------*- C++ -*-===//
//
// Declarations and registration of the target-neutral code generation
// passes (see Passes.td): adj -> linalg on tensors, fusion, entry arguments.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_COMMON_PASSES_H
#define ADJOINT_CODEGEN_COMMON_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace adjoint {

/// Donation (CompileOptions::donate) on its way through the lowering: the
/// compiler puts the donated indices of the entry's flattened inputs on the
/// adj.func as `adj.donate = array<i64: ...>`; -adj-to-linalg turns them
/// into a unit `adj.donated` attribute on those func.func arguments, which
/// -adj-readonly-arguments leaves writable and -adj-reuse-donated computes
/// outputs into.
inline constexpr llvm::StringLiteral kDonateAttrName = "adj.donate";
inline constexpr llvm::StringLiteral kDonatedArgAttrName = "adj.donated";

/// On a GPU target -adj-to-linalg lowers each LinearAlgebra op to a call of
/// a private declaration on buffers that carries this attribute with the
/// op's kernel name ("cholesky", "triangular_solve", "lu", "qr", "eigh",
/// "svd", "fft"); -adj-gpu-linear-algebra replaces the call with a kernel
/// (for "fft", with the runtime's choice of route, see ExpandFft).
inline constexpr llvm::StringLiteral kLinearAlgebraAttrName =
    "adj.linear_algebra";

/// On an adj.fft that -adj-expand-fft{outline} kept for a library: the
/// private function that computes it generated (the kernels route).
inline constexpr llvm::StringLiteral kGeneratedFftAttrName =
    "adj.generated_fft";

/// A unit attribute on the scf.for loops of a scatter (-adj-to-linalg: the
/// loop over the index positions and the one over the leading dimensions
/// around it), which -adj-gpu-scatters makes one kernel; no other loop is.
inline constexpr llvm::StringLiteral kScatterLoopAttrName = "adj.scatter_loop";

/// A unit attribute on a gpu.barrier whose work items share global memory
/// across it, not only workgroup memory (the matrix kernels of
/// -adj-gpu-linear-algebra). NVVM's and ROCDL's barriers order all memory
/// at workgroup scope anyway; SPIR-V's gpu.barrier orders workgroup memory
/// only, and -adj-intel-global-barriers widens the marked ones.
inline constexpr llvm::StringLiteral kGlobalFenceAttrName = "adj.global_fence";

#define GEN_PASS_DECL
#include "adjoint/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/Common/Passes.h.inc"

} // namespace adjoint

#endif // ADJOINT_CODEGEN_COMMON_PASSES_H
