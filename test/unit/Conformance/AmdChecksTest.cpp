//===- AmdChecksTest.cpp - The HSACO checks catch what they must ----------===//
//
// The conformance suite's AMD checks read llvm-readelf's metadata text; a
// parser that misread it would pass every kernel. These cases feed it the
// text of kernels that spill, overflow LDS, run at another wavefront size
// or take other arguments than the host passes, and a code object made
// here, and check the verdicts.
//
//===----------------------------------------------------------------------===//

#include "AmdChecks.h"

#include "adjoint/Support/Error.h"

#include <catch2/catch.hpp>

using namespace adjoint;
using namespace adjoint::conformance;

namespace {

/// llvm-readelf --notes as it prints one kernel (numbers to be replaced),
/// with the list-valued field that shares the arguments' indent and a
/// hidden argument after the explicit ones.
std::string notes(const std::string &lds, const std::string &vgprSpills,
                  const std::string &wave, const std::string &secondKind) {
  return R"(Displaying notes found in: .note
  Owner                Data size 	Description
  AMDGPU               0x00000270	NT_AMDGPU_METADATA (AMDGPU Metadata)
    AMDGPU Metadata:
        ---
amdhsa.kernels:
  - .agpr_count:     4
    .args:
      - .address_space:  generic
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .value_kind:     )" +
         secondKind + R"(
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
    .group_segment_fixed_size: )" +
         lds + R"(
    .kernarg_segment_size: 20
    .name:           reduce_kernel
    .private_segment_fixed_size: 16
    .reqd_workgroup_size:
      - 128
      - 1
      - 1
    .sgpr_count:     14
    .sgpr_spill_count: 0
    .vgpr_count:     40
    .vgpr_spill_count: )" +
         vgprSpills + R"(
    .wavefront_size: )" +
         wave + R"(
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
)";
}

} // namespace

TEST_CASE("AMD checks: metadata parsed, every problem named",
          "[conformance][amd-checks]") {
  std::vector<AmdKernel> kernels =
      parseAmdNotes(notes("8", "0", "64", "by_value"));
  REQUIRE(kernels.size() == 1);
  const AmdKernel &k = kernels.front();
  CHECK(k.target == "amdgcn-amd-amdhsa--gfx942");
  CHECK(k.name == "reduce_kernel");
  CHECK(k.vgprs == 40);
  CHECK(k.agprs == 4);
  CHECK(k.sgprs == 14);
  CHECK(k.lds == 8);
  CHECK(k.scratch == 16);
  CHECK(k.wavefront == 64);
  CHECK(k.kernargSize == 20);
  // Three arguments: the workgroup size's list is not one of them.
  REQUIRE(k.args.size() == 3);
  CHECK(k.args[1].offset == 8);
  CHECK(k.args[1].size == 4);
  CHECK(k.args[1].valueKind == "by_value");

  CHECK(amdResourceProblem(k, "gfx942", 64) == "");
  // The unified register file at its limit: .vgpr_count includes the
  // AGPRs.
  AmdKernel full = k;
  full.vgprs = 512;
  full.agprs = 256;
  CHECK(amdResourceProblem(full, "gfx942", 64) == "");
  full.vgprs = 513;
  CHECK(amdResourceProblem(full, "gfx942", 64) ==
        "513 VGPRs, AGPRs included (at most 512)");
  CHECK(amdResourceProblem(k, "gfx90a", 64) ==
        "target amdgcn-amd-amdhsa--gfx942, expected "
        "amdgcn-amd-amdhsa--gfx90a");
  CHECK(amdResourceProblem(k, "gfx942", 32) ==
        "wavefront size 64, written for 32");
  CHECK(amdResourceProblem(parseAmdNotes(notes("8", "3", "64", "by_value"))
                               .front(),
                           "gfx942", 64) == "spills: 3 VGPRs, 0 SGPRs");
  CHECK(amdResourceProblem(
            parseAmdNotes(notes("65537", "0", "64", "by_value")).front(),
            "gfx942", 64) == "65537 bytes of LDS (at most 64 KiB)");
  CHECK(amdResourceProblem(
            parseAmdNotes(notes("65536", "0", "64", "by_value")).front(),
            "gfx942", 64) == "");

  // The host passes a pointer and a 4-byte scalar; the hidden argument
  // the runtime fills is not counted.
  HostKernel launch{"m", "reduce_kernel", {0, 4}};
  CHECK(amdArgumentProblem(k, launch) == "");
  CHECK(amdArgumentProblem(k, HostKernel{"m", "reduce_kernel", {0}}) ==
        "2 arguments, the host passes 1");
  CHECK(amdArgumentProblem(k, HostKernel{"m", "reduce_kernel", {0, 8}}) ==
        "argument #1 is by_value of 4 bytes, the host passes by_value of 8");
  CHECK(amdArgumentProblem(
            parseAmdNotes(notes("8", "0", "64", "global_buffer")).front(),
            launch) == "argument #1 is global_buffer of 4 bytes, the host "
                       "passes by_value of 4");
}

TEST_CASE("AMD checks: a file that is no code object is refused",
          "[conformance][amd-checks]") {
  CHECK_THROWS_AS(amdKernels(ADJOINT_TEST_LLVM_TOOLS_DIR, "not an ELF"),
                  Error);
  CHECK_THROWS_AS(
      amdUndefinedSymbols(ADJOINT_TEST_LLVM_TOOLS_DIR, "not an ELF"), Error);
}
