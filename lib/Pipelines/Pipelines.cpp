//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Codegen/Intel/Passes.h"
#include "adjoint/Conversion/Passes.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

void adjoint::buildOptimizePipeline(OpPassManager &pm) {
  pm.addPass(adj::createInfer());
  // Each round exposes work for the next: an inlined body has new known
  // calls, an unrolled loop new closures, a simplified env new dead code.
  // Rounds run until one changes nothing (most gradients need one), at most
  // four.
  OpPassManager round(ModuleOp::getOperationName());
  round.addPass(adj::createUnroll());
  round.addPass(adj::createSpecialize());
  round.addPass(adj::createInline());
  round.addPass(adj::createSimplifyTuples());
  round.addPass(adj::createSimplifyEnvs());
  round.addPass(adj::createSimplifyAlgebra());
  round.addPass(adj::createFoldConstants());
  round.addPass(createCanonicalizerPass());
  round.addPass(createCSEPass());
  round.addPass(adj::createRemoveDeadValues());
  round.addPass(createSymbolDCEPass());
  constexpr unsigned kMaxRounds = 4;
  pm.addPass(adj::createFixpoint(round, kMaxRounds));
  // Whatever still builds closures (recursive code) gets explicit
  // environments.
  pm.addPass(adj::createClosureConvert());
}

namespace {
/// Appends upstream passes written as ir-opt would take them. The texts are
/// fixed, so a parse failure is a bug here, not a user error.
void addPipelineText(OpPassManager &pm, llvm::StringRef text) {
  if (failed(parsePassPipeline(text, pm)))
    llvm::report_fatal_error(llvm::Twine("bad built-in pipeline: ") + text);
}
} // namespace

void adjoint::buildCPUTensorPipeline(OpPassManager &pm) {
  pm.addPass(createAdjToLinalg());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Last: it cleans up after itself, and a CSE after it would merge the
  // zero fills it gives each consumer back into one shared fill.
  pm.addPass(createFuseElementwise());
}

void adjoint::buildCPUBufferizePipeline(OpPassManager &pm) {
  // Loops carry tensors that each trip computes afresh (adj.for and
  // adj.while lowered to scf), hence allow-return-allocs-from-loops.
  addPipelineText(pm, "one-shot-bufferize{bufferize-function-boundaries "
                      "function-boundary-type-conversion=identity-layout-map "
                      "allow-return-allocs-from-loops},"
                      "buffer-deallocation-pipeline,"
                      // Frees each buffer right after its last use instead
                      // of at the end of the block, so that the memory
                      // pool hands it to the next allocation of the call.
                      "func.func(optimize-allocation-liveness)");
}

void adjoint::buildCPULoopsPipeline(OpPassManager &pm) {
  // Products and convolutions go to Eigen-based kernels (docs/cpu-backend.md
  // says why); LLVM's loop vectorizer at O3 handles the remaining loops (a
  // fused elementwise loop runs as fast as a -march=native C++ loop).
  pm.addPass(createLinalgToKernels());
  addPipelineText(pm, "convert-linalg-to-parallel-loops");
  pm.addPass(createApproximateMath());
  pm.addPass(createParallelToRuntime());
  // After the pool's chunks are out: what remains of a step is hundreds of
  // small sequential nests, which LLVM optimizes in linear time only when
  // each is a function of its own (docs/cpu-backend.md).
  pm.addPass(createOutlineLoops());
  // The layers of a model repeat the same nests: one function each.
  pm.addPass(createMergeFunctions());
}

void adjoint::buildCPULLVMPipeline(OpPassManager &pm) {
  // Buffers come from the runtime's pool (_mlir_memref_to_llvm_aligned_alloc
  // and _free, lib/Runtime/Invoke.cpp), not malloc, so that an allocation
  // failure is an error status. bufferization.clone (results that alias an
  // argument or a constant) becomes alloc + copy first.
  // Views (subview of slices and padding) become plain descriptors first;
  // their dynamic offsets are affine.apply ops. Math functions become LLVM
  // intrinsics where there is one, libm calls otherwise (erf; the JIT
  // resolves them from the process, AOT programs link libm). Not libm first:
  // it would call a nonexistent `rsqrt`.
  addPipelineText(pm, "convert-math-to-llvm,convert-math-to-libm,"
                      "convert-bufferization-to-memref,convert-scf-to-cf,"
                      "expand-strided-metadata,lower-affine,"
                      "finalize-memref-to-llvm{use-generic-functions "
                      "use-aligned-alloc},convert-to-llvm,"
                      "reconcile-unrealized-casts");
}

void adjoint::buildLowerToCPUPipeline(OpPassManager &pm) {
  buildCPUTensorPipeline(pm);
  buildCPUBufferizePipeline(pm);
  buildCPULoopsPipeline(pm);
  buildCPULLVMPipeline(pm);
}

void adjoint::buildGPUKernelsPipeline(OpPassManager &pm,
                                      int64_t workgroupSize) {
  pm.addPass(createMapToKernels(MapToKernelsOptions{workgroupSize}));
  pm.addPass(createHostMemory());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  addPipelineText(pm,
                  "gpu-launch-sink-index-computations,gpu-kernel-outlining");
}

