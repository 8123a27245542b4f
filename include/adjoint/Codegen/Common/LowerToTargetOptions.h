//===- LowerToTargetOptions.h - Options of the target pipelines -*- C++ -*-===//
//
// The options of -adj-lower-to-<kind> and of the stages that the vendors'
// Codegen folders build (Intel/NVIDIA/AMD Pipeline.h), shared by all of
// them so that a Target (adjoint/Target/Target.h) turns into one option
// string whatever its kind.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_COMMON_LOWERTOTARGETOPTIONS_H
#define ADJOINT_CODEGEN_COMMON_LOWERTOTARGETOPTIONS_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace adjoint {

/// The options every -adj-lower-to-<kind> pipeline takes, so that a Target
/// turns into the same option string whatever its kind
/// (`-adj-lower-to-opencl{subgroup-size=16}`); a kind ignores those that do
/// not concern it (the CPU's MLIR stages read none: its chip and features
/// matter to LLVM's code generation after the pipeline).
struct LowerToTargetOptions
    : mlir::PassPipelineOptions<LowerToTargetOptions> {
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The chip (CPU: LLVM's CPU name; opencl/level_zero: "
                     "cpu, integrated, discrete; CUDA: sm_90, or several "
                     "comma-separated; HIP: an AMD target ID, gfx90a, "
                     "gfx942:xnack-, gfx1100); empty for the default (CUDA: "
                     "sm_80,sm_90; HIP: gfx942)"),
      llvm::cl::init("")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Comma-separated +/- features (CPU: LLVM's, "
                     "\"+avx2,+fma\"; opencl/level_zero: fp16, fp64; CUDA: "
                     "+ptx80, and +tf32: f32 matmuls may use TensorFloat-32); "
                     "empty for the chip's defaults"),
      llvm::cl::init("")};
  Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("GPU: the subgroup (warp) size kernels are written "
                     "for and pin (0: the kind's default, 16 on Intel, 32 "
                     "on NVIDIA, the chip's wavefront size on AMD: 64 on "
                     "CDNA, 32 on RDNA)"),
      llvm::cl::init(0)};
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("Work items per workgroup of the generated kernels"),
      llvm::cl::init(256)};
  Option<bool> libdevice{
      *this, "libdevice",
      llvm::cl::desc("CUDA: link libdevice for math functions when the "
                     "toolkit has it; HIP: the ROCm device libraries (ocml) "
                     "when built for the chip; false (or no library there): "
                     "f32 and f16 math as polynomial approximations, the "
                     "rest as native instructions"),
      llvm::cl::init(true)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA: the toolkit folder with bin/ptxas and "
                     "nvvm/libdevice (empty: $ADJOINT_CUDA_TOOLKIT, else "
                     "the build's default); HIP: the ROCm folder with "
                     "llvm/bin/ld.lld and amdgcn/bitcode (empty: "
                     "$ADJOINT_ROCM_PATH, else the build's default)"),
      llvm::cl::init("")};
};

} // namespace adjoint

#endif // ADJOINT_CODEGEN_COMMON_LOWERTOTARGETOPTIONS_H
