//===- Signature.cpp - The tensors a compiled function takes --------------===//

#include "adjoint/Runtime/Signature.h"
#include "adjoint/Support/CheckedSize.h"

#include <sstream>

using namespace adjoint;
using namespace adjoint::rt;

namespace {
void print(std::string &out, const std::vector<TensorSpec> &specs) {
  for (const TensorSpec &spec : specs) {
    out += dtypeName(spec.dtype);
    out += '[';
    for (size_t i = 0; i < spec.shape.size(); ++i) {
      if (i)
        out += ',';
      out += std::to_string(spec.shape[i]);
    }
    out += spec.donated ? "]! " : "] ";
  }
}

/// Parses "f32[2,3]" into `spec`.
bool parseSpec(const std::string &word, TensorSpec &spec) {
  size_t open = word.find('[');
  if (open == std::string::npos || word.back() != ']')
    return false;
  std::optional<DType> dtype = parseDType(word.substr(0, open));
  if (!dtype)
    return false;
  spec.dtype = *dtype;
  spec.shape.clear();
  std::string dims = word.substr(open + 1, word.size() - open - 2);
  if (dims.empty())
    return true;
  if (dims.back() == ',')
    return false;
  std::stringstream stream(dims);
  std::string dim;
  while (std::getline(stream, dim, ',')) {
    if (dim.empty() || dim.size() > 18 ||
        dim.find_first_not_of("0123456789") != std::string::npos)
      return false;
    spec.shape.push_back(std::stoll(dim));
  }
  // Compiled code indexes with int64_t: a larger tensor is no valid spec.
  return adjoint::checkedTensorBytes(spec.shape,
                            static_cast<int64_t>(dtypeSize(spec.dtype)))
      .has_value();
}
} // namespace

std::string Signature::serialize() const {
  std::string out;
  print(out, inputs);
  out += "->";
  if (!outputs.empty())
    out += ' ';
  print(out, outputs);
  if (!outputs.empty())
    out.pop_back();
  return out;
}

std::optional<Signature> Signature::parse(const std::string &text) {
  Signature sig;
  std::stringstream stream(text);
  std::string word;
  bool seenArrow = false;
  while (stream >> word) {
    if (word == "->") {
      if (seenArrow)
        return std::nullopt;
      seenArrow = true;
      continue;
    }
    TensorSpec spec;
    // Only inputs are donated.
    if (!seenArrow && word.size() > 1 && word.back() == '!') {
      spec.donated = true;
      word.pop_back();
    }
    if (!parseSpec(word, spec))
      return std::nullopt;
    (seenArrow ? sig.outputs : sig.inputs).push_back(std::move(spec));
  }
  if (!seenArrow)
    return std::nullopt;
  return sig;
}
