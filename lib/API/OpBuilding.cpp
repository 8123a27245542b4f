//===- OpBuilding.cpp - Checked op creation for the builder API -----------===//
//
// Every builder function creates its op here. LLVM is built without
// exceptions, so nothing may be thrown from inside MLIR: the op is created
// with placeholder result types (the generated builders would assert when
// inference fails), its types are inferred and it is verified while a
// handler collects the diagnostics, and only once MLIR has returned do we
// erase a failed op and throw.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/Support/raw_ostream.h"

using llvm::StringRef;
using llvm::SmallVector;
using llvm::isa;
using llvm::dyn_cast;
using mlir::Operation;
using mlir::Block;
using mlir::Region;
using mlir::OperationState;
using mlir::ModuleOp;
using mlir::OpBuilder;
using mlir::MLIRContext;
using mlir::success;
using mlir::failed;
using mlir::succeeded;
using mlir::BlockArgument;
using mlir::InferTypeOpInterface;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

std::string detail::describeTypes(llvm::ArrayRef<Value> values) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(values, os, [&](const Value &v) {
    if (v)
      os << v.mlir().getType();
    else
      os << "<empty>";
  });
  return out;
}

/// "<op>: <diagnostic> (operand types: ...)", without repeating the op name
/// when the diagnostic already names it.
static std::string formatFailure(StringRef op, const std::string &diagnostic,
                                 llvm::ArrayRef<Value> operands) {
  std::string out;
  if (diagnostic.find(op.str()) == std::string::npos)
    out = op.str() + ": ";
  out += diagnostic;
  if (!operands.empty())
    out += " (operand types: " + describeTypes(operands) + ")";
  return out;
}

//===----------------------------------------------------------------------===//
// Operand and insertion checks
//===----------------------------------------------------------------------===//

ModuleState &detail::stateOf(StringRef op, const Value &value) {
  if (!value)
    throw Error(op.str() + ": use of an empty Value");
  return *value.state();
}

void detail::checkInsideFunction(ModuleState &state, StringRef op) {
  Block *block = state.builder.getInsertionBlock();
  if (!block || isa<ModuleOp>(block->getParentOp()))
    throw Error(op.str() + ": ops can only be built inside a function body "
                           "(Module::function or Function::define)");
}

/// A value can be used where its region encloses the insertion point: in
/// its own region or in a region nested in it (a closure's free variable).
static void checkOperand(ModuleState &state, StringRef op, size_t index,
                         const Value &value) {
  std::string which = op.str() + ": operand #" + std::to_string(index);
  if (!value)
    throw Error(which + " is an empty Value");
  if (value.state() != &state)
    throw Error(which + " belongs to another Module");
  Region *home = value.mlir().getParentRegion();
  Region *here = state.builder.getInsertionBlock()->getParent();
  if (!home || !home->isAncestor(here))
    throw Error(which + " (" + describeTypes(value) +
                ") is used outside its scope: it belongs to a region that "
                "is closed or to another function (pass it as an argument "
                "or capture it in a closure)");
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

Operation *detail::createOp(ModuleState &state, const OpSpec &spec) {
  checkInsideFunction(state, spec.name);
  for (auto [i, v] : llvm::enumerate(spec.operands))
    checkOperand(state, spec.name, i, v);

  MLIRContext *ctx = &state.context;
  OperationState os(state.loc(), spec.name);
  for (const Value &v : spec.operands)
    os.operands.push_back(v.mlir());
  os.addAttributes(spec.attributes);
  for (unsigned i = 0; i < spec.numRegions; ++i)
    os.addRegion();
  bool infer = !spec.resultTypes;
  if (infer)
    os.addTypes(SmallVector<mlir::Type>(spec.numInferredResults,
                                        adj::AnyType::get(ctx)));
  else
    os.addTypes(*spec.resultTypes);
  Operation *op = state.builder.create(os);

  DiagnosticCapture diagnostics(ctx);
  bool ok = true;
  if (infer) {
    auto iface = dyn_cast<InferTypeOpInterface>(op);
    SmallVector<mlir::Type> types;
    ok = iface && succeeded(iface.inferReturnTypes(
                      ctx, op->getLoc(), op->getOperands(),
                      op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                      op->getRegions(), types)) &&
         types.size() == op->getNumResults();
    if (ok)
      for (auto [result, type] : llvm::zip(op->getResults(), types))
        result.setType(type);
  }
  // Ops with regions are verified once their regions are built.
  if (ok && spec.numRegions == 0)
    ok = succeeded(mlir::verify(op));
  if (!ok) {
    std::string message = diagnostics.messages("invalid operation");
    op->erase();
    throw Error(formatFailure(spec.name, message, spec.operands));
  }
  return op;
}

Value detail::createValue(ModuleState &state, const OpSpec &spec) {
  return state.wrap(createOp(state, spec)->getResult(0));
}

void detail::verifyOrErase(ModuleState &state, Operation *op,
                           llvm::ArrayRef<Value> operands) {
  std::string message;
  {
    DiagnosticCapture diagnostics(&state.context);
    if (succeeded(mlir::verify(op)))
      return;
    message = diagnostics.messages("invalid operation");
  }
  std::string name = op->getName().getStringRef().str();
  op->erase();
  throw Error(formatFailure(name, message, operands));
}

[[noreturn]] void detail::throwArityMismatch(size_t expected, size_t actual) {
  throw Error("a region body lambda takes " + std::to_string(expected) +
              " Values but the region has " + std::to_string(actual) +
              " arguments");
}

std::vector<Value> detail::buildRegion(ModuleState &state, Block *block,
                                       const BodyFn &body,
                                       StringRef terminator) {
  OpBuilder::InsertionGuard guard(state.builder);
  state.builder.setInsertionPointToEnd(block);
  std::vector<Value> args;
  for (BlockArgument arg : block->getArguments())
    args.push_back(state.wrap(arg));
  std::vector<Value> results = body(args);
  OpSpec spec{terminator};
  spec.operands = results;
  spec.resultTypes = std::vector<mlir::Type>{};
  createOp(state, spec);
  return results;
}

Type Value::type() const {
  if (!value_)
    throw Error("use of an empty Value");
  return Type::fromMLIR(value_.getType());
}

Values::operator Value() const {
  if (size() != 1)
    throw Error("expected exactly one value, got " + std::to_string(size()) +
                " (index the results instead)");
  return front();
}

//===----------------------------------------------------------------------===//
// Operand and attribute helpers of the op families
//===----------------------------------------------------------------------===//

Type detail::tensorTypeOf(StringRef op, const Value &x) {
  stateOf(op, x);
  Type type = x.type();
  if (!type.isTensor())
    throw Error(op.str() + ": expected a tensor, got " + type.str());
  return type;
}

int64_t detail::normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

mlir::NamedAttribute detail::i64Array(ModuleState &s, StringRef name,
                                      llvm::ArrayRef<int64_t> values) {
  return s.builder.getNamedAttr(name, s.builder.getDenseI64ArrayAttr(values));
}

mlir::NamedAttribute detail::i64Attr(ModuleState &s, StringRef name,
                                     int64_t v) {
  return s.builder.getNamedAttr(name, s.builder.getI64IntegerAttr(v));
}
