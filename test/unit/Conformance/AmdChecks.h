//===- AmdChecks.h - What the conformance suite checks of HSACO -*- C++ -*-===//
//
// Programs compiled for hip cannot run here (no AMD GPU); what can be
// checked is what the driver would load: every embedded kernel module is an
// AMDGPU code object for the chip asked for, whose amdhsa.kernels metadata
// (llvm-readelf --notes) names the kernels the host code launches with the
// arguments it passes, at the wavefront size the kernels were written for,
// without spills and within the chip's LDS. The numbers are printed: they
// are the report of the AMD code generator's quality.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_CONFORMANCE_AMDCHECKS_H
#define ADJOINT_TEST_UNIT_CONFORMANCE_AMDCHECKS_H

#include "GpuBinaries.h"

#include <cstdint>
#include <string>
#include <vector>

namespace adjoint::conformance {

/// One argument of a kernel in amdhsa.kernels.
struct AmdKernelArg {
  int64_t offset = -1;
  int64_t size = -1;
  std::string valueKind; // global_buffer, by_value, hidden_...
};

/// One kernel of a code object as its metadata describes it.
struct AmdKernel {
  std::string target; // amdgcn-amd-amdhsa--gfx942
  std::string name;
  int64_t vgprs = -1;
  int64_t sgprs = -1;
  int64_t agprs = 0;
  int64_t vgprSpills = -1;
  int64_t sgprSpills = -1;
  /// Static LDS (group segment) per workgroup, in bytes.
  int64_t lds = -1;
  /// Scratch (private segment) per work item, in bytes.
  int64_t scratch = -1;
  int64_t wavefront = -1;
  int64_t kernargSize = -1;
  std::vector<AmdKernelArg> args;
};

/// Parses the text of `llvm-readelf --notes` on one code object.
std::vector<AmdKernel> parseAmdNotes(const std::string &notes);

/// The kernels of the code object `bytes` (llvm-readelf --notes from
/// `llvmTools`). Throws adjoint::Error with the tool's output when it
/// refuses the object or the object has no AMDGPU metadata.
std::vector<AmdKernel> amdKernels(const std::string &llvmTools,
                                  const std::string &bytes);

/// The symbols the code object `bytes` uses without defining them
/// (llvm-nm --undefined-only from `llvmTools`), one per line: an ocml
/// function the device libraries did not provide, say. The driver refuses
/// an object with any.
std::string amdUndefinedSymbols(const std::string &llvmTools,
                                const std::string &bytes);

/// What is wrong with `kernel` compiled for the processor `chip` at
/// `wavefront`, or "": another target or wavefront size, spills, more
/// LDS than the chip's 64 KiB, more than 512 VGPRs.
std::string amdResourceProblem(const AmdKernel &kernel,
                               const std::string &chip, int64_t wavefront);

/// What is wrong with `kernel`'s arguments for the host code's `launch`,
/// or "": each device pointer a global_buffer of 8 bytes, each scalar a
/// by_value of its size, in order at aligned, increasing offsets.
std::string amdArgumentProblem(const AmdKernel &kernel,
                               const HostKernel &launch);

} // namespace adjoint::conformance

#endif // ADJOINT_TEST_UNIT_CONFORMANCE_AMDCHECKS_H
