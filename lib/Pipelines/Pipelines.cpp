//===- Pipelines.cpp - Named pass pipelines -------------------------------===//

#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Codegen/AMD/Passes.h"
#include "adjoint/Codegen/CPU/Passes.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Codegen/GPU/Passes.h"
#include "adjoint/Codegen/Intel/Passes.h"
#include "adjoint/Codegen/NVIDIA/Passes.h"
#include "adjoint/Compile/Target.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/ErrorHandling.h"

#include <mutex>

using namespace mlir;

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

namespace {
/// Appends upstream passes written as ir-opt would take them. The texts are
/// fixed, so a parse failure is a bug here, not a user error.
void addPipelineText(OpPassManager &pm, llvm::StringRef text) {
  if (failed(parsePassPipeline(text, pm)))
    llvm::report_fatal_error(llvm::Twine("bad built-in pipeline: ") + text);
}
} // namespace

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

namespace {
/// The subgroup size kernels are written for when the options leave it to
/// the kind (0). Intel GPUs run subgroups of 8 to 32; 16 suits them all,
/// and Intel's CPU OpenCL runtime miscompiles the reductions' shuffle
/// butterfly at 32 and 64 (docs/gpu-kernels.md). The NVIDIA pipeline
/// passes its warp size (32) explicitly, the AMD one its chip's wavefront
/// size (64 or 32).
int64_t subgroupSizeOf(const adjoint::LowerToTargetOptions &options) {
  return options.subgroupSize ? options.subgroupSize : int64_t(16);
}
} // namespace

void adjoint::buildGPUKernelsPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options) {
  // Decompositions (calls -adj-to-linalg made) as matrix kernels.
  pm.addPass(createLinearAlgebra());
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
  reductions.subgroupSize = subgroupSizeOf(options);
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
  // Complex arithmetic as arith and math on the parts, in the kernels and
  // on the host; each vendor converts what remains (create, re, im) with
  // its own types.
  addPipelineText(pm, "convert-complex-to-standard");
}

void adjoint::buildIntelSPIRVPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options) {
  pm.addPass(createAttachTarget(AttachTargetOptions{
      options.chip, options.features, subgroupSizeOf(options)}));
  // Workgroup buffers of the tiled kernels as SPIR-V Workgroup variables.
  pm.addNestedPass<gpu::GPUModuleOp>(createWorkgroupAllocs());
  // Views sunk into the kernels fold into their loads and stores; affine
  // index arithmetic and math become what the SPIR-V conversion knows
  // (math as OpenCL extended instructions; log1p and expm1, which it
  // would write as log(1 + x) and exp(x) - 1, through log and exp first).
  pm.addNestedPass<gpu::GPUModuleOp>(createPreciseMath());
  // Barriers of kernels that share global memory order it too.
  pm.addNestedPass<gpu::GPUModuleOp>(createGlobalBarriers());
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "canonicalize,convert-math-to-spirv)");
  pm.addNestedPass<gpu::GPUModuleOp>(createLegalizeArith());
  // Rank-0 views at an offset (a scalar element of a vector) as rank-1
  // buffers: the conversion below would read them at offset 0.
  pm.addPass(createScalarViewArgs());
  // Upstream's convert-gpu-to-spirv with the complex patterns in the same
  // conversion.
  pm.addPass(createKernelsToSPIRV());
  addPipelineText(pm, "gpu.module(spirv.module(spirv-lower-abi-attrs,"
                      "spirv-update-vce))");
}

void adjoint::buildNVIDIANVVMPipeline(OpPassManager &pm,
                                      const LowerToTargetOptions &options) {
  // Views fold into their loads and stores, affine index arithmetic and
  // structured control flow become what the LLVM dialect has; then the
  // NVVM conversion with bare pointers, the runtime's kernel ABI
  // (include/adjoint/Runtime/GpuABI.h): one device address per memref,
  // which the kernels' static layouts (-adj-gpu-kernel-layouts) make
  // enough. Math ops become libdevice calls there; the target checks that
  // libdevice is at hand for them.
  // Flat buffers of dynamic extent (-adj-gpu-kernel-layouts) as pointers
  // first: bare pointers carry only static shapes.
  pm.addNestedPass<gpu::GPUModuleOp>(createFlatKernelArgs());
  // Without libdevice, math must not stay __nv_* calls: transcendentals
  // as polynomials first (powf through exp and log; f64 exp, expm1, log,
  // log1p, tanh and erf too), and after the NVVM conversion the calls of
  // what PTX has instructions for (sqrt, floor) as LLVM intrinsics. What
  // remains (other f64 transcendentals: sin, cos, ...) is a libdevice call
  // that the target then reports.
  bool libdevice = options.libdevice &&
                   nvidia::hasLibdevice(nvidia::resolveCudaToolkit(
                       options.toolkit));
  if (!libdevice) {
    addPipelineText(pm, "gpu.module(math-expand-ops{ops=powf,fpowi,tan,"
                        "sinh,cosh,asinh,acosh,atanh,exp2})");
    pm.addNestedPass<gpu::GPUModuleOp>(createApproximateMath());
  }
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "convert-scf-to-cf,canonicalize,"
                      "convert-complex-to-llvm,"
                      "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},"
                      // What has no libdevice function (math.absi, ...):
                      // LLVM intrinsics, which NVPTX selects.
                      "convert-math-to-llvm,reconcile-unrealized-casts)");
  if (!libdevice)
    pm.addNestedPass<gpu::GPUModuleOp>(nvidia::createNativeMath());
  nvidia::AttachTargetOptions target;
  if (!options.chip.empty())
    target.chip = options.chip;
  // Adjoint's own features (+tf32) are read by the GPU codegen, not LLVM.
  target.features = llvmTargetFeatures(options.features);
  target.toolkit = options.toolkit;
  // The target tells a missing libdevice from one not to be linked.
  target.libdevice = options.libdevice;
  pm.addPass(nvidia::createAttachTarget(target));
}

