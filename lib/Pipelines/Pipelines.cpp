//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Codegen/AMD/Passes.h"
#include "adjoint/Codegen/AMD/Pipeline.h"
#include "adjoint/Codegen/CPU/Passes.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/Common/PipelineText.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Codegen/Intel/Pipeline.h"
#include "adjoint/Codegen/NVIDIA/Passes.h"
#include "adjoint/Codegen/NVIDIA/Pipeline.h"
#include "adjoint/Target/Target.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/ErrorHandling.h"

#include <mutex>

using namespace mlir;
using adjoint::addPipelineText;

void adjoint::buildOptimizePipeline(OpPassManager &pm) {
  pm.addPass(adj::createStripDerivativeRules());
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
  // Loops whose backpropagator is still a closure chain: residuals stacked,
  // one reverse loop. The cleanup removes the chain's now unused functions
  // and folds the accumulators' zero starts.
  pm.addPass(adj::createReverseLoops());
  pm.addPass(adj::createSimplifyAlgebra());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(adj::createRemoveDeadValues());
  pm.addPass(createSymbolDCEPass());
}

void adjoint::buildTensorPipeline(OpPassManager &pm, StringRef target) {
  // The CPU calls FFTW for adj.fft; the GPUs call a library or run the
  // generated FFT, as the device measured faster.
  if (target != "cpu")
    pm.addPass(createExpandFft(ExpandFftOptions{/*outline=*/true}));
  pm.addPass(createAdjToLinalg(AdjToLinalgOptions{target.str()}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Before fusion, which would fold the sum into other elementwise work.
  pm.addPass(createAccumulateMatmul());
  // After canonicalize and CSE: it cleans up after itself, and a CSE after
  // it would merge the zero fills it gives each consumer back into one
  // shared fill.
  pm.addPass(createFuseElementwise());
  // Loop counters' index math as host scalars, not one-item kernels.
  pm.addPass(createHostScalars());
  pm.addPass(createCanonicalizerPass());
  // Entry arguments are the caller's memory: bufferization must not write
  // them, except the donated ones, which outputs are computed into.
  pm.addPass(createReadonlyArguments());
  pm.addPass(createReuseDonated());
}

void adjoint::buildBufferizePipeline(OpPassManager &pm) {
  // Loops carry tensors that each trip computes afresh (adj.for and
  // adj.while lowered to scf), hence allow-return-allocs-from-loops.
  addPipelineText(pm, "one-shot-bufferize{bufferize-function-boundaries "
                      "function-boundary-type-conversion=identity-layout-map "
                      "allow-return-allocs-from-loops},"
                      "buffer-deallocation-pipeline");
  // Deallocation clones returned arguments; a donated one is the output's
  // memory (-adj-reuse-donated) and returns as it is.
  pm.addPass(createReturnDonated());
  // Frees each buffer right after its last use instead of at the end of
  // the block, so that the memory pool hands it to the next allocation of
  // the call.
  addPipelineText(pm, "func.func(optimize-allocation-liveness)");
}

void adjoint::buildCPULoopsPipeline(OpPassManager &pm) {
  // Products and convolutions go to Eigen-based kernels (docs/cpu-backend.md
  // says why); LLVM's loop vectorizer at O3 handles the remaining loops (a
  // fused elementwise loop runs as fast as a -march=native C++ loop).
  pm.addPass(cpu::createLinalgToKernels());
  addPipelineText(pm, "convert-linalg-to-parallel-loops");
  // Gathers load their index in the innermost loop, where LLVM cannot
  // hoist it (docs/cpu-backend.md).
  pm.addNestedPass<func::FuncOp>(cpu::createHoistInvariantLoads());
  // Complex arithmetic as arith and math on the parts (which the
  // approximations below then see); create, re and im stay for the LLVM
  // conversion.
  addPipelineText(pm, "convert-complex-to-standard");
  pm.addPass(createApproximateMath());
  pm.addPass(cpu::createParallelToRuntime());
  // After the pool's chunks are out: what remains of a step is hundreds of
  // small sequential nests, which LLVM optimizes in linear time only when
  // each is a function of its own (docs/cpu-backend.md).
  pm.addPass(cpu::createOutlineLoops());
  // The layers of a model repeat the same nests: one function each.
  pm.addPass(cpu::createMergeFunctions());
}

namespace {
/// Host code on memrefs -> the LLVM dialect, the same for the CPU and for
/// the host side of GPU code.
void addHostToLLVM(OpPassManager &pm) {
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
                      "convert-complex-to-llvm,"
                      "convert-bufferization-to-memref,convert-scf-to-cf,"
                      "expand-strided-metadata,lower-affine,"
                      "finalize-memref-to-llvm{use-generic-functions "
                      "use-aligned-alloc},convert-to-llvm,"
                      "reconcile-unrealized-casts");
}
} // namespace

void adjoint::buildCPULLVMPipeline(OpPassManager &pm) { addHostToLLVM(pm); }

void adjoint::buildLowerToCPUPipeline(OpPassManager &pm) {
  // The chip and features of a CPU target matter only to LLVM's code
  // generation after the pipeline; the MLIR stages are the same for all
  // CPUs.
  buildTensorPipeline(pm);
  buildBufferizePipeline(pm);
  buildCPULoopsPipeline(pm);
  buildCPULLVMPipeline(pm);
}

void adjoint::buildGPUKernelsPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options,
                                      bool floatAtomics,
                                      unsigned kernelsPerModule) {
  // Scatters as one kernel each, not a host loop of row kernels.
  ScattersOptions scatters;
  scatters.atomics = floatAtomics;
  scatters.workgroupSize = options.workgroupSize;
  pm.addPass(createScatters(scatters));
  // Decompositions (calls -adj-to-linalg made) as matrix kernels.
  pm.addPass(createLinearAlgebra());
  // Outputs start from their fill's constant in the kernel that fills
  // them: no kernel per fill.
  pm.addPass(createFoldFills());
  // Products, convolutions and reductions first, as tiled kernels with
  // workgroup memory and subgroup shuffles; every other linalg op then gets
  // the generic one-work-item-per-output kernel.
  // A module pass: its GEMM records add declarations to the module. The
  // target's +tf32 reaches the records (a GEMM library may then round f32
  // inputs to TF32; the kernel stays exact f32).
  MatmulOptions matmul;
  matmul.allowTf32 = hasTargetFeature(options.features, "tf32");
  pm.addPass(createMatmul(matmul));
  pm.addNestedPass<func::FuncOp>(createConv());
  ReductionsOptions reductions;
  // Only the SPIR-V pipelines leave the subgroup size to the kind (0); the
  // NVIDIA and AMD ones pass their warp and wavefront sizes.
  reductions.subgroupSize = intelSubgroupSize(options);
  reductions.workgroupSize = options.workgroupSize;
  pm.addNestedPass<func::FuncOp>(createReductions(reductions));
  pm.addPass(createMapToKernels(MapToKernelsOptions{options.workgroupSize}));
  pm.addPass(createHostMemory());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After the last CSE, which would merge the views it makes again inside
  // launches with the same views outside them.
  pm.addPass(createKernelLayouts());
  addPipelineText(pm,
                  "gpu-launch-sink-index-computations,gpu-kernel-outlining");
  pm.addPass(createKernelNames());
  // The program's kernels in one device object (a few, for large ones),
  // each distinct kernel once.
  MergeModulesOptions merge;
  merge.kernelsPerModule = kernelsPerModule;
  pm.addPass(createMergeModules(merge));
  // Complex arithmetic as arith and math on the parts, in the kernels and
  // on the host; each vendor converts what remains (create, re, im) with
  // its own types.
  addPipelineText(pm, "convert-complex-to-standard");
}

