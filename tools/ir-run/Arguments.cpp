//===- Arguments.cpp - Command-line arguments of ir-run -------------------===//
//
// Literals are JSON-like nested lists of numbers (true/false, nan and inf
// included). They are converted to the declared element type as adj.cast
// would; integers are read exactly, not through double.
//
//===----------------------------------------------------------------------===//

#include "Arguments.h"

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/Shapes.h"
#include "adjoint/Interpreter/Npy.h"
#include "adjoint/Support/Error.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace adjoint;
using namespace adjoint::interp;

static std::string typeText(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

namespace {
/// A parsed literal: its shape and its elements in row-major order.
struct Literal {
  std::vector<int64_t> shape;
  std::vector<std::string> tokens;
};

/// Recursive descent over `[...]` lists. The nesting depth is the tensor's
/// rank: it is capped, because a command-line argument (or a response file)
/// can hold enough '[' to overflow the stack.
class LiteralParser {
public:
  explicit LiteralParser(llvm::StringRef text) : text_(text) {}

  Literal parse() {
    Literal lit;
    parseValue(lit, 0);
    skipSpace();
    if (!text_.empty())
      error("unexpected '" + text_.take_front(10).str() + "'");
    lit.shape = shape_;
    return lit;
  }

private:
  [[noreturn]] void error(const std::string &message) {
    throw Error("malformed literal: " + message);
  }
  void skipSpace() { text_ = text_.ltrim(); }

  static constexpr size_t kMaxRank = 1024;

  void parseValue(Literal &lit, size_t depth) {
    skipSpace();
    if (text_.consume_front("[")) {
      if (depth >= kMaxRank)
        error("lists nested deeper than " + std::to_string(kMaxRank) +
              " levels");
      int64_t count = 0;
      skipSpace();
      if (!text_.consume_front("]")) {
        for (;;) {
          parseValue(lit, depth + 1);
          ++count;
          skipSpace();
          if (text_.consume_front("]"))
            break;
          if (!text_.consume_front(","))
            error("expected ',' or ']'");
        }
      }
      recordDim(depth, count);
      return;
    }
    size_t len = text_.find_first_of(",] \t\n[");
    llvm::StringRef token = text_.take_front(len);
    if (token.empty())
      error("expected a number");
    text_ = text_.drop_front(token.size());
    recordDim(depth, -1);
    lit.tokens.push_back(token.str());
  }

  /// Checks that lists at one depth all have the same length (and that
  /// scalars appear only at the innermost depth).
  void recordDim(size_t depth, int64_t count) {
    if (count < 0) { // A scalar: the nesting ends at this depth.
      if (leafDepth_ < 0)
        leafDepth_ = depth;
      else if (leafDepth_ != static_cast<int64_t>(depth))
        error("ragged nesting");
      return;
    }
    if (leafDepth_ >= 0 && static_cast<int64_t>(depth) >= leafDepth_)
      error("ragged nesting");
    if (shape_.size() <= depth)
      shape_.resize(depth + 1, -1);
    if (shape_[depth] < 0)
      shape_[depth] = count;
    else if (shape_[depth] != count)
      error("ragged nesting: lists of " + std::to_string(shape_[depth]) +
            " and " + std::to_string(count) + " elements at depth " +
            std::to_string(depth));
  }

  llvm::StringRef text_;
  std::vector<int64_t> shape_;
  int64_t leafDepth_ = -1;
};
} // namespace

/// Parses one literal token as a double (for float types).
static double tokenToDouble(const std::string &token) {
  if (token == "true")
    return 1;
  if (token == "false")
    return 0;
  char *end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  if (end == token.c_str() || *end)
    throw Error("malformed literal: '" + token + "' is not a number");
  return v;
}

/// Parses one literal token exactly as an integer (for integer types);
/// floats are truncated toward zero as adj.cast does.
static int64_t tokenToInt(const std::string &token) {
  if (token == "true")
    return 1;
  if (token == "false")
    return 0;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(token.c_str(), &end, 10);
  if (!*end && end != token.c_str() && errno == 0)
    return v;
  double d = tokenToDouble(token);
  if (std::isnan(d) || d >= 0x1p63 || d < -0x1p63)
    throw Error("literal '" + token + "' does not fit an integer");
  return static_cast<int64_t>(d);
}

/// The element type a literal gets for an untyped parameter.
static DType literalDType(const Literal &lit) {
  bool allBool = !lit.tokens.empty(), allInt = true;
  for (const std::string &t : lit.tokens) {
    allBool = allBool && (t == "true" || t == "false");
    char *end = nullptr;
    std::strtoll(t.c_str(), &end, 10);
    allInt = allInt && !*end && end != t.c_str();
  }
  return allBool ? DType::I1 : allInt ? DType::I64 : DType::F32;
}

static Tensor literalTensor(const Literal &lit, DType dtype) {
  const std::vector<int64_t> &shape = lit.shape;
  if (isFloat(dtype)) {
    std::vector<double> values;
    for (const std::string &t : lit.tokens)
      values.push_back(tokenToDouble(t));
    return Tensor::fromDoubles(dtype, shape, values);
  }
  Tensor out(dtype, shape);
  for (size_t i = 0; i < lit.tokens.size(); ++i) {
    int64_t v = tokenToInt(lit.tokens[i]);
    auto *p = static_cast<uint8_t *>(out.mutableData());
    switch (dtype) {
    case DType::I64:
      std::memcpy(p + 8 * i, &v, 8);
      break;
    case DType::I32: {
      auto w = static_cast<int32_t>(v);
      std::memcpy(p + 4 * i, &w, 4);
      break;
    }
    default:
      p[i] = v != 0;
    }
  }
  return out;
}

/// Converts `t` to the element type of `type` and checks its shape.
static Tensor conform(Tensor t, RankedTensorType type) {
  DType dtype = dtypeOf(type.getElementType());
  bool ok = t.rank() == type.getRank();
  for (int64_t d = 0; ok && d < t.rank(); ++d)
    ok = type.isDynamicDim(d) || type.getDimSize(d) == t.shape()[d];
  if (!ok)
    throw Error("shape mismatch: got " + adj::formatShape(t.shape()) +
                ", the parameter is " + typeText(type));
  if (t.dtype() != dtype)
    t = Tensor::fromDoubles(dtype, t.shape(), t.toDoubles());
  return t;
}

/// "seed=7,low=-1,high=1" -> values by key (with defaults already set).
/// The seed is read exactly as an int64_t (a double would round seeds above
/// 2^53, and converting 1e30 or nan to an integer is undefined).
static void parseOptions(llvm::StringRef text,
                         std::map<std::string, double> &options,
                         int64_t &seed) {
  while (!text.empty()) {
    auto [item, rest] = text.split(',');
    auto [key, value] = item.split('=');
    text = rest;
    if (key == "seed") {
      if (value.trim().getAsInteger(10, seed))
        throw Error("malformed random option '" + item.str() +
                    "': a seed is an integer in [-2^63, 2^63)");
      continue;
    }
    if (!options.count(key.str()))
      throw Error("unknown random option '" + key.str() + "'");
    double v;
    if (value.getAsDouble(v))
      throw Error("malformed random option '" + item.str() + "'");
    options[key.str()] = v;
  }
}

interp::Value irrun::parseArgument(llvm::StringRef text, Type type) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType && !isa<adj::AnyType>(type))
    throw Error("parameters of type " + typeText(type) +
                " cannot be given on the command line");
  if (text.starts_with("@")) {
    Tensor t = readNpy(text.drop_front());
    return tensorType ? conform(std::move(t), tensorType) : t;
  }
  bool uniform = text.starts_with("rand:"), normal = text.starts_with("randn:");
  if (uniform || normal) {
    if (!tensorType || !tensorType.hasStaticShape())
      throw Error("random arguments need a parameter with a static shape, "
                  "got " + typeText(type));
    std::map<std::string, double> options =
        uniform ? std::map<std::string, double>{{"low", 0}, {"high", 1}}
                : std::map<std::string, double>{{"mean", 0}, {"std", 1}};
    int64_t seed = 0;
    parseOptions(text.drop_front(uniform ? 5 : 6), options, seed);
    DType dtype = dtypeOf(tensorType.getElementType());
    std::vector<int64_t> shape(tensorType.getShape().begin(),
                               tensorType.getShape().end());
    return uniform ? randomUniform(dtype, shape, seed, options["low"],
                                   options["high"])
                   : randomNormal(dtype, shape, seed, options["mean"],
                                  options["std"]);
  }
  Literal lit = LiteralParser(text).parse();
  DType dtype = tensorType ? dtypeOf(tensorType.getElementType())
                           : literalDType(lit);
  Tensor t = literalTensor(lit, dtype);
  return tensorType ? conform(std::move(t), tensorType) : t;
}
