//===- DeviceTensorTest.cpp - The CPU device, tensors, signatures ---------===//

#include "adjoint/Runtime/AlignedBuffer.h"
#include "adjoint/Runtime/Device.h"
#include "adjoint/Runtime/MemoryPool.h"
#include "adjoint/Runtime/Signature.h"
#include "adjoint/Runtime/Symbols.h"
#include "adjoint/Runtime/Tensor.h"
#include "adjoint/Support/Error.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace adjoint::rt;
using adjoint::DType;
using adjoint::dtypeName;
using adjoint::dtypeSize;
using adjoint::parseDType;

TEST_CASE("the CPU device allocates, copies and reports its status") {
  Device &cpu = cpuDevice();
  REQUIRE(cpu.kind() == DeviceKind::CPU);
  REQUIRE(std::string(deviceKindName(cpu.kind())) == "cpu");
  REQUIRE(cpu.isAvailable());
  REQUIRE(cpu.name().find("cpu") == 0);
  void *a = nullptr, *b = nullptr;
  REQUIRE(cpu.allocate(256, &a).ok());
  REQUIRE(cpu.allocate(256, &b).ok());
  REQUIRE(isBufferAligned(a));
  const char text[] = "device round trip";
  REQUIRE(cpu.copyHostToDevice(a, text, sizeof(text)).ok());
  REQUIRE(cpu.copyDeviceToDevice(b, a, sizeof(text)).ok());
  char back[sizeof(text)] = {};
  REQUIRE(cpu.copyDeviceToHost(back, b, sizeof(text)).ok());
  REQUIRE(cpu.synchronize().ok());
  REQUIRE(std::string(back) == text);
  REQUIRE(cpu.fill(b, 'x', 6).ok());
  REQUIRE(cpu.copyDeviceToHost(back, b, sizeof(text)).ok());
  REQUIRE(std::string(back) == "xxxxxx round trip");
  cpu.deallocate(a);
  cpu.deallocate(b);
  REQUIRE(cpu.id() == "cpu");
  REQUIRE(cpu.index() == 0);
  REQUIRE(cpu.properties().maxWorkgroupSize >= 1);
  REQUIRE(cpu.properties().fp64);
  REQUIRE(cpu.memoryStats().liveBlocks ==
          MemoryPool::global().stats().liveBlocks);
}

TEST_CASE("a device out of memory is a status, not an abort") {
  MemoryPool pool;
  pool.setByteLimit(1024);
  CpuDevice device(&pool);
  void *p = nullptr;
  Status status = device.allocate(4096, &p);
  REQUIRE(!status.ok());
  REQUIRE(status.code() == StatusCode::OutOfMemory);
  REQUIRE(p == nullptr);
  REQUIRE(status.toString().find("out of memory") == 0);
}

TEST_CASE("tensors convert every dtype to and from doubles") {
  std::vector<double> values = {0.0, 1.0, -2.5, 3.0, 100.0, -0.125};
  for (DType dtype : {DType::F64, DType::F32, DType::F16, DType::BF16,
                      DType::I64, DType::I32, DType::I1}) {
    Tensor t = Tensor::fromDoubles(dtype, {2, 3}, values);
    REQUIRE(t.numel() == 6);
    REQUIRE(t.byteSize() == 6 * dtypeSize(dtype));
    REQUIRE(!t.isBorrowed());
    REQUIRE(isBufferAligned(t.data()));
    for (int64_t i = 0; i < 6; ++i) {
      double v = values[i];
      bool integer = dtype == DType::I64 || dtype == DType::I32;
      double expected = dtype == DType::I1 ? (v != 0)
                        : integer          ? std::trunc(v)
                                           : v;
      REQUIRE(t.at(i) == expected); // all exactly representable
    }
    REQUIRE(parseDType(dtypeName(dtype)) == dtype);
  }
  REQUIRE(Tensor::fromDoubles(DType::F32, {2}, {1.0, 2.0}).typeString() ==
          "tensor<2xf32>");
  REQUIRE(Tensor::zeros(DType::I32, {}).at(0) == 0.0);
  REQUIRE_THROWS_AS(Tensor::fromDoubles(DType::F32, {3}, {1.0}),
                    adjoint::Error);
}

