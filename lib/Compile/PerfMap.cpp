//===- PerfMap.cpp - Names of JIT-compiled functions for perf -------------===//
//
// perf attributes samples in anonymous executable memory through
// /tmp/perf-<pid>.map, a line "<start> <size> <name>" (hex) per function.
// Without it, the generated loops of a step are bare addresses in a
// profile (a quarter of convnet's samples were "[JIT] tid ...").
// With ADJOINT_PERF_MAP set, every function the JIT links is listed there
// once its address is final, the internal ones (outlined loop nests,
// parallel chunks) included.
//
//===----------------------------------------------------------------------===//

#include "CompileImpl.h"

#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace {

/// Appends the functions of each linked graph to the map file.
class PerfMapPlugin : public ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(MaterializationResponsibility &, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &config) override {
    // Calls between functions of one object are resolved by the assembler,
    // so nothing refers to an internal function's symbol and JITLink would
    // drop it (its code stays, in the section's block): keep the names.
    config.PrePrunePasses.push_back([](jitlink::LinkGraph &graph) {
      for (jitlink::Symbol *symbol : graph.defined_symbols())
        if (symbol->hasName())
          symbol->setLive(true);
      return Error::success();
    });
    config.PostFixupPasses.push_back([](jitlink::LinkGraph &graph) {
      append(graph);
      return Error::success();
    });
  }
  Error notifyFailed(MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(JITDylib &, ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(JITDylib &, ResourceKey,
                                   ResourceKey) override {}

private:
  static void append(jitlink::LinkGraph &graph) {
    std::string lines;
    raw_string_ostream os(lines);
    for (jitlink::Symbol *symbol : graph.defined_symbols())
      if (symbol->hasName() && symbol->getSize() &&
          symbol->getBlock().getSection().getName().starts_with(".text"))
        os << format_hex_no_prefix(symbol->getAddress().getValue(), 1) << " "
           << format_hex_no_prefix(symbol->getSize(), 1) << " "
           << *symbol->getName() << "\n";
    // Several JITs may link at once; one write per graph, in order.
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    std::error_code ec;
    raw_fd_ostream file(adjoint::compiler::perfMapPath(), ec,
                        sys::fs::OF_Append);
    if (!ec)
      file << lines;
  }
};

} // namespace

std::string adjoint::compiler::perfMapPath() {
  return "/tmp/perf-" + std::to_string(::getpid()) + ".map";
}

void adjoint::compiler::addPerfMapSupport(LLJIT &jit) {
  const char *enabled = std::getenv("ADJOINT_PERF_MAP");
  if (!enabled || !*enabled || std::string(enabled) == "0")
    return;
  if (auto *layer = dyn_cast<ObjectLinkingLayer>(&jit.getObjLinkingLayer()))
    layer->addPlugin(std::make_shared<PerfMapPlugin>());
}
