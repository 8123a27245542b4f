//===- AotTest.cpp - compileToObject writes an object and a header --------===//
//
// The end-to-end check (a program built from the output, without MLIR) is
// examples/aot; this checks the artifacts and the errors.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"

#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace adjoint;
using namespace adjoint::test;

namespace {
struct TempDir {
  std::string path;
  TempDir() {
    llvm::SmallString<128> dir;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("adjoint-aot-test", dir));
    path = dir.str().str();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
};

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  REQUIRE(buffer);
  return (*buffer)->getBuffer().str();
}
} // namespace

TEST_CASE("compileToObject writes an ELF object and a typed header") {
  TempDir dir;
  api::Module m;
  m.function("scale", {f32({4}), tensorType(DType::I64, {})},
             [](api::Value x, api::Value n) {
               return api::Values{x * api::cast(n, DType::F32),
                                  n + n};
             });
  AotArtifacts out =
      compileToObject(m, "scale", dir.path, Target::cpu(), noCache());
  REQUIRE(out.objectPath == dir.path + "/scale.o");
  REQUIRE(out.headerPath == dir.path + "/scale.h");
  REQUIRE(out.signature.serialize() == "f32[4] i64[] -> f32[4] i64[]");

  // The object exports exactly the entry point and the signature.
  std::string object = readFile(out.objectPath);
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(object, "scale.o"));
  REQUIRE(static_cast<bool>(file));
  std::set<std::string> exported;
  for (const llvm::object::SymbolRef &symbol : (*file)->symbols()) {
    auto flags = symbol.getFlags();
    auto name = symbol.getName();
    REQUIRE(static_cast<bool>(flags));
    REQUIRE(static_cast<bool>(name));
    if ((*flags & llvm::object::SymbolRef::SF_Global) &&
        !(*flags & llvm::object::SymbolRef::SF_Undefined))
      exported.insert(name->str());
  }
  REQUIRE(exported ==
          std::set<std::string>{"_adj_entry_scale", "_adj_signature_scale"});

  std::string header = readFile(out.headerPath);
  for (const char *part :
       {"struct scale {", "kSignature = \"f32[4] i64[] -> f32[4] i64[]\"",
        "extern \"C\" void _adj_entry_scale(void **args);",
        "static adjoint::rt::Status run(const float *in0, const int64_t "
        "*in1, float *out0, int64_t *out1)",
        "#include \"adjoint/Runtime/Invoke.h\""}) {
    INFO(part);
    REQUIRE(header.find(part) != std::string::npos);
  }
}

TEST_CASE("compileToObject needs a C identifier and reports errors") {
  TempDir dir;
  api::Module m;
  m.function("f.g", {f32({4})}, [](api::Value x) { return x; });
  REQUIRE(errorOf([&] {
            compileToObject(m, "f.g", dir.path, Target::cpu(), noCache());
          }) == "compileToObject: 'f.g' is not a C identifier, which the "
                "generated header needs");
  REQUIRE(errorOf([&] {
            compileToObject(m, "missing", dir.path, Target::cpu(),
                            noCache());
          }) == "compile: no adj.func named 'missing' in the module");
}
