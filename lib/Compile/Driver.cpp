//===- Driver.cpp - adj -> LLVM IR for one entry function -----------------===//
//
// Runs the MLIR part of compile(): -adj-grad, the optimizer, the target's
// registered pipeline (-adj-lower-to-<kind>, exactly what ir-opt runs) and
// the translation to LLVM IR, on a clone of the caller's module. After
// translation the packed entry point and the signature string are added and
// every other definition is internalized.
//
//===----------------------------------------------------------------------===//

#include "CompileImpl.h"

#include "adjoint/AD/Passes.h"
#include "adjoint/Codegen/Common/Passes.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/Dialect/Adj/IR/ElementTypes.h"
#include "adjoint/Dialect/Adj/Transforms/Passes.h"
#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Support/DiagnosticCapture.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::compiler;

compiler::LLVMModule::LLVMModule() = default;
compiler::LLVMModule::LLVMModule(LLVMModule &&) = default;
compiler::LLVMModule::~LLVMModule() {
  // The module refers to its context: destroy it first.
  module.reset();
}

namespace {

[[noreturn]] void fail(const std::string &function, const std::string &what,
                       DiagnosticCapture &diagnostics) {
  std::string text = diagnostics.take();
  throw Error("compile @" + function + ": " + what +
              (text.empty() ? std::string() : ":\n" + text));
}

/// Runs one stage of the compiler on `module`. Unless the options ask for
/// it, the IR is verified once after the stage instead of after each of its
/// passes: verifying after every pass was 40% of -adj-optimize's time on
/// long gradients (100k-op chains), and ir-opt, where passes are debugged,
/// still verifies after each.
void runStage(PassManager &pm, ModuleOp module, const CompileOptions &options,
              const std::string &function, const char *failure,
              DiagnosticCapture &diagnostics) {
  pm.enableVerifier(options.verifyEachPass);
  if (failed(pm.run(module)))
    fail(function, failure, diagnostics);
  if (!options.verifyEachPass && failed(verify(module)))
    fail(function, std::string("internal error: invalid IR after a stage (") +
                       failure + "; set CompileOptions::verifyEachPass to "
                                 "find the pass)",
         diagnostics);
}

std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Appends the leaves of `type` (tuples flattened depth-first).
void flatten(Type type, std::vector<Type> &leaves) {
  if (auto tuple = dyn_cast<adj::TupleType>(type)) {
    for (Type element : tuple.getTypes())
      flatten(element, leaves);
    return;
  }
  leaves.push_back(type);
}


/// The specs of the leaves of `types`; throws for a leaf that is not a
/// statically shaped tensor.
std::vector<rt::TensorSpec> specsOf(TypeRange types, const char *what,
                                    const std::string &function) {
  std::vector<Type> leaves;
  for (Type type : types)
    flatten(type, leaves);
  std::vector<rt::TensorSpec> specs;
  for (size_t i = 0; i < leaves.size(); ++i) {
    Type leaf = leaves[i];
    std::string where = "compile @" + function + ": " + what + " #" +
                        std::to_string(i) + " (tuples flattened) has type " +
                        typeString(leaf);
    if (isa<adj::FnType>(leaf))
      throw Error(where + "; function values cannot be passed to or "
                          "returned from compiled code");
    if (isa<adj::EnvType>(leaf))
      throw Error(where + "; environments cannot be passed to or returned "
                          "from compiled code");
    auto tensor = dyn_cast<RankedTensorType>(leaf);
    if (!tensor || !tensor.hasStaticShape())
      throw Error(where + "; compiled code takes and returns statically "
                          "shaped tensors");
    std::optional<DType> dtype = adj::dtypeOf(tensor.getElementType());
    if (!dtype)
      throw Error(where + "; its element type is not supported");
    specs.push_back(rt::TensorSpec{*dtype, tensor.getShape().vec()});
  }
  return specs;
}

/// Marks the donated inputs in `signature` and on `entry` (kDonateAttrName,
/// for the lowering); throws adjoint::Error for an index out of range or
/// given twice.
void markDonated(adj::FuncOp entry, const std::vector<unsigned> &donate,
                 rt::Signature &signature, const std::string &function) {
  if (donate.empty())
    return;
  SmallVector<int64_t> indices;
  for (unsigned index : donate) {
    if (index >= signature.inputs.size())
      throw Error("compile @" + function + ": donated input #" +
                  std::to_string(index) + " does not exist (" +
                  std::to_string(signature.inputs.size()) +
                  " inputs, tuples flattened)");
    if (signature.inputs[index].donated)
      throw Error("compile @" + function + ": input #" +
                  std::to_string(index) + " is donated twice");
    signature.inputs[index].donated = true;
    indices.push_back(index);
  }
  llvm::sort(indices);
  entry->setAttr(kDonateAttrName,
                 DenseI64ArrayAttr::get(entry.getContext(), indices));
}

/// The LLVM dialect form of a memref descriptor of `rank` dimensions.
Type descriptorType(MLIRContext *ctx, size_t rank) {
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> fields = {ptr, ptr, i64};
  if (rank > 0) {
    Type sizes = LLVM::LLVMArrayType::get(i64, rank);
    fields.append({sizes, sizes});
  }
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

/// Whether `lowered` (the entry after -adj-lower-to-<kind>) has the type
/// that `signature` implies: each input a memref descriptor unpacked into
/// (allocated, aligned, offset, sizes..., strides...), the outputs one
/// descriptor or a struct of them. Element types and sizes are gone from
/// LLVM types; counts and ranks remain.
bool matchesSignature(LLVM::LLVMFuncOp lowered,
                      const rt::Signature &signature) {
  MLIRContext *ctx = lowered.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> inputs;
  for (const rt::TensorSpec &spec : signature.inputs) {
    inputs.append({ptr, ptr, i64});
    inputs.append(2 * spec.shape.size(), i64);
  }
  SmallVector<Type> outputs;
  for (const rt::TensorSpec &spec : signature.outputs)
    outputs.push_back(descriptorType(ctx, spec.shape.size()));
  Type result = LLVM::LLVMVoidType::get(ctx);
  if (outputs.size() == 1)
    result = outputs.front();
  else if (outputs.size() > 1)
    result = LLVM::LLVMStructType::getLiteral(ctx, outputs);
  LLVM::LLVMFunctionType type = lowered.getFunctionType();
  return !type.isVarArg() && type.getReturnType() == result &&
         type.getParams() == ArrayRef<Type>(inputs);
}

/// Adds `void _adj_entry_<f>(void **args)` calling `_mlir_ciface_<f>` and
/// the signature string; internalizes everything else.
void addEntryPoint(llvm::Module &module, const std::string &function,
                   const rt::Signature &signature) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Function *ciface = module.getFunction("_mlir_ciface_" + function);
  size_t expected =
      signature.inputs.size() + (signature.outputs.empty() ? 0 : 1);
  auto *ptrType = llvm::PointerType::get(ctx, 0);
  bool allPointers = ciface && llvm::all_of(ciface->args(), [&](auto &arg) {
                       return arg.getType() == ptrType;
                     });
  if (!ciface || ciface->arg_size() != expected || !allPointers)
    throw Error("compile @" + function +
                ": internal error: the lowered C interface does not take " +
                std::to_string(expected) + " descriptor pointers");

  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrType}, false),
      llvm::GlobalValue::ExternalLinkage, rt::entrySymbol(function), module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  unsigned firstSlot = signature.outputs.empty() ? 1 : 0;
  std::vector<llvm::Value *> args;
  for (unsigned i = 0; i < ciface->arg_size(); ++i) {
    llvm::Value *slot =
        b.CreateConstGEP1_64(ptrType, entry->getArg(0), i + firstSlot);
    args.push_back(b.CreateLoad(ptrType, slot));
  }
  b.CreateCall(ciface, args);
  b.CreateRetVoid();

  llvm::Constant *text =
      llvm::ConstantDataArray::getString(ctx, signature.serialize(), true);
  auto *global = new llvm::GlobalVariable(
      module, text->getType(), /*isConstant=*/true,
      llvm::GlobalValue::ExternalLinkage, text,
      rt::signatureSymbol(function));

  // Only the entry and the signature are the object's interface; internal
  // linkage lets O3 inline the wrappers and keeps objects of several models
  // linkable into one program.
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && &f != entry)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration() && &g != global)
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace

