//===- FamiliesTest.cpp - Every op of a family reaches every layer --------===//
//
// The layers that treat an op family alike ask its trait (AdjTraits.h)
// instead of listing its ops, so a new op with the trait is routed to each
// of them at once; what the layer cannot route is the op's own code (its
// interpreter kernel, its lowering's scalar body). These tests instantiate
// every registered op with a trait on sample operands, found from the op's
// own type inference, and run it through each layer: the interpreter, the
// lowering to linalg, the FLOP count (not yet for decompositions) and
// vmap's batching rules. An op that
// misses a layer fails the layer's test case under its own name. The AD
// rules have the same check in RulesTestSensitivities.cpp.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/Transforms/Flops.h"
#include "adjoint/InitAll.h"
#include "adjoint/Interpreter/Interpreter.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace mlir;
using namespace adjoint;

namespace {

/// The shape of every sample operand: a matrix for a decomposition.
const std::vector<int64_t> kShape = {2, 3};
const std::vector<int64_t> kMatrix = {3, 3};

/// One instance of an op: `adj.func @f` applying it to its arguments.
struct Sample {
  std::string name;
  std::string module;     ///< the text of the module holding @f
  std::string fnType;     ///< @f's type, `!adj.fn<(...) -> ...>`
  SmallVector<Type> args; ///< @f's argument types
  RankedTensorType result; ///< @f's first result
  bool matrices = false;   ///< takes identity matrices rather than ones
};

MLIRContext &context() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllPasses();
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

/// The number of operands of an op with a fixed number of them.
int64_t fixedArity(RegisteredOperationName name) {
  if (name.hasTrait<OpTrait::OneOperand>())
    return 1;
  if (name.hasTrait<OpTrait::NOperands<2>::Impl>())
    return 2;
  if (name.hasTrait<OpTrait::NOperands<3>::Impl>())
    return 3;
  if (name.hasTrait<OpTrait::NOperands<4>::Impl>())
    return 4;
  return 0;
}

/// The number of results of an op with a fixed number of them.
int64_t fixedResults(RegisteredOperationName name) {
  if (name.hasTrait<OpTrait::OneResult>())
    return 1;
  if (name.hasTrait<OpTrait::NResults<2>::Impl>())
    return 2;
  if (name.hasTrait<OpTrait::NResults<3>::Impl>())
    return 3;
  return 0;
}

std::string print(Type type) {
  std::string out;
  llvm::raw_string_ostream(out) << type;
  return out;
}

/// @f around `name` applied to operands of the first element type (f32,
/// i32, complex<f32>, i1) that the op's own inference and verifier accept.
/// A reduction reduces axis 1; a comparison is `lt`.
std::optional<Sample> instantiate(RegisteredOperationName name,
                                  ArrayRef<int64_t> shape) {
  MLIRContext &ctx = context();
  int64_t arity = fixedArity(name);
  if (arity == 0)
    return std::nullopt;
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  Type elements[] = {b.getF32Type(), b.getI32Type(),
                     ComplexType::get(b.getF32Type()), b.getI1Type()};
  for (Type element : elements) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    auto tensor = RankedTensorType::get(shape, element);
    SmallVector<Type> args(arity, tensor);
    b.setInsertionPointToEnd(module->getBody());
    auto func =
        adj::FuncOp::create(b, loc, "f", b.getFunctionType(args, {}));
    Block *body = func.addEntryBlock();
    b.setInsertionPointToEnd(body);
    OperationState state(loc, name);
    state.addOperands(body->getArguments());
    state.addTypes(SmallVector<Type>(fixedResults(name), tensor));
    Operation *op = b.create(state);
    // The attributes that the families' ops require, by name (a new
    // required attribute needs a sample value here).
    for (StringAttr attr : name.getAttributeNames()) {
      if (attr == "axes")
        op->setAttr(attr, b.getDenseI64ArrayAttr({1}));
      if (attr == "predicate")
        op->setAttr(attr,
                    adj::CmpPredicateAttr::get(&ctx, adj::CmpPredicate::lt));
    }
    if (auto infer = dyn_cast<InferTypeOpInterface>(op)) {
      SmallVector<Type> inferred;
      // No location: a refused element type is not a diagnostic.
      if (failed(infer.inferReturnTypes(
              &ctx, std::nullopt, op->getOperands(), op->getAttrDictionary(),
              op->getPropertiesStorage(), op->getRegions(), inferred)))
        continue;
      if (inferred.size() != op->getNumResults())
        continue;
      for (auto [r, t] : llvm::zip(op->getResults(), inferred))
        r.setType(t);
    }
    auto result = cast<RankedTensorType>(op->getResult(0).getType());
    // The first result: every result of a decomposition is batched alike.
    adj::ReturnOp::create(b, loc, op->getResult(0));
    func.setFunctionTypeAttr(
        TypeAttr::get(b.getFunctionType(args, TypeRange{result})));
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
    if (failed(verify(*module)))
      continue;
    Sample s{name.getStringRef().str(), "", "", args, result,
             name.hasTrait<adj::trait::MatrixDecomposition>()};
    llvm::raw_string_ostream(s.module) << *module;
    s.fnType = print(adj::FnType::get(&ctx, args, TypeRange{result}));
    return s;
  }
  return std::nullopt;
}

