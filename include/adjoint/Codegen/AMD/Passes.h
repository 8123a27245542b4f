//===- Passes.h - AMD (ROCDL) codegen ---------------------------*- C++ -*-===//
//
// Declarations and registration of the AMD vendor passes (see Passes.td):
// the ROCDL target of the GPU kernels, serialized to HSACO code objects
// with LLVM's AMDGPU back end, ld.lld and the ROCm device libraries.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_AMD_PASSES_H
#define ADJOINT_CODEGEN_AMD_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <optional>
#include <string>

namespace adjoint::amd {

#define GEN_PASS_DECL
#include "adjoint/Codegen/AMD/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "adjoint/Codegen/AMD/Passes.h.inc"

/// The chip when a hip target names none: gfx942 (MI300X, the AMD GPU of
/// the clouds and of most published benchmarks today).
constexpr const char *kDefaultChip = "gfx942";

/// An AMD target ID taken apart: "gfx942:sramecc+:xnack-" is the processor
/// gfx942 with LLVM features "+sramecc,-xnack".
struct Chip {
  std::string processor;
  std::string features;
  /// Whether the chip runs wavefronts of 32 (RDNA: gfx10, gfx11, ...);
  /// CDNA and GCN run 64 only.
  bool wave32 = false;
};

/// The chip of `targetId`, or nullopt with `error` saying what is wrong
/// (an unknown processor, a feature other than sramecc/xnack or one the
/// processor lacks).
std::optional<Chip> parseChip(llvm::StringRef targetId, std::string &error);
/// The wavefront size kernels for `targetId` are written for when none is
/// asked for: 32 on chips that run wave32, else 64 (also for a chip that
/// does not parse, which the target then reports).
int64_t defaultWavefrontSize(llvm::StringRef targetId);

/// The ROCm folder (llvm/bin/ld.lld, amdgcn/bitcode/) the AMD pipeline
/// uses: `requested` when not empty, else the environment's
/// ADJOINT_ROCM_PATH, else the build's default (the CMake cache variable of
/// the same name; empty when the build found none).
std::string resolveRocmPath(llvm::StringRef requested);
/// Whether `rocm` has the device libraries (amdgcn/bitcode/ocml.bc).
bool hasDeviceLibs(llvm::StringRef rocm);
/// Whether `rocm`'s device libraries were built for `targetId`'s processor
/// (amdgcn/bitcode/oclc_isa_version_<N>.bc for gfxN): Debian's 5.2 has
/// gfx90a but predates gfx942 and gfx1100.
bool deviceLibsSupport(llvm::StringRef rocm, llvm::StringRef targetId);
/// `<rocm>/llvm/bin/ld.lld`.
std::string linkerPath(llvm::StringRef rocm);

} // namespace adjoint::amd

#endif // ADJOINT_CODEGEN_AMD_PASSES_H
