//===- FakeStreamDriver.cpp - A stream driver on host memory --------------===//

#include "FakeStreamDriver.h"

#include <cstdlib>
#include <cstring>

namespace {
int gStream;

struct Event {
  bool recorded = false;
  double time = 0;
};

std::map<uintptr_t, size_t> &deviceBlocks() {
  static std::map<uintptr_t, size_t> blocks;
  return blocks;
}
std::map<uintptr_t, size_t> &pinnedBlocks() {
  static std::map<uintptr_t, size_t> blocks;
  return blocks;
}
const char *side(const void *host) {
  return fake::isPinned(host) ? "pinned" : "pageable";
}
bool valid(const void *stream) { return stream == &gStream; }
} // namespace

FakeStreamJournal &fake::journal() {
  static FakeStreamJournal instance;
  return instance;
}

void *fake::stream() { return &gStream; }

fake::Result fake::allocateDevice(size_t bytes, void **ptr) {
  FakeStreamJournal &j = journal();
  if (bytes == 0)
    return InvalidValue;
  if (j.liveDeviceBytes + bytes > j.memoryLimit)
    return OutOfMemory;
  *ptr = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!*ptr)
    return OutOfMemory;
  deviceBlocks()[reinterpret_cast<uintptr_t>(*ptr)] = bytes;
  j.liveDeviceBytes += bytes;
  ++j.deviceAllocations;
  return Success;
}

fake::Result fake::freeDevice(void *ptr) {
  auto it = deviceBlocks().find(reinterpret_cast<uintptr_t>(ptr));
  if (it == deviceBlocks().end())
    return InvalidValue;
  journal().liveDeviceBytes -= it->second;
  ++journal().deviceFrees;
  deviceBlocks().erase(it);
  std::free(ptr);
  return Success;
}

fake::Result fake::allocatePinned(size_t bytes, void **ptr) {
  *ptr = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (!*ptr)
    return OutOfMemory;
  pinnedBlocks()[reinterpret_cast<uintptr_t>(*ptr)] = bytes;
  ++journal().pinnedAllocations;
  return Success;
}

fake::Result fake::freePinned(void *ptr) {
  if (!pinnedBlocks().erase(reinterpret_cast<uintptr_t>(ptr)))
    return InvalidValue;
  ++journal().pinnedFrees;
  std::free(ptr);
  return Success;
}

bool fake::isPinned(const void *host) {
  auto address = reinterpret_cast<uintptr_t>(host);
  auto it = pinnedBlocks().upper_bound(address);
  if (it == pinnedBlocks().begin())
    return false;
  --it;
  return address < it->first + it->second;
}

fake::Result fake::copy(Copy kind, void *dst, const void *src, size_t bytes,
                        const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  std::memmove(dst, src, bytes);
  std::string size = std::to_string(bytes);
  journal().stream.push_back(
      kind == Copy::HtoD   ? "HtoD " + size + " " + side(src)
      : kind == Copy::DtoH ? "DtoH " + size + " " + side(dst)
                           : "DtoD " + size);
  return Success;
}

fake::Result fake::fill(void *dst, unsigned char value, size_t bytes,
                        const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  std::memset(dst, value, bytes);
  journal().stream.push_back("memset " + std::to_string(bytes) + " " +
                             std::to_string(value));
  return Success;
}

fake::Result fake::synchronize(const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  ++journal().streamSyncs;
  return Success;
}

fake::Result fake::launch(const Function &function, const unsigned grid[3],
                          const unsigned block[3], unsigned sharedBytes,
                          const void *stream, void **params, void **extra) {
  if (!valid(stream) || extra)
    return InvalidHandle;
  if (uint64_t(block[0]) * block[1] * block[2] > 1024 ||
      sharedBytes > function.sharedLimit ||
      (!function.params.empty() && !params))
    return InvalidValue;
  FakeLaunch launch{function.name,
                    {grid[0], grid[1], grid[2]},
                    {block[0], block[1], block[2]},
                    sharedBytes,
                    {}};
  for (size_t i = 0; i < function.params.size(); ++i)
    launch.args.emplace_back(static_cast<const char *>(params[i]),
                             function.params[i]);
  FakeStreamJournal &j = journal();
  j.launches.push_back(std::move(launch));
  j.stream.push_back("launch " + function.name);
  j.clockMs += j.launchMs;
  return Success;
}

fake::Result fake::createEvent(void **event) {
  *event = new Event;
  return Success;
}

fake::Result fake::recordEvent(void *event, const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  auto *e = static_cast<Event *>(event);
  e->recorded = true;
  e->time = journal().clockMs;
  journal().stream.push_back("event " + std::to_string(e->time));
  return Success;
}

fake::Result fake::elapsed(float *milliseconds, void *start, void *end) {
  auto *a = static_cast<Event *>(start);
  auto *b = static_cast<Event *>(end);
  if (!a->recorded || !b->recorded)
    return InvalidHandle;
  *milliseconds = static_cast<float>(b->time - a->time);
  return Success;
}

void fake::destroyEvent(void *event) { delete static_cast<Event *>(event); }
