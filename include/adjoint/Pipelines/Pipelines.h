//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// The named pipelines of Adjoint, in one place, for ir-opt (as flags) and
// for the library API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PIPELINES_PIPELINES_H
#define ADJOINT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace adjoint {

/// `-adj-optimize`: type inference, then rounds of unrolling, specialization,
/// inlining and simplification until the program is first order where it
/// can be, then closure conversion of what remains (recursion).
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// The CPU lowering, stage by stage; `-adj-lower-to-cpu` runs all four.
/// Each stage is also a named pipeline so that ir-opt can show its output.
///
/// `-adj-cpu-tensor`: typed adj after -adj-optimize -> linalg/tensor/arith/
/// math/scf/func on tensors, with producers fused into their consumers
/// (-adj-fuse-elementwise).
void buildCPUTensorPipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-bufferize`: tensors -> memrefs (one-shot bufferization across
/// function boundaries), each buffer freed right after its last use.
void buildCPUBufferizePipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-loops`: matmul, batch_matmul and conv on memrefs -> runtime
/// kernel calls (-adj-linalg-to-kernels); the rest -> parallel loops, with
/// f32 transcendentals as polynomials and large loops on the runtime's
/// thread pool (-adj-parallel-to-runtime). LLVM vectorizes the loops.
void buildCPULoopsPipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-llvm`: loops, vectors and memrefs -> the LLVM dialect.
void buildCPULLVMPipeline(mlir::OpPassManager &pm);
/// `-adj-lower-to-cpu`: the four stages above, adj -> LLVM dialect.
void buildLowerToCPUPipeline(mlir::OpPassManager &pm);

/// Options of the GPU pipelines (`-adj-lower-to-opencl{chip=cpu ...}`).
struct GPUPipelineOptions
    : mlir::PassPipelineOptions<GPUPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("The device (opencl/level_zero: "
                                          "cpu, integrated, discrete)"),
                           llvm::cl::init("")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("Comma-separated +/- device features (opencl/"
                     "level_zero: fp16, fp64)"),
      llvm::cl::init("")};
  Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("Required subgroup size (0: the driver's choice)"),
      llvm::cl::init(0)};
  Option<int64_t> workgroupSize{
      *this, "workgroup-size",
      llvm::cl::desc("Work items per workgroup of the generated kernels"),
      llvm::cl::init(256)};
};

/// The GPU lowering, stage by stage, each a named pipeline too.
///
/// `-adj-gpu-kernels`: linalg ops on buffers -> gpu.launch
/// (-adj-gpu-map-to-kernels), device buffers on the host -> runtime calls
/// (-adj-gpu-host-memory), launches -> gpu.module kernels + gpu.launch_func
/// (gpu-kernel-outlining).
void buildGPUKernelsPipeline(mlir::OpPassManager &pm, int64_t workgroupSize);
/// `-adj-intel-spirv`: kernels -> the SPIR-V dialect (OpenCL kernel
/// flavour) in each gpu.module.
void buildIntelSPIRVPipeline(mlir::OpPassManager &pm,
                             const GPUPipelineOptions &options);
/// `-adj-gpu-host-llvm`: gpu.module -> gpu.binary (serialized in the
/// format gpu-module-to-binary names `binaryFormat`), launches -> runtime
/// calls (-adj-gpu-launch-to-runtime), host code -> the LLVM dialect.
void buildGPUHostLLVMPipeline(mlir::OpPassManager &pm,
                              llvm::StringRef binaryFormat = "bin");
/// `-adj-lower-to-opencl` and `-adj-lower-to-level-zero`: typed, optimized
/// adj -> LLVM dialect host code with embedded SPIR-V kernels (tensor and
/// bufferize stages, then the three above).
void buildLowerToSPIRVPipeline(mlir::OpPassManager &pm,
                               const GPUPipelineOptions &options);

/// Registers the named pipelines with the global pass registry.
void registerPipelines();

} // namespace adjoint

#endif // ADJOINT_PIPELINES_PIPELINES_H