namespace {
/// Kernels per device module on NVIDIA and AMD, whose modules are compiled
/// here (LLVM's backend, then ptxas or ld.lld), a module at a time per
/// thread: 8 spreads a small step's kernels over the cores (mlp's 32
/// kernels for sm_90: 0.34 s as one module, 0.20 s as four, on two cores)
/// and costs a big one only a process start and a libdevice link per extra
/// module. SPIR-V modules are compiled by the driver when loaded, where
/// each module has a fixed cost, so those pipelines keep the default.
constexpr unsigned kVendorKernelsPerModule = 8;
} // namespace

void adjoint::buildGPUHostLLVMPipeline(OpPassManager &pm,
                                       StringRef binaryFormat,
                                       StringRef toolkit) {
  // Every module and target at once, on the thread pool.
  ModulesToBinaryOptions binary;
  binary.format = binaryFormat.str();
  binary.toolkit = toolkit.str();
  pm.addPass(createModulesToBinary(binary));
  // Fatbins are CUDA's: one per chip comes out of the serialization, the
  // runtime loads one per module.
  if (binaryFormat == "fatbin")
    pm.addPass(nvidia::createMergeFatbins());
  pm.addPass(createLaunchToRuntime());
  // The host's own buffers (deallocation bookkeeping) come from the
  // runtime's pool, as on the CPU.
  addHostToLLVM(pm);
}

