//===- GpuBinaries.h - Kernel modules of compiled code, tools ---*- C++ -*-===//
//
// What the GPU checks of the conformance suite share: the kernel modules
// that compile() embeds in its LLVM IR, and running the vendors' tools
// (cuobjdump, ptxas, llvm-readelf) on them through temporary files.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_CONFORMANCE_GPUBINARIES_H
#define ADJOINT_TEST_UNIT_CONFORMANCE_GPUBINARIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace adjoint::conformance {

/// The kernel modules embedded in LLVM IR from compile() (globals
/// @__adj_gpu_data_<module> = c"..."): name and bytes.
struct EmbeddedModule {
  std::string name;
  std::string bytes;
};
std::vector<EmbeddedModule> embeddedModules(const std::string &llvmIR);

/// A kernel as the host code launches it (globals @__adj_gpu_kernel_*):
/// its module, entry point and argument sizes (0: a device pointer).
struct HostKernel {
  std::string module;
  std::string name;
  std::vector<uint32_t> argSizes;
};
std::vector<HostKernel> hostKernels(const std::string &llvmIR);

/// A temporary file's path (removed with the object).
struct TempFile {
  llvm::SmallString<128> path;
  explicit TempFile(llvm::StringRef suffix);
  ~TempFile();
};

/// Runs `tool args...` with stdout and stderr to one file; its text, and
/// the exit status in `status`. Throws adjoint::Error when `tool` is not
/// an executable.
std::string runTool(const std::string &tool, llvm::ArrayRef<std::string> args,
                    int &status);
/// runTool(), throwing adjoint::Error with the output on a non-zero exit.
std::string runToolOrThrow(const std::string &tool,
                           llvm::ArrayRef<std::string> args);
/// Writes `bytes` to the file `path`; throws adjoint::Error on failure.
void writeBytes(llvm::StringRef path, llvm::StringRef bytes);

} // namespace adjoint::conformance

#endif // ADJOINT_TEST_UNIT_CONFORMANCE_GPUBINARIES_H
