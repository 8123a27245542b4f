//===- Ops.cpp - Tensor functions, control flow and AD requests -----------===//

#include "Bindings.h"

#include "adjoint/Support/Error.h"

#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include <map>

using namespace adjoint;
using namespace adjoint::python;
using api::Value;

namespace {

/// A scatter mode by its JAX name (x.at[...].set/add/mul/min/max).
api::Scatter scatterMode(const std::string &mode) {
  static const std::map<std::string, api::Scatter> modes{
      {"set", api::Scatter::Set}, {"add", api::Scatter::Add},
      {"mul", api::Scatter::Mul}, {"min", api::Scatter::Min},
      {"max", api::Scatter::Max}};
  auto it = modes.find(mode);
  if (it == modes.end())
    throw Error("scatter: mode must be set, add, mul, min or max, not '" +
                mode + "'");
  return it->second;
}

/// A transform of adj.fft by its lax.FftType name.
api::Fft fftType(const std::string &type) {
  static const std::map<std::string, api::Fft> types{
      {"fft", api::Fft::Fft},
      {"ifft", api::Fft::Ifft},
      {"rfft", api::Fft::Rfft},
      {"irfft", api::Fft::Irfft}};
  auto it = types.find(type);
  if (it == types.end())
    throw Error("fft: fft_type must be fft, ifft, rfft or irfft, not '" +
                type + "'");
  return it->second;
}

/// None (every axis), an int or a sequence of ints.
api::Axes toAxes(const py::object &axis) {
  if (axis.is_none())
    return api::Axes::all();
  if (py::isinstance<py::int_>(axis))
    return api::Axes(axis.cast<int64_t>());
  return api::Axes(axis.cast<std::vector<int64_t>>());
}

api::ADOptions adOptions(const py::object &wrt, bool customSens,
                         bool hasAux) {
  api::ADOptions options;
  if (py::isinstance<py::int_>(wrt))
    options.wrt = std::vector<int64_t>{wrt.cast<int64_t>()};
  else if (!wrt.is_none())
    options.wrt = wrt.cast<std::vector<int64_t>>();
  options.customSens = customSens;
  options.hasAux = hasAux;
  return options;
}

/// Binds an AD request for function values and for top-level functions.
void bindAD(py::module_ &m, const char *name,
            Value (*request)(Value, const api::ADOptions &), bool sens) {
  auto doc = "The adj AD request of the same name (expanded by -adj-grad).";
  if (sens) {
    m.def(
        name,
        [request](Value fn, py::object wrt, bool customSens, bool hasAux) {
          return request(fn, adOptions(wrt, customSens, hasAux));
        },
        py::arg("fn"), py::arg("wrt") = py::none(),
        py::arg("custom_sens") = false, py::arg("has_aux") = false, doc);
    m.def(
        name,
        [request](const api::Function &fn, py::object wrt, bool customSens,
                  bool hasAux) {
          return request(fn.ref(), adOptions(wrt, customSens, hasAux));
        },
        py::arg("fn"), py::arg("wrt") = py::none(),
        py::arg("custom_sens") = false, py::arg("has_aux") = false, doc);
  } else {
    m.def(
        name,
        [request](Value fn, py::object wrt, bool hasAux) {
          return request(fn, adOptions(wrt, false, hasAux));
        },
        py::arg("fn"), py::arg("wrt") = py::none(),
        py::arg("has_aux") = false, doc);
    m.def(
        name,
        [request](const api::Function &fn, py::object wrt, bool hasAux) {
          return request(fn.ref(), adOptions(wrt, false, hasAux));
        },
        py::arg("fn"), py::arg("wrt") = py::none(),
        py::arg("has_aux") = false, doc);
  }
}

void bindCreation(py::module_ &m) {
  m.def(
      "constant",
      [](api::Module &mod, py::object given,
         std::optional<std::vector<int64_t>> shape, DType dtype) {
        py::array data = py::array::ensure(given);
        if (!data)
          throw py::type_error("constant(): data must be array-like");
        std::vector<int64_t> dims =
            shape ? *shape
                  : std::vector<int64_t>(data.shape(),
                                         data.shape() + data.ndim());
        if (data.dtype().kind() == 'c') {
          auto values = py::array_t<std::complex<double>,
                                    py::array::c_style | py::array::forcecast>(
              data);
          return api::complex_constant(
              mod,
              llvm::ArrayRef<std::complex<double>>(values.data(),
                                                   size_t(values.size())),
              std::move(dims), dtype);
        }
        // Integer data stays integral: a double holds integers only up to
        // 2^53.
        if (data.dtype().kind() == 'i' || data.dtype().kind() == 'u') {
          auto whole = py::array_t<int64_t, py::array::c_style |
                                                py::array::forcecast>(data);
          return api::integer_constant(
              mod, llvm::ArrayRef<int64_t>(whole.data(), size_t(whole.size())),
              std::move(dims), dtype);
        }
        auto values =
            py::array_t<double, py::array::c_style | py::array::forcecast>(
                data);
        return api::constant(
            mod, llvm::ArrayRef<double>(values.data(), size_t(values.size())),
            std::move(dims), dtype);
      },
      py::arg("module"), py::arg("data"), py::arg("shape") = py::none(),
      py::arg("dtype") = DType::F32,
      "adj.constant from array-like data (its shape unless `shape` is "
      "given); integer data is exact for every int64.");
  m.def(
      "scalar",
      [](api::Module &mod, py::object value, DType dtype) {
        // A Python int keeps all its bits (int64 range; 2^53 + 1 is not a
        // double).
        if (py::isinstance<py::int_>(value) && !py::isinstance<py::bool_>(value))
          return api::integer_scalar(mod, value.cast<int64_t>(), dtype);
        if (isComplex(dtype))
          return api::complex_constant(
              mod, {value.cast<std::complex<double>>()}, {}, dtype);
        return api::scalar(mod, value.cast<double>(), dtype);
      },
      py::arg("module"), py::arg("value"), py::arg("dtype") = DType::F32);
  m.def("fill", &api::fill, py::arg("module"), py::arg("value"),
        py::arg("shape"), py::arg("dtype") = DType::F32);
  m.def("zeros", &api::zeros, py::arg("module"), py::arg("shape"),
        py::arg("dtype") = DType::F32);
  m.def("ones", &api::ones, py::arg("module"), py::arg("shape"),
        py::arg("dtype") = DType::F32);
  m.def("iota", &api::iota, py::arg("module"), py::arg("shape"),
        py::arg("axis") = 0, py::arg("dtype") = DType::I64);
  m.def("random_normal", &api::random_normal, py::arg("seed"),
        py::arg("shape"), py::arg("dtype") = DType::F32, py::arg("mean") = 0.0,
        py::arg("std") = 1.0);
  m.def("random_uniform", &api::random_uniform, py::arg("seed"),
        py::arg("shape"), py::arg("dtype") = DType::F32, py::arg("low") = 0.0,
        py::arg("high") = 1.0);
}

/// The Bits primitives, and the key-based random functions in the
/// `_random` submodule (adjoint.random wraps them).
void bindRandom(py::module_ &m) {
  m.def("bitwise_and", &api::bitwise_and);
  m.def("bitwise_or", &api::bitwise_or);
  m.def("bitwise_xor", &api::bitwise_xor);
  m.def("shift_left", &api::shift_left);
  m.def("shift_right_logical", &api::shift_right_logical);
  m.def("bitcast", &api::bitcast, py::arg("x"), py::arg("dtype"));
  m.def("threefry2x32", &api::threefry2x32);

  py::module_ r = m.def_submodule("_random", "Key-based random numbers");
  r.def("key", py::overload_cast<Value>(&api::random::key), py::arg("seed"));
  r.def("key", py::overload_cast<api::Module &, int64_t>(&api::random::key),
        py::arg("module"), py::arg("seed"));
  r.def("split", &api::random::split, py::arg("key"), py::arg("num") = 2);
  r.def("fold_in", py::overload_cast<Value, Value>(&api::random::fold_in),
        py::arg("key"), py::arg("data"));
  r.def("fold_in", py::overload_cast<Value, int64_t>(&api::random::fold_in),
        py::arg("key"), py::arg("data"));
  r.def("bits", &api::random::bits, py::arg("key"), py::arg("shape"),
        py::arg("dtype") = DType::I32);
  r.def("uniform", &api::random::uniform, py::arg("key"), py::arg("shape"),
        py::arg("dtype") = DType::F32, py::arg("minval") = 0.0,
        py::arg("maxval") = 1.0);
  r.def("normal", &api::random::normal, py::arg("key"), py::arg("shape"),
        py::arg("dtype") = DType::F32);
  r.def("bernoulli",
        py::overload_cast<Value, Value, std::vector<int64_t>>(
            &api::random::bernoulli),
        py::arg("key"), py::arg("p"), py::arg("shape"));
  r.def("bernoulli",
        py::overload_cast<Value, double, std::vector<int64_t>, DType>(
            &api::random::bernoulli),
        py::arg("key"), py::arg("p"), py::arg("shape"),
        py::arg("dtype") = DType::F32);
  r.def("categorical", &api::random::categorical, py::arg("key"),
        py::arg("logits"), py::arg("axis") = -1,
        py::arg("shape") = py::none());
  r.def("dropout", &api::random::dropout, py::arg("key"), py::arg("x"),
        py::arg("rate"));
}

void bindElementwise(py::module_ &m) {
#define ADJ_BINARY(NAME)                                                       \
  m.def(#NAME, py::overload_cast<Value, Value>(&api::NAME));                  \
  m.def(#NAME, py::overload_cast<Value, double>(&api::NAME));
  ADJ_BINARY(pow)
  ADJ_BINARY(maximum)
  ADJ_BINARY(minimum)
#undef ADJ_BINARY
  m.def("add", &api::add);
  m.def("sub", &api::sub);
  m.def("mul", &api::mul);
  m.def("div", &api::div);
  m.def("atan2", &api::atan2, py::arg("y"), py::arg("x"));

#define ADJ_UNARY(NAME) m.def(#NAME, &api::NAME, py::arg("x"));
  ADJ_UNARY(neg)
  ADJ_UNARY(exp)
  ADJ_UNARY(log)
  ADJ_UNARY(log1p)
  ADJ_UNARY(expm1)
  ADJ_UNARY(tanh)
  ADJ_UNARY(sigmoid)
  ADJ_UNARY(relu)
  ADJ_UNARY(sqrt)
  ADJ_UNARY(rsqrt)
  ADJ_UNARY(abs)
  ADJ_UNARY(sign)
  ADJ_UNARY(sin)
  ADJ_UNARY(cos)
  ADJ_UNARY(erf)
  ADJ_UNARY(gelu)
  ADJ_UNARY(real)
  ADJ_UNARY(imag)
  ADJ_UNARY(conj)
  ADJ_UNARY(angle)
#undef ADJ_UNARY
  m.def("complex", &api::complex, py::arg("re"), py::arg("im"));

  py::enum_<api::Cmp>(m, "Cmp")
      .value("EQ", api::Cmp::EQ)
      .value("NE", api::Cmp::NE)
      .value("LT", api::Cmp::LT)
      .value("LE", api::Cmp::LE)
      .value("GT", api::Cmp::GT)
      .value("GE", api::Cmp::GE);
  m.def("cmp", &api::cmp, py::arg("predicate"), py::arg("a"), py::arg("b"));
  m.def("select",
        py::overload_cast<Value, Value, Value>(&api::select));
  m.def("select",
        py::overload_cast<Value, Value, double>(&api::select));
  m.def("select",
        py::overload_cast<Value, double, Value>(&api::select));
  m.def(
      "cast",
      [](Value x, DType dtype, bool keepRealPart) {
        // A cast that drops imaginary parts is numpy's astype only; anywhere
        // else (a real-only function casting its operand) it would be a
        // silently wrong answer.
        if (!keepRealPart && x.type().isTensor() &&
            isComplex(x.type().dtype()) && !isComplex(dtype))
          throw py::type_error(
              std::string("cast: a ") + x.type().str() + " to " +
              dtypeName(dtype) +
              " would drop the imaginary parts: this function does not "
              "support complex arrays (take real() or abs() first, or "
              "astype)");
        return api::cast(x, dtype);
      },
      py::arg("x"), py::arg("dtype"), py::arg("keep_real_part") = false);
}

void bindTensorOps(py::module_ &m) {
  m.def("matmul", &api::matmul, py::arg("a"), py::arg("b"));
  // The LinearAlgebra family (adjoint.numpy.linalg builds on these).
  m.def("cholesky", &api::cholesky, py::arg("a"));
  m.def(
      "triangular_solve",
      [](Value a, Value b, bool leftSide, bool lower, bool transposeA,
         bool unitDiagonal) {
        return api::triangular_solve(
            a, b, {leftSide, lower, transposeA, unitDiagonal});
      },
      py::arg("a"), py::arg("b"), py::arg("left_side") = false,
      py::arg("lower") = false, py::arg("transpose_a") = false,
      py::arg("unit_diagonal") = false);
  m.def(
      "lu",
      [](Value a) {
        auto [lu, pivots, permutation] = api::lu(a);
        return py::make_tuple(lu, pivots, permutation);
      },
      py::arg("a"));
  m.def(
      "qr",
      [](Value a, bool full) {
        auto [q, r] = api::qr(a, full);
        return py::make_tuple(q, r);
      },
      py::arg("a"), py::arg("full_matrices") = false);
  m.def(
      "eigh",
      [](Value a, bool upper) {
        auto [w, v] = api::eigh(a, upper);
        return py::make_tuple(w, v);
      },
      py::arg("a"), py::arg("upper") = false);
  m.def(
      "eig",
      [](Value a) {
        auto [w, v] = api::eig(a);
        return py::make_tuple(w, v);
      },
      py::arg("a"));
  m.def(
      "svd",
      [](Value a, bool full) {
        auto [u, s, vh] = api::svd(a, full);
        return py::make_tuple(u, s, vh);
      },
      py::arg("a"), py::arg("full_matrices") = false);
  m.def(
      "fft",
      [](Value x, const std::string &type, std::vector<int64_t> lengths) {
        return api::fft(x, fftType(type), lengths);
      },
      py::arg("x"), py::arg("fft_type"), py::arg("lengths"));
#define ADJ_REDUCE(NAME)                                                       \
  m.def(                                                                       \
      #NAME,                                                                   \
      [](Value x, py::object axis, bool keepdims) {                            \
        return api::NAME(x, toAxes(axis), keepdims);                           \
      },                                                                       \
      py::arg("x"), py::arg("axis") = py::none(), py::arg("keepdims") = false);
  ADJ_REDUCE(sum)
  ADJ_REDUCE(max)
  ADJ_REDUCE(mean)
#undef ADJ_REDUCE
  m.def("broadcast_to", &api::broadcast_to, py::arg("x"), py::arg("shape"));
  m.def("reshape", &api::reshape, py::arg("x"), py::arg("shape"));
  m.def(
      "transpose",
      [](Value x, std::optional<std::vector<int64_t>> perm) {
        return perm ? api::transpose(x, *perm) : api::transpose(x);
      },
      py::arg("x"), py::arg("perm") = py::none());
  m.def("slice", &api::slice, py::arg("x"), py::arg("start"),
        py::arg("limit"), py::arg("stride") = std::vector<int64_t>());
  m.def("concat", &api::concat, py::arg("xs"), py::arg("axis") = 0);
  m.def("pad", &api::pad, py::arg("x"), py::arg("low"), py::arg("high"),
        py::arg("value") = 0.0);
  m.def("gather", &api::gather, py::arg("table"), py::arg("indices"),
        py::arg("axis") = 0);
  m.def("scatter_add", &api::scatter_add, py::arg("target"),
        py::arg("indices"), py::arg("updates"), py::arg("axis") = 0);
  m.def(
      "scatter",
      [](const std::string &mode, Value target, Value indices, Value updates,
         int64_t axis) {
        return api::scatter(scatterMode(mode), target, indices, updates,
                            axis);
      },
      py::arg("mode"), py::arg("target"), py::arg("indices"),
      py::arg("updates"), py::arg("axis") = 0);
  m.def("index", &api::index, py::arg("x"), py::arg("indices"));
  m.def("dynamic_slice", &api::dynamic_slice, py::arg("x"),
        py::arg("starts"), py::arg("sizes"));
  m.def("dynamic_update_slice", &api::dynamic_update_slice, py::arg("x"),
        py::arg("update"), py::arg("starts"));
  m.def("reverse", &api::reverse, py::arg("x"), py::arg("axes"));
  m.def(
      "index_update",
      [](const std::string &mode, Value x, std::vector<Value> indices,
         Value updates) {
        return api::index_update(scatterMode(mode), x, std::move(indices),
                                 updates);
      },
      py::arg("mode"), py::arg("x"), py::arg("indices"), py::arg("updates"));

  m.def(
      "conv2d",
      [](Value input, Value filter, std::vector<int64_t> stride,
         std::vector<int64_t> padding, std::vector<int64_t> dilation,
         int64_t groups) {
        api::Conv2DOptions options;
        options.stride = std::move(stride);
        options.padding = std::move(padding);
        options.dilation = std::move(dilation);
        options.groups = groups;
        return api::conv2d(input, filter, options);
      },
      py::arg("input"), py::arg("filter"),
      py::arg("stride") = std::vector<int64_t>{1, 1},
      py::arg("padding") = std::vector<int64_t>{0, 0, 0, 0},
      py::arg("dilation") = std::vector<int64_t>{1, 1}, py::arg("groups") = 1);
  for (auto [name, fn] :
       {std::pair{"max_pool2d", &api::max_pool2d},
        std::pair{"avg_pool2d", &api::avg_pool2d}})
    m.def(name, fn, py::arg("input"), py::arg("kernel"),
          py::arg("stride") = std::vector<int64_t>(),
          py::arg("padding") = std::vector<int64_t>{0, 0, 0, 0});

  m.def("softmax", &api::softmax, py::arg("x"), py::arg("axis") = -1);
  m.def("log_softmax", &api::log_softmax, py::arg("x"), py::arg("axis") = -1);
  m.def("cross_entropy", &api::cross_entropy, py::arg("logits"),
        py::arg("labels"));
  m.def("layer_norm", &api::layer_norm, py::arg("x"), py::arg("gamma"),
        py::arg("beta"), py::arg("eps") = 1e-5);
  m.def("linear", py::overload_cast<Value, Value, Value>(&api::linear),
        py::arg("x"), py::arg("w"), py::arg("b"));
  m.def("linear", py::overload_cast<Value, Value>(&api::linear), py::arg("x"),
        py::arg("w"));
}

void bindFunctions(py::module_ &m) {
  m.def(
      "lambda_",
      [](api::Module &mod, const std::vector<api::Type> &params,
         py::function body) {
        return api::detail::lambdaImpl(mod, params,
                                       bodyFromPython(std::move(body)));
      },
      py::arg("module"), py::arg("params"), py::arg("body"),
      "adj.lambda: a closure; Values of enclosing regions used by `body` "
      "are captured.");
  m.def(
      "call",
      [](Value fn, py::args args) {
        return toPython(api::call(fn, args.cast<std::vector<Value>>()));
      },
      py::arg("fn"));
  m.def(
      "make_tuple",
      [](py::args elements) {
        return api::make_tuple(elements.cast<std::vector<Value>>());
      },
      "adj.tuple of the arguments (at least one; see empty_tuple).");
  m.def(
      "empty_tuple",
      [](api::Module &mod) { return api::make_tuple(mod, {}); },
      py::arg("module"), "The adj.tuple `()`.");
  m.def("get", &api::get, py::arg("tuple"), py::arg("index"));

  m.def(
      "if_",
      [](Value cond, py::function thenBody, py::function elseBody) {
        return toPython(api::detail::ifImpl(cond, bodyFromPython(thenBody),
                                            bodyFromPython(elseBody)));
      },
      py::arg("cond"), py::arg("then_body"), py::arg("else_body"));
  m.def(
      "for_",
      [](Value lb, Value ub, Value step, const std::vector<Value> &inits,
         py::function body) {
        return toPython(
            api::detail::forImpl(lb, ub, step, inits, bodyFromPython(body)));
      },
      py::arg("lb"), py::arg("ub"), py::arg("step"), py::arg("inits"),
      py::arg("body"));
  m.def(
      "for_",
      [](int64_t lb, int64_t ub, int64_t step, const std::vector<Value> &inits,
         py::function body) {
        return toPython(
            api::for_(lb, ub, step, inits, bodyFromPython(body)));
      },
      py::arg("lb"), py::arg("ub"), py::arg("step"), py::arg("inits"),
      py::arg("body"));
  m.def(
      "while_",
      [](const std::vector<Value> &inits, py::function cond,
         py::function body) {
        return toPython(api::detail::whileImpl(inits, bodyFromPython(cond),
                                               bodyFromPython(body)));
      },
      py::arg("inits"), py::arg("cond"), py::arg("body"));

  bindAD(m, "grad", &api::grad, true);
  bindAD(m, "value_and_grad", &api::value_and_grad, true);
  bindAD(m, "vjp", &api::vjp, false);
  bindAD(m, "jvp", &api::jvp, false);

  // Batching: in_axes and out_axes entries are axes or -1 (not batched).
  m.def("vmap", &api::vmap, py::arg("fn"), py::arg("in_axes"),
        py::arg("out_axes"), py::arg("batch_size"),
        "The adj.vmap request (expanded by -adj-grad).");
  m.def(
      "vmap",
      [](const api::Function &fn, const std::vector<int64_t> &inAxes,
         const std::vector<int64_t> &outAxes, int64_t batchSize) {
        return api::vmap(fn.ref(), inAxes, outAxes, batchSize);
      },
      py::arg("fn"), py::arg("in_axes"), py::arg("out_axes"),
      py::arg("batch_size"), "The adj.vmap request (expanded by -adj-grad).");
  // Jacobians of builder functions, each one adj.vmap over basis vectors.
  using JacobianFn = api::Value (*)(api::Value, const std::vector<int64_t> &);
  for (auto [name, jacobian] :
       {std::pair<const char *, JacobianFn>{"jacrev", &api::jacrev},
        {"jacfwd", &api::jacfwd},
        {"hessian", &api::hessian}}) {
    m.def(name, jacobian, py::arg("fn"),
          py::arg("wrt") = std::vector<int64_t>{});
    m.def(
        name,
        [jacobian](const api::Function &fn, const std::vector<int64_t> &wrt) {
          return jacobian(fn.ref(), wrt);
        },
        py::arg("fn"), py::arg("wrt") = std::vector<int64_t>{});
  }
  // Derivative annotations.
  m.def("stop_gradient", &api::stop_gradient, py::arg("x"));
  m.def("custom_vjp", &api::custom_vjp, py::arg("fn"), py::arg("fwd"),
        py::arg("bwd"));
  m.def("custom_jvp", &api::custom_jvp, py::arg("fn"), py::arg("rule"));
  m.def("checkpoint", &api::checkpoint, py::arg("fn"));
}

} // namespace

void adjoint::python::bindOps(py::module_ &m) {
  bindCreation(m);
  bindElementwise(m);
  bindRandom(m);
  bindTensorOps(m);
  bindFunctions(m);
}