void adjoint::buildLowerToSPIRVPipeline(OpPassManager &pm,
                                        const LowerToTargetOptions &options,
                                        StringRef kind) {
  buildTensorPipeline(pm, kind);
  buildBufferizePipeline(pm);
  buildGPUKernelsPipeline(pm, options);
  buildIntelSPIRVPipeline(pm, options);
  buildGPUHostLLVMPipeline(pm);
}

void adjoint::buildLowerToCUDAPipeline(OpPassManager &pm,
                                       const LowerToTargetOptions &options) {
  // Kernels are written for NVIDIA's warps of 32 unless told otherwise.
  LowerToTargetOptions cuda;
  cuda.copyOptionValuesFrom(options);
  if (cuda.subgroupSize == 0)
    cuda.subgroupSize = 32;
  buildTensorPipeline(pm, "cuda");
  buildBufferizePipeline(pm);
  buildGPUKernelsPipeline(pm, cuda, /*floatAtomics=*/true,
                          kVendorKernelsPerModule);
  buildNVIDIANVVMPipeline(pm, cuda);
  // A fatbin: a cubin per chip (sm_80 and sm_90 unless one is named) and
  // the lowest chip's PTX (cuModuleLoadData picks the device's cubin; the
  // driver JITs the PTX on a newer GPU). ptxas and libdevice come from the
  // same toolkit the target checked.
  buildGPUHostLLVMPipeline(pm, "fatbin",
                           nvidia::resolveCudaToolkit(cuda.toolkit));
}

void adjoint::buildLowerToHIPPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options) {
  // Kernels are written for the chip's wavefronts (64 on CDNA, 32 on
  // RDNA) unless told otherwise.
  LowerToTargetOptions hip;
  hip.copyOptionValuesFrom(options);
  amd::ResolvedOptions resolved = amd::resolveOptions(options);
  hip.subgroupSize = resolved.wavefrontSize;
  buildTensorPipeline(pm, "hip");
  buildBufferizePipeline(pm);
  buildGPUKernelsPipeline(pm, hip, /*floatAtomics=*/true,
                          kVendorKernelsPerModule);
  buildAMDROCDLPipeline(pm, hip, /*checkLinker=*/true);
  // One HSACO code object per kernel module, linked by the ROCm folder's
  // ld.lld with the device libraries the target checked.
  buildGPUHostLLVMPipeline(pm, "bin", resolved.rocm);
}

LogicalResult adjoint::addLowerToTargetPipeline(
    OpPassManager &pm, const Target &target,
    llvm::function_ref<LogicalResult(const llvm::Twine &)> errorHandler) {
  registerPipelines();
  std::string name = target.pipelineName();
  const PassPipelineInfo *info = PassPipelineInfo::lookup(name);
  if (!info)
    return errorHandler("target " + llvm::Twine(target.kindName()) +
                        " is not supported yet (no pipeline -" + name + ")");
  return info->addToPipeline(pm, target.pipelineOptions(), errorHandler);
}

