//===- Destinations.h - Destinations that bufferize in place ----*- C++ -*-===//
//
// The last step of -adj-fuse-elementwise: choosing the `outs` of linalg ops
// on tensors so that one-shot bufferization writes in place and reuses
// buffers. Internal to the pass.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CONVERSION_FUSEELEMENTWISE_DESTINATIONS_H
#define ADJOINT_LIB_CONVERSION_FUSEELEMENTWISE_DESTINATIONS_H

namespace mlir {
class Operation;
} // namespace mlir

namespace adjoint::fusion {

/// Gives every consumer of a shared linalg.fill or tensor.empty its own
/// copy of it (CSE merges equal ones).
/// - A consumer that accumulates into a fill it shares gets a copy of the
///   filled buffer from bufferization; with its own fill it writes in
///   place, and a matmul kernel then drops the fill and overwrites instead
///   of accumulating. An scf.for that carries the fill (a scatter's loop)
///   counts as such a consumer: dlrm's eight table gradients shared one
///   zero fill and bufferization copied 25.6 MB into each of seven loops.
/// - All the ops writing into one shared tensor.empty form one alias set
///   for one-shot bufferization, whose analysis is quadratic in its size:
///   an LSTM unrolled over 32 time steps spent 14 s there.
void unshareDestinations(mlir::Operation *root);

/// Makes an elementwise linalg.generic that writes a fresh tensor.empty
/// write over one of its inputs instead, when that input is a same-shaped
/// temporary (the result of another linalg op) read by nobody else: the
/// buffer is dead after this op reads it, so bufferization reuses it and
/// the op allocates nothing (an SGD update writes over its gradient).
void reuseDeadInputs(mlir::Operation *root);

} // namespace adjoint::fusion

#endif // ADJOINT_LIB_CONVERSION_FUSEELEMENTWISE_DESTINATIONS_H
