//===- KernelMetadata.cpp - Kernel arguments of an AMD code object --------===//

#include "HIP/KernelMetadata.h"

#include <cstring>

using namespace adjoint::rt;
using namespace adjoint::rt::hip;

namespace {
constexpr uint32_t kSectionNote = 7;        // SHT_NOTE
constexpr uint32_t kNoteAmdgpuMetadata = 32; // NT_AMDGPU_METADATA
/// Nesting the metadata never reaches; deeper input is malformed.
constexpr int kMaxDepth = 16;

/// A MessagePack value: the subset the code object metadata uses.
struct Msg {
  enum Kind { Nil, Bool, Int, Str, Array, Map } kind = Nil;
  uint64_t number = 0;
  std::string text;
  /// Array elements, or a map's keys and values alternating.
  std::vector<Msg> items;

  const Msg *get(const std::string &key) const {
    for (size_t i = 0; kind == Map && i + 1 < items.size(); i += 2)
      if (items[i].kind == Str && items[i].text == key)
        return &items[i + 1];
    return nullptr;
  }
};

class MsgReader {
public:
  MsgReader(const unsigned char *data, size_t size)
      : p_(data), end_(data + size) {}

  bool read(Msg &out, int depth = 0) {
    if (p_ >= end_ || depth > kMaxDepth)
      return false;
    unsigned char tag = *p_++;
    if (tag <= 0x7f || tag >= 0xe0) { // positive or negative fixint
      out.kind = Msg::Int;
      out.number = tag;
      return true;
    }
    if ((tag & 0xf0) == 0x80)
      return container(out, Msg::Map, tag & 0x0f, depth);
    if ((tag & 0xf0) == 0x90)
      return container(out, Msg::Array, tag & 0x0f, depth);
    if ((tag & 0xe0) == 0xa0)
      return string(out, tag & 0x1f);
    uint64_t n = 0;
    switch (tag) {
    case 0xc0:
      out.kind = Msg::Nil;
      return true;
    case 0xc2:
    case 0xc3:
      out.kind = Msg::Bool;
      out.number = tag == 0xc3;
      return true;
    case 0xcc: // uint8
    case 0xd0: // int8
      return integer(out, 1);
    case 0xcd:
    case 0xd1:
      return integer(out, 2);
    case 0xce:
    case 0xd2:
      return integer(out, 4);
    case 0xcf:
    case 0xd3:
      return integer(out, 8);
    case 0xd9: // str8
      return big(1, n) && string(out, n);
    case 0xda:
      return big(2, n) && string(out, n);
    case 0xdb:
      return big(4, n) && string(out, n);
    case 0xdc: // array16
      return big(2, n) && container(out, Msg::Array, n, depth);
    case 0xdd:
      return big(4, n) && container(out, Msg::Array, n, depth);
    case 0xde: // map16
      return big(2, n) && container(out, Msg::Map, n, depth);
    case 0xdf:
      return big(4, n) && container(out, Msg::Map, n, depth);
    default:
      return false;
    }
  }

private:
  /// A big-endian unsigned integer of `bytes`.
  bool big(size_t bytes, uint64_t &value) {
    if (size_t(end_ - p_) < bytes)
      return false;
    value = 0;
    for (size_t i = 0; i < bytes; ++i)
      value = value << 8 | *p_++;
    return true;
  }
  bool integer(Msg &out, size_t bytes) {
    out.kind = Msg::Int;
    return big(bytes, out.number);
  }
  bool string(Msg &out, uint64_t n) {
    if (uint64_t(end_ - p_) < n)
      return false;
    out.kind = Msg::Str;
    out.text.assign(reinterpret_cast<const char *>(p_), n);
    p_ += n;
    return true;
  }
  bool container(Msg &out, Msg::Kind kind, uint64_t n, int depth) {
    out.kind = kind;
    uint64_t count = kind == Msg::Map ? 2 * n : n;
    // Every item takes a byte at least: a count past the end is malformed.
    if (count > uint64_t(end_ - p_))
      return false;
    out.items.resize(count);
    for (Msg &item : out.items)
      if (!read(item, depth + 1))
        return false;
    return true;
  }

  const unsigned char *p_, *end_;
};

/// The kernels of one amdhsa.kernels list; false when it is malformed.
bool collect(const Msg &kernels, KernelArguments &out) {
  if (kernels.kind != Msg::Array)
    return false;
  for (const Msg &kernel : kernels.items) {
    const Msg *name = kernel.get(".name");
    const Msg *args = kernel.get(".args");
    if (!name || name->kind != Msg::Str)
      return false;
    std::vector<uint32_t> &sizes = out[name->text];
    if (!args)
      continue; // a kernel without arguments
    if (args->kind != Msg::Array)
      return false;
    for (const Msg &arg : args->items) {
      const Msg *kind = arg.get(".value_kind");
      const Msg *size = arg.get(".size");
      if (!kind || kind->kind != Msg::Str || !size || size->kind != Msg::Int)
        return false;
      if (kind->text.rfind("hidden_", 0) != 0)
        sizes.push_back(static_cast<uint32_t>(size->number));
    }
  }
  return true;
}
} // namespace

Status adjoint::rt::hip::readKernelArguments(const void *data, size_t size,
                                             const std::string &module,
                                             KernelArguments *kernels) {
  const auto *elf = static_cast<const unsigned char *>(data);
  auto invalid = [&](const std::string &why) {
    return Status::error(StatusCode::InvalidArgument,
                         "module " + module + ": " + why);
  };
  auto read = [&](uint64_t at, size_t n) {
    uint64_t value = 0;
    if (at <= size && n <= size - at)
      std::memcpy(&value, elf + at, n);
    return value;
  };
  // ELF64 section headers: type at 4, offset at 24, size at 32.
  uint64_t table = read(40, 8), entry = read(58, 2), count = read(60, 2);
  bool found = false;
  for (uint64_t s = 0; s < count; ++s) {
    uint64_t header = table + s * entry;
    if (read(header + 4, 4) != kSectionNote)
      continue;
    uint64_t at = read(header + 24, 8), bytes = read(header + 32, 8);
    if (at > size || bytes > size - at)
      return invalid("a note section past the end of the code object");
    uint64_t end = at + bytes;
    auto align4 = [](uint64_t n) { return (n + 3) / 4 * 4; };
    // Notes: name size, descriptor size, type, then both, 4-aligned.
    while (at + 12 <= end) {
      uint64_t nameBytes = read(at, 4), descBytes = read(at + 4, 4),
               type = read(at + 8, 4);
      uint64_t name = at + 12, desc = name + align4(nameBytes);
      if (desc > end || descBytes > end - desc)
        return invalid("a note past the end of its section");
      at = desc + align4(descBytes);
      if (type != kNoteAmdgpuMetadata || nameBytes != 7 ||
          std::memcmp(elf + name, "AMDGPU", 7) != 0)
        continue;
      Msg metadata;
      const Msg *list = nullptr;
      if (!MsgReader(elf + desc, descBytes).read(metadata) ||
          !(list = metadata.get("amdhsa.kernels")) ||
          !collect(*list, *kernels))
        return invalid("malformed amdhsa.kernels metadata");
      found = true;
    }
  }
  if (!found)
    return invalid("no amdhsa.kernels metadata (code object v3 or later "
                   "has it)");
  return Status::success();
}
