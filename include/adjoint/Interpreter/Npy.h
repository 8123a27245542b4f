//===- Npy.h - NumPy .npy files for interpreter tensors ---------*- C++ -*-===//
//
// Reads and writes the .npy format (little-endian, C order) for the element
// types of adj tensors, so that tools and tests exchange inputs and results
// with NumPy and PyTorch. bf16 has no .npy type code: it is written as '<f4'
// (exactly, as every bfloat16 is a float).
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_INTERPRETER_NPY_H
#define ADJOINT_INTERPRETER_NPY_H

#include "adjoint/Interpreter/Value.h"

#include "llvm/ADT/StringRef.h"

namespace adjoint::interp {

/// Parses the bytes of a .npy file. Supported type codes: '<f8' '<f4' '<f2'
/// '<i8' '<i4' '|b1'. Throws adjoint::Error naming `what` on anything else
/// (Fortran order, big-endian data, truncated data, a malformed header).
Tensor parseNpy(llvm::StringRef bytes, llvm::StringRef what = "npy data");
/// Reads a .npy file; throws adjoint::Error when it cannot.
Tensor readNpy(llvm::StringRef path);
/// The bytes of a .npy file (format version 1.0) holding `tensor`.
std::string serializeNpy(const Tensor &tensor);
/// Writes `tensor` to a .npy file; throws adjoint::Error when it cannot.
void writeNpy(llvm::StringRef path, const Tensor &tensor);

} // namespace adjoint::interp

#endif // ADJOINT_INTERPRETER_NPY_H
