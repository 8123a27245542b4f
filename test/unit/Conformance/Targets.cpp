//===- Targets.cpp - The conformance suite's targets and oracle -----------===//

#include "Targets.h"
#include "AmdChecks.h"
#include "CudaChecks.h"
#include "GpuBinaries.h"
// The interpreter side of the oracle is the compile tests' (-adj-grad on
// a clone, results flattened as compiled code returns them).
#include "../Compile/Helpers.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Runtime/DeviceRegistry.h"

#include <catch2/catch.hpp>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {
/// The CUDA toolkit the compile-only checks use: the one the build found,
/// unless ADJOINT_CUDA_TOOLKIT names another (on a GPU machine the suite is
/// carried to, the build machine's folder does not exist).
std::string cudaToolkit() {
  const char *fromEnv = std::getenv("ADJOINT_CUDA_TOOLKIT");
  return fromEnv && *fromEnv ? fromEnv : ADJOINT_TEST_CUDA_TOOLKIT;
}
} // namespace

const std::vector<Target> &conformance::presentTargets() {
  static const std::vector<Target> targets = [] {
    std::vector<Target> present = {Target::cpu()};
    // cuda:0 is present on the lent GPU machine (scripts/gpu-device-run.sh),
    // hip:0 on an AMD machine (docs/benchmarks.md, "On an AMD GPU").
    for (const char *kind : {"cuda", "hip", "opencl", "level_zero"}) {
      rt::Device *device = nullptr;
      rt::Status status = rt::findDevice(std::string(kind) + ":0", &device);
      if (status.ok()) {
        // AMD code objects are for one chip: the device's own (its target
        // ID, "gfx90a:sramecc+:xnack-"); CUDA's fatbins carry PTX for any.
        present.push_back(std::string(kind) == "hip"
                              ? Target::parse("hip:" +
                                              device->properties().chip)
                              : Target::parse(kind));
        continue;
      }
      std::fprintf(stderr, "conformance: %s not tested: %s\n", kind,
                   status.toString().c_str());
      // Where the OpenCL runtime was installed for the tests (ctest, CI),
      // its absence is a failure, not a reason to test less.
      if (std::string(kind) == "opencl" && std::getenv("OCL_ICD_VENDORS"))
        FAIL("OCL_ICD_VENDORS is set but opencl:0 is unavailable: "
             << status.toString());
    }
    return present;
  }();
  return targets;
}

const std::vector<Target> &conformance::compileOnlyTargets() {
  static const std::vector<Target> targets = [] {
    std::vector<Target> compileOnly;
    // The folders are the build machine's; where the suite runs elsewhere
    // (carried to a GPU machine) they may be absent, and what cannot be
    // compiled there was compiled where the suite was built.
    auto present = [](const char *what, const std::string &folder,
                      const char *setting) {
      if (folder.empty()) {
        std::fprintf(stderr, "conformance: %s not compiled: the build has "
                             "no %s\n", what, setting);
        return false;
      }
      if (!llvm::sys::fs::is_directory(folder)) {
        std::fprintf(stderr, "conformance: %s not compiled: %s is not on "
                             "this machine\n", what, folder.c_str());
        return false;
      }
      return true;
    };
    if (present("cuda", cudaToolkit(),
                "CUDA toolkit (ADJOINT_CUDA_TOOLKIT)"))
      compileOnly.push_back(Target::parse("cuda"));
    if (present("hip", ADJOINT_TEST_ROCM_PATH,
                "ROCm folder (ADJOINT_ROCM_PATH)"))
      for (const char *chip : {"gfx90a", "gfx942", "gfx1100"})
        compileOnly.push_back(Target::parse(std::string("hip:") + chip));
    return compileOnly;
  }();
  return targets;
}

double conformance::tolerance(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return 1e-11;
  case DType::F32:
    return 2e-5;
  case DType::F16:
    return 4e-3;
  case DType::BF16:
    return 3e-2;
  default:
    return 0.0;
  }
}

