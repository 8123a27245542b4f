//===- DynamicLibrary.cpp - Drivers loaded with dlopen --------------------===//

#include "DynamicLibrary.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace adjoint::rt;

Status DynamicLibrary::open(const char *soname) {
  soname_ = soname;
  // RTLD_LOCAL: the driver's symbols stay out of the global namespace, where
  // they could capture lookups of the JIT or of other drivers.
  handle_ = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle_)
    return Status::success();
  const char *why = dlerror();
  return Status::error(StatusCode::Unavailable,
                       soname_ + " not found" +
                           (why ? std::string(" (") + why + ")" : ""));
}

Status DynamicLibrary::openFirst(std::initializer_list<const char *> sonames) {
  Status first;
  std::string names;
  size_t i = 0;
  for (const char *soname : sonames) {
    Status status = open(soname);
    if (status.ok())
      return status;
    // The newest soname's reason is the one worth reading.
    if (i == 0)
      first = status;
    names += i == 0 ? "" : (i + 1 == sonames.size() ? " or " : ", ");
    names += soname;
    ++i;
  }
  if (sonames.size() == 1)
    return first;
  std::string why = first.message();
  size_t open = why.find(" (");
  return Status::error(StatusCode::Unavailable,
                       names + " not found" +
                           (open == std::string::npos ? ""
                                                      : why.substr(open)));
}

Status DynamicLibrary::openOverridable(
    const char *what, const char *variable,
    std::initializer_list<const char *> sonames) {
  const char *path = std::getenv(variable);
  Status status = path && *path ? open(path) : openFirst(sonames);
  if (status.ok())
    return status;
  std::string where = path && *path ? std::string(variable) + "=" + path + ": "
                                    : std::string();
  return Status::error(StatusCode::Unavailable, std::string(what) +
                                                    " unavailable: " + where +
                                                    status.message());
}

void *DynamicLibrary::symbol(const char *symbol) const {
  return handle_ ? dlsym(handle_, symbol) : nullptr;
}
