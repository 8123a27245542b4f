//===- FakeStreamDriver.cpp - A stream driver on host memory --------------===//

#include "FakeStreamDriver.h"

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>

namespace {
int gStream;

/// A node of a graph: what it runs, and its shape (the kind of work and
/// its size) for updates.
struct Node {
  std::string shape;
  std::function<void()> run;
};
struct Graph {
  std::vector<Node> nodes;
};
/// The graph being captured (null when the stream is not capturing), and
/// whether something invalidated it.
std::unique_ptr<Graph> gCapture;
bool gInvalidated = false;

/// Runs `work` now, or adds it to the graph being captured.
fake::Result onStream(std::string shape, std::function<void()> work) {
  if (gCapture)
    gCapture->nodes.push_back({std::move(shape), std::move(work)});
  else
    work();
  return fake::Success;
}

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
  std::string size = std::to_string(bytes);
  std::string entry = kind == Copy::HtoD   ? "HtoD " + size + " " + side(src)
                      : kind == Copy::DtoH ? "DtoH " + size + " " + side(dst)
                                           : "DtoD " + size;
  return onStream(entry, [=] {
    std::memmove(dst, src, bytes);
    journal().stream.push_back(entry);
  });
}

fake::Result fake::fill(void *dst, unsigned char value, size_t bytes,
                        const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  return onStream("memset " + std::to_string(bytes), [=] {
    std::memset(dst, value, bytes);
    journal().stream.push_back("memset " + std::to_string(bytes) + " " +
                               std::to_string(value));
  });
}

fake::Result fake::synchronize(const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  if (gCapture) {
    gInvalidated = true;
    return StreamCaptureUnsupported;
  }
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
  return onStream("launch " + function.name, [launch] {
    FakeStreamJournal &j = journal();
    j.launches.push_back(launch);
    j.stream.push_back("launch " + launch.function);
    j.clockMs += j.launchMs;
  });
}

fake::Result fake::beginCapture(const void *stream, int mode) {
  if (!valid(stream) || gCapture || mode < 0 || mode > 2)
    return InvalidValue;
  gCapture = std::make_unique<Graph>();
  gInvalidated = journal().refuseCapture;
  return Success;
}

fake::Result fake::endCapture(const void *stream, void **graph) {
  if (!valid(stream) || !gCapture)
    return InvalidValue;
  std::unique_ptr<Graph> captured = std::move(gCapture);
  *graph = nullptr;
  if (gInvalidated)
    return StreamCaptureInvalidated;
  ++journal().graphCaptures;
  ++journal().liveGraphs;
  *graph = captured.release();
  return Success;
}

fake::Result fake::instantiate(void **exec, void *graph) {
  if (!graph)
    return InvalidValue;
  *exec = new Graph(*static_cast<Graph *>(graph));
  ++journal().graphInstantiations;
  ++journal().liveGraphExecs;
  return Success;
}

fake::Result fake::update(void *exec, void *graph) {
  auto &to = static_cast<Graph *>(exec)->nodes;
  const auto &from = static_cast<Graph *>(graph)->nodes;
  if (to.size() != from.size())
    return GraphExecUpdateFailure;
  for (size_t i = 0; i < to.size(); ++i)
    if (to[i].shape != from[i].shape)
      return GraphExecUpdateFailure;
  to = from;
  ++journal().graphUpdates;
  return Success;
}

fake::Result fake::launchGraph(void *exec, const void *stream) {
  if (!valid(stream) || !exec)
    return InvalidHandle;
  // Runs at once (a graph launch is not captured here).
  const auto &nodes = static_cast<Graph *>(exec)->nodes;
  ++journal().graphLaunches;
  journal().stream.push_back("graph " + std::to_string(nodes.size()));
  for (const Node &node : nodes)
    node.run();
  return Success;
}

fake::Result fake::destroyGraph(void *graph) {
  delete static_cast<Graph *>(graph);
  --journal().liveGraphs;
  return Success;
}

fake::Result fake::destroyExec(void *exec) {
  delete static_cast<Graph *>(exec);
  --journal().liveGraphExecs;
  return Success;
}

fake::Result fake::hostWork(const void *stream, void (*fn)(void *),
                            void *data) {
  if (!valid(stream) || !fn)
    return InvalidValue;
  return onStream("host", [fn, data] { fn(data); });
}

fake::Result fake::createEvent(void **event) {
  *event = new Event;
  return Success;
}

fake::Result fake::recordEvent(void *event, const void *stream) {
  if (!valid(stream))
    return InvalidHandle;
  if (gCapture) {
    gInvalidated = true;
    return StreamCaptureUnsupported;
  }
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
