//===- Targets.h - The conformance suite's targets and oracle ---*- C++ -*-===//
//
// Every program of the suite runs compiled for every target present on the
// machine (the CPU always; OpenCL where a driver with a SPIR-V device is
// installed, as in CI; Level Zero, CUDA and HIP where their drivers and
// devices are) and must equal the reference interpreter within the
// tolerance of its dtype. A target whose device is absent is listed with
// the reason, so that a run says what it did not cover.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TEST_UNIT_CONFORMANCE_TARGETS_H
#define ADJOINT_TEST_UNIT_CONFORMANCE_TARGETS_H

#include "adjoint/API/Builder.h"
#include "adjoint/API/Compile.h"
#include "adjoint/Interpreter/Interpreter.h"

#include <string>
#include <vector>

namespace adjoint::conformance {

using Shape = std::vector<int64_t>;

/// The targets whose device is present, the CPU first. Prints the absent
/// ones with their reason once per process.
const std::vector<Target> &presentTargets();

/// Targets the programs are only compiled for, no device being needed:
/// `cuda` (sm_80 and sm_90) where the build has a CUDA toolkit
/// (ADJOINT_CUDA_TOOLKIT; ptxas makes the cubins, cuobjdump reads them),
/// and `hip:gfx90a`, `hip:gfx942`, `hip:gfx1100` where it has a ROCm
/// folder (ADJOINT_ROCM_PATH; ld.lld links the code objects, llvm-readelf
/// reads them). Prints the absent ones with their reason once per process.
const std::vector<Target> &compileOnlyTargets();

/// Allowed |compiled - interpreter| relative to max(1, |interpreter|):
/// exact for integers and i1, a few ulps of accumulated rounding for
/// floats (reductions and products sum in another order on GPUs).
double tolerance(DType dtype);

/// Deterministic inputs in [low, high) (integers rounded, i1 alternating).
interp::Tensor sample(DType dtype, Shape shape, int64_t seed,
                      double low = -1.0, double high = 1.0);

/// Compiles `function` for every present target, runs it on `inputs`
/// (tuples flattened) and checks each output against the interpreter
/// (after -adj-grad), naming target, output and element on failure; then
/// compiles it for each compile-only target and checks that every kernel
/// module embedded is a fatbin with a cubin per chip that fits the
/// hardware (registers, spills, shared memory: printed), and that it
/// compiles without libdevice too (unless it computes f64 math); or, for
/// hip, a code object for the chip holding the kernels the host launches
/// with its arguments, at the chip's wavefront size, without spills or
/// undefined symbols, within 64 KiB of LDS (resources printed).
void checkOnAllTargets(const api::Module &module, const std::string &function,
                       const std::vector<interp::Value> &inputs);

/// The same, with inputs sampled from the function's signature: argument i
/// gets sample(dtype, shape, seed + i, low, high).
void checkOnAllTargets(const api::Module &module, const std::string &function,
                       int64_t seed = 1, double low = -1.0,
                       double high = 1.0);

} // namespace adjoint::conformance

#endif // ADJOINT_TEST_UNIT_CONFORMANCE_TARGETS_H
