//===- Convolution.cpp - Convolution and pooling in the builder API -------===//
//
// conv2d, max_pool2d and avg_pool2d (NCHW).
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using llvm::StringRef;
using mlir::NamedAttribute;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

Value api::conv2d(Value input, Value filter, const Conv2DOptions &options) {
  ModuleState &s = stateOf("adj.conv2d", input);
  OpSpec spec{"adj.conv2d", {input, filter}};
  spec.attributes.push_back(i64Array(s, "stride", options.stride));
  spec.attributes.push_back(i64Array(s, "padding", options.padding));
  spec.attributes.push_back(i64Array(s, "dilation", options.dilation));
  spec.attributes.push_back(i64Attr(s, "groups", options.groups));
  return createValue(s, spec);
}

static Value pool(StringRef op, Value input, std::vector<int64_t> kernel,
                  std::vector<int64_t> stride, std::vector<int64_t> padding) {
  ModuleState &s = stateOf(op, input);
  if (stride.empty())
    stride = kernel;
  OpSpec spec{op, {input}};
  spec.attributes.push_back(i64Array(s, "kernel", kernel));
  spec.attributes.push_back(i64Array(s, "stride", stride));
  spec.attributes.push_back(i64Array(s, "padding", padding));
  return createValue(s, spec);
}

Value api::max_pool2d(Value input, std::vector<int64_t> kernel,
                      std::vector<int64_t> stride,
                      std::vector<int64_t> padding) {
  return pool("adj.max_pool2d", input, std::move(kernel), std::move(stride),
              std::move(padding));
}

Value api::avg_pool2d(Value input, std::vector<int64_t> kernel,
                      std::vector<int64_t> stride,
                      std::vector<int64_t> padding) {
  return pool("adj.avg_pool2d", input, std::move(kernel), std::move(stride),
              std::move(padding));
}
