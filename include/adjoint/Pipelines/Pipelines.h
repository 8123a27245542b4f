//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// The named pipelines of Adjoint, in one place, for ir-opt (as flags) and
// for the library API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PIPELINES_PIPELINES_H
#define ADJOINT_PIPELINES_PIPELINES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

struct Target;

/// `-adj-optimize`: type inference, then rounds of unrolling, specialization,
/// inlining and simplification until the program is first order where it
/// can be, then closure conversion of what remains (recursion).
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// The lowering, stage by stage: two stages every target shares, then the
/// target's own; `-adj-lower-to-<kind>` runs them all. Each stage is also a
/// named pipeline so that ir-opt can show its output.
///
/// `-adj-tensor`: typed adj after -adj-optimize -> linalg/tensor/arith/
/// math/scf/func on tensors, with producers fused into their consumers
/// (-adj-fuse-elementwise) and the tensor arguments of public functions
/// read-only (-adj-readonly-arguments).
void buildTensorPipeline(mlir::OpPassManager &pm);
/// `-adj-bufferize`: tensors -> memrefs (one-shot bufferization across
/// function boundaries), each buffer freed right after its last use.
void buildBufferizePipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-loops`: matmul, batch_matmul and conv on memrefs -> runtime
/// kernel calls (-adj-cpu-linalg-to-kernels); the rest -> parallel loops, with
/// f32 transcendentals as polynomials and large loops on the runtime's
/// thread pool (-adj-cpu-parallel-to-runtime). LLVM vectorizes the loops.
void buildCPULoopsPipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-llvm`: loops, vectors and memrefs -> the LLVM dialect.
void buildCPULLVMPipeline(mlir::OpPassManager &pm);
/// `-adj-lower-to-cpu{chip=... features=...}`: the four stages above, adj
/// -> LLVM dialect. The options are those of every kind's pipeline; the CPU
/// stages do not depend on them (LLVM's code generation does).
void buildLowerToCPUPipeline(mlir::OpPassManager &pm);

/// Appends the registered pipeline of `target`'s kind (-adj-lower-to-<kind>)
/// with the target's chip and features, looked up by name in the pass
/// registry, so that compile() and ir-opt run the same definition. Fails
/// through `errorHandler` for a kind without a pipeline.
mlir::LogicalResult addLowerToTargetPipeline(
    mlir::OpPassManager &pm, const Target &target,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
        errorHandler);

/// Registers the named pipelines with the global pass registry (once per
/// process; later calls do nothing).
void registerPipelines();

} // namespace adjoint

#endif // ADJOINT_PIPELINES_PIPELINES_H
