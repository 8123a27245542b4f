//===- Builder.cpp - Modules, functions, types and values -----------------===//

#include "Bindings.h"

#include "adjoint/Support/Error.h"

#include <pybind11/operators.h>

#include <unordered_map>
#include <pybind11/stl.h>

using namespace adjoint;
using namespace adjoint::python;
using api::Value;

namespace {
/// Module states to their (Python-owned) Modules.
std::unordered_map<api::detail::ModuleState *, std::weak_ptr<api::Module>> &
modules() {
  static std::unordered_map<api::detail::ModuleState *,
                            std::weak_ptr<api::Module>>
      map;
  return map;
}
} // namespace

void adjoint::python::registerModule(
    const std::shared_ptr<api::Module> &module) {
  auto &map = modules();
  // Forget Modules that are gone, so that the map stays small.
  for (auto it = map.begin(); it != map.end();)
    it = it->second.expired() ? map.erase(it) : std::next(it);
  map[module->state()] = module;
}

std::shared_ptr<api::Module> adjoint::python::moduleOf(const Value &value) {
  auto it = modules().find(value.state());
  return it == modules().end() ? nullptr : it->second.lock();
}

py::object adjoint::python::toPython(const std::vector<Value> &values) {
  if (values.size() == 1)
    return py::cast(values.front());
  py::tuple t(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    t[i] = py::cast(values[i]);
  return std::move(t);
}

api::detail::BodyFn adjoint::python::bodyFromPython(py::function fn) {
  return [fn](const std::vector<Value> &args) -> std::vector<Value> {
    py::tuple pyArgs(args.size());
    for (size_t i = 0; i < args.size(); ++i)
      pyArgs[i] = py::cast(args[i]);
    py::object result = fn(*pyArgs);
    if (py::isinstance<PyValue>(result))
      return {result.cast<Value>()};
    if (!py::isinstance<py::sequence>(result) || py::isinstance<py::str>(result))
      throw Error("a region body must return a Value or a sequence of "
                  "Values, not " +
                  std::string(py::str(py::type::of(result))));
    return result.cast<std::vector<Value>>();
  };
}

namespace {

/// A Python int as a constant of `like`'s dtype, exact for every int64 (a
/// double holds integers only up to 2^53), or nothing when `like` is not a
/// tensor (the double overload then reports it).
std::optional<Value> integerLike(const Value &like, int64_t n) {
  if (!like.type().isTensor())
    return std::nullopt;
  return api::integer_scalar(*moduleOf(like), n, like.type().dtype());
}

/// Binds `a OP b` (and `b OP a` when `rname` is given) for Value, int and
/// float operands (ints before floats: pybind tries overloads in order,
/// and an int would also convert to a double).
template <bool Reflected = true, typename F>
void binary(py::class_<PyValue> &cls, const char *name, const char *rname,
            F f) {
  cls.def(name, [f](Value a, Value b) { return f(a, b); }, py::is_operator());
  cls.def(
      name,
      [f](Value a, int64_t b) {
        std::optional<Value> c = integerLike(a, b);
        return c ? Value(f(a, *c)) : Value(f(a, double(b)));
      },
      py::is_operator());
  cls.def(name, [f](Value a, double b) { return f(a, b); }, py::is_operator());
  if constexpr (Reflected) {
    cls.def(
        rname,
        [f](Value a, int64_t b) {
          std::optional<Value> c = integerLike(a, b);
          return c ? Value(f(*c, a)) : Value(f(double(b), a));
        },
        py::is_operator());
    cls.def(rname, [f](Value a, double b) { return f(b, a); },
            py::is_operator());
  }
}

} // namespace

void adjoint::python::bindBuilder(py::module_ &m) {
  py::enum_<DType>(m, "DType")
      .value("f64", DType::F64)
      .value("f32", DType::F32)
      .value("f16", DType::F16)
      .value("bf16", DType::BF16)
      .value("i64", DType::I64)
      .value("i32", DType::I32)
      .value("i1", DType::I1)
      .value("c64", DType::C64)
      .value("c128", DType::C128)
      .export_values()
      .def_property_readonly("is_float",
                             [](DType d) { return isFloat(d); })
      .def_property_readonly("is_complex",
                             [](DType d) { return isComplex(d); })
      .def_property_readonly(
          "is_inexact", [](DType d) { return isFloat(d) || isComplex(d); });

  py::class_<api::Type> type(m, "Type");
  py::enum_<api::Type::Kind>(type, "Kind")
      .value("Tensor", api::Type::Kind::Tensor)
      .value("Fn", api::Type::Kind::Fn)
      .value("Tuple", api::Type::Kind::Tuple);
  type.def(py::init<>())
      .def_static("tensor", &api::Type::tensor, py::arg("dtype"),
                  py::arg("shape"))
      .def_static("scalar", &api::Type::scalar, py::arg("dtype"))
      .def_static("fn", &api::Type::fn, py::arg("inputs"), py::arg("results"))
      .def_static("tuple", &api::Type::tuple, py::arg("elements"))
      .def_property_readonly("kind", &api::Type::kind)
      .def_property_readonly("is_tensor", &api::Type::isTensor)
      .def_property_readonly("is_fn", &api::Type::isFn)
      .def_property_readonly("is_tuple", &api::Type::isTuple)
      .def_property_readonly("dtype", &api::Type::dtype)
      .def_property_readonly(
          "shape",
          [](const api::Type &t) { return py::tuple(py::cast(t.shape())); },
          "A tuple of ints, as numpy's shapes.")
      .def_property_readonly("rank", &api::Type::rank)
      .def_property_readonly("numel", &api::Type::numel)
      .def_property_readonly("inputs", &api::Type::inputs)
      .def_property_readonly("results", &api::Type::results)
      .def_property_readonly("elements", &api::Type::elements)
      .def("with_dtype", &api::Type::withDType)
      .def("with_shape", &api::Type::withShape)
      .def("__str__", &api::Type::str)
      .def("__repr__",
           [](const api::Type &t) { return "adjoint.Type(" + t.str() + ")"; })
      .def(py::self == py::self)
      .def(py::self != py::self)
      .def("__hash__",
           [](const api::Type &t) { return py::hash(py::str(t.str())); });

  m.def("promote_types", &api::promoteTypes, py::arg("a"), py::arg("b"),
        "The dtype both convert to in the promotion lattice (docs/python.md, "
        "\"Types\").");
  m.def("join_types", &api::joinTypes, py::arg("a"), py::arg("b"),
        "The type both convert to (promoted dtype, broadcast shape, through "
        "tuples), or None when they conflict.");

  py::class_<api::Function>(m, "Function")
      .def_property_readonly("name", &api::Function::name)
      .def_property_readonly("type", &api::Function::type)
      .def_property_readonly("is_defined", &api::Function::isDefined)
      .def("define",
           [](api::Function &f, py::function body) {
             f.define(bodyFromPython(std::move(body)));
           })
      .def("erase", &api::Function::erase,
           "Erases the function, which nothing may refer to any more.")
      .def("ref", &api::Function::ref,
           "This function as a value (adj.func_ref) in the region being "
           "built.")
      .def("__call__",
           [](const api::Function &f, py::args args) {
             return toPython(api::call(f.ref(), args.cast<std::vector<Value>>()));
           })
      .def("__repr__", [](const api::Function &f) {
        return "<adjoint.Function @" + f.name() + " : " + f.type().str() + ">";
      });

  py::class_<api::Module, std::shared_ptr<api::Module>>(m, "Module")
      .def(py::init([] {
        auto module = std::make_shared<api::Module>();
        registerModule(module);
        return module;
      }))
      .def(
          "function",
          [](api::Module &mod, const std::string &name,
             std::vector<api::Type> inputs, py::function body) {
            return mod.function(name, std::move(inputs),
                                bodyFromPython(std::move(body)));
          },
          py::arg("name"), py::arg("inputs"), py::arg("body"),
          py::keep_alive<0, 1>())
      .def("declare", &api::Module::declare, py::arg("name"),
           py::arg("inputs"), py::arg("results"), py::keep_alive<0, 1>())
      .def("lookup", &api::Module::lookup, py::arg("name"),
           py::keep_alive<0, 1>())
      .def("verify", &api::Module::verify)
      .def_property_readonly("is_valid", &api::Module::isValid)
      .def("__str__", &api::Module::str);

  py::class_<PyValue> value(m, "Value");
  value
      .def_property_readonly("type", [](const Value &v) { return v.type(); })
      .def_property_readonly("dtype", [](const Value &v) { return v.dtype(); })
      .def_property_readonly(
          "shape",
          [](const Value &v) { return py::tuple(py::cast(v.shape())); },
          "A tuple of ints, as numpy's shapes.")
      .def_property_readonly("rank", [](const Value &v) { return v.rank(); })
      .def_property_readonly(
          "module", [](const Value &v) { return moduleOf(v); },
          "The Module the value belongs to.")
      .def(
          "is_", [](const Value &a, const Value &b) { return a.is(b); },
          "Whether both are the same SSA value.")
      .def("__bool__",
           [](const Value &) -> bool {
             throw Error("an adjoint.Value has no truth value while the "
                         "program is built; use adjoint.if_ or "
                         "adjoint.select");
           })
      .def("__call__",
           [](const Value &fn, py::args args) {
             return toPython(api::call(fn, args.cast<std::vector<Value>>()));
           })
      // The IR is not touched: a Value of an erased region (a body that
      // raised) may still be printed, e.g. in a traceback's locals.
      .def("__repr__", [](const Value &) { return "<adjoint.Value>"; });
  // `==` builds adj.cmp, so Values cannot be dict keys.
  value.attr("__hash__") = py::none();

  binary(value, "__add__", "__radd__",
         [](auto a, auto b) { return Value(a + b); });
  binary(value, "__sub__", "__rsub__",
         [](auto a, auto b) { return Value(a - b); });
  binary(value, "__mul__", "__rmul__",
         [](auto a, auto b) { return Value(a * b); });
  binary(value, "__truediv__", "__rtruediv__",
         [](auto a, auto b) { return Value(a / b); });
  value.def("__pow__", [](Value a, Value b) { return api::pow(a, b); });
  value.def("__pow__", [](Value a, double b) { return api::pow(a, b); });
  value.def("__matmul__", [](Value a, Value b) { return api::matmul(a, b); });
  value.def("__neg__", [](Value a) { return -a; });
  value.def("__pos__", [](Value a) { return a; });
  value.def("__abs__", [](Value a) { return api::abs(a); });
  // Reflected comparisons are handled by Python swapping the operands.
  binary<false>(value, "__lt__", nullptr, [](auto a, auto b) { return a < b; });
  binary<false>(value, "__le__", nullptr, [](auto a, auto b) { return a <= b; });
  binary<false>(value, "__gt__", nullptr, [](auto a, auto b) { return a > b; });
  binary<false>(value, "__ge__", nullptr, [](auto a, auto b) { return a >= b; });
  binary<false>(value, "__eq__", nullptr, [](auto a, auto b) { return a == b; });
  binary<false>(value, "__ne__", nullptr, [](auto a, auto b) { return a != b; });
}
