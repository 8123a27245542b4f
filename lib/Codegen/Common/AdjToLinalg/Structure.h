//===- Structure.h - Host-side structure of adj -> linalg -------*- C++ -*-===//
//
// The type converter and the patterns for what is not a tensor primitive:
// functions and calls, control flow, tuples, function values and
// environments. Private to lib/Codegen/Common/AdjToLinalg.
//
// Host representation (the ABI of compiled functions, see Passes.td):
//   tensor<...>      itself
//   !adj.tuple<T...> the representations of T... concatenated (depth-first)
//   !adj.fn<...>     (index tag, !llvm.ptr box): which function, and a
//                    runtime tuple of its captured values (null if none)
//   !adj.env         !llvm.ptr: a runtime environment (null is empty)
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CONVERSION_ADJTOLINALG_STRUCTURE_H
#define ADJOINT_LIB_CONVERSION_ADJTOLINALG_STRUCTURE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace adjoint::lowering {

/// Converts adj types to their host representation (see the file comment).
/// Every other type converts to itself.
class HostTypeConverter : public mlir::TypeConverter {
public:
  HostTypeConverter();
};

/// True when a value of `type` has a host representation: a statically
/// shaped integer or float tensor, or a tuple, function value or
/// environment made of such.
bool isHostType(mlir::Type type);

/// A static tensor type as a symbol-name fragment ("4x4xf64"), for the
/// names of generated wrapper functions.
std::string mangledTensorType(mlir::Type tensorType);

/// The leaves of `type` depth-first: tensors, function types and
/// environment types, with tuples opened.
void flattenLeaves(mlir::Type type, llvm::SmallVectorImpl<mlir::Type> &leaves);

/// The values of a 1:N adaptor operand list, concatenated.
llvm::SmallVector<mlir::Value> flatten(llvm::ArrayRef<mlir::ValueRange> values);

/// Splits `flat` (the converted values of `types`, concatenated) into one
/// range per original type.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
splitConverted(const mlir::TypeConverter &converter, mlir::TypeRange types,
               mlir::ValueRange flat);

/// What the function-value patterns need to know about the whole module,
/// computed before the conversion.
struct HostPlan {
  /// The adj.func that a call's callee (an adj.func_ref) names directly.
  llvm::DenseMap<mlir::Operation *, mlir::FlatSymbolRefAttr> directCallee;
  /// The adj.func_ref ops used as values (not only as direct callees).
  llvm::DenseSet<mlir::Operation *> valueRefs;
  /// The tag of every function that becomes a function value.
  llvm::DenseMap<mlir::StringAttr, int64_t> tags;
  /// For every !adj.fn type, the functions whose values can have it: the
  /// callees of its adj.closure ops and of its adj.func_ref ops used as
  /// values, in tag order.
  llvm::DenseMap<mlir::Type, llvm::SmallVector<mlir::FlatSymbolRefAttr>>
      makers;
  /// The signature of every adj.func (closures prepend their captures).
  llvm::DenseMap<mlir::StringAttr, mlir::FunctionType> signatures;
  /// The functions whose calls can make runtime objects (boxes and
  /// environments), directly or through the functions they call.
  llvm::DenseSet<mlir::StringAttr> allocating;
  /// The functions that can call themselves (directly, through other
  /// functions, or through function values): they count their depth with
  /// the runtime's recursion guard.
  llvm::SetVector<mlir::StringAttr> recursive;
  /// Tensor types stored into / read from runtime tuples.
  llvm::SetVector<mlir::Type> putTypes, getTypes;
  /// Whether the generated code calls the closure runtime at all.
  bool usesRuntime = false;
};

/// Fills `plan` for `module`; reports (and fails on) calls of function
/// values that no op in the module can make.
mlir::LogicalResult buildHostPlan(mlir::ModuleOp module, HostPlan &plan);

/// Declares the runtime entry points and defines the tensor wrappers of
/// `plan` in `module` (nothing when the plan does not use the runtime), and
/// the recursion guard with the names of the recursive functions.
void declareRuntime(mlir::ModuleOp module, const HostPlan &plan);

/// Names of the runtime entry points (include/adjoint/Runtime/Closures.h)
/// and of the generated per-type wrappers.
namespace rt {
inline constexpr const char *kTupleNew = "adj_rt_tuple_new";
inline constexpr const char *kPutTensor = "adj_rt_tuple_put_tensor";
inline constexpr const char *kPutEnv = "adj_rt_tuple_put_env";
inline constexpr const char *kPutFn = "adj_rt_tuple_put_fn";
inline constexpr const char *kGetTensor = "adj_rt_tuple_get_tensor";
inline constexpr const char *kGetEnv = "adj_rt_tuple_get_env";
inline constexpr const char *kGetFnTag = "adj_rt_tuple_get_fn_tag";
inline constexpr const char *kGetFnBox = "adj_rt_tuple_get_fn_box";
inline constexpr const char *kEnvSet = "adj_rt_env_set";
inline constexpr const char *kEnvGet = "adj_rt_env_get";
inline constexpr const char *kEnvAdd = "adj_rt_env_add";
inline constexpr const char *kMark = "adj_rt_mark";
inline constexpr const char *kRelease = "adj_rt_release";
inline constexpr const char *kEnterRecursive = "adj_rt_enter_recursive";
inline constexpr const char *kLeaveRecursive = "adj_rt_leave_recursive";
/// The memref.global holding the NUL-terminated name of `function`, which
/// the recursion guard names in its error.
std::string functionNameGlobal(llvm::StringRef function);
/// `__adj_put_<type>(tuple, slot, tensor)` and `__adj_get_<type>(tuple,
/// slot) -> tensor` for a tensor type, e.g. `__adj_put_2x3xf32`.
std::string putWrapperName(mlir::Type tensorType);
std::string getWrapperName(mlir::Type tensorType);
} // namespace rt

/// Builders of the runtime calls shared by the patterns.
struct RuntimeBuilder {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value i64(int64_t value);
  mlir::Value null();
  mlir::ValueRange call(llvm::StringRef callee, mlir::TypeRange results,
                        mlir::ValueRange args);
  /// A runtime tuple holding `values`, the converted values of `types`.
  mlir::Value box(mlir::TypeRange types, mlir::ValueRange values);
  /// The converted values of `types` read back from the runtime tuple
  /// `tuple` (fresh tensors; zeros when `tuple` is null).
  llvm::SmallVector<mlir::Value> unbox(mlir::Value tuple,
                                       mlir::TypeRange types);
};

/// adj.func, adj.return and calls of adj.func_ref; recursive functions
/// enter and leave the runtime's recursion guard.
void populateFunctionPatterns(const mlir::TypeConverter &converter,
                              const HostPlan &plan,
                              mlir::RewritePatternSet &patterns);
/// adj.if, adj.for, adj.while and adj.yield to scf.
void populateControlFlowPatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// adj.tuple and adj.get vanish; zeros_like and grad_add of tuples and
/// environments work leaf by leaf.
void populateTuplePatterns(const mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);
/// adj.func_ref as a value, adj.closure and calls of function values.
void populateFunctionValuePatterns(const mlir::TypeConverter &converter,
                                   const HostPlan &plan,
                                   mlir::RewritePatternSet &patterns);
/// adj.env_new, adj.env_get, adj.env_set and adj.env_add.
void populateEnvironmentPatterns(const mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace adjoint::lowering

#endif // ADJOINT_LIB_CONVERSION_ADJTOLINALG_STRUCTURE_H
