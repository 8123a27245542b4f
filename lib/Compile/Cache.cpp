//===- Cache.cpp - Compiled objects by key, in memory and on disk ---------===//
//
// The key hashes everything that determines the object: the printed input
// module (before any pass, so that a hit skips the whole compilation), the
// function, the target, the options and the compiler's identity (Adjoint's
// cache format, LLVM's version and the size and time of the binary that
// holds this code, so that a rebuilt compiler never reuses stale objects).
//
// A disk entry <key>.o is the object file followed by a trailer: the
// object's SHA-256, its size and a magic word. ELF tools ignore the
// trailer; the cache checks it, so that a truncated or corrupted entry is
// rebuilt instead of loaded.
//
//===----------------------------------------------------------------------===//

#include "CompileImpl.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

using namespace adjoint;
using namespace adjoint::compiler;

namespace {

constexpr char kMagic[8] = {'A', 'D', 'J', 'O', 'B', 'J', '0', '1'};
constexpr size_t kTrailerSize = 32 + 8 + sizeof(kMagic);

std::mutex gMutex;
CacheStats gStats;

std::unordered_map<std::string, std::shared_ptr<const Executable::Program>> &
memory() {
  static auto *map = new std::unordered_map<
      std::string, std::shared_ptr<const Executable::Program>>();
  return *map;
}

/// Identifies this build of the compiler.
const std::string &compilerIdentity() {
  static const std::string identity = [] {
    std::string id = "adjoint-cache-1 llvm-" LLVM_VERSION_STRING;
    Dl_info info;
    struct stat st;
    bool found = dladdr(reinterpret_cast<void *>(&compilerIdentity), &info) &&
                 info.dli_fname && stat(info.dli_fname, &st) == 0;
    if (!found)
      found = stat("/proc/self/exe", &st) == 0;
    if (found)
      id += " " + std::to_string(st.st_size) + " " +
            std::to_string(st.st_mtim.tv_sec) + "." +
            std::to_string(st.st_mtim.tv_nsec);
    return id;
  }();
  return identity;
}

std::string entryPath(const std::string &dir, const std::string &key) {
  return dir + "/" + key + ".o";
}

bool isKeyName(llvm::StringRef stem) {
  return stem.size() == 64 &&
         stem.find_first_not_of("0123456789abcdef") == llvm::StringRef::npos;
}

} // namespace

std::string compiler::cacheKey(mlir::ModuleOp module,
                              const std::string &function,
                              const Target &target,
                              const CompileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, mlir::OpPrintingFlags().enableDebugInfo(false));
  llvm::SHA256 hash;
  auto add = [&](llvm::StringRef part) {
    hash.update(part);
    hash.update(llvm::StringRef("\n", 1));
  };
  add(compilerIdentity());
  add(target.str());
  add(options.optimize ? "optimize" : "no-optimize");
  add("O" + std::to_string(options.optLevel));
  if (!options.donate.empty()) {
    std::string donated = "donate";
    for (unsigned index : options.donate)
      donated += " " + std::to_string(index);
    add(donated);
  }
  add(function);
  add(text);
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string adjoint::defaultCacheDir() {
  if (const char *dir = std::getenv("ADJOINT_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/adjoint";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/adjoint";
  return "/tmp/adjoint-cache-" + std::to_string(getuid());
}

std::string compiler::cacheDirFor(const CompileOptions &options) {
  return options.cacheDir.empty() ? defaultCacheDir() : options.cacheDir;
}

std::shared_ptr<const Executable::Program>
compiler::memoryCacheLookup(const std::string &key) {
  std::lock_guard<std::mutex> lock(gMutex);
  auto it = memory().find(key);
  if (it == memory().end())
    return nullptr;
  ++gStats.memoryHits;
  return it->second;
}

void compiler::memoryCacheInsert(
    const std::string &key,
    std::shared_ptr<const Executable::Program> program) {
  std::lock_guard<std::mutex> lock(gMutex);
  memory()[key] = std::move(program);
}

std::optional<std::string> compiler::diskCacheLookup(const std::string &dir,
                                                    const std::string &key) {
  std::string path = entryPath(dir, key);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  llvm::StringRef data = (*buffer)->getBuffer();
  bool intact = false;
  std::string object;
  if (data.size() > kTrailerSize &&
      std::memcmp(data.end() - sizeof(kMagic), kMagic, sizeof(kMagic)) == 0) {
    uint64_t size = 0;
    std::memcpy(&size, data.end() - sizeof(kMagic) - 8, 8);
    if (size == data.size() - kTrailerSize) {
      llvm::StringRef payload = data.take_front(size);
      std::array<uint8_t, 32> digest = llvm::SHA256::hash(
          llvm::ArrayRef<uint8_t>(payload.bytes_begin(), payload.size()));
      intact = std::memcmp(digest.data(), data.data() + size, 32) == 0;
      if (intact)
        object = payload.str();
    }
  }
  if (!intact) {
    diskCacheReject(dir, key);
    return std::nullopt;
  }
  return object;
}

void compiler::diskCacheStore(const std::string &dir, const std::string &key,
                             const std::string &object) {
  if (llvm::sys::fs::create_directories(dir))
    return;
  static std::atomic<unsigned> counter{0};
  std::string temp = entryPath(dir, key) + ".tmp-" +
                     std::to_string(getpid()) + "-" +
                     std::to_string(counter++);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec, llvm::sys::fs::OF_None);
    if (ec)
      return;
    std::array<uint8_t, 32> digest = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(object.data()), object.size()));
    uint64_t size = object.size();
    os << object;
    os.write(reinterpret_cast<const char *>(digest.data()), digest.size());
    os.write(reinterpret_cast<const char *>(&size), sizeof(size));
    os.write(kMagic, sizeof(kMagic));
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return;
    }
  }
  if (llvm::sys::fs::rename(temp, entryPath(dir, key))) {
    llvm::sys::fs::remove(temp);
    return;
  }
  std::lock_guard<std::mutex> lock(gMutex);
  ++gStats.diskWrites;
}

void compiler::diskCacheReject(const std::string &dir, const std::string &key) {
  llvm::sys::fs::remove(entryPath(dir, key));
  std::lock_guard<std::mutex> lock(gMutex);
  ++gStats.corruptEntries;
}

void compiler::noteDiskHit() {
  std::lock_guard<std::mutex> lock(gMutex);
  ++gStats.diskHits;
}

void compiler::noteCompilation() {
  std::lock_guard<std::mutex> lock(gMutex);
  ++gStats.compilations;
}

CacheStats adjoint::cacheStats() {
  std::lock_guard<std::mutex> lock(gMutex);
  return gStats;
}

void adjoint::clearMemoryCache() {
  std::lock_guard<std::mutex> lock(gMutex);
  memory().clear();
}

void adjoint::clearCache(const std::string &dir) {
  clearMemoryCache();
  std::string folder = dir.empty() ? defaultCacheDir() : dir;
  std::error_code ec;
  std::vector<std::string> doomed;
  for (llvm::sys::fs::directory_iterator it(folder, ec), end;
       !ec && it != end; it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    // <key>.o and leftovers <key>.o.tmp-* of interrupted writes.
    if (isKeyName(name.take_front(64)) && name.drop_front(64).starts_with(".o"))
      doomed.push_back(it->path());
  }
  for (const std::string &path : doomed)
    llvm::sys::fs::remove(path);
}
