//===- HostCode.cpp - Hand-written GPU host code for the tests ------------===//

#include "GpuTestSupport.h"

using namespace adjoint::rt;
using adjoint::DType;
using namespace adjoint::rt::test;

HostCode adjoint::rt::test::gHost;

std::vector<double> adjoint::rt::test::ramp(int64_t n, double scale, double offset) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = scale * double(i % 97) + offset;
  return v;
}

void adjoint::rt::test::writeDescriptor(int64_t *desc, void *ptr, int64_t n) {
  desc[0] = desc[1] = static_cast<int64_t>(reinterpret_cast<intptr_t>(ptr));
  desc[2] = 0;
  desc[3] = n;
  desc[4] = 1;
}

void adjoint::rt::test::fmaEntry(void **args) {
  auto *out = static_cast<int64_t *>(args[0]);
  auto *a = static_cast<int64_t *>(args[1]);
  auto *b = static_cast<int64_t *>(args[2]);
  int64_t n = a[3];
  void *pa = reinterpret_cast<void *>(a[1]);
  void *pb = reinterpret_cast<void *>(b[1]);
  void *c = adj_rt_gpu_alloc(uint64_t(n) * sizeof(float));
  void *argv[] = {&pa, &pb, &c, &n};
  uint64_t grid = (uint64_t(n) + gHost.block - 1) / gHost.block;
  adj_rt_gpu_launch(gHost.kernel, grid, 1, 1, gHost.block, 1, 1, 0, argv);
  if (gHost.returnInput) {
    adj_rt_gpu_free(c);
    writeDescriptor(out, pa, n);
    return;
  }
  writeDescriptor(out, c, n);
}

Signature adjoint::rt::test::vectorSignature(DType dtype, int64_t n, int inputs) {
  Signature s;
  for (int i = 0; i < inputs; ++i)
    s.inputs.push_back({dtype, {n}});
  s.outputs.push_back({dtype, {n}});
  return s;
}

