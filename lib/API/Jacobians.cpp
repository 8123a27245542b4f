//===- Jacobians.cpp - jacrev, jacfwd and hessian as vmaps ----------------===//
//
// A Jacobian is one vmap over basis vectors, never a loop over them. The
// vjp or jvp request is built inside the mapped closure so that the
// batching transform sees the whole computation: the primal part does not
// depend on the basis vector and stays unbatched (it runs once), only the
// linear part carries the batch.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "adjoint/API/Builder.h"
#include "adjoint/Dialect/Adj/IR/AdjDialect.h"
#include "adjoint/Dialect/Adj/IR/AdjOps.h"

using namespace adjoint;
using namespace adjoint::api;
using namespace adjoint::api::detail;

namespace {

int64_t numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> joined(std::vector<int64_t> a,
                            const std::vector<int64_t> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// The typed function that a Jacobian request differentiates, checked.
adj::FnType checkedType(llvm::StringRef name, const Value &fn) {
  auto type = llvm::dyn_cast<adj::FnType>(fn.mlir().getType());
  if (!type)
    throw Error(name.str() + ": needs a typed function value");
  for (mlir::Type t : type.getInputs())
    if (!llvm::isa<mlir::RankedTensorType>(t))
      throw Error(name.str() + ": the arguments must be tensors");
  for (mlir::Type t : type.getResults())
    if (!llvm::isa<mlir::RankedTensorType>(t))
      throw Error(name.str() + ": the results must be tensors");
  return type;
}

std::vector<int64_t> chosen(llvm::StringRef name, std::vector<int64_t> wrt,
                            size_t numArgs) {
  if (wrt.empty())
    for (size_t i = 0; i < numArgs; ++i)
      wrt.push_back(static_cast<int64_t>(i));
  for (int64_t i : wrt)
    if (i < 0 || i >= static_cast<int64_t>(numArgs))
      throw Error(name.str() + ": wrt index " + std::to_string(i) +
                  " is out of range for " + std::to_string(numArgs) +
                  " arguments");
  return wrt;
}

/// eye(n) cut into one batch of basis vectors per tensor type of `like`:
/// entry k takes columns [off_k, off_k + numel_k), shaped [n] + its shape.
std::vector<Value> basis(ModuleState &s, const std::vector<Type> &like,
                         int64_t n) {
  auto iota = [&](int64_t axis) {
    OpSpec spec{"adj.iota"};
    spec.attributes.push_back(
        s.builder.getNamedAttr("axis", s.builder.getI64IntegerAttr(axis)));
    spec.resultTypes = std::vector<mlir::Type>{
        s.mlirType(Type::tensor(DType::I64, {n, n}))};
    return createValue(s, spec);
  };
  Value eye = cmp(Cmp::EQ, iota(0), iota(1));
  std::vector<Value> out;
  int64_t off = 0;
  for (const Type &t : like) {
    int64_t m = numel(t.shape());
    Value part = m == n ? eye : slice(eye, {0, off}, {n, off + m}, {1, 1});
    out.push_back(reshape(cast(part, t.dtype()), joined({n}, t.shape())));
    off += m;
  }
  return out;
}

/// Rows [off, off + m) of `x` reshaped to `shape`.
Value rows(Value x, int64_t off, int64_t m, const std::vector<int64_t> &shape) {
  std::vector<int64_t> full = x.shape();
  if (off != 0 || m != full.front()) {
    std::vector<int64_t> start(full.size(), 0), limit = full;
    start.front() = off;
    limit.front() = off + m;
    x = slice(x, start, limit, std::vector<int64_t>(full.size(), 1));
  }
  return reshape(x, shape);
}

std::vector<Type> typesOf(mlir::TypeRange types) {
  std::vector<Type> out;
  for (mlir::Type t : types)
    out.push_back(Type::fromMLIR(t));
  return out;
}

} // namespace

Value api::jacrev(Value fn, const std::vector<int64_t> &wrtIn) {
  ModuleState &s = stateOf("jacrev", fn);
  adj::FnType type = checkedType("jacrev", fn);
  std::vector<int64_t> wrt = chosen("jacrev", wrtIn, type.getInputs().size());
  std::vector<mlir::Type> inputs(type.getInputs().begin(),
                                 type.getInputs().end());
  std::vector<Type> outs = typesOf(type.getResults());
  int64_t m = 0;
  for (const Type &t : outs)
    m += numel(t.shape());
  return buildLambda(s, inputs, [&](const std::vector<Value> &args) {
    std::vector<mlir::Type> sens;
    for (mlir::Type t : type.getResults())
      sens.push_back(adj::getSensitivityType(t));
    Value row = buildLambda(s, sens, [&](const std::vector<Value> &cts) {
      ADOptions options;
      options.wrt = wrt;
      Values out = call(vjp(fn, options), args);
      return std::vector<Value>(call(out.back(), cts));
    });
    Values batched =
        call(vmap(row, std::vector<int64_t>(outs.size(), 0),
                  std::vector<int64_t>(wrt.size(), 0), m),
             basis(s, outs, m));
    std::vector<Value> blocks;
    int64_t off = 0;
    for (const Type &r : outs) {
      int64_t n = numel(r.shape());
      for (size_t k = 0; k < wrt.size(); ++k)
        blocks.push_back(rows(batched[k], off, n,
                              joined(r.shape(), args[wrt[k]].shape())));
      off += n;
    }
    return blocks;
  });
}

Value api::jacfwd(Value fn, const std::vector<int64_t> &wrtIn) {
  ModuleState &s = stateOf("jacfwd", fn);
  adj::FnType type = checkedType("jacfwd", fn);
  std::vector<int64_t> wrt = chosen("jacfwd", wrtIn, type.getInputs().size());
  std::vector<mlir::Type> inputs(type.getInputs().begin(),
                                 type.getInputs().end());
  std::vector<Type> ins, outs = typesOf(type.getResults());
  std::vector<mlir::Type> tangents;
  int64_t n = 0;
  for (int64_t i : wrt) {
    ins.push_back(Type::fromMLIR(inputs[i]));
    tangents.push_back(adj::getSensitivityType(inputs[i]));
    n += numel(ins.back().shape());
  }
  return buildLambda(s, inputs, [&](const std::vector<Value> &args) {
    Value column = buildLambda(s, tangents, [&](const std::vector<Value> &ts) {
      ADOptions options;
      options.wrt = wrt;
      std::vector<Value> operands = args;
      operands.insert(operands.end(), ts.begin(), ts.end());
      Values out = call(jvp(fn, options), operands);
      return std::vector<Value>(out.begin() + outs.size(), out.end());
    });
    Values batched =
        call(vmap(column, std::vector<int64_t>(wrt.size(), 0),
                  std::vector<int64_t>(outs.size(), 0), n),
             basis(s, ins, n));
    std::vector<Value> blocks;
    for (size_t r = 0; r < outs.size(); ++r) {
      int64_t off = 0;
      for (const Type &in : ins) {
        int64_t m = numel(in.shape());
        Value block =
            rows(batched[r], off, m, joined(in.shape(), outs[r].shape()));
        // [*in, *out] -> [*out, *in].
        int64_t lead = in.rank(), rank = block.rank();
        if (lead != 0 && lead != rank) {
          std::vector<int64_t> perm;
          for (int64_t d = lead; d < rank; ++d)
            perm.push_back(d);
          for (int64_t d = 0; d < lead; ++d)
            perm.push_back(d);
          block = transpose(block, perm);
        }
        blocks.push_back(block);
        off += m;
      }
    }
    return blocks;
  });
}

Value api::hessian(Value fn, const std::vector<int64_t> &wrt) {
  adj::FnType type = checkedType("hessian", fn);
  if (type.getResults().size() != 1 ||
      llvm::cast<mlir::RankedTensorType>(type.getResults().front())
              .getRank() != 0)
    throw Error("hessian: the function must return one scalar");
  return jacfwd(jacrev(fn, wrt), wrt);
}
