//===- Status.cpp - Error status of runtime operations --------------------===//

#include "adjoint/Runtime/Status.h"

using namespace adjoint::rt;

const char *adjoint::rt::statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::Ok:
    return "ok";
  case StatusCode::OutOfMemory:
    return "out of memory";
  case StatusCode::InvalidArgument:
    return "invalid argument";
  case StatusCode::Unavailable:
    return "unavailable";
  case StatusCode::ResourceExhausted:
    return "resource exhausted";
  case StatusCode::Internal:
    return "internal error";
  }
  return "unknown status";
}

std::string Status::toString() const {
  if (ok())
    return "ok";
  return std::string(statusCodeName(code_)) + ": " + message_;
}
