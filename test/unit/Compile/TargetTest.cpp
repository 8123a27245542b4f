//===- TargetTest.cpp - Target parsing and compile() per target kind ------===//

#include "Helpers.h"

#include "adjoint/Target/Target.h"
#include "adjoint/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

#include "llvm/TargetParser/Host.h"

using namespace adjoint;
using namespace adjoint::test;

TEST_CASE("targets parse from kind or kind:chip") {
  Target host = Target::parse("cpu");
  REQUIRE(host.kind == TargetKind::CPU);
  REQUIRE(host.chip == llvm::sys::getHostCPUName().str());
  REQUIRE(host.triple == llvm::sys::getProcessTriple());
  // The host target carries every feature of the host, in a stable order.
  REQUIRE(host.str() == Target::cpu().str());
  REQUIRE(!host.features.empty());

  Target named = Target::parse("cpu:znver4");
  REQUIRE(named.kind == TargetKind::CPU);
  REQUIRE(named.chip == "znver4");
  REQUIRE(named.features.empty());
  REQUIRE(named.name() == "cpu:znver4");
  REQUIRE(named.str() == "cpu:znver4 " + llvm::sys::getProcessTriple());
  REQUIRE(named.pipelineName() == "adj-lower-to-cpu");
  REQUIRE(named.pipelineOptions() == "chip=znver4");

  Target cuda = Target::parse("cuda:sm_90");
  REQUIRE(cuda.kind == TargetKind::CUDA);
  REQUIRE(cuda.chip == "sm_90");
  REQUIRE(std::string(cuda.kindName()) == "cuda");
  // AMD chips have colons of their own: only the first one separates.
  Target hip = Target::parse("hip:gfx942:sramecc+:xnack-");
  REQUIRE(hip.kind == TargetKind::HIP);
  REQUIRE(hip.chip == "gfx942:sramecc+:xnack-");
  Target zero = Target::parse("level_zero");
  REQUIRE(zero.kind == TargetKind::LevelZero);
  REQUIRE(zero.chip.empty());
  REQUIRE(zero.pipelineName() == "adj-lower-to-level-zero");
  REQUIRE(Target::parse("opencl").kind == TargetKind::OpenCL);

  cuda.features = "+ptx80";
  REQUIRE(cuda.pipelineOptions() == "chip=sm_90 features=+ptx80");

  // The C++ spelling of the same targets.
  REQUIRE(Target::cuda().spec() == "cuda");
  REQUIRE(Target::cuda("sm_80").spec() == "cuda:sm_80");
  Target tf32 = Target::cuda("sm_90", "+tf32");
  REQUIRE(tf32.spec() == "cuda:sm_90,+tf32");
  REQUIRE(tf32.allowsTF32());
  REQUIRE(!Target::cuda("sm_90").allowsTF32());
  REQUIRE(errorOf([] { Target::cuda("sm_90", "tf32"); }).find(
              "bad feature 'tf32'") != std::string::npos);
}

TEST_CASE("bad target specs are errors naming the problem") {
  REQUIRE(errorOf([] { Target::parse("tpu"); }) ==
          "target 'tpu': unknown kind 'tpu' (expected one of cpu, opencl, "
          "level_zero, cuda, hip, optionally followed by ':<chip>' and "
          "',+<feature>,-<feature>...')");
  REQUIRE(errorOf([] { Target::parse(""); }).find("unknown kind ''") !=
          std::string::npos);
  REQUIRE(errorOf([] { Target::parse("CPU"); }).find("unknown kind 'CPU'") !=
          std::string::npos);
  REQUIRE(errorOf([] { Target::parse("cuda:"); }) ==
          "target 'cuda:': empty chip after ':'");
  REQUIRE(errorOf([] { Target::parse("cpu:a b"); }) ==
          "target 'cpu:a b': the chip 'a b' has a blank, a quote, a brace "
          "or '='");
}

TEST_CASE("targets carry features after a comma, TF32 among them") {
  Target tf32 = Target::parse("cuda:sm_90,+tf32");
  REQUIRE(tf32.kind == TargetKind::CUDA);
  REQUIRE(tf32.chip == "sm_90");
  REQUIRE(tf32.features == "+tf32");
  REQUIRE(tf32.allowsTF32());
  REQUIRE(tf32.name() == "cuda:sm_90");
  REQUIRE(tf32.spec() == "cuda:sm_90,+tf32");
  REQUIRE(tf32.pipelineOptions() == "chip=sm_90 features=+tf32");
  // Printed and parsed again, the same target.
  for (const char *spec :
       {"cuda", "cuda,+tf32", "cuda:sm_80,+ptx80,+tf32", "opencl,+fp16",
        "cpu:znver4,+avx2,-avx512f", "hip:gfx942:sramecc+:xnack-,+wavefrontsize64"}) {
    INFO(spec);
    Target parsed = Target::parse(spec);
    REQUIRE(parsed.spec() == spec);
    REQUIRE(Target::parse(parsed.spec()).str() == parsed.str());
  }
  // Without the feature, or with a later -tf32, f32 stays f32; the
  // feature means nothing to the other kinds.
  REQUIRE(!Target::parse("cuda:sm_90").allowsTF32());
  REQUIRE(!Target::parse("cuda,+tf32,-tf32").allowsTF32());
  REQUIRE(Target::parse("cuda,-tf32,+tf32").allowsTF32());
  REQUIRE(!Target::parse("opencl,+tf32").allowsTF32());
  // Features of the host CPU come first, so that those asked for win.
  Target host = Target::parse("cpu,-avx2");
  REQUIRE(host.features == Target::cpu().features + ",-avx2");
  REQUIRE(!hasTargetFeature(host.features, "avx2"));
  // LLVM never sees Adjoint's own features.
  REQUIRE(llvmTargetFeatures("+ptx80,+tf32,-tf32") == "+ptx80");
  REQUIRE(llvmTargetFeatures("+tf32") == "");
  REQUIRE(llvmTargetFeatures("+avx2, -fma") == "+avx2,-fma");
}

