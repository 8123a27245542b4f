//===- NpyTest.cpp - .npy round trips and value printing ------------------===//

#include "TestUtil.h"

#include "adjoint/Interpreter/Npy.h"

using namespace adjoint;
using namespace adjoint::test;

TEST_CASE("npy round trip for every dtype") {
  for (DType dtype : {DType::F64, DType::F32, DType::F16, DType::I64,
                      DType::I32, DType::I1}) {
    Tensor t = tensor(dtype, {2, 3}, {1, 0, 1, 1, 0, 1});
    Tensor back = interp::parseNpy(interp::serializeNpy(t));
    CHECK(back.dtype() == dtype);
    CHECK(back.shape() == t.shape());
    CHECK(back.toDoubles() == t.toDoubles());
  }
  // bf16 becomes f32, exactly.
  Tensor b = tensor(DType::BF16, {2}, {1.5, -3});
  Tensor back = interp::parseNpy(interp::serializeNpy(b));
  CHECK(back.dtype() == DType::F32);
  CHECK(back.toDoubles() == std::vector<double>{1.5, -3});
  // Rank 0 and rank 1 shapes use Python's tuple syntax.
  CHECK(interp::serializeNpy(f32({}, {1})).find("'shape': (), ") !=
        std::string::npos);
  CHECK(interp::serializeNpy(f32({3}, {1, 2, 3})).find("'shape': (3,), ") !=
        std::string::npos);
  CHECK(interp::serializeNpy(f32({}, {1})).size() % 64 == 4);
}

TEST_CASE("npy errors are adjoint::Error") {
  requireError([] { interp::parseNpy("garbage", "x.npy"); },
               {"x.npy", "not a .npy file"});
  std::string bytes = interp::serializeNpy(f32({4}, {1, 2, 3, 4}));
  requireError([&] { interp::parseNpy(bytes.substr(0, bytes.size() - 2), "y.npy"); },
               {"y.npy", "truncated"});
  requireError([] { interp::readNpy("/nonexistent/file.npy"); },
               {"/nonexistent/file.npy"});
  // A header whose shape has 2^64 elements used to give an "empty" tensor
  // of that shape (the count wrapped to 0); one that claims 8 GiB over a
  // few bytes of data is refused before anything is allocated.
  auto withShape = [&](const std::string &shape) {
    // The header keeps its length: the padding after '}' shrinks.
    std::string huge = bytes;
    huge.replace(huge.find("(4,)"), 4, shape);
    return huge.erase(huge.find("}") + 1, shape.size() - 4);
  };
  requireError([&] { interp::parseNpy(withShape("(4294967296, 4294967296)"), "z.npy"); },
               {"z.npy", "(4294967296, 4294967296) is too large"});
  requireError([&] { interp::parseNpy(withShape("(2147483648,)"), "w.npy"); },
               {"w.npy", "truncated .npy data: 16 bytes for a (2147483648,) f32 "
                         "array (8589934592 bytes)"});
}

TEST_CASE("values print with their type") {
  CHECK(RValue(f32({2, 2}, {1, 2, 3, 4.5})).toString() ==
        "tensor<2x2xf32> [[1, 2], [3, 4.5]]");
  CHECK(RValue(tensor(DType::I1, {2}, {1, 0})).toString() ==
        "tensor<2xi1> [true, false]");
  CHECK(RValue(f64({}, {0.1})).toString() == "tensor<f64> 0.1");
  CHECK(RValue(f32({0}, {})).toString() == "tensor<0xf32> []");
  CHECK(RValue::tuple({i64({}, {3}), RValue::env({})}).toString() ==
        "(tensor<i64> 3, env{})");
  requireError([] { f32({2}, {1}); }, {"needs 2 values, got 1"});
  requireError([] { RValue(f32({}, {1})).elements(); }, {"expected a tuple"});
}
