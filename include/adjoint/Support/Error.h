//===- Error.h - The exception Adjoint's C++ API throws ---------*- C++ -*-===//
//
// User errors (ill-typed programs, bad shapes, run-time failures such as an
// index out of range or a too deep recursion) are reported as adjoint::Error
// with a message that names the op, the shapes and, where one is known, the
// source location. Exceptions are never thrown through LLVM/MLIR frames
// (LLVM is built without exception support): code that runs inside an MLIR
// callback records the failure and throws once control is back in our code.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_SUPPORT_ERROR_H
#define ADJOINT_SUPPORT_ERROR_H

#include <stdexcept>
#include <string>

namespace adjoint {

/// An error in a user's program or in its inputs.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

} // namespace adjoint

#endif // ADJOINT_SUPPORT_ERROR_H
