//===- InferValues.cpp - Abstract values of type inference ----------------===//
//
// Construction, join and keys of the abstract values that -adj-infer
// interprets programs over.
//
//===----------------------------------------------------------------------===//

#include "InferValues.h"

#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/Promotion.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace adjoint::adj;
using namespace adjoint::adj::infer;

static std::string print(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << type;
  return out;
}

/// Producers are identified by their op (or, for opaque ones, their type);
/// the pointer only has to be stable while the pass runs.
static std::string producerKey(const Producer &p) {
  std::string out;
  llvm::raw_string_ostream os(out);
  switch (p.kind) {
  case Producer::Kind::FuncRef:
    os << "r" << static_cast<const void *>(p.op);
    break;
  case Producer::Kind::Lambda:
    os << "l" << static_cast<const void *>(p.op);
    break;
  case Producer::Kind::Request:
    os << "g" << static_cast<const void *>(p.op);
    break;
  case Producer::Kind::Opaque:
    os << "o" << p.type;
    break;
  }
  return out;
}

Abs infer::unknown() {
  static const Abs bottom = [] {
    auto node = std::make_shared<AbsNode>();
    node->key = "?";
    return node;
  }();
  return bottom;
}

Abs infer::leaf(Type type) {
  auto node = std::make_shared<AbsNode>();
  node->kind = AbsNode::Kind::Leaf;
  node->type = type;
  node->key = print(type);
  return node;
}

Abs infer::tuple(ArrayRef<Abs> elements) {
  auto node = std::make_shared<AbsNode>();
  node->kind = AbsNode::Kind::Tuple;
  node->elements.assign(elements.begin(), elements.end());
  node->key = "(" + keyOfList(elements) + ")";
  return node;
}

Abs infer::fn(ArrayRef<Producer> producers) {
  SmallVector<std::pair<std::string, Producer>> keyed;
  for (const Producer &p : producers)
    keyed.push_back({producerKey(p), p});
  llvm::sort(keyed, [](const auto &a, const auto &b) { return a.first < b.first; });
  auto node = std::make_shared<AbsNode>();
  node->kind = AbsNode::Kind::Fn;
  node->key = "{";
  for (auto [i, entry] : llvm::enumerate(keyed)) {
    if (i && keyed[i - 1].first == entry.first)
      continue;
    node->producers.push_back(entry.second);
    node->key += entry.first + ";";
  }
  node->key += "}";
  return node;
}

Abs infer::fromType(Type type) {
  if (isa<AnyType>(type))
    return unknown();
  if (auto t = dyn_cast<TupleType>(type))
    return tuple(fromTypes(t.getTypes()));
  if (isa<FnType>(type))
    return fn(Producer{Producer::Kind::Opaque, nullptr, type});
  return leaf(type);
}

SmallVector<Abs> infer::fromTypes(TypeRange types) {
  SmallVector<Abs> out;
  for (Type t : types)
    out.push_back(fromType(t));
  return out;
}

bool infer::hasUnknown(const Abs &value) {
  if (value->kind == AbsNode::Kind::Unknown)
    return true;
  return llvm::any_of(value->elements,
                      [](const Abs &e) { return hasUnknown(e); });
}

bool infer::hasUnknown(ArrayRef<Abs> values) {
  return llvm::any_of(values, [](const Abs &v) { return hasUnknown(v); });
}

Abs infer::sensitivity(const Abs &value, MLIRContext *ctx) {
  switch (value->kind) {
  case AbsNode::Kind::Unknown:
    return value;
  case AbsNode::Kind::Leaf:
    return leaf(getSensitivityType(value->type));
  case AbsNode::Kind::Fn:
    return leaf(EnvType::get(ctx));
  case AbsNode::Kind::Tuple: {
    SmallVector<Abs> elements;
    for (const Abs &e : value->elements)
      elements.push_back(sensitivity(e, ctx));
    return tuple(elements);
  }
  }
  return value;
}

Abs infer::join(const Abs &lhs, const Abs &rhs) {
  if (lhs->kind == AbsNode::Kind::Unknown)
    return rhs;
  if (rhs->kind == AbsNode::Kind::Unknown)
    return lhs;
  if (lhs->key == rhs->key)
    return lhs;
  if (lhs->kind != rhs->kind)
    return nullptr;
  switch (lhs->kind) {
  case AbsNode::Kind::Leaf: {
    // Tensors promote their dtypes and broadcast their shapes.
    Type joined = joinTypes(lhs->type, rhs->type);
    return joined ? leaf(joined) : nullptr;
  }
  case AbsNode::Kind::Unknown:
    return nullptr;
  case AbsNode::Kind::Fn: {
    SmallVector<Producer> all(lhs->producers);
    llvm::append_range(all, rhs->producers);
    return fn(all);
  }
  case AbsNode::Kind::Tuple: {
    if (lhs->elements.size() != rhs->elements.size())
      return nullptr;
    SmallVector<Abs> elements;
    for (auto [l, r] : llvm::zip(lhs->elements, rhs->elements)) {
      Abs e = join(l, r);
      if (!e)
        return nullptr;
      elements.push_back(e);
    }
    return tuple(elements);
  }
  }
  return nullptr;
}

std::string infer::keyOfList(ArrayRef<Abs> values) {
  std::string out;
  for (auto [i, v] : llvm::enumerate(values))
    out += (i ? ", " : "") + v->key;
  return out;
}

std::string infer::keyOfResults(const std::optional<SmallVector<Abs>> &values) {
  return values ? "[" + keyOfList(*values) + "]" : "?";
}

std::string infer::describe(const Abs &value) {
  switch (value->kind) {
  case AbsNode::Kind::Unknown:
    return "an unknown type";
  case AbsNode::Kind::Leaf:
    return print(value->type);
  case AbsNode::Kind::Fn:
    return "a function value";
  case AbsNode::Kind::Tuple: {
    std::string out = "!adj.tuple<";
    for (auto [i, e] : llvm::enumerate(value->elements))
      out += (i ? ", " : "") + describe(e);
    return out + ">";
  }
  }
  return "?";
}