void adjoint::buildIntelSPIRVPipeline(OpPassManager &pm,
                                      const GPUPipelineOptions &options) {
  pm.addPass(createAttachTarget(AttachTargetOptions{
      options.chip, options.features, options.subgroupSize}));
  // Views sunk into the kernels fold into their loads and stores; affine
  // index arithmetic and math become what the SPIR-V conversion knows
  // (math as OpenCL extended instructions).
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "canonicalize,convert-math-to-spirv)");
  pm.addNestedPass<gpu::GPUModuleOp>(createLegalizeArith());
  addPipelineText(pm, "convert-gpu-to-spirv{use-64bit-index=true},"
                      "gpu.module(spirv.module(spirv-lower-abi-attrs,"
                      "spirv-update-vce))");
}

void adjoint::buildGPUHostLLVMPipeline(OpPassManager &pm,
                                       StringRef binaryFormat) {
  addPipelineText(pm, ("gpu-module-to-binary{format=" + binaryFormat + "}")
                          .str());
  pm.addPass(createLaunchToRuntime());
  // The host's own buffers (deallocation bookkeeping) come from the
  // runtime's pool, as on the CPU.
  addPipelineText(pm, "convert-math-to-llvm,convert-math-to-libm,"
                      "convert-bufferization-to-memref,convert-scf-to-cf,"
                      "expand-strided-metadata,lower-affine,"
                      "finalize-memref-to-llvm{use-generic-functions "
                      "use-aligned-alloc},convert-to-llvm,"
                      "reconcile-unrealized-casts");
}

void adjoint::buildLowerToSPIRVPipeline(OpPassManager &pm,
                                        const GPUPipelineOptions &options) {
  buildCPUTensorPipeline(pm);
  buildCPUBufferizePipeline(pm);
  buildGPUKernelsPipeline(pm, options.workgroupSize);
  buildIntelSPIRVPipeline(pm, options);
  buildGPUHostLLVMPipeline(pm);
}

void adjoint::registerPipelines() {
  PassPipelineRegistration<>(
      "adj-optimize",
      "Type inference, inlining, specialization and simplification until "
      "the program is first-order tensor code; closure conversion of the "
      "rest",
      [](OpPassManager &pm) { buildOptimizePipeline(pm); });
  PassPipelineRegistration<>(
      "adj-cpu-tensor",
      "CPU stage 1: adj -> linalg/tensor/arith/math/scf/func, fused",
      [](OpPassManager &pm) { buildCPUTensorPipeline(pm); });
  PassPipelineRegistration<>(
      "adj-cpu-bufferize",
      "CPU stage 2: one-shot bufferization, buffers freed after their last "
      "use",
      [](OpPassManager &pm) { buildCPUBufferizePipeline(pm); });
  PassPipelineRegistration<>(
      "adj-cpu-loops",
      "CPU stage 3: matmul/conv -> runtime kernel calls, the rest -> "
      "parallel loops, large ones on the runtime's thread pool, each other "
      "nest in a function of its own, one function for equal ones",
      [](OpPassManager &pm) { buildCPULoopsPipeline(pm); });
  PassPipelineRegistration<>(
      "adj-cpu-llvm", "CPU stage 4: -> the LLVM dialect",
      [](OpPassManager &pm) { buildCPULLVMPipeline(pm); });
  PassPipelineRegistration<>(
      "adj-lower-to-cpu",
      "Typed, optimized adj -> the LLVM dialect for the host CPU (the four "
      "adj-cpu-* stages)",
      [](OpPassManager &pm) { buildLowerToCPUPipeline(pm); });
  PassPipelineRegistration<GPUPipelineOptions>(
      "adj-gpu-kernels",
      "GPU stage 3: linalg -> gpu.launch kernels, device buffers on the "
      "host -> runtime calls, kernels outlined into gpu.module",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildGPUKernelsPipeline(pm, options.workgroupSize);
      });
  PassPipelineRegistration<GPUPipelineOptions>(
      "adj-intel-spirv",
      "Intel stage 4: kernels -> SPIR-V (OpenCL kernel flavour)",
      [](OpPassManager &pm, const GPUPipelineOptions &options) {
        buildIntelSPIRVPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "adj-gpu-host-llvm",
      "GPU stage 5: kernels serialized, launches -> runtime calls, host "
      "code -> the LLVM dialect",
      [](OpPassManager &pm) { buildGPUHostLLVMPipeline(pm); });
  for (const char *kind : {"opencl", "level-zero"})
    PassPipelineRegistration<GPUPipelineOptions>(
        std::string("adj-lower-to-") + kind,
        "Typed, optimized adj -> LLVM dialect host code that launches "
        "SPIR-V kernels through the GPU runtime (tensor, bufferize, "
        "adj-gpu-kernels, adj-intel-spirv, adj-gpu-host-llvm)",
        [](OpPassManager &pm, const GPUPipelineOptions &options) {
          buildLowerToSPIRVPipeline(pm, options);
        });
}