TEST_CASE("half and bfloat16 conversions round to nearest even") {
  REQUIRE(floatToHalf(1.0f) == 0x3c00);
  REQUIRE(floatToHalf(-2.0f) == 0xc000);
  REQUIRE(floatToHalf(65504.0f) == 0x7bff);
  REQUIRE(floatToHalf(65520.0f) == 0x7c00); // rounds to infinity
  REQUIRE(floatToHalf(std::numeric_limits<float>::infinity()) == 0x7c00);
  REQUIRE((floatToHalf(std::nanf("")) & 0x7c00) == 0x7c00);
  REQUIRE(floatToHalf(std::ldexp(1.0f, -24)) == 0x0001); // smallest subnormal
  REQUIRE(floatToHalf(std::ldexp(1.0f, -26)) == 0x0000); // below half of it
  // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even mantissa wins.
  REQUIRE(floatToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);
  REQUIRE(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);
  for (uint32_t bits = 0; bits < 0x7c00; bits += 7)
    REQUIRE(floatToHalf(halfToFloat(static_cast<uint16_t>(bits))) == bits);

  REQUIRE(floatToBFloat16(1.0f) == 0x3f80);
  REQUIRE(bfloat16ToFloat(0x3f80) == 1.0f);
  REQUIRE(floatToBFloat16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80); // tie
  REQUIRE(floatToBFloat16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);
  REQUIRE(std::isnan(bfloat16ToFloat(floatToBFloat16(std::nanf("")))));
}

TEST_CASE("borrowed tensors alias caller memory, clones do not") {
  AlignedBuffer buffer(4 * sizeof(float));
  auto *data = static_cast<float *>(buffer.data());
  for (int i = 0; i < 4; ++i)
    data[i] = float(i);
  Tensor borrowed = Tensor::borrow(DType::F32, {4}, data);
  REQUIRE(borrowed.isBorrowed());
  REQUIRE(borrowed.data() == data);
  Tensor copy = borrowed.clone();
  REQUIRE(!copy.isBorrowed());
  data[0] = 42.0f;
  REQUIRE(borrowed.at(0) == 42.0);
  REQUIRE(copy.at(0) == 0.0);
  Tensor empty;
  REQUIRE(!empty.valid());
}

TEST_CASE("signatures round-trip through their text form") {
  Signature sig;
  sig.inputs = {{DType::F32, {2, 3}}, {DType::I64, {}}, {DType::I1, {0}}};
  sig.outputs = {{DType::BF16, {7}}};
  std::string text = sig.serialize();
  REQUIRE(text == "f32[2,3] i64[] i1[0] -> bf16[7]");
  auto parsed = Signature::parse(text);
  REQUIRE(parsed);
  REQUIRE(*parsed == sig);
  // Donated inputs are marked; outputs never are.
  sig.inputs[1].donated = true;
  REQUIRE(sig.serialize() == "f32[2,3] i64[]! i1[0] -> bf16[7]");
  REQUIRE(Signature::parse(sig.serialize()) == sig);
  REQUIRE(!Signature::parse("f32[2] -> f32[2]!"));
  REQUIRE(!Signature::parse("! -> f32[2]"));
  Signature none;
  REQUIRE(none.serialize() == "->");
  REQUIRE(Signature::parse("->"));
  REQUIRE(Signature::parse("->")->inputs.empty());
  for (const char *bad : {"", "f32[2]", "f33[2] ->", "f32[2,] ->",
                          "f32[-1] ->", "f32 ->", "-> -> f32[]",
                          "f32[99999999999999999999] ->"})
    REQUIRE(!Signature::parse(bad));
}

TEST_CASE("the runtime symbol table lists the allocation hooks") {
  bool alloc = false, freeFn = false;
  for (const RuntimeSymbol &symbol : runtimeSymbols()) {
    REQUIRE(symbol.address != nullptr);
    alloc |= std::string(symbol.name) == "_mlir_memref_to_llvm_aligned_alloc";
    freeFn |= std::string(symbol.name) == "_mlir_memref_to_llvm_free";
  }
  REQUIRE(alloc);
  REQUIRE(freeFn);
}
