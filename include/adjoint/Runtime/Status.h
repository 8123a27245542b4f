//===- Status.h - Error status of runtime operations ------------*- C++ -*-===//
//
// The runtime reports failures (out of memory, bad inputs, an unavailable
// device) as values rather than exceptions, because it is called from
// compiled code and from programs that link it without the rest of Adjoint.
// The compile API turns a failed Status into an adjoint::Error.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_RUNTIME_STATUS_H
#define ADJOINT_RUNTIME_STATUS_H

#include <string>
#include <utility>

namespace adjoint::rt {

enum class StatusCode {
  Ok,
  /// An allocation failed (the pool's byte limit or the system).
  OutOfMemory,
  /// An input does not match what the callee expects.
  InvalidArgument,
  /// A device or a driver is not present.
  Unavailable,
  /// A limit other than memory: compiled recursion went past the call depth
  /// limit or to the end of the stack.
  ResourceExhausted,
  /// A bug in Adjoint (an inconsistent artifact, a broken invariant).
  Internal,
};

/// "ok", "out of memory", ...
const char *statusCodeName(StatusCode code);

/// Success, or a code with a message.
class [[nodiscard]] Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(StatusCode code, std::string message) {
    Status s;
    s.code_ = code;
    s.message_ = std::move(message);
    return s;
  }

  bool ok() const { return code_ == StatusCode::Ok; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  const std::string &message() const { return message_; }
  /// "out of memory: <message>", or "ok".
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

} // namespace adjoint::rt

#endif // ADJOINT_RUNTIME_STATUS_H
