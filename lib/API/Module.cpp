//===- Module.cpp - Modules and top-level functions of the builder API ----===//
//
// A Module owns its context and module op; Functions are adj.func ops that
// may be declared before their bodies are built, so that bodies can refer
// to any function (recursion, mutual recursion).
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using llvm::isa;
using llvm::cast;
using mlir::Block;
using mlir::ModuleOp;
using mlir::OpBuilder;
using mlir::SymbolTable;
using mlir::FunctionType;
using mlir::MLIRContext;
using mlir::failed;
using mlir::FlatSymbolRefAttr;
using mlir::DialectRegistry;
using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

/// The registry every Module's context starts from. Built once: registering
/// every upstream dialect and extension is not free.
static const DialectRegistry &registry() {
  static const DialectRegistry *r = [] {
    auto *reg = new DialectRegistry();
    adjoint::registerAllDialects(*reg);
    return reg;
  }();
  return *r;
}

ModuleState::ModuleState()
    : context(registry()), builder(&context) {
  // Other registered dialects load on first use (passes, parsing).
  context.loadDialect<adj::AdjDialect>();
  module = ModuleOp::create(loc());
  builder.setInsertionPointToEnd(module->getBody());
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module() : state_(std::make_unique<ModuleState>()) {}
Module::~Module() = default;
Module::Module(Module &&) noexcept = default;
Module &Module::operator=(Module &&) noexcept = default;

ModuleOp Module::op() const { return *state_->module; }
MLIRContext *Module::context() const { return &state_->context; }

Function Module::declare(const std::string &name, std::vector<Type> inputs,
                         std::vector<Type> results) {
  ModuleState &s = *state_;
  if (name.empty())
    throw Error("adj.func: a function needs a name");
  if (SymbolTable::lookupSymbolIn(op(), name))
    throw Error("adj.func: a function named '" + name + "' already exists");
  std::vector<mlir::Type> in, out;
  for (const Type &t : inputs)
    in.push_back(s.mlirType(t));
  for (const Type &t : results)
    out.push_back(s.mlirType(t));
  // Functions are top-level even when declared while a body is being built.
  OpBuilder::InsertionGuard guard(s.builder);
  s.builder.setInsertionPointToEnd(op().getBody());
  auto func = adj::FuncOp::create(s.builder, s.loc(), name,
                                  s.builder.getFunctionType(in, out));
  return Function(&s, func);
}

Function Module::functionImpl(const std::string &name,
                              std::vector<Type> inputs, const BodyFn &body) {
  Function f = declare(name, std::move(inputs), {});
  try {
    f.defineImpl(body, /*inferResults=*/true);
  } catch (...) {
    f.op()->erase();
    throw;
  }
  return f;
}

Function Module::lookup(const std::string &name) const {
  auto func = SymbolTable::lookupSymbolIn(op(), name);
  if (!func || !isa<adj::FuncOp>(func))
    throw Error("no function named '" + name + "' in the module");
  return Function(state_.get(), cast<adj::FuncOp>(func));
}

void Module::verify() const {
  for (auto func : op().getOps<adj::FuncOp>())
    if (func.getBody().empty())
      throw Error("adj.func: function '" + func.getName().str() +
                  "' is declared but its body was never defined");
  DiagnosticCapture diagnostics(context());
  if (failed(mlir::verify(op())))
    throw Error("the module does not verify: " + diagnostics.messages("invalid operation"));
}

bool Module::isValid() const {
  try {
    verify();
    return true;
  } catch (const Error &) {
    return false;
  }
}

std::string Module::str() const {
  // An invalid module prints in generic form; its diagnostics are dropped.
  DiagnosticCapture diagnostics(context());
  std::string out;
  llvm::raw_string_ostream os(out);
  op()->print(os);
  return out;
}

//===----------------------------------------------------------------------===//
// Function
//===----------------------------------------------------------------------===//

Function::Function(ModuleState *state, adj::FuncOp op)
    : state_(state), op_(op.getOperation()) {}

adj::FuncOp Function::op() const {
  if (!op_)
    throw Error("use of an empty Function");
  return cast<adj::FuncOp>(op_);
}

std::string Function::name() const { return op().getName().str(); }

Type Function::type() const {
  return Type::fromMLIR(adj::FnType::get(&state_->context,
                                         op().getFunctionType()));
}

bool Function::isDefined() const { return !op().getBody().empty(); }

void Function::erase() {
  adj::FuncOp func = op();
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, state_->module->getOperation());
  if (!uses || !uses->empty())
    throw Error("adj.func: function '" + name() +
                "' cannot be erased: it is still referred to");
  func->erase();
  op_ = nullptr;
}

Value Function::ref() const {
  adj::FuncOp func = op();
  OpSpec spec{"adj.func_ref"};
  spec.attributes.push_back(state_->builder.getNamedAttr(
      "callee", FlatSymbolRefAttr::get(func.getNameAttr())));
  spec.resultTypes = std::vector<mlir::Type>{
      adj::FnType::get(&state_->context, func.getFunctionType())};
  return createValue(*state_, spec);
}

void Function::defineImpl(const BodyFn &body, bool inferResults) {
  adj::FuncOp func = op();
  if (isDefined())
    throw Error("adj.func: function '" + name() + "' is already defined");
  Block *entry = new Block();
  func.getBody().push_back(entry);
  for (mlir::Type t : func.getArgumentTypes())
    entry->addArgument(t, func.getLoc());
  // The inferred result types are known only once the body is built.
  BodyFn wrapped = body;
  if (inferResults)
    wrapped = [&](const std::vector<Value> &args) {
      std::vector<Value> results = body(args);
      std::vector<mlir::Type> types;
      for (const Value &v : results)
        types.push_back(&stateOf("adj.return", v) == state_ ? v.mlir().getType()
                                                             : mlir::Type());
      if (llvm::all_of(types, [](mlir::Type t) { return bool(t); }))
        func.setFunctionType(FunctionType::get(
            &state_->context, func.getArgumentTypes(), types));
      return results;
    };
  try {
    buildRegion(*state_, entry, wrapped, "adj.return");
  } catch (...) {
    func.getBody().getBlocks().clear();
    throw;
  }
}
