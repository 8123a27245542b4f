//===- ir-run.cpp - Runs adj IR in the interpreter or compiled ------------===//
//
// Parses and verifies a .mlir file, calls one adj.func with arguments given
// on the command line and prints its results:
//
//   ir-run model.mlir -f main --arg "[[1, 2], [3, 4]]" --arg @x.npy \
//          --arg rand:seed=7 --out-npy out_
//
// With --compile the function is compiled to native code (the compile API,
// with its cache) and run instead of interpreted; arguments and output are
// the same, so the two can be compared.
//
// Diagnostics and run-time errors name file:line:col and exit with 1.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"
#include "Compiled.h"
#include "CrashWatchdog.h"

#include "adjoint/Dialect/Adj/IR/AdjOps.h"
#include "adjoint/InitAll.h"
#include "adjoint/Interpreter/Interpreter.h"
#include "adjoint/Interpreter/Npy.h"
#include "adjoint/Runtime/Invoke.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace adjoint;

// --help lists only these categories (and LLVM's generic --help/--version):
// the hundreds of options that libLLVM registers for its own passes and
// targets mean nothing to a user of ir-run.
static llvm::cl::OptionCategory runCategory("ir-run options");
static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input .mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(runCategory));
static llvm::cl::opt<std::string>
    functionName("f", llvm::cl::desc("The adj.func to run (default: main)"),
                 llvm::cl::init("main"), llvm::cl::cat(runCategory));
static llvm::cl::list<std::string> argumentTexts(
    "arg",
    llvm::cl::desc("One argument: a literal (3.5, \"[[1,2],[3,4]]\"), "
                   "@file.npy, rand:seed=N[,low=A,high=B] or "
                   "randn:seed=N[,mean=M,std=S]"),
    llvm::cl::cat(runCategory));
static llvm::cl::opt<std::string>
    outNpy("out-npy",
           llvm::cl::desc("Write tensor result i to <prefix><i>.npy"),
           llvm::cl::value_desc("prefix"), llvm::cl::cat(runCategory));
static llvm::cl::opt<unsigned>
    maxDepth("max-depth", llvm::cl::desc("Call depth limit (default 10000)"),
             llvm::cl::init(10000), llvm::cl::cat(runCategory));

static llvm::cl::OptionCategory compileCategory("Compiled execution");
static llvm::cl::opt<bool>
    compileMode("compile",
                llvm::cl::desc("Run compiled native code instead of the "
                               "interpreter"),
                llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string>
    cacheDir("cache-dir",
             llvm::cl::desc("Compile cache folder (default: "
                            "$ADJOINT_CACHE_DIR, $XDG_CACHE_HOME/adjoint or "
                            "~/.cache/adjoint)"),
             llvm::cl::value_desc("dir"), llvm::cl::cat(compileCategory));
static llvm::cl::opt<bool>
    noCache("no-cache", llvm::cl::desc("Do not use the compile cache"),
            llvm::cl::cat(compileCategory));
static llvm::cl::opt<bool>
    noOptimize("no-optimize",
               llvm::cl::desc("Skip the adj optimizer before lowering"),
               llvm::cl::cat(compileCategory));
static llvm::cl::opt<unsigned>
    optLevel("opt-level", llvm::cl::desc("LLVM optimization level (0-3)"),
             llvm::cl::init(3), llvm::cl::cat(compileCategory));
static llvm::cl::opt<std::string> targetSpec(
    "target",
    llvm::cl::desc("With --compile: the target, kind[:chip][,+feature...] "
                   "(default cpu, the host with all its features)"),
    llvm::cl::value_desc("kind[:chip][,+feature...]"), llvm::cl::init("cpu"),
    llvm::cl::cat(compileCategory));
static llvm::cl::opt<bool> compileStats(
    "compile-stats",
    llvm::cl::desc("Print where the code came from (compiled, memory-hit, "
                   "disk-hit) to stderr"),
    llvm::cl::cat(compileCategory));

static int failWith(const std::string &message) {
  llvm::errs() << "ir-run: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // LLVM's stack trace can deadlock after a crash inside malloc.
  irrun::installCrashWatchdog(/*seconds=*/10);
  // The command-line parser expands "@file" words as response files; glue
  // "--arg @x.npy" into "--arg=@x.npy" so that .npy arguments survive.
  std::vector<std::string> words;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef word = argv[i];
    if ((word == "--arg" || word == "-arg") && i + 1 < argc &&
        argv[i + 1][0] == '@')
      words.push_back("--arg=" + std::string(argv[++i]));
    else
      words.push_back(word.str());
  }
  std::vector<const char *> glued;
  for (const std::string &w : words)
    glued.push_back(w.c_str());
  llvm::cl::HideUnrelatedOptions({&runCategory, &compileCategory});
  llvm::cl::ParseCommandLineOptions(static_cast<int>(glued.size()),
                                    glued.data(),
                                    "Adjoint reference interpreter\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  std::string includeError;
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!buffer)
    return failWith("cannot read '" + inputFile + "': " +
                    buffer.getError().message());
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  // Prints diagnostics as file:line:col: error: ... with the source line.
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(verify(*module)))
    return 1;

  auto func = dyn_cast_or_null<adj::FuncOp>(
      SymbolTable::lookupSymbolIn(*module, functionName));
  if (!func)
    return failWith("no adj.func named '" + functionName + "' in " +
                    inputFile);
  ArrayRef<Type> params = func.getArgumentTypes();
  if (argumentTexts.size() != params.size())
    return failWith("@" + functionName + " takes " +
                    std::to_string(params.size()) + " arguments, got " +
                    std::to_string(argumentTexts.size()) + " --arg");

  std::vector<interp::Value> args;
  for (size_t i = 0; i < params.size(); ++i) {
    try {
      args.push_back(irrun::parseArgument(argumentTexts[i], params[i]));
    } catch (const Error &e) {
      return failWith("argument #" + std::to_string(i) + " ('" +
                      argumentTexts[i] + "'): " + e.what());
    }
  }

  std::vector<interp::Value> results;
  try {
    if (compileMode) {
      CompileOptions options;
      options.cache = !noCache;
      options.cacheDir = cacheDir;
      options.optimize = !noOptimize;
      options.optLevel = optLevel;
      // The same limit as the interpreter's (compiled recursion, Invoke.h).
      rt::setMaxCallDepth(maxDepth);
      results = irrun::runCompiled(*module, functionName, args,
                                   Target::parse(targetSpec), options,
                                   compileStats);
    } else {
      interp::Options options;
      options.maxCallDepth = maxDepth;
      interp::Interpreter interpreter(*module, options);
      results = interpreter.call(functionName, args);
    }
    for (size_t i = 0; i < results.size(); ++i) {
      llvm::outs() << results[i].toString() << "\n";
      if (!outNpy.empty() && results[i].isTensor())
        interp::writeNpy(outNpy + std::to_string(i) + ".npy",
                         results[i].tensor());
    }
  } catch (const Error &e) {
    llvm::outs().flush();
    return failWith(e.what());
  }
  return 0;
}
