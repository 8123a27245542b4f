//===- HipCompileTest.cpp - compile() for AMD GPUs without a driver -------===//

#include "Helpers.h"

#include "adjoint/Target/Target.h"

using namespace adjoint;
using namespace adjoint::test;

TEST_CASE("hip compiles to code objects without a driver and says it "
          "cannot run",
          "[hip-compile]") {
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return api::exp(x) + x; });
  Target hip = Target::parse("hip:gfx942:sramecc+:xnack-");
  if (std::string(ADJOINT_TEST_ROCM_PATH).empty()) {
    // No ld.lld to link the code object with: compile() says so.
    REQUIRE(errorOf([&] { compile(m, "f", hip, noCache()); })
                .find("no ld.lld to link AMD code objects") !=
            std::string::npos);
    WARN("no ROCm folder in this build (ADJOINT_ROCM_PATH): the hip "
         "compile is not tested");
    return;
  }
  // The module of the kernel: HSACO format (3), an ELF image (its magic
  // 0x7F 'E' 'L' 'F'), the kernel's input and output as device addresses.
  std::string ir = compileToLLVMIR(m.op(), "f", hip, noCache());
  REQUIRE(ir.find("{ i32 3, i32 0, ptr @__adj_gpu_data_") !=
          std::string::npos);
  REQUIRE(ir.find("c\"\\7FELF") != std::string::npos);
  REQUIRE(ir.find("= internal constant [2 x i32] zeroinitializer") !=
          std::string::npos);
  Executable exe = compile(m, "f", hip, noCache());
  REQUIRE(exe.target().name() == "hip:gfx942:sramecc+:xnack-");
  std::string ran = errorOf([&] {
    exe.run({rt::Tensor::fromDoubles(DType::F32, {4}, {1, 2, 3, 4})});
  });
  INFO(ran);
  REQUIRE(ran.find("unavailable: ") != std::string::npos);
}

TEST_CASE("hip refuses chips and wavefront sizes it cannot build for",
          "[hip-compile]") {
  api::Module m;
  m.function("f", {f32({4})}, [](api::Value x) { return api::sum(x * x); });
  std::string unknown = errorOf(
      [&] { compileToLLVMIR(m.op(), "f", Target::parse("hip:gfx9999"), noCache()); });
  INFO(unknown);
  REQUIRE(unknown.find("gfx9999") != std::string::npos);
  Target wave32 = Target::parse("hip:gfx942");
  wave32.subgroupSize = 32;
  REQUIRE(errorOf([&] { compileToLLVMIR(m.op(), "f", wave32, noCache()); })
              .find("gfx942 runs wavefronts of 64 only") != std::string::npos);
}
