//===- MergeFatbins.cpp - One fatbin per gpu.binary -----------------------===//
//
// A CUDA fatbin is a container: a 16-byte header (magic 0xBA55ED50, a
// version, the header's size, the size of what follows) and entries, each
// a header of its own (kind 1 for PTX, 2 for a cubin; its header size and
// payload size; at byte 28 the SM number) followed by its payload, padded
// by fatbinary. Entries are self-contained, so merging containers is
// copying entries and writing a new header; nothing is decompressed.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Codegen/NVIDIA/Passes.h"

#include "llvm/Support/Endian.h"

namespace adjoint::nvidia {
#define GEN_PASS_DEF_MERGEFATBINS
#include "adjoint/Codegen/NVIDIA/Passes.h.inc"
} // namespace adjoint::nvidia

using namespace mlir;
namespace endian = llvm::support::endian;

namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr size_t kContainerHeader = 16;
constexpr size_t kEntryArchOffset = 28;
constexpr uint16_t kPTXEntry = 1;

struct Entry {
  uint16_t kind;
  uint32_t arch;
  StringRef bytes; // header and payload
};

/// The entries of the fatbin `data`, or an error on `op` saying what is
/// wrong with it.
FailureOr<SmallVector<Entry>> entriesOf(StringRef data, Operation *op) {
  auto malformed = [&](const Twine &why) {
    return op->emitError("not a CUDA fatbin: ") << why;
  };
  if (data.size() < kContainerHeader ||
      endian::read32le(data.data()) != kFatbinMagic)
    return malformed("no fatbin header");
  uint16_t header = endian::read16le(data.data() + 6);
  uint64_t total = endian::read64le(data.data() + 8);
  if (header < kContainerHeader || header > data.size() ||
      total > data.size() - header)
    return malformed("its sizes exceed its " + Twine(data.size()) +
                     " bytes");
  SmallVector<Entry> entries;
  size_t end = header + total;
  for (size_t at = header; at < end;) {
    if (end - at < kEntryArchOffset + 4)
      return malformed("a truncated entry at byte " + Twine(at));
    const char *p = data.data() + at;
    uint32_t entryHeader = endian::read32le(p + 4);
    uint64_t payload = endian::read64le(p + 8);
    if (entryHeader < kEntryArchOffset + 4 || entryHeader > end - at ||
        payload > end - at - entryHeader)
      return malformed("an entry at byte " + Twine(at) +
                       " overruns the container");
    entries.push_back({endian::read16le(p),
                       endian::read32le(p + kEntryArchOffset),
                       data.substr(at, entryHeader + payload)});
    at += entryHeader + payload;
  }
  return entries;
}

/// Every cubin of `fatbins` and the PTX of the lowest SM, in one container
/// with the first one's header.
FailureOr<std::string> merge(ArrayRef<StringRef> fatbins, Operation *op) {
  SmallVector<Entry> kept;
  std::optional<Entry> ptx;
  for (StringRef fatbin : fatbins) {
    FailureOr<SmallVector<Entry>> entries = entriesOf(fatbin, op);
    if (failed(entries))
      return failure();
    for (const Entry &entry : *entries) {
      if (entry.kind != kPTXEntry)
        kept.push_back(entry);
      else if (!ptx || entry.arch < ptx->arch)
        ptx = entry;
    }
  }
  if (ptx)
    kept.push_back(*ptx);
  uint16_t header = endian::read16le(fatbins.front().data() + 6);
  std::string merged = fatbins.front().take_front(header).str();
  for (const Entry &entry : kept)
    merged += entry.bytes;
  endian::write64le(merged.data() + 8, merged.size() - header);
  return merged;
}

struct MergeFatbins
    : adjoint::nvidia::impl::MergeFatbinsBase<MergeFatbins> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<gpu::ObjectAttr> objects(
          binary.getObjects().getAsRange<gpu::ObjectAttr>());
      bool allFatbins = llvm::all_of(objects, [](gpu::ObjectAttr object) {
        return isa<NVVM::NVVMTargetAttr>(object.getTarget()) &&
               object.getFormat() == gpu::CompilationTarget::Fatbin;
      });
      if (objects.size() < 2 || !allFatbins)
        return WalkResult::advance();
      SmallVector<StringRef> fatbins;
      for (gpu::ObjectAttr object : objects)
        fatbins.push_back(object.getObject().getValue());
      FailureOr<std::string> merged = merge(fatbins, binary);
      if (failed(merged))
        return WalkResult::interrupt();
      // The lowest chip's target: -adj-nvidia-attach-target puts it first.
      auto one = gpu::ObjectAttr::get(
          &getContext(), objects.front().getTarget(),
          gpu::CompilationTarget::Fatbin,
          StringAttr::get(&getContext(), *merged), /*properties=*/nullptr,
          /*kernels=*/nullptr);
      binary.setObjectsAttr(ArrayAttr::get(&getContext(), {one}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