void adjoint::registerPipelines() {
  // Registering a pipeline name twice is a fatal error in MLIR; tools and
  // compile() both call this.
  static std::once_flag once;
  std::call_once(once, [] {
    PassPipelineRegistration<>(
        "adj-optimize",
        "Type inference, inlining, specialization and simplification until "
        "the program is first-order tensor code; closure conversion of the "
        "rest",
        [](OpPassManager &pm) { buildOptimizePipeline(pm); });
    PassPipelineRegistration<>(
        "adj-tensor",
        "Stage 1 (every target): adj -> linalg/tensor/arith/math/scf/func, "
        "fused; entry arguments read-only",
        [](OpPassManager &pm) { buildTensorPipeline(pm); });
    PassPipelineRegistration<>(
        "adj-bufferize",
        "Stage 2 (every target): one-shot bufferization, buffers freed "
        "after their last use",
        [](OpPassManager &pm) { buildBufferizePipeline(pm); });
    PassPipelineRegistration<>(
        "adj-cpu-loops",
        "CPU stage 3: matmul/conv -> runtime kernel calls, the rest -> "
        "parallel loops, large ones on the runtime's thread pool, each "
        "other nest in a function of its own, one function for equal ones",
        [](OpPassManager &pm) { buildCPULoopsPipeline(pm); });
    PassPipelineRegistration<>(
        "adj-cpu-llvm", "CPU stage 4: -> the LLVM dialect",
        [](OpPassManager &pm) { buildCPULLVMPipeline(pm); });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-lower-to-cpu",
        "Typed, optimized adj -> the LLVM dialect for the CPU (-adj-tensor, "
        "-adj-bufferize, -adj-cpu-loops, -adj-cpu-llvm)",
        [](OpPassManager &pm, const LowerToTargetOptions &) {
          buildLowerToCPUPipeline(pm);
        });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-gpu-kernels",
        "GPU stage 3: linalg -> gpu.launch kernels, device buffers on the "
        "host -> runtime calls, kernels outlined into gpu.module",
        [](OpPassManager &pm, const LowerToTargetOptions &options) {
          buildGPUKernelsPipeline(pm, options);
        });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-intel-spirv",
        "Intel stage 4: kernels -> SPIR-V (OpenCL kernel flavour)",
        [](OpPassManager &pm, const LowerToTargetOptions &options) {
          buildIntelSPIRVPipeline(pm, options);
        });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-nvidia-nvvm",
        "NVIDIA stage 4: kernels -> NVVM (bare device pointers), an NVVM "
        "target on each gpu.module (sm_90, +ptx80 by default)",
        [](OpPassManager &pm, const LowerToTargetOptions &options) {
          buildNVIDIANVVMPipeline(pm, options);
        });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-lower-to-cuda",
        "Typed, optimized adj -> LLVM dialect host code that launches "
        "CUDA fatbins (cubin + PTX) through the GPU runtime (tensor, "
        "bufferize, adj-gpu-kernels, adj-nvidia-nvvm, adj-gpu-host-llvm)",
        [](OpPassManager &pm, const LowerToTargetOptions &options) {
          buildLowerToCUDAPipeline(pm, options);
        });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-amd-rocdl",
        "AMD stage 4: kernels -> ROCDL (bare device pointers), a ROCDL "
        "target on each gpu.module (gfx942, code object v5, the chip's "
        "wavefront size by default)",
        [](OpPassManager &pm, const LowerToTargetOptions &options) {
          buildAMDROCDLPipeline(pm, options);
        });
    PassPipelineRegistration<LowerToTargetOptions>(
        "adj-lower-to-hip",
        "Typed, optimized adj -> LLVM dialect host code that launches "
        "HSACO code objects through the GPU runtime (tensor, bufferize, "
        "adj-gpu-kernels, adj-amd-rocdl, adj-gpu-host-llvm)",
        [](OpPassManager &pm, const LowerToTargetOptions &options) {
          buildLowerToHIPPipeline(pm, options);
        });
    PassPipelineRegistration<>(
        "adj-gpu-host-llvm",
        "GPU stage 5: kernels serialized, launches -> runtime calls, host "
        "code -> the LLVM dialect",
        [](OpPassManager &pm) { buildGPUHostLLVMPipeline(pm); });
    for (const char *kind : {"opencl", "level-zero"})
      PassPipelineRegistration<LowerToTargetOptions>(
          std::string("adj-lower-to-") + kind,
          "Typed, optimized adj -> LLVM dialect host code that launches "
          "SPIR-V kernels through the GPU runtime (tensor, bufferize, "
          "adj-gpu-kernels, adj-intel-spirv, adj-gpu-host-llvm)",
          [kind](OpPassManager &pm, const LowerToTargetOptions &options) {
            buildLowerToSPIRVPipeline(pm, options, kind);
          });
  });
}