/// A sample of every registered adj op with trait `Trait`, on operands of
/// `shape`.
template <template <typename> class Trait>
std::vector<Sample> samples(ArrayRef<int64_t> shape = kShape) {
  std::vector<Sample> out;
  for (RegisteredOperationName name : context().getRegisteredOperations()) {
    if (name.getDialectNamespace() != "adj" || !name.hasTrait<Trait>())
      continue;
    INFO(name.getStringRef().str());
    std::optional<Sample> s = instantiate(name, shape);
    REQUIRE(s);
    out.push_back(std::move(*s));
  }
  return out;
}

/// The samples of the elementwise and reduction traits, and with
/// `decompositions` those of MatrixDecomposition; at least the families'
/// current sizes, so that losing a trait (and with it an op from these
/// checks) fails too.
std::vector<Sample> allSamples(bool decompositions = true) {
  std::vector<Sample> out = samples<adj::trait::BroadcastingElementwise>();
  CHECK(out.size() >= 36);
  std::vector<Sample> reductions = samples<adj::trait::Reduction>();
  CHECK(reductions.size() >= 3);
  llvm::append_range(out, reductions);
  if (decompositions) {
    std::vector<Sample> matrices =
        samples<adj::trait::MatrixDecomposition>(kMatrix);
    CHECK(matrices.size() >= 7);
    llvm::append_range(out, matrices);
  }
  return out;
}

OwningOpRef<ModuleOp> parse(const std::string &text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context());
  REQUIRE(module);
  return module;
}

/// Ones of each argument type of `s` with a leading batch dimension of
/// `batch` (none when 0), or identity matrices for a decomposition. Both
/// are in every op's domain: 1 / 1, log 1, a shift by 1, the Cholesky
/// factor of I.
std::vector<interp::Value> inputs(const Sample &s, int64_t batch = 0) {
  std::vector<interp::Value> values;
  for (Type t : s.args) {
    auto tensor = cast<RankedTensorType>(t);
    std::vector<int64_t> shape(tensor.getShape());
    if (batch)
      shape.insert(shape.begin(), batch);
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    std::vector<double> data(n, 1);
    int64_t rows = shape[shape.size() - 2], cols = shape.back();
    if (s.matrices)
      for (int64_t k = 0; k < n; ++k)
        data[k] = (k / cols) % rows == k % cols;
    values.emplace_back(interp::Tensor::fromDoubles(
        interp::dtypeOf(tensor.getElementType()), shape, data));
  }
  return values;
}

/// Runs the passes of `pipeline` (without an anchor) on `module`.
LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(&context());
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(pipeline, pm, os))) {
    FAIL(errors);
  }
  return pm.run(module);
}

} // namespace