namespace adjoint {
namespace {
/// What the hip pipeline makes of `options`: the default chip (gfx942)
/// where none is named, the ROCm folder resolved, the chip's wavefront
/// size where no subgroup size is asked for.
struct HipOptions {
  std::string chip;
  std::string rocm;
  int64_t wavefrontSize;
};
HipOptions hipOptionsOf(const LowerToTargetOptions &options) {
  HipOptions hip;
  hip.chip = options.chip.empty() ? std::string(amd::kDefaultChip)
                                  : options.chip.getValue();
  hip.rocm = amd::resolveRocmPath(options.toolkit);
  hip.wavefrontSize = options.subgroupSize
                          ? int64_t(options.subgroupSize)
                          : amd::defaultWavefrontSize(hip.chip);
  return hip;
}

void addAMDROCDL(OpPassManager &pm, const LowerToTargetOptions &options,
                 bool checkLinker) {
  HipOptions hip = hipOptionsOf(options);
  // Bare pointers as on NVIDIA: one device address per memref
  // (GpuABI.h), flat buffers of dynamic extent as pointers first.
  pm.addNestedPass<gpu::GPUModuleOp>(createFlatKernelArgs());
  // The device libraries where they were built for the chip; elsewhere
  // (absent, or Debian's 5.2 on gfx942 and gfx1100) f32 and f16
  // transcendentals as polynomials, and after the conversion the ocml
  // calls of what AMDGPU has instructions for (floor, rsqrt) as LLVM
  // intrinsics. f64 transcendentals are ocml calls linked from the device
  // libraries when present (whatever the chip: their f64 code does not
  // depend on it); without them exp, expm1, log, log1p, tanh and erf are
  // our approximations too, and the other f64 functions an error at the op.
  bool native = !(options.libdevice &&
                  amd::deviceLibsSupport(hip.rocm, hip.chip));
  if (native) {
    addPipelineText(pm, "gpu.module(math-expand-ops{ops=powf,fpowi,tan,"
                        "sinh,cosh,asinh,acosh,atanh,exp2})");
    ApproximateMathOptions approximate;
    approximate.f64 = !(options.libdevice && amd::hasDeviceLibs(hip.rocm));
    pm.addNestedPass<gpu::GPUModuleOp>(createApproximateMath(approximate));
  }
  // The conversion takes the processor alone (gfx942, not its target ID).
  std::string processor = StringRef(hip.chip).split(':').first.str();
  addPipelineText(pm, "gpu.module(fold-memref-alias-ops,lower-affine,"
                      "convert-scf-to-cf,canonicalize,"
                      "convert-complex-to-llvm,"
                      "convert-gpu-to-rocdl{chipset=" +
                          processor +
                          " use-bare-ptr-memref-call-conv=true runtime=HIP "
                          // Not math's generic patterns, which compete with
                          // the ocml ones (math.tanh -> llvm.intr.tanh, which
                          // AMDGPU cannot select) where every dialect is
                          // loaded (compile(), ir-run).
                          "allowed-dialects=arith,cf,func,index,memref,ub,"
                          "vector},"
                          "convert-math-to-llvm,reconcile-unrealized-casts)");
  if (native)
    pm.addNestedPass<gpu::GPUModuleOp>(amd::createNativeMath());
  amd::AttachTargetOptions target;
  target.chip = hip.chip;
  target.features = llvmTargetFeatures(options.features);
  target.wavefrontSize = hip.wavefrontSize;
  target.rocm = hip.rocm;
  target.deviceLibs = options.libdevice;
  target.checkLinker = checkLinker;
  pm.addPass(amd::createAttachTarget(target));
}
} // namespace
} // namespace adjoint

void adjoint::buildAMDROCDLPipeline(OpPassManager &pm,
                                    const LowerToTargetOptions &options) {
  addAMDROCDL(pm, options, /*checkLinker=*/false);
}

void adjoint::buildGPUHostLLVMPipeline(OpPassManager &pm,
                                       StringRef binaryFormat,
                                       StringRef toolkit) {
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = binaryFormat.str();
  binary.toolkitPath = toolkit.str();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  // Fatbins are CUDA's: one per chip comes out of gpu-module-to-binary,
  // the runtime loads one per module.
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
  buildGPUKernelsPipeline(pm, cuda);
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
  HipOptions resolved = hipOptionsOf(options);
  hip.subgroupSize = resolved.wavefrontSize;
  buildTensorPipeline(pm, "hip");
  buildBufferizePipeline(pm);
  buildGPUKernelsPipeline(pm, hip);
  addAMDROCDL(pm, hip, /*checkLinker=*/true);
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
