//===- Target.h - The machine compiled code runs on -------------*- C++ -*-===//
//
// A Target names a kind of device (the host CPU or a GPU driver), a chip and
// features. Each kind has one registered pipeline, -adj-lower-to-<kind>,
// that takes the chip and the features as options; compile() runs it.
//
//   Target::parse("cpu")          the host CPU with all its features
//   Target::parse("cpu:znver4")   a named CPU with its default features
//   Target::parse("cuda:sm_90")   a GPU kind with a chip
//   Target::parse("cuda,+tf32")   features after a comma, each +name or -name
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TARGET_TARGET_H
#define ADJOINT_TARGET_TARGET_H

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

/// Whether the comma-separated feature list `features` ("+ptx80,+tf32")
/// enables `name` ("tf32"): its last mention is "+name" (LLVM's rule, a
/// later mention overrides an earlier one).
bool hasTargetFeature(const std::string &features, const std::string &name);
/// `features` without the features that Adjoint reads itself (tf32), which
/// no LLVM back end knows: what goes to LLVM's code generators.
std::string llvmTargetFeatures(const std::string &features);

/// The machine to generate code for.
struct Target {
  TargetKind kind = TargetKind::CPU;
  /// CPU: LLVM's CPU name ("znver4", "skylake-avx512", "x86-64-v3"); GPU:
  /// the architecture ("sm_90", "gfx942"); empty means the kind's default.
  std::string chip;
  /// Comma-separated +/- features: LLVM's ("+avx2,+fma,-avx512f", "+ptx80")
  /// and Adjoint's own, which LLVM never sees: "+tf32" lets f32 matmuls on
  /// cuda use TensorFloat-32 (no effect on other kinds). Empty means the
  /// chip's defaults.
  std::string features;
  /// The triple of the host code ("x86_64-pc-linux-gnu"); kernels of GPU
  /// kinds get their device triple from the kind.
  std::string triple;
  /// GPU kinds: the subgroup (warp) size kernels are written for; 0 means
  /// the kind's default (16 on Intel, 32 on NVIDIA, the chip's wavefront
  /// size on AMD: 64 on CDNA such as gfx942, 32 on RDNA such as gfx1100).
  int64_t subgroupSize = 0;

  /// The host CPU with every feature it has (AVX2, AVX-512, ...).
  static Target cpu();
  /// The host's triple with a named CPU (its default features), for
  /// objects that must run on other machines of the same family.
  static Target cpuNamed(const std::string &chip);
  /// "kind", "kind:chip", "kind,+feature,-feature" or
  /// "kind:chip,+feature" as on the command line (--target=...): features
  /// follow the first comma (chips have none; AMD's have colons and
  /// signs). Throws adjoint::Error naming the problem and the accepted
  /// kinds.
  static Target parse(const std::string &spec);
  /// An NVIDIA GPU: `chip` ("sm_90"; empty: sm_80 and sm_90 in one fatbin)
  /// and `features` ("+tf32", "+ptx85"), checked as parse() checks them.
  static Target cuda(const std::string &chip = "",
                     const std::string &features = "");

  const char *kindName() const { return targetKindName(kind); }
  bool isGPU() const { return kind != TargetKind::CPU; }
  /// The CPU that runs the host code: this target for the CPU kind, the
  /// host CPU with all its features for a GPU kind (its host function runs
  /// in this process and launches the kernels).
  Target hostTarget() const;
  /// "kind" or "kind:chip", what parse() takes (features and triple left
  /// out).
  std::string name() const;
  /// name() with the features, "cuda:sm_90,+tf32": parse(spec()) gives
  /// this target back (the triple aside, which parse() takes from the
  /// host).
  std::string spec() const;
  /// Whether f32 matmuls may use TensorFloat-32 (10-bit mantissas, f32
  /// range and accumulation): a cuda target with "+tf32". Without it f32
  /// products are exact f32.
  bool allowsTF32() const {
    return kind == TargetKind::CUDA && hasTargetFeature(features, "tf32");
  }
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

#endif // ADJOINT_TARGET_TARGET_H
