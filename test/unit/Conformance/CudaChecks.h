//===- CudaChecks.h - What the conformance suite checks of cubins -*- C++ -*-===//
//
// Programs compiled for cuda cannot run here (no GPU); what can be checked
// is what the driver would load: every embedded kernel module is a fatbin
// that NVIDIA's own reader (cuobjdump) takes, holding a cubin per chip
// whose kernels fit the hardware without spilling (ptxas -v). The numbers
// are printed: they are the report of the NVIDIA code generator's quality.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_CONFORMANCE_CUDACHECKS_H
#define ADJOINT_TEST_UNIT_CONFORMANCE_CUDACHECKS_H

#include <cstdint>
#include <string>
#include <vector>

namespace adjoint::conformance {

/// What `ptxas -v` says of one kernel compiled for one chip.
struct KernelResources {
  std::string arch; // "sm_90"
  std::string kernel;
  int64_t registers = -1;
  /// Bytes per thread of the stack frame (libdevice's sin and cos keep a
  /// small array there) and of the spill stores and loads in it.
  int64_t stack = -1;
  int64_t spillStores = -1;
  int64_t spillLoads = -1;
  /// Static shared memory per block, in bytes.
  int64_t shared = -1;
};

/// Parses the `ptxas -v` report of one compilation.
std::vector<KernelResources> parsePtxasReport(const std::string &report);

/// The resources of every kernel of `fatbin` on every chip it has a cubin
/// for: cuobjdump lists the cubins and gives the PTX back (a fatbin keeps
/// it compressed), `ptxas -v` compiles it for each of those chips as the
/// cubins were. Throws adjoint::Error with the tool's output when one of
/// them refuses its input.
std::vector<KernelResources> resourceUsage(const std::string &toolkit,
                                           const std::string &fatbin);

/// What is wrong with a kernel for the hardware, or "": more than 255
/// registers (the most a thread has), spills, or more than 48 KiB of
/// static shared memory (the most without opting in).
std::string resourceProblem(const KernelResources &kernel);

/// A folder that looks like a CUDA toolkit without libdevice: bin/ptxas
/// and bin/fatbinary of `toolkit`, no nvvm/ (made once per process).
std::string toolkitWithoutLibdevice(const std::string &toolkit);

} // namespace adjoint::conformance

#endif // ADJOINT_TEST_UNIT_CONFORMANCE_CUDACHECKS_H