OwningOpRef<ModuleOp>
compiler::lowerToTargetDialect(ModuleOp input, const std::string &function,
                               const Target &target,
                               const CompileOptions &options,
                               rt::Signature &signature) {
  // The target's pipeline is looked up by name in the global registry, and
  // its stages are partly pipeline text naming upstream passes. Registering
  // a pass twice is harmless and registerPipelines() runs once, so this is
  // safe in tools that register everything themselves.
  static std::once_flag registered;
  std::call_once(registered, [] {
    mlir::registerAllPasses();
    registerPipelines();
  });
  MLIRContext *ctx = input.getContext();
  DiagnosticCapture diagnostics(
      ctx, DiagnosticCapture::Level::ErrorsAndWarnings);
  OwningOpRef<ModuleOp> module(input.clone());
  if (failed(verify(*module)))
    fail(function, "the module does not verify", diagnostics);

  auto entry = dyn_cast_or_null<adj::FuncOp>(
      SymbolTable::lookupSymbolIn(*module, function));
  if (!entry)
    throw Error("compile: no adj.func named '" + function + "' in the module");
  // Only the entry is compiled; the other functions stay as its callees
  // (and disappear when unused), so that an op the lowering does not
  // support elsewhere in the module does not matter.
  for (auto func : module->getOps<adj::FuncOp>())
    if (func != entry)
      func.setPrivate();
  entry.setPublic();

  PassManager optimize(ctx);
  optimize.addPass(ad::createGrad());
  if (options.optimize) {
    buildOptimizePipeline(optimize);
  } else {
    optimize.addPass(adj::createStripDerivativeRules());
    optimize.addPass(adj::createInfer());
    optimize.addPass(createSymbolDCEPass());
  }
  runStage(optimize, *module, options, function, "optimization failed",
           diagnostics);

  entry = dyn_cast_or_null<adj::FuncOp>(
      SymbolTable::lookupSymbolIn(*module, function));
  if (!entry)
    throw Error("compile @" + function +
                ": internal error: the optimizer removed the entry");
  signature.inputs =
      specsOf(entry.getFunctionType().getInputs(), "input", function);
  signature.outputs =
      specsOf(entry.getFunctionType().getResults(), "output", function);
  markDonated(entry, options.donate, signature, function);

  PassManager lower(ctx);
  std::string pipelineError;
  if (failed(addLowerToTargetPipeline(lower, target,
                                      [&](const llvm::Twine &message) {
                                        pipelineError = message.str();
                                        return failure();
                                      })))
    throw Error("compile @" + function + ": " + pipelineError);
  runStage(lower, *module, options, function, "lowering failed",
           diagnostics);
  auto lowered = module->lookupSymbol<LLVM::LLVMFuncOp>(function);
  if (!lowered || !matchesSignature(lowered, signature))
    throw Error("compile @" + function +
                ": internal error: the lowered signature " +
                (lowered ? typeString(lowered.getFunctionType())
                         : std::string("(missing)")) +
                " does not match the adj signature " +
                signature.serialize());
  return module;
}

