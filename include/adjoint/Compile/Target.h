//===- Target.h - The machine compiled code runs on -------------*- C++ -*-===//
//
// A Target names a kind of device (the host CPU or a GPU driver), a chip and
// features. Each kind has one registered pipeline, -adj-lower-to-<kind>,
// that takes the chip and the features as options; compile() runs it.
//
//   Target::parse("cpu")          the host CPU with all its features
//   Target::parse("cpu:znver4")   a named CPU with its default features
//   Target::parse("cuda:sm_90")   a GPU kind with a chip
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_COMPILE_TARGET_H
#define ADJOINT_COMPILE_TARGET_H

#include <cstdint>
#include <optional>
#include <string>

namespace adjoint {

/// Who runs the kernels: the host CPU, or a GPU through its driver.
enum class TargetKind { CPU, OpenCL, LevelZero, CUDA, HIP };

/// "cpu", "opencl", "level_zero", "cuda", "hip".
const char *targetKindName(TargetKind kind);
/// The inverse of targetKindName(); nullopt for any other text.
std::optional<TargetKind> parseTargetKind(const std::string &name);

/// The machine to generate code for.
struct Target {
  TargetKind kind = TargetKind::CPU;
  /// CPU: LLVM's CPU name ("znver4", "skylake-avx512", "x86-64-v3"); GPU:
  /// the architecture ("sm_90", "gfx942"); empty means the kind's default.
  std::string chip;
  /// LLVM feature string ("+avx2,+fma,-avx512f,..."); empty means the
  /// chip's defaults.
  std::string features;
  /// The triple of the host code ("x86_64-pc-linux-gnu"); kernels of GPU
  /// kinds get their device triple from the kind.
  std::string triple;
  /// GPU kinds: the subgroup (warp) size kernels are written for; 0 means
  /// the kind's default (16 on Intel, 32 on NVIDIA, 64 on AMD).
  int64_t subgroupSize = 0;

  /// The host CPU with every feature it has (AVX2, AVX-512, ...).
  static Target cpu();
  /// The host's triple with a named CPU (its default features), for
  /// objects that must run on other machines of the same family.
  static Target cpuNamed(const std::string &chip);
  /// "kind" or "kind:chip" as on the command line (--target=...). Throws
  /// adjoint::Error naming the problem and the accepted kinds.
  static Target parse(const std::string &spec);

  const char *kindName() const { return targetKindName(kind); }
  bool isGPU() const { return kind != TargetKind::CPU; }
  /// The CPU that runs the host code: this target for the CPU kind, the
  /// host CPU with all its features for a GPU kind (its host function runs
  /// in this process and launches the kernels).
  Target hostTarget() const;
  /// "kind" or "kind:chip", what parse() takes (features and triple left
  /// out).
  std::string name() const;
  /// The registered pipeline that lowers typed adj to this kind,
  /// "adj-lower-to-cpu", "adj-lower-to-level-zero", ...
  std::string pipelineName() const;
  /// The options of that pipeline: "chip=znver4 features=+avx2,...".
  std::string pipelineOptions() const;
  /// Everything that identifies the target (the cache key uses it):
  /// "cpu:znver4 x86_64-pc-linux-gnu +avx2,...".
  std::string str() const;
};

} // namespace adjoint

#endif // ADJOINT_COMPILE_TARGET_H
