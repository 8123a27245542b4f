//===- CacheTest.cpp - The compile cache in memory and on disk ------------===//

#include "Helpers.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace adjoint;
using namespace adjoint::test;

namespace {

/// A fresh, empty cache folder, removed at the end of the test.
struct TempCacheDir {
  std::string path;
  TempCacheDir() {
    llvm::SmallString<128> dir;
    REQUIRE(!llvm::sys::fs::createUniqueDirectory("adjoint-cache-test", dir));
    path = dir.str().str();
    // Start as a fresh process would: nothing in memory.
    clearMemoryCache();
  }
  ~TempCacheDir() { llvm::sys::fs::remove_directories(path); }
  CompileOptions options() const {
    CompileOptions o;
    o.cacheDir = path;
    return o;
  }
  std::string entry(const Executable &exe) const {
    return path + "/" + exe.cacheKey() + ".o";
  }
  size_t files() const {
    std::error_code ec;
    size_t n = 0;
    for (llvm::sys::fs::directory_iterator it(path, ec), end; !ec && it != end;
         it.increment(ec))
      ++n;
    return n;
  }
};

void buildAxpy(api::Module &m) {
  m.function("axpy", {f32({8}), f32({8}), f32({})},
             [](api::Value x, api::Value y, api::Value a) {
               return x * a + y;
             });
}

std::vector<rt::Tensor> axpyInputs() {
  return {rt::Tensor::fromDoubles(DType::F32, {8},
                                  {1, 2, 3, 4, 5, 6, 7, 8}),
          rt::Tensor::fromDoubles(DType::F32, {8},
                                  {1, 1, 1, 1, 1, 1, 1, 1}),
          rt::Tensor::fromDoubles(DType::F32, {}, {2})};
}

void requireAxpyWorks(const Executable &exe) {
  std::vector<rt::Tensor> out = exe.run(axpyInputs());
  REQUIRE(out[0].toDoubles() ==
          std::vector<double>{3, 5, 7, 9, 11, 13, 15, 17});
}

} // namespace

TEST_CASE("a second compile is a memory hit, a fresh one a disk hit") {
  TempCacheDir cache;
  api::Module m;
  buildAxpy(m);
  clearMemoryCache();
  CacheStats s0 = cacheStats();
  Executable first = compile(m, "axpy", Target::cpu(), cache.options());
  REQUIRE(first.cacheOutcome() == CacheOutcome::Compiled);
  REQUIRE(llvm::sys::fs::exists(cache.entry(first)));
  REQUIRE(cacheStats().compilations == s0.compilations + 1);
  REQUIRE(cacheStats().diskWrites == s0.diskWrites + 1);
  requireAxpyWorks(first);

  Executable second = compile(m, "axpy", Target::cpu(), cache.options());
  REQUIRE(second.cacheOutcome() == CacheOutcome::MemoryHit);
  REQUIRE(second.cacheKey() == first.cacheKey());
  REQUIRE(cacheStats().memoryHits == s0.memoryHits + 1);
  requireAxpyWorks(second);

  // Another process would start with an empty memory cache.
  clearMemoryCache();
  Executable third = compile(m, "axpy", Target::cpu(), cache.options());
  REQUIRE(third.cacheOutcome() == CacheOutcome::DiskHit);
  REQUIRE(cacheStats().diskHits == s0.diskHits + 1);
  REQUIRE(cacheStats().compilations == s0.compilations + 1);
  REQUIRE(third.signature().serialize() == "f32[8] f32[8] f32[] -> f32[8]");
  requireAxpyWorks(third);
  // Executables stay valid when the cache forgets them.
  clearMemoryCache();
  requireAxpyWorks(first);
}

