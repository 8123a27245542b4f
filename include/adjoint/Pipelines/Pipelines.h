//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// The named pipelines of Adjoint, in one place, for ir-opt (as flags) and
// for the library API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PIPELINES_PIPELINES_H
#define ADJOINT_PIPELINES_PIPELINES_H

#include "adjoint/Codegen/Common/LowerToTargetOptions.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

struct Target;

/// `-adj-optimize`: type inference, then rounds of unrolling, specialization,
/// inlining and simplification until the program is first order where it
/// can be, then closure conversion of what remains (recursion).
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// The lowering, stage by stage: two stages every target shares, then the
/// target's own; `-adj-lower-to-<kind>` runs them all. Each stage is also a
/// named pipeline so that ir-opt can show its output.
///
/// `-adj-tensor`: typed adj after -adj-optimize -> linalg/tensor/arith/
/// math/scf/func on tensors, with producers fused into their consumers
/// (-adj-fuse-elementwise) and the tensor arguments of public functions
/// read-only (-adj-readonly-arguments). `target` is the kind of target
/// (cpu, cuda, hip, opencl, level-zero): ops whose kernels run on the host
/// only (LAPACK's) are an error on the others.
void buildTensorPipeline(mlir::OpPassManager &pm,
                         llvm::StringRef target = "cpu");
/// `-adj-bufferize`: tensors -> memrefs (one-shot bufferization across
/// function boundaries), each buffer freed right after its last use.
void buildBufferizePipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-loops`: matmul, batch_matmul and conv on memrefs -> runtime
/// kernel calls (-adj-cpu-linalg-to-kernels); the rest -> parallel loops, with
/// f32 transcendentals as polynomials and large loops on the runtime's
/// thread pool (-adj-cpu-parallel-to-runtime). LLVM vectorizes the loops.
void buildCPULoopsPipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-llvm`: loops, vectors and memrefs -> the LLVM dialect.
void buildCPULLVMPipeline(mlir::OpPassManager &pm);
/// `-adj-lower-to-cpu{chip=... features=...}`: the four stages above, adj
/// -> LLVM dialect. The options are those of every kind's pipeline; the CPU
/// stages do not depend on them (LLVM's code generation does).
void buildLowerToCPUPipeline(mlir::OpPassManager &pm);

/// The GPU lowering, stage by stage, each a named pipeline too; each
/// vendor's own stage is built in its Codegen folder
/// (`adjoint/Codegen/{Intel,NVIDIA,AMD}/Pipeline.h`).
///
/// `-adj-gpu-kernels`: scatter loops -> one kernel each (-adj-gpu-scatters;
/// with atomic sums where the target has `floatAtomics`: CUDA, HIP),
/// linalg ops on buffers -> gpu.launch (contractions,
/// convolutions and reductions as tiled kernels: -adj-gpu-matmul,
/// -adj-gpu-conv, -adj-gpu-reductions; the rest one work item per output:
/// -adj-gpu-map-to-kernels), device buffers on the host -> runtime calls
/// (-adj-gpu-host-memory), launches -> gpu.module kernels +
/// gpu.launch_func (gpu-kernel-outlining).
/// `kernelsPerModule` bounds the kernels of one device module
/// (-adj-gpu-merge-modules): the modules compile in parallel.
void buildGPUKernelsPipeline(mlir::OpPassManager &pm,
                             const LowerToTargetOptions &options,
                             bool floatAtomics = false,
                             unsigned kernelsPerModule = 32);
/// `-adj-gpu-host-llvm`: gpu.module -> gpu.binary (serialized in the
/// format gpu-module-to-binary names `binaryFormat`, with the CUDA toolkit
/// `toolkit` where the target needs one; fatbins, CUDA's, merged into one
/// per module: -adj-nvidia-merge-fatbins), launches -> runtime calls
/// (-adj-gpu-launch-to-runtime), host code -> the LLVM dialect.
void buildGPUHostLLVMPipeline(mlir::OpPassManager &pm,
                              llvm::StringRef binaryFormat = "bin",
                              llvm::StringRef toolkit = "");
/// `-adj-lower-to-opencl` and `-adj-lower-to-level-zero`: typed, optimized
/// adj -> LLVM dialect host code with embedded SPIR-V kernels (tensor and
/// bufferize stages, then the three above).
/// `kind` (opencl or level-zero) names the target in diagnostics.
void buildLowerToSPIRVPipeline(mlir::OpPassManager &pm,
                               const LowerToTargetOptions &options,
                               llvm::StringRef kind);
/// `-adj-lower-to-cuda`: typed, optimized adj -> LLVM dialect host code
/// with embedded CUDA fatbins (a cubin per chip, sm_80 and sm_90 by
/// default, plus the lowest chip's PTX, so newer GPUs JIT it): tensor,
/// bufferize, -adj-gpu-kernels (warps of 32),
/// -adj-nvidia-nvvm, -adj-gpu-host-llvm{format=fatbin}.
void buildLowerToCUDAPipeline(mlir::OpPassManager &pm,
                              const LowerToTargetOptions &options);

/// `-adj-lower-to-hip`: typed, optimized adj -> LLVM dialect host code
/// with embedded HSACO code objects (one chip, gfx942 by default): tensor,
/// bufferize, -adj-gpu-kernels (the chip's wavefront size: 64 on gfx90a
/// and gfx942, 32 on gfx1100), -adj-amd-rocdl,
/// -adj-gpu-host-llvm{format=bin} with the ROCm folder's ld.lld.
void buildLowerToHIPPipeline(mlir::OpPassManager &pm,
                             const LowerToTargetOptions &options);

/// Appends the registered pipeline of `target`'s kind (-adj-lower-to-<kind>)
/// with the target's chip and features, looked up by name in the pass
/// registry, so that compile() and ir-opt run the same definition. Fails
/// through `errorHandler` for a kind without a pipeline.
mlir::LogicalResult addLowerToTargetPipeline(
    mlir::OpPassManager &pm, const Target &target,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
        errorHandler);

/// Registers the named pipelines with the global pass registry (once per
/// process; later calls do nothing).
void registerPipelines();

} // namespace adjoint

#endif // ADJOINT_PIPELINES_PIPELINES_H
