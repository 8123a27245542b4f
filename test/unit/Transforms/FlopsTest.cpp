//===- FlopsTest.cpp - Tests of the FLOP cost model -----------------------===//
//
// countFlops and FlopCounter through the C++ API, as the cost gates of later
// stages use them.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Flops.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace adjoint;

namespace {
/// A parsed and verified module.
struct Module {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;

  explicit Module(const char *source) {
    context.getOrLoadDialect<adj::AdjDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(
        source, mlir::ParserConfig(&context), "test.mlir");
    REQUIRE(module);
    REQUIRE(mlir::succeeded(mlir::verify(*module)));
  }

  adj::FuncOp func(llvm::StringRef name) {
    auto f = module->lookupSymbol<adj::FuncOp>(name);
    REQUIRE(f);
    return f;
  }
};
} // namespace

TEST_CASE("a two-layer perceptron costs its matmuls and activations",
          "[flops]") {
  Module m(R"mlir(
    adj.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>,
                  %w2: tensor<32x4xf32>) -> tensor<f32> {
      %h = adj.matmul %x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>
      %a = adj.relu %h : tensor<8x32xf32>
      %o = adj.matmul %a, %w2 : tensor<8x32xf32>, tensor<32x4xf32>
      %s = adj.reduce_sum %o axes = [0, 1] : tensor<8x4xf32>
      adj.return %s : tensor<f32>
    }
  )mlir");
  // 2*8*32*16 + 8*32 + 2*8*4*32 + 8*4.
  CHECK(adj::countFlops(m.func("mlp")) == 8192 + 256 + 2048 + 32);
}

TEST_CASE("calls, branches and loops compose", "[flops]") {
  Module m(R"mlir(
    adj.func private @scale(%s: tensor<f32>, %x: tensor<3xf32>) -> tensor<3xf32> {
      %y = adj.mul %s, %x : tensor<f32>, tensor<3xf32>
      adj.return %y : tensor<3xf32>
    }
    adj.func @main(%c: tensor<i1>, %s: tensor<f32>, %x: tensor<3xf32>) -> tensor<3xf32> {
      %lb = adj.constant dense<1> : tensor<i64>
      %ub = adj.constant dense<6> : tensor<i64>
      %st = adj.constant dense<2> : tensor<i64>
      %f = adj.closure @scale(%s) : (tensor<f32>) -> !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
      %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
             iter_args(%x : tensor<3xf32>) -> tensor<3xf32> {
      ^bb0(%i: tensor<i64>, %v: tensor<3xf32>):
        %w = adj.if %c : tensor<i1> -> (tensor<3xf32>) {
          %y = adj.call %f(%v) : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
          %z = adj.call %f(%y) : !adj.fn<(tensor<3xf32>) -> tensor<3xf32>>
          adj.yield %z : tensor<3xf32>
        } else {
          adj.yield %v : tensor<3xf32>
        }
        adj.yield %w : tensor<3xf32>
      }
      adj.return %r : tensor<3xf32>
    }
  )mlir");
  // Trips i = 1, 3, 5; the dearer branch calls @scale (3 flops) twice.
  CHECK(adj::countFlops(m.func("scale")) == 3);
  CHECK(adj::countFlops(m.func("main")) == 3 * 2 * 3);
}

TEST_CASE("recursion and unknown callees have no count", "[flops]") {
  Module m(R"mlir(
    adj.func @f(%x: tensor<f32>) -> tensor<f32> {
      %g = adj.func_ref @g : !adj.fn<(tensor<f32>) -> tensor<f32>>
      %y = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
      adj.return %y : tensor<f32>
    }
    adj.func @g(%x: tensor<f32>) -> tensor<f32> {
      %f = adj.func_ref @f : !adj.fn<(tensor<f32>) -> tensor<f32>>
      %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
      adj.return %y : tensor<f32>
    }
    adj.func @h(%x: tensor<f32>) -> tensor<f32> {
      %f = adj.func_ref @f : !adj.fn<(tensor<f32>) -> tensor<f32>>
      %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
      adj.return %y : tensor<f32>
    }
    adj.func @apply(%f: !adj.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
      %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
      adj.return %y : tensor<f32>
    }
  )mlir");
  CHECK_FALSE(adj::countFlops(m.func("f")));
  CHECK_FALSE(adj::countFlops(m.func("apply")));

  // One counter for all: the memoized results keep the cycle marked.
  adj::FlopCounter counter;
  adj::FlopCount f = counter.count(m.func("f"));
  adj::FlopCount g = counter.count(m.func("g"));
  adj::FlopCount h = counter.count(m.func("h"));
  CHECK(f.recursive);
  CHECK(g.recursive);
  CHECK_FALSE(h.recursive);
  CHECK_FALSE(h.flops);
  CHECK(h.reason == "calls recursive @f");
  adj::FlopCount apply = counter.count(m.func("apply"));
  CHECK_FALSE(apply.flops);
  CHECK(apply.reason == "calls an unknown function value");
}

TEST_CASE("counts that overflow are unknown, not wrapped", "[flops]") {
  Module m(R"mlir(
    adj.func @big(%x: tensor<1048576xf32>) -> tensor<1048576xf32> {
      %lb = adj.constant dense<0> : tensor<i64>
      %ub = adj.constant dense<9223372036854775807> : tensor<i64>
      %st = adj.constant dense<1> : tensor<i64>
      %r = adj.for %lb to %ub step %st : tensor<i64>, tensor<i64>, tensor<i64>
             iter_args(%x : tensor<1048576xf32>) -> tensor<1048576xf32> {
      ^bb0(%i: tensor<i64>, %v: tensor<1048576xf32>):
        %y = adj.add %v, %v : tensor<1048576xf32>, tensor<1048576xf32>
        adj.yield %y : tensor<1048576xf32>
      }
      adj.return %r : tensor<1048576xf32>
    }
  )mlir");
  adj::FlopCount big = adj::FlopCounter().count(m.func("big"));
  CHECK_FALSE(big.flops);
  CHECK(big.reason == "the count overflows 64 bits");
}