LLVMModule compiler::lowerToLLVMIR(ModuleOp input, const std::string &function,
                                  const Target &target,
                                  const CompileOptions &options) {
  MLIRContext *ctx = input.getContext();
  {
    DialectRegistry registry;
    registerAllToLLVMIRTranslations(registry);
    ctx->appendDialectRegistry(registry);
  }
  LLVMModule result;
  OwningOpRef<ModuleOp> module =
      lowerToTargetDialect(input, function, target, options, result.signature);
  DiagnosticCapture diagnostics(
      ctx, DiagnosticCapture::Level::ErrorsAndWarnings);
  result.context = std::make_unique<llvm::LLVMContext>();
  result.module = translateModuleToLLVMIR(*module, *result.context, function);
  if (!result.module)
    fail(function, "translation to LLVM IR failed", diagnostics);
  addEntryPoint(*result.module, function, result.signature);
  return result;
}

std::string adjoint::compileToMLIR(ModuleOp module, const std::string &function,
                                   const Target &target,
                                   const CompileOptions &options) {
  checkOptions(options);
  checkTarget(target);
  rt::Signature signature;
  OwningOpRef<ModuleOp> lowered =
      lowerToTargetDialect(module, function, target, options, signature);
  std::string text;
  llvm::raw_string_ostream os(text);
  lowered->print(os);
  return text;
}
