//===- Pipelines.h - Named pass pipelines -----------------------*- C++ -*-===//
//
// The named pipelines of Adjoint, in one place, for ir-opt (as flags) and
// for the library API alike.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_PIPELINES_PIPELINES_H
#define ADJOINT_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace adjoint {

/// `-adj-optimize`: type inference, then rounds of unrolling, specialization,
/// inlining and simplification until the program is first order where it
/// can be, then closure conversion of what remains (recursion).
void buildOptimizePipeline(mlir::OpPassManager &pm);

/// The CPU lowering, stage by stage; `-adj-lower-to-cpu` runs all four.
/// Each stage is also a named pipeline so that ir-opt can show its output.
///
/// `-adj-cpu-tensor`: typed adj after -adj-optimize -> linalg/tensor/arith/
/// math/scf/func on tensors, with producers fused into their consumers
/// (-adj-fuse-elementwise).
void buildCPUTensorPipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-bufferize`: tensors -> memrefs (one-shot bufferization across
/// function boundaries), each buffer freed right after its last use.
void buildCPUBufferizePipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-loops`: matmul, batch_matmul and conv on memrefs -> runtime
/// kernel calls (-adj-linalg-to-kernels); the rest -> parallel loops, with
/// f32 transcendentals as polynomials and large loops on the runtime's
/// thread pool (-adj-parallel-to-runtime). LLVM vectorizes the loops.
void buildCPULoopsPipeline(mlir::OpPassManager &pm);
/// `-adj-cpu-llvm`: loops, vectors and memrefs -> the LLVM dialect.
void buildCPULLVMPipeline(mlir::OpPassManager &pm);
/// `-adj-lower-to-cpu`: the four stages above, adj -> LLVM dialect.
void buildLowerToCPUPipeline(mlir::OpPassManager &pm);

/// Registers the named pipelines with the global pass registry.
void registerPipelines();

} // namespace adjoint

#endif // ADJOINT_PIPELINES_PIPELINES_H
