//===- Npy.cpp - NumPy .npy files for interpreter tensors -----------------===//
//
// The subset of the .npy format that NumPy writes for C-ordered arrays of
// the adj element types: a magic string, a version, a Python-dict header
// ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }) padded to 64
// bytes, and the raw little-endian data.
//
//===----------------------------------------------------------------------===//

#include "adjoint/Interpreter/Npy.h"
#include "adjoint/Support/CheckedSize.h"
#include "Detail.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <bit>
#include <cstring>

using namespace adjoint;
using namespace adjoint::interp;
using namespace adjoint::interp::detail;

static_assert(std::endian::native == std::endian::little,
              ".npy data is read and written as little-endian");

static constexpr char kMagic[] = "\x93NUMPY";

/// The value of `key` in the header dict, up to the next `,` or `)`.
static std::string headerField(llvm::StringRef header, llvm::StringRef key,
                               llvm::StringRef what) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == llvm::StringRef::npos)
    throw Error(what.str() + ": the .npy header has no '" + key.str() + "'");
  llvm::StringRef rest = header.drop_front(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    throw Error(what.str() + ": malformed .npy header");
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == llvm::StringRef::npos)
      throw Error(what.str() + ": malformed .npy header");
    return rest.take_front(close + 1).str();
  }
  if (rest.starts_with("'")) {
    size_t close = rest.find('\'', 1);
    if (close == llvm::StringRef::npos)
      throw Error(what.str() + ": malformed .npy header");
    return rest.slice(1, close).str();
  }
  return rest.take_until([](char c) { return c == ',' || c == '}'; })
      .trim()
      .str();
}

Tensor interp::parseNpy(llvm::StringRef bytes, llvm::StringRef what) {
  if (!bytes.starts_with(llvm::StringRef(kMagic, 6)) || bytes.size() < 10)
    throw Error(what.str() + ": not a .npy file");
  uint8_t major = bytes[6];
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = uint8_t(bytes[8]) | (uint8_t(bytes[9]) << 8);
    offset = 10;
  } else if ((major == 2 || major == 3) && bytes.size() >= 12) {
    headerLen = uint32_t(uint8_t(bytes[8])) | uint32_t(uint8_t(bytes[9])) << 8 |
                uint32_t(uint8_t(bytes[10])) << 16 |
                uint32_t(uint8_t(bytes[11])) << 24;
    offset = 12;
  } else {
    throw Error(what.str() + ": unsupported .npy version " +
                std::to_string(major));
  }
  if (bytes.size() < offset + headerLen)
    throw Error(what.str() + ": truncated .npy header");
  llvm::StringRef header = bytes.substr(offset, headerLen);
  std::string descr = headerField(header, "descr", what);
  std::string order = headerField(header, "fortran_order", what);
  std::string shapeText = headerField(header, "shape", what);
  if (order != "False")
    throw Error(what.str() + ": Fortran-ordered .npy data is not supported");
  DType dtype;
  if (descr == "<f8")
    dtype = DType::F64;
  else if (descr == "<f4")
    dtype = DType::F32;
  else if (descr == "<f2")
    dtype = DType::F16;
  else if (descr == "<i8")
    dtype = DType::I64;
  else if (descr == "<i4")
    dtype = DType::I32;
  else if (descr == "|b1")
    dtype = DType::I1;
  else if (descr == "<c8")
    dtype = DType::C64;
  else if (descr == "<c16")
    dtype = DType::C128;
  else
    throw Error(what.str() + ": unsupported .npy element type '" + descr +
                "' (supported: <f8 <f4 <f2 <i8 <i4 |b1 <c8 <c16)");
  std::vector<int64_t> shape;
  llvm::StringRef dims = llvm::StringRef(shapeText).drop_front().drop_back();
  while (!dims.trim().empty()) {
    auto [dim, rest] = dims.split(',');
    int64_t d;
    if (dim.trim().getAsInteger(10, d) || d < 0)
      throw Error(what.str() + ": malformed .npy shape " + shapeText);
    shape.push_back(d);
    dims = rest;
  }
  // Check the size the header claims against the data before allocating
  // it: a few bytes of header must not make a huge allocation.
  std::optional<int64_t> size =
      checkedTensorBytes(shape, static_cast<int64_t>(dtypeSize(dtype)));
  if (!size)
    throw Error(what.str() + ": the .npy shape " + shapeText +
                " is too large: its element count or byte size does not fit "
                "in 64 bits");
  llvm::StringRef data = bytes.drop_front(offset + headerLen);
  if (data.size() < static_cast<uint64_t>(*size))
    throw Error(what.str() + ": truncated .npy data: " +
                std::to_string(data.size()) + " bytes for a " + shapeText +
                " " + dtypeName(dtype) + " array (" + std::to_string(*size) +
                " bytes)");
  Tensor tensor(dtype, shape);
  std::memcpy(tensor.mutableData(), data.data(), tensor.byteSize());
  if (dtype == DType::I1)
    for (int64_t i = 0; i < tensor.numel(); ++i)
      static_cast<uint8_t *>(tensor.mutableData())[i] =
          static_cast<const uint8_t *>(tensor.data())[i] != 0;
  return tensor;
}

Tensor interp::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    throw Error("cannot read '" + path.str() +
                "': " + buffer.getError().message());
  return parseNpy((*buffer)->getBuffer(), path);
}

std::string interp::serializeNpy(const Tensor &tensor) {
  Tensor data = tensor;
  const char *descr;
  switch (tensor.dtype()) {
  case DType::F64:
    descr = "<f8";
    break;
  case DType::F32:
    descr = "<f4";
    break;
  case DType::F16:
    descr = "<f2";
    break;
  case DType::BF16: // No type code: widen exactly to f32.
    descr = "<f4";
    data = Tensor::fromDoubles(DType::F32, tensor.shape(), tensor.toDoubles());
    break;
  case DType::I64:
    descr = "<i8";
    break;
  case DType::I32:
    descr = "<i4";
    break;
  case DType::I1:
    descr = "|b1";
    break;
  case DType::C64:
    descr = "<c8";
    break;
  case DType::C128:
    descr = "<c16";
    break;
  }
  std::string shape = "(";
  for (int64_t d : tensor.shape())
    shape += std::to_string(d) + (tensor.rank() == 1 ? ",)" : ", ");
  if (tensor.rank() != 1) {
    if (tensor.rank() > 1)
      shape.resize(shape.size() - 2);
    shape += ")";
  }
  std::string header = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic, 6);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(static_cast<const char *>(data.data()), data.byteSize());
  return out;
}

void interp::writeNpy(llvm::StringRef path, const Tensor &tensor) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    throw Error("cannot write '" + path.str() + "': " + ec.message());
  os << serializeNpy(tensor);
  os.close();
  if (os.has_error())
    throw Error("cannot write '" + path.str() + "'");
}