TEST_CASE("families: every op has an interpreter kernel") {
  for (const Sample &s : allSamples()) {
    INFO(s.name << "\n" << s.module);
    OwningOpRef<ModuleOp> module = parse(s.module);
    interp::Interpreter interpreter(*module);
    std::vector<interp::Value> out;
    REQUIRE_NOTHROW(out = interpreter.call("f", inputs(s)));
    REQUIRE(out.size() == 1);
    CHECK(out[0].tensor().shape() ==
          std::vector<int64_t>(s.result.getShape()));
  }
}

TEST_CASE("families: every op lowers to linalg") {
  for (const Sample &s : allSamples()) {
    INFO(s.name << "\n" << s.module);
    OwningOpRef<ModuleOp> module = parse(s.module);
    REQUIRE(succeeded(runPipeline(*module, "adj-to-linalg")));
    bool adjLeft = false;
    module->walk([&](Operation *op) {
      adjLeft |= isa<adj::AdjDialect>(op->getDialect());
    });
    CHECK_FALSE(adjLeft);
  }
}

// The decompositions have no cost model yet: only the elementwise ops and
// the reductions are counted.
TEST_CASE("families: every op has a FLOP count") {
  for (const Sample &s : allSamples(/*decompositions=*/false)) {
    INFO(s.name << "\n" << s.module);
    OwningOpRef<ModuleOp> module = parse(s.module);
    auto f = module->lookupSymbol<adj::FuncOp>("f");
    // One per element: of the result, or of the input of a reduction.
    CHECK(adj::countFlops(f) == 6);
  }
}

TEST_CASE("families: every op has a batching rule") {
  for (const Sample &s : allSamples()) {
    INFO(s.name << "\n" << s.module);
    // @g maps @f over a batch of 4 in every argument; -adj-grad batches it.
    constexpr int64_t batch = 4;
    auto batched = [&](Type t) {
      auto tensor = cast<RankedTensorType>(t);
      SmallVector<int64_t> shape{batch};
      llvm::append_range(shape, tensor.getShape());
      return tensor.clone(shape);
    };
    SmallVector<Type> args;
    std::string params, operands, axes;
    for (auto [i, t] : llvm::enumerate(s.args)) {
      args.push_back(batched(t));
      std::string sep = i ? ", " : "";
      params += sep + "%b" + std::to_string(i) + ": " + print(args.back());
      operands += sep + "%b" + std::to_string(i);
      axes += sep + "0";
    }
    std::string result = print(batched(s.result));
    std::string batchedFn =
        print(adj::FnType::get(&context(), args, batched(s.result)));
    std::string g = "adj.func @g(" + params + ") -> " + result + " {\n" +
                    "  %f = adj.func_ref @f : " + s.fnType + "\n" +
                    "  %v = adj.vmap %f in_axes = [" + axes +
                    "] out_axes = [0] batch_size = " + std::to_string(batch) +
                    " : " + s.fnType + "\n" + "  %r = adj.call %v(" +
                    operands + ") : " + batchedFn + "\n" +
                    "  adj.return %r : " + result + "\n}\n";
    std::string text = s.module;
    text.insert(text.rfind('}'), g);
    OwningOpRef<ModuleOp> module = parse(text);
    REQUIRE(succeeded(runPipeline(*module, "adj-grad")));
    interp::Interpreter interpreter(*module);
    interp::Tensor example = interpreter.call("f", inputs(s))[0].tensor();
    interp::Tensor all =
        interpreter.call("g", inputs(s, batch))[0].tensor();
    REQUIRE(all.byteSize() == batch * example.byteSize());
    // Every example of the batch is @f's result, bit for bit.
    auto bytes = static_cast<const char *>(all.data());
    for (int64_t k = 0; k < batch; ++k)
      CHECK(std::memcmp(bytes + k * example.byteSize(), example.data(),
                        example.byteSize()) == 0);
  }
}
