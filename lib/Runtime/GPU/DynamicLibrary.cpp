//===- DynamicLibrary.cpp - Drivers loaded with dlopen --------------------===//

#include "GPU/DynamicLibrary.h"

#include <dlfcn.h>

using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

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

void *DynamicLibrary::symbol(const char *symbol) const {
  return handle_ ? dlsym(handle_, symbol) : nullptr;
}