interp::Tensor conformance::sample(DType dtype, Shape shape, int64_t seed,
                                   double low, double high) {
  if (dtype == DType::I1) {
    interp::Tensor t(dtype, shape);
    auto *bytes = static_cast<uint8_t *>(t.mutableData());
    for (int64_t i = 0; i < t.numel(); ++i)
      bytes[i] = (i * 7 + seed) % 3 == 0;
    return t;
  }
  return interp::randomUniform(dtype, std::move(shape), seed, low, high);
}

namespace {

/// The worst element of `actual` against `expected`, or "" when all are
/// within tolerance.
std::string compare(const interp::Tensor &expected, const rt::Tensor &actual) {
  std::ostringstream os;
  if (actual.dtype() != expected.dtype() ||
      actual.shape() != expected.shape()) {
    os << "type " << actual.typeString() << ", expected "
       << rt::tensorTypeString(expected.dtype(),
                               expected.shape());
    return os.str();
  }
  double tol = tolerance(expected.dtype());
  int64_t worst = -1;
  double worstError = 0.0;
  for (int64_t i = 0; i < expected.numel(); ++i) {
    double e = expected.at(i), a = actual.at(i);
    if (std::isnan(e) || std::isnan(a)) {
      if (std::isnan(e) != std::isnan(a))
        return "element " + std::to_string(i) + ": expected " +
               std::to_string(e) + ", got " + std::to_string(a);
      continue;
    }
    if (std::isinf(e) || std::isinf(a)) {
      if (e != a)
        return "element " + std::to_string(i) + ": expected " +
               std::to_string(e) + ", got " + std::to_string(a);
      continue;
    }
    double error = std::abs(a - e) / std::max(1.0, std::abs(e));
    if (error > worstError) {
      worstError = error;
      worst = i;
    }
  }
  if (worst < 0 || worstError <= tol)
    return "";
  os.precision(17);
  os << "element " << worst << " of " << expected.numel() << ": expected "
     << expected.at(worst) << ", got " << actual.at(worst)
     << " (relative error " << worstError << " > " << tol << ")";
  return os.str();
}

/// Checks that the kernel modules of `function` compiled for the CUDA
/// `target` are fatbins that cuobjdump reads, with a cubin for each default
/// chip (sm_80, sm_90) whose kernels fit the hardware (resourceProblem,
/// from ptxas -v on the fatbin's PTX);
/// prints each kernel's registers, spills and shared memory; checks that
/// compile() (which JITs the host code) succeeds.
void checkCompilesForCuda(const api::Module &module,
                          const std::string &function, const Target &target,
                          const CompileOptions &options) {
  INFO("@" << function << " compiled for " << target.str());
  std::string ir = compileToLLVMIR(module.op(), function, target, options);
  std::vector<EmbeddedModule> modules = embeddedModules(ir);
  // Every program of the suite computes on the device.
  CHECK(!modules.empty());
  for (const EmbeddedModule &kernels : modules) {
    INFO("kernel module " << kernels.name);
    std::vector<KernelResources> resources;
    try {
      resources = resourceUsage(cudaToolkit(), kernels.bytes);
    } catch (const Error &e) {
      FAIL(e.what());
    }
    std::set<std::string> chips;
    for (const KernelResources &kernel : resources) {
      std::fprintf(stderr,
                   "cuda resources: @%s %s %s %s: %lld registers, %lld "
                   "bytes spilled (stack frame %lld), %lld bytes shared\n",
                   function.c_str(), kernels.name.c_str(),
                   kernel.kernel.c_str(), kernel.arch.c_str(),
                   static_cast<long long>(kernel.registers),
                   static_cast<long long>(kernel.spillStores),
                   static_cast<long long>(kernel.stack),
                   static_cast<long long>(kernel.shared));
      INFO(kernel.kernel << " for " << kernel.arch);
      CHECK(resourceProblem(kernel) == "");
      chips.insert(kernel.arch);
    }
    CHECK(chips == std::set<std::string>{"sm_80", "sm_90"});
  }
  Executable exe = compile(module, function, target, options);
  CHECK(exe.target().name() == target.name());
}

/// Checks that `function` compiles for the CUDA `target` with a toolkit
/// that has no libdevice (f32 math approximated, the rest PTX
/// instructions), unless it computes f64 math, which only libdevice has:
/// then the error must say so.
void checkCompilesWithoutLibdevice(const api::Module &module,
                                   const std::string &function,
                                   const Target &target,
                                   const CompileOptions &options) {
  INFO("@" << function << " compiled for " << target.str()
           << " without libdevice");
  std::string folder = toolkitWithoutLibdevice(cudaToolkit());
  const char *previous = std::getenv("ADJOINT_CUDA_TOOLKIT");
  std::string saved = previous ? previous : "";
  ::setenv("ADJOINT_CUDA_TOOLKIT", folder.c_str(), 1);
  std::string error;
  std::string ir;
  try {
    ir = compileToLLVMIR(module.op(), function, target, options);
  } catch (const Error &e) {
    error = e.what();
  }
  if (previous)
    ::setenv("ADJOINT_CUDA_TOOLKIT", saved.c_str(), 1);
  else
    ::unsetenv("ADJOINT_CUDA_TOOLKIT");
  if (!error.empty()) {
    INFO(error);
    std::string text;
    llvm::raw_string_ostream os(text);
    module.op()->print(os);
    CHECK(error.find("from libdevice, and there is no") != std::string::npos);
    CHECK(text.find("f64") != std::string::npos);
    return;
  }
  for (const EmbeddedModule &kernels : embeddedModules(ir)) {
    INFO("kernel module " << kernels.name);
    std::vector<KernelResources> resources;
    try {
      resources = resourceUsage(cudaToolkit(), kernels.bytes);
    } catch (const Error &e) {
      FAIL(e.what());
    }
    CHECK(!resources.empty());
  }
}

/// The wavefront size kernels for an AMD chip are written for: 32 on RDNA
/// (gfx1100), 64 on CDNA (gfx90a, gfx942).
int64_t wavefrontOf(const std::string &chip) {
  return llvm::StringRef(chip).starts_with("gfx11") ? 32 : 64;
}

/// Checks that the kernel modules of `function` compiled for the hip
/// `target` are code objects for its chip whose kernels are those the host
/// code launches, with the arguments it passes, at the chip's wavefront
/// size, without spills and within its LDS (AmdChecks.h); prints each
/// kernel's registers, spills, LDS and scratch. The program is compiled
/// once (its LLVM IR holds the code objects).
void checkCompilesForHip(const api::Module &module,
                         const std::string &function, const Target &target,
                         const CompileOptions &options) {
  INFO("@" << function << " compiled for " << target.str());
  std::string ir;
  try {
    ir = compileToLLVMIR(module.op(), function, target, options);
  } catch (const Error &e) {
    FAIL(e.what());
  }
  std::vector<EmbeddedModule> modules = embeddedModules(ir);
  std::vector<HostKernel> launches = hostKernels(ir);
  CHECK(!modules.empty());
  int64_t wavefront = wavefrontOf(target.chip);
  for (const EmbeddedModule &kernels : modules) {
    INFO("kernel module " << kernels.name);
    std::vector<AmdKernel> found;
    try {
      found = amdKernels(ADJOINT_TEST_LLVM_TOOLS_DIR, kernels.bytes);
    } catch (const Error &e) {
      FAIL(e.what());
    }
    CHECK(amdUndefinedSymbols(ADJOINT_TEST_LLVM_TOOLS_DIR, kernels.bytes) ==
          "");
    std::set<std::string> names;
    for (const AmdKernel &kernel : found) {
      std::fprintf(stderr,
                   "hip resources: @%s %s %s %s: %lld VGPRs, %lld AGPRs, "
                   "%lld SGPRs, %lld/%lld VGPRs/SGPRs spilled, %lld bytes "
                   "LDS, %lld bytes scratch, wave%lld\n",
                   function.c_str(), kernels.name.c_str(),
                   kernel.name.c_str(), target.chip.c_str(),
                   static_cast<long long>(kernel.vgprs),
                   static_cast<long long>(kernel.agprs),
                   static_cast<long long>(kernel.sgprs),
                   static_cast<long long>(kernel.vgprSpills),
                   static_cast<long long>(kernel.sgprSpills),
                   static_cast<long long>(kernel.lds),
                   static_cast<long long>(kernel.scratch),
                   static_cast<long long>(kernel.wavefront));
      INFO(kernel.name << " for " << target.chip);
      CHECK(amdResourceProblem(kernel, target.chip, wavefront) == "");
      names.insert(kernel.name);
    }
    // Every kernel the host launches from this module is in it, with the
    // arguments the host passes.
    for (const HostKernel &launch : launches) {
      if (launch.module != kernels.name)
        continue;
      INFO("launched kernel " << launch.name);
      auto kernel = std::find_if(
          found.begin(), found.end(),
          [&](const AmdKernel &k) { return k.name == launch.name; });
      REQUIRE(kernel != found.end());
      CHECK(amdArgumentProblem(*kernel, launch) == "");
    }
    CHECK(!names.empty());
  }
}

/// Whether `module` has a decomposition, which GPU devices compute on one
/// of two routes.
bool hasDecompositions(const api::Module &module) {
  bool found = false;
  module.op()->walk([&](mlir::Operation *op) {
    found |= mlir::isa<adj::CholeskyOp, adj::TriangularSolveOp, adj::LuOp,
                       adj::QrOp, adj::EighOp, adj::SvdOp, adj::FftOp>(op);
  });
  return found;
}

} // namespace