TEST_CASE("the key covers the program, function, options and target") {
  TempCacheDir cache;
  api::Module m;
  buildAxpy(m);
  m.function("other", {f32({8})}, [](api::Value x) { return x + 1.0; });
  Executable base = compile(m, "axpy", Target::cpu(), cache.options());
  CompileOptions o1 = cache.options();
  o1.optLevel = 1;
  CompileOptions noOpt = cache.options();
  noOpt.optimize = false;
  Target generic = Target::cpuNamed("x86-64");
  std::set<std::string> keys = {
      base.cacheKey(),
      compile(m, "other", Target::cpu(), cache.options()).cacheKey(),
      compile(m, "axpy", Target::cpu(), o1).cacheKey(),
      compile(m, "axpy", Target::cpu(), noOpt).cacheKey(),
      compile(m, "axpy", generic, cache.options()).cacheKey()};
  REQUIRE(keys.size() == 5);
  api::Module changed;
  changed.function("axpy", {f32({8}), f32({8}), f32({})},
                   [](api::Value x, api::Value y, api::Value a) {
                     return x * a - y;
                   });
  REQUIRE(compile(changed, "axpy", Target::cpu(), cache.options())
              .cacheKey() != base.cacheKey());
  // With the cache off nothing is stored or looked up.
  TempCacheDir unused;
  CompileOptions off = unused.options();
  off.cache = false;
  Executable a = compile(m, "axpy", Target::cpu(), off);
  Executable b = compile(m, "axpy", Target::cpu(), off);
  REQUIRE(a.cacheOutcome() == CacheOutcome::Compiled);
  REQUIRE(b.cacheOutcome() == CacheOutcome::Compiled);
  REQUIRE(unused.files() == 0);
}

TEST_CASE("clearCache empties the folder and the memory cache") {
  TempCacheDir cache;
  api::Module m;
  buildAxpy(m);
  Executable first = compile(m, "axpy", Target::cpu(), cache.options());
  // A file that is not a cache entry survives.
  {
    std::error_code ec;
    llvm::raw_fd_ostream keep(cache.path + "/README", ec);
    keep << "not an entry";
  }
  REQUIRE(cache.files() == 2);
  clearCache(cache.path);
  REQUIRE(cache.files() == 1);
  REQUIRE(!llvm::sys::fs::exists(cache.entry(first)));
  Executable again = compile(m, "axpy", Target::cpu(), cache.options());
  REQUIRE(again.cacheOutcome() == CacheOutcome::Compiled);
  requireAxpyWorks(again);
}

TEST_CASE("a corrupt cache entry is ignored and rebuilt") {
  TempCacheDir cache;
  api::Module m;
  buildAxpy(m);
  Executable first = compile(m, "axpy", Target::cpu(), cache.options());
  std::string path = cache.entry(first);
  auto original = llvm::MemoryBuffer::getFile(path);
  REQUIRE(original);
  std::string bytes = (*original)->getBuffer().str();

  auto overwrite = [&](const std::string &content) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    REQUIRE(!ec);
    os << content;
  };
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x5a;
  for (const std::string &damaged :
       {std::string("garbage"), bytes.substr(0, bytes.size() / 2), flipped,
        std::string()}) {
    overwrite(damaged);
    clearMemoryCache();
    CacheStats before = cacheStats();
    Executable rebuilt = compile(m, "axpy", Target::cpu(), cache.options());
    REQUIRE(rebuilt.cacheOutcome() == CacheOutcome::Compiled);
    REQUIRE(cacheStats().corruptEntries == before.corruptEntries + 1);
    requireAxpyWorks(rebuilt);
    // The entry was rewritten intact.
    clearMemoryCache();
    REQUIRE(compile(m, "axpy", Target::cpu(), cache.options())
                .cacheOutcome() == CacheOutcome::DiskHit);
  }
}

TEST_CASE("the default cache folder follows the environment") {
  const char *saved = std::getenv("ADJOINT_CACHE_DIR");
  std::string savedValue = saved ? saved : "";
  setenv("ADJOINT_CACHE_DIR", "/tmp/adjoint-explicit", 1);
  REQUIRE(defaultCacheDir() == "/tmp/adjoint-explicit");
  unsetenv("ADJOINT_CACHE_DIR");
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  std::string xdgValue = xdg ? xdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  REQUIRE(defaultCacheDir() == "/tmp/xdg/adjoint");
  unsetenv("XDG_CACHE_HOME");
  if (const char *home = std::getenv("HOME"))
    REQUIRE(defaultCacheDir() == std::string(home) + "/.cache/adjoint");
  if (xdg)
    setenv("XDG_CACHE_HOME", xdgValue.c_str(), 1);
  if (saved)
    setenv("ADJOINT_CACHE_DIR", savedValue.c_str(), 1);
}