TEST_CASE("bad target features are errors naming them") {
  REQUIRE(errorOf([] { Target::parse("cuda,"); }) ==
          "target 'cuda,': no features after ','");
  REQUIRE(errorOf([] { Target::parse("cuda:sm_90,tf32"); }) ==
          "target 'cuda:sm_90,tf32': bad feature 'tf32' (expected +<name> "
          "or -<name>, e.g. +tf32)");
  REQUIRE(errorOf([] { Target::parse("cuda,+tf32,+"); }) ==
          "target 'cuda,+tf32,+': bad feature '+' (expected +<name> or "
          "-<name>, e.g. +tf32)");
  REQUIRE(errorOf([] { Target::parse("cuda,+a=b"); }).find(
              "bad feature '+a=b'") != std::string::npos);
}

TEST_CASE("the cache key holds the whole target") {
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return x + x; });
  CompileOptions options = noCache();
  Target host = Target::cpu();
  Target fewer = host;
  fewer.features = "-avx2";
  Executable a = compile(m, "f", host, options);
  Executable b = compile(m, "f", fewer, options);
  REQUIRE(a.cacheKey() != b.cacheKey());
  if (std::string(ADJOINT_TEST_CUDA_TOOLKIT).empty())
    return;
  // TF32 or not is part of what was compiled.
  Executable exact = compile(m, "f", Target::parse("cuda:sm_90"), options);
  Executable tf32 =
      compile(m, "f", Target::parse("cuda:sm_90,+tf32"), options);
  REQUIRE(exact.cacheKey() != tf32.cacheKey());
  REQUIRE(tf32.target().allowsTF32());
}

TEST_CASE("compile() lowers every kind, GPU code is not ahead of time yet") {
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return x; });
  // Every kind has its -adj-lower-to-<kind> pipeline, hip included
  // (HipCompileTest.cpp compiles for it).
  registerPipelines();
  for (const char *kind : {"cpu", "opencl", "level_zero", "cuda", "hip"}) {
    INFO(kind);
    REQUIRE(mlir::PassPipelineInfo::lookup(
                Target::parse(kind).pipelineName()) != nullptr);
  }
  REQUIRE(errorOf([&] {
            compileToObject(m, "f", "/nonexistent", Target::parse("opencl"),
                            noCache());
          }) == "compileToObject: ahead-of-time code for opencl is not "
                "supported yet (use compile())");
  REQUIRE(errorOf([&] {
            compileToObject(m, "f", "/nonexistent",
                            Target::parse("hip:gfx942"), noCache());
          }) == "compileToObject: ahead-of-time code for hip is not "
                "supported yet (use compile())");
}

TEST_CASE("GPU executables run on a device of their kind") {
  rt::Device *device = openclOrWarn();
  if (!device)
    return;
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return x * 2.0 + 1.0; });
  Executable exe = compile(m, "f", Target::parse("opencl"), noCache());
  REQUIRE(exe.target().kind == TargetKind::OpenCL);
  rt::Tensor x = rt::Tensor::fromDoubles(DType::F32, {4}, {1, 2, 3, -4});
  // Host inputs are copied to the default device; outputs stay there.
  std::vector<rt::Tensor> out = exe.run({x});
  REQUIRE(&out[0].device() == device);
  REQUIRE(out[0].toHost().toDoubles() == std::vector<double>{3, 5, 7, -7});
  // Device inputs choose the device; a device of another kind is refused.
  out = exe.run({x.to(*device)});
  REQUIRE(out[0].toHost().toDoubles() == std::vector<double>{3, 5, 7, -7});
  REQUIRE(errorOf([&] { exe.run({x}, &rt::cpuDevice()); }) ==
          "@f: invalid argument: compiled for opencl, asked to run on cpu");
  Executable cpu = compile(m, "f", Target::cpu(), noCache());
  REQUIRE(errorOf([&] { cpu.run({x}, device); }) ==
          "@f: invalid argument: compiled for the cpu, asked to run on "
          "opencl:0");
}

TEST_CASE("cuda compiles to fatbins without a driver and says it cannot "
          "run") {
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return api::exp(x) + x; });
  Target cuda = Target::parse("cuda:sm_90");
  if (std::string(ADJOINT_TEST_CUDA_TOOLKIT).empty()) {
    // No ptxas to make the cubin with: compile() says so.
    REQUIRE(errorOf([&] { compile(m, "f", cuda, noCache()); }) != "");
    WARN("no CUDA toolkit in this build (ADJOINT_CUDA_TOOLKIT): the cuda "
         "compile is not tested");
    return;
  }
  // The module of the kernel: CUDA format (2), a fatbin (its magic
  // 0xBA55ED50, little-endian), the kernel's one memref as a device
  // address.
  std::string ir = compileToLLVMIR(m.op(), "f", cuda, noCache());
  REQUIRE(ir.find("{ i32 2, i32 0, ptr @__adj_gpu_data_") !=
          std::string::npos);
  REQUIRE(ir.find("c\"P\\EDU\\BA") != std::string::npos);
  Executable exe = compile(m, "f", cuda, noCache());
  REQUIRE(exe.target().name() == "cuda:sm_90");
  std::string ran = errorOf([&] {
    exe.run({rt::Tensor::fromDoubles(DType::F32, {4}, {1, 2, 3, 4})});
  });
  INFO(ran);
  REQUIRE(ran.find("unavailable: ") != std::string::npos);
}