void conformance::checkOnAllTargets(const api::Module &module,
                                    const std::string &function,
                                    const std::vector<interp::Value> &inputs) {
  std::vector<interp::Tensor> expected =
      test::interpret(module.op(), function, inputs);
  std::vector<interp::Tensor> leaves;
  for (const interp::Value &input : inputs)
    test::flattenValue(input, leaves);
  std::vector<rt::Tensor> args;
  for (const interp::Tensor &leaf : leaves)
    args.push_back(toRuntime(leaf));
  CompileOptions options;
  options.cache = false;
  bool decompositions = hasDecompositions(module);
  for (const Target &target : presentTargets()) {
    INFO("@" << function << " on " << target.str());
    Executable exe = compile(module, function, target, options);
    // A GPU device computes decompositions and FFTs with its generated
    // kernels or a library (GpuABI.h's adj_rt_gpu_linalg_begin): each route is
    // checked, forced by ADJOINT_GPU_LINALG, which the device reads at
    // each call.
    std::vector<const char *> routes = {nullptr};
    if (target.isGPU() && decompositions)
      routes = {"kernels", "library"};
    for (const char *route : routes) {
      INFO("decompositions by " << (route ? route : "the default route"));
      if (route)
        setenv("ADJOINT_GPU_LINALG", route, 1);
      std::vector<rt::Tensor> outputs = exe.run(args);
      for (rt::Tensor &output : outputs)
        output = output.toHost();
      unsetenv("ADJOINT_GPU_LINALG");
      REQUIRE(outputs.size() == expected.size());
      for (size_t i = 0; i < outputs.size(); ++i) {
        INFO("output #" << i);
        std::string mismatch = compare(expected[i], outputs[i]);
        CHECK(mismatch == "");
      }
    }
  }
  for (const Target &target : compileOnlyTargets()) {
    if (target.kind == TargetKind::HIP) {
      checkCompilesForHip(module, function, target, options);
      continue;
    }
    checkCompilesForCuda(module, function, target, options);
    checkCompilesWithoutLibdevice(module, function, target, options);
  }
}

void conformance::checkOnAllTargets(const api::Module &module,
                                    const std::string &function,
                                    int64_t seed, double low, double high) {
  api::Function f = module.lookup(function);
  std::vector<interp::Value> inputs;
  int64_t i = 0;
  for (mlir::Type type : f.op().getFunctionType().getInputs()) {
    auto tensor = mlir::cast<mlir::RankedTensorType>(type);
    DType dtype = interp::dtypeOf(tensor.getElementType());
    inputs.push_back(sample(dtype, tensor.getShape().vec(), seed + i++, low,
                            high));
  }
  checkOnAllTargets(module, function, inputs);
}
