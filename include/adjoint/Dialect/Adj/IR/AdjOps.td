//===- AdjOps.td - Operations of the adj dialect -----------*- tablegen -*-===//
//
// Structure (functions, closures, calls, tuples, control flow), tensor
// primitives, and the ops that automatic differentiation requests and emits.
// Every op is pure. Tensor ops infer their result types (NumPy broadcasting)
// and infer `!adj.any` when an operand is untyped.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ADJOPS_TD
#define ADJOINT_DIALECT_ADJ_IR_ADJOPS_TD

include "adjoint/Dialect/Adj/IR/AdjDialect.td"
include "adjoint/Dialect/Adj/IR/AdjTypes.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// What the ops of a family are (AdjTraits.h): the layers that treat a
/// family alike ask these instead of listing its ops.
def Adj_BroadcastingElementwise : NativeOpTrait<"BroadcastingElementwise"> {
  let cppNamespace = "::adjoint::adj::trait";
}
def Adj_Reduction : NativeOpTrait<"Reduction"> {
  let cppNamespace = "::adjoint::adj::trait";
}
def Adj_MatrixDecomposition : NativeOpTrait<"MatrixDecomposition"> {
  let cppNamespace = "::adjoint::adj::trait";
}

/// An op whose result types are inferred from its operands and attributes.
/// Inference is also its verifier. The result types must be exactly the
/// inferred ones, not merely compatible (`!adj.any` or a dynamic size where
/// inference knows better, or the reverse): the custom form does not print
/// them, so any other type would silently change when the op is printed and
/// parsed back.
///
/// `inference`, when given, is the C++ expression that infers: a call of a
/// family's shape rule (lib/Dialect/Adj/IR/ShapeRules.h) that sees
/// `context`, `location`, `adaptor` and `inferredReturnTypes`. Ops without
/// one define `inferReturnTypes` by hand.
class Adj_InferOp<string mnemonic, list<Trait> traits = [],
                  string inference = "">
    : Adj_Op<mnemonic, !listconcat(traits,
                                   [Pure, InferTypeOpAdaptorWithIsCompatible])> {
  let extraClassDefinition = [{
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange l,
                                            ::mlir::TypeRange r) {
      return l == r;
    }
  }] # !if(!empty(inference), "", [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context,
        ::std::optional<::mlir::Location> location, Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return ::adjoint::adj::shape_rules::}] # inference # [{;
    }
  }]);
}

//===----------------------------------------------------------------------===//
// Structure: functions and closures
//===----------------------------------------------------------------------===//

def Adj_FuncOp : Adj_Op<"func", [
    IsolatedFromAbove, FunctionOpInterface, Symbol]> {
  let summary = "A top-level function (Myia's Graph)";
  let description = [{
    A named function. Functions refer to each other (and to themselves) by
    symbol, so direct and mutual recursion need nothing special. Its body ends
    with `adj.return`.

    ```mlir
    adj.func @square(%x: tensor<f32>) -> tensor<f32> {
      %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
      adj.return %y : tensor<f32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// Returns the argument types of this function.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Returns the result types of this function.
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// Returns the region on the current operation that is callable.
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
}

def Adj_LambdaOp : Adj_Op<"lambda", [Pure]> {
  let summary = "A closure";
  let description = [{
    Makes a function value from its region. The region is not isolated from
    above: the values of enclosing regions that it uses are its free
    variables, captured when the closure is made.

    ```mlir
    %add_x = adj.lambda (%y: tensor<f32>) -> tensor<f32> {
      %s = adj.add %x, %y : tensor<f32>, tensor<f32>
      adj.return %s : tensor<f32>
    }
    ```
  }];
  let results = (outs Adj_FnType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    FnType getFnType() { return ::llvm::cast<FnType>(getResult().getType()); }
  }];
}

def Adj_FuncRefOp : Adj_Op<"func_ref", [
    Pure, ConstantLike, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A top-level function as a value";
  let description = [{
    ```mlir
    %f = adj.func_ref @square : !adj.fn<(tensor<f32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee);
  let results = (outs Adj_FnLike:$result);
  let assemblyFormat = "$callee attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Adj_ClosureOp : Adj_Op<"closure", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A closure with an explicit environment";
  let description = [{
    Makes a function value from the top-level function `@f` and the
    captured values: calling the result with `x...` calls `@f(captures...,
    x...)`. `@f`'s leading parameters take the captured values and its
    remaining parameters are those of the function value, so
    `@f: (C..., A...) -> (R...)` with captures of types `C...` gives a value
    of type `!adj.fn<(A...) -> (R...)>`. `-adj-closure-convert` turns every
    `adj.lambda` into one.

    The captures are separate operands rather than one tuple so that each
    captured value stays a plain parameter of `@f`: later passes can remove
    an unused capture or specialize on one like any other parameter, and a
    call of a known closure becomes a direct call without tuple packing.

    ```mlir
    %add_x = adj.closure @f_lambda_0(%x)
             : (tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Adj_Value>:$captures);
  let results = (outs Adj_FnType:$result);
  let assemblyFormat = [{
    $callee `(` $captures `)` attr-dict `:`
    functional-type($captures, $result)
  }];
  let extraClassDeclaration = [{
    FnType getFnType() { return ::llvm::cast<FnType>(getResult().getType()); }
  }];
}

def Adj_CallOp : Adj_Op<"call", [Pure]> {
  let summary = "Applies a function value to arguments";
  let description = [{
    The callee is any function value: a `adj.func_ref`, a closure, a function
    passed in, returned or taken from a tuple. The argument and result types
    come from the callee's type; an untyped callee spells them out.

    ```mlir
    %y = adj.call %f(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %z = adj.call %g(%x) : !adj.any (tensor<f32>) -> (!adj.any)
    ```
  }];
  let arguments = (ins Adj_FnLike:$callee, Variadic<Adj_Value>:$args);
  let results = (outs Variadic<Adj_Value>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Adj_ReturnOp : Adj_Op<"return", [
    Pure, Terminator, ReturnLike, ParentOneOf<["FuncOp", "LambdaOp"]>]> {
  let summary = "Returns from a function or a closure";
  let arguments = (ins Variadic<Adj_Value>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Structure: tuples
//===----------------------------------------------------------------------===//

def Adj_TupleOp : Adj_InferOp<"tuple"> {
  let summary = "Builds a tuple";
  let description = [{
    ```mlir
    %t = adj.tuple %a, %f : tensor<f32>, !adj.fn<() -> tensor<f32>>
    %e = adj.tuple()
    ```
  }];
  let arguments = (ins Variadic<Adj_Value>:$elements);
  let results = (outs Adj_TupleType:$result);
  // The empty tuple is spelled `()`: with nothing after `adj.tuple`, the
  // result of the next op (`%x = ...`) would be parsed as an element.
  let assemblyFormat =
      "($elements^ `:` type($elements)) : (`(` `)`)? attr-dict";
  let hasFolder = 1;
}

def Adj_GetOp : Adj_InferOp<"get"> {
  let summary = "Reads one element of a tuple";
  let description = [{
    ```mlir
    %a = adj.get %t[0] : !adj.tuple<tensor<f32>, tensor<2xf32>>
    ```
  }];
  let arguments = (ins Adj_TupleLike:$tuple, I64Attr:$index);
  let results = (outs Adj_Value:$result);
  let assemblyFormat = "$tuple `[` $index `]` attr-dict `:` type($tuple)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Structure: control flow
//===----------------------------------------------------------------------===//

def Adj_IfOp : Adj_Op<"if", [Pure, NoRegionArguments]> {
  let summary = "A conditional: evaluates one of two regions";
  let description = [{
    Only the region selected by the rank-0 `i1` condition is evaluated, so a
    recursive function can stop in the other one.

    ```mlir
    %r = adj.if %c : tensor<i1> -> (tensor<f32>) {
      adj.yield %a : tensor<f32>
    } else {
      adj.yield %b : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Adj_TensorLike:$condition);
  let results = (outs Variadic<Adj_Value>:$results);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition `:` type($condition) (`->` `(` type($results)^ `)`)?
    $thenRegion `else` $elseRegion attr-dict
  }];
  let hasVerifier = 1;
}

def Adj_ForOp : Adj_Op<"for", [Pure]> {
  let summary = "A counted loop with loop-carried values";
  let description = [{
    Runs the body for `i = lb, lb + step, ...` while `i < ub` (`step > 0`).
    The body's block arguments are the induction variable (a rank-0 `i64`
    tensor) and the carried values; it yields the next carried values. The
    loop's results are the last carried values (the initial ones when the
    body never runs).

    Adjoint has both structured loops and recursion: loops lower directly to
    `scf` and vectorize, while recursion expresses what loops cannot. The
    grad transform differentiates a loop by carrying the backpropagator
    closure of the iterations so far, so no tape is needed.

    ```mlir
    %r = adj.for %lb to %ub step %s : tensor<i64>, tensor<i64>, tensor<i64>
           iter_args(%x0 : tensor<f32>) -> tensor<f32> {
    ^bb0(%i: tensor<i64>, %x: tensor<f32>):
      %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
      adj.yield %y : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Adj_TensorLike:$lowerBound, Adj_TensorLike:$upperBound,
                       Adj_TensorLike:$step, Variadic<Adj_Value>:$inits);
  let results = (outs Variadic<Adj_Value>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `step` $step `:`
    type($lowerBound) `,` type($upperBound) `,` type($step)
    (`iter_args` `(` $inits^ `:` type($inits) `)` `->` type($results))?
    $body attr-dict
  }];
  let hasVerifier = 1;
}

def Adj_WhileOp : Adj_Op<"while", [Pure]> {
  let summary = "A loop that runs while a condition holds";
  let description = [{
    Evaluates `cond` on the carried values; while it yields true, `body` maps
    the carried values to the next ones. Both regions take the carried values
    as block arguments.

    ```mlir
    %r = adj.while (%x0 : tensor<f32>) -> tensor<f32> cond {
    ^bb0(%x: tensor<f32>):
      %c = adj.cmp lt, %x, %ten : tensor<f32>, tensor<f32>
      adj.yield %c : tensor<i1>
    } do {
    ^bb0(%x: tensor<f32>):
      %y = adj.add %x, %x : tensor<f32>, tensor<f32>
      adj.yield %y : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Adj_Value>:$inits);
  let results = (outs Variadic<Adj_Value>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`(` $inits^ `:` type($inits) `)` `->` type($results))?
    `cond` $cond `do` $body attr-dict
  }];
  let hasVerifier = 1;
}

def Adj_YieldOp : Adj_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["IfOp", "ForOp", "WhileOp"]>]> {
  let summary = "Ends a region of adj.if, adj.for or adj.while";
  let arguments = (ins Variadic<Adj_Value>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

//===----------------------------------------------------------------------===//
// Elementwise: tensor primitives applied element by element
//===----------------------------------------------------------------------===//

/// f(lhs, rhs) with NumPy broadcasting; both operands have one element type.
/// `domain` names the element types the op takes (shape_rules::Domain).
class Adj_BinaryOp<string mnemonic, string doc, string domain = "Numeric">
    : Adj_InferOp<mnemonic, [Adj_BroadcastingElementwise],
                  "inferBinary(context, location, getOperationName(), "
                  "adaptor.getOperands().getTypes(), shape_rules::Domain::" # domain #
                  ", inferredReturnTypes)"> {
  let summary = doc;
  let arguments = (ins Adj_TensorLike:$lhs, Adj_TensorLike:$rhs);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def Adj_AddOp : Adj_BinaryOp<"add", "Elementwise lhs + rhs">;
def Adj_SubOp : Adj_BinaryOp<"sub", "Elementwise lhs - rhs">;
def Adj_MulOp : Adj_BinaryOp<"mul", "Elementwise lhs * rhs">;
def Adj_DivOp : Adj_BinaryOp<"div", "Elementwise lhs / rhs (truncating for integers)">;
def Adj_PowOp : Adj_BinaryOp<"pow", "Elementwise lhs ** rhs (floating point)",
                             "Inexact">;
def Adj_MaximumOp : Adj_BinaryOp<"maximum", "Elementwise max(lhs, rhs)",
                                 "Ordered">;
def Adj_MinimumOp : Adj_BinaryOp<"minimum", "Elementwise min(lhs, rhs)",
                                 "Ordered">;
def Adj_Atan2Op : Adj_BinaryOp<"atan2",
    "Elementwise angle of the point (rhs, lhs): atan(lhs / rhs) in the right "
    "quadrant", "Float">;

/// f(x) elementwise; the result has the operand's type. `floatOnly` refuses
/// integers; `complex` admits complex elements; `modulus` makes the result
/// of a complex operand real (the parts' type).
class Adj_UnaryOp<string mnemonic, string doc, bit floatOnly = 1,
                  bit complex = 1, bit modulus = 0>
    : Adj_InferOp<mnemonic, [Adj_BroadcastingElementwise],
                  "inferUnary(context, location, getOperationName(), "
                  "adaptor.getInput().getType(), shape_rules::UnaryRule{" #
                  !if(floatOnly, "true", "false") # ", " #
                  !if(complex, "true", "false") # ", " #
                  !if(modulus, "true", "false") # "}, inferredReturnTypes)"> {
  let summary = doc;
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_NegOp : Adj_UnaryOp<"neg", "Elementwise -x", 0>;
def Adj_ExpOp : Adj_UnaryOp<"exp", "Elementwise e**x">;
def Adj_LogOp : Adj_UnaryOp<"log", "Elementwise natural logarithm">;
def Adj_Log1pOp : Adj_UnaryOp<"log1p", "Elementwise log(1 + x), exact for tiny x">;
def Adj_Expm1Op : Adj_UnaryOp<"expm1", "Elementwise e**x - 1, exact for tiny x">;
def Adj_TanhOp : Adj_UnaryOp<"tanh", "Elementwise hyperbolic tangent">;
def Adj_SigmoidOp : Adj_UnaryOp<"sigmoid", "Elementwise 1 / (1 + e**-x)", 1, 0>;
def Adj_ReluOp : Adj_UnaryOp<"relu", "Elementwise max(x, 0)", 0, 0>;
def Adj_SqrtOp : Adj_UnaryOp<"sqrt", "Elementwise square root">;
def Adj_RsqrtOp : Adj_UnaryOp<"rsqrt", "Elementwise 1 / sqrt(x)">;
def Adj_AbsOp : Adj_UnaryOp<"abs", "Elementwise |x| (the modulus, real, for complex x)",
                            0, 1, 1>;
def Adj_SignOp : Adj_UnaryOp<"sign", "Elementwise -1, 0 or 1 (x / |x| or 0 for complex x)", 0>;
def Adj_SinOp : Adj_UnaryOp<"sin", "Elementwise sine">;
def Adj_CosOp : Adj_UnaryOp<"cos", "Elementwise cosine">;
def Adj_ErfOp : Adj_UnaryOp<"erf", "Elementwise error function", 1, 0>;

def Adj_ComplexOp : Adj_InferOp<"complex", [Adj_BroadcastingElementwise]> {
  let summary = "Elementwise re + i * im, with broadcasting";
  let description = [{
    The parts are f32 or f64 tensors of one element type; the result is
    complex of that type.

    ```mlir
    %z = adj.complex %re, %im : tensor<3xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$re, Adj_TensorLike:$im);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$re `,` $im attr-dict `:` type($re) `,` type($im)";
}

/// A part of a complex tensor, as a real tensor of the part's type.
class Adj_ComplexPartOp<string mnemonic, string doc>
    : Adj_InferOp<mnemonic, [Adj_BroadcastingElementwise],
                  "inferPart(context, location, getOperationName(), "
                  "adaptor.getInput().getType(), inferredReturnTypes)"> {
  let summary = doc;
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_RealOp : Adj_ComplexPartOp<"real", "Elementwise real part">;
def Adj_ImagOp : Adj_ComplexPartOp<"imag", "Elementwise imaginary part">;

def Adj_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::adjoint::adj";
}

def Adj_CmpOp : Adj_InferOp<"cmp", [Adj_BroadcastingElementwise]> {
  let summary = "Elementwise comparison, giving i1";
  let description = [{
    ```mlir
    %c = adj.cmp lt, %a, %b : tensor<3xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Adj_CmpPredicate:$predicate, Adj_TensorLike:$lhs,
                       Adj_TensorLike:$rhs);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
  }];
}

def Adj_SelectOp : Adj_InferOp<"select", [Adj_BroadcastingElementwise]> {
  let summary = "Elementwise cond ? a : b, with broadcasting";
  let arguments = (ins Adj_TensorLike:$condition, Adj_TensorLike:$lhs,
                       Adj_TensorLike:$rhs);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict `:`
    type($condition) `,` type($lhs) `,` type($rhs)
  }];
}

def Adj_CastOp : Adj_Op<"cast", [Pure, Adj_BroadcastingElementwise]> {
  let summary = "Converts the element type";
  let description = [{
    Float to integer truncates toward zero; to i1 tests for non-zero.
    Complex to a real type converts the real part (NumPy's astype, JAX's
    convert_element_type); a real type to complex has a zero imaginary part.

    ```mlir
    %h = adj.cast %x : tensor<4xf32> to tensor<4xf16>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Bits: integer bit manipulation and the counter-based random hash
//===----------------------------------------------------------------------===//

/// f(lhs, rhs) on i32 or i64 words with NumPy broadcasting; both operands
/// have one element type. The words are read as unsigned bit patterns.
class Adj_BitsBinaryOp<string mnemonic, string doc>
    : Adj_InferOp<mnemonic, [Adj_BroadcastingElementwise],
                  "inferBinary(context, location, getOperationName(), "
                  "adaptor.getOperands().getTypes(), shape_rules::Domain::Words, "
                  "inferredReturnTypes)"> {
  let summary = doc;
  let arguments = (ins Adj_TensorLike:$lhs, Adj_TensorLike:$rhs);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def Adj_BitwiseAndOp : Adj_BitsBinaryOp<"bitwise_and", "Elementwise lhs & rhs">;
def Adj_BitwiseOrOp : Adj_BitsBinaryOp<"bitwise_or", "Elementwise lhs | rhs">;
def Adj_BitwiseXorOp : Adj_BitsBinaryOp<"bitwise_xor", "Elementwise lhs ^ rhs">;
def Adj_ShiftLeftOp : Adj_BitsBinaryOp<"shift_left",
    "Elementwise lhs << rhs; 0 when rhs, read unsigned, is at least the width">;
def Adj_ShiftRightLogicalOp : Adj_BitsBinaryOp<"shift_right_logical",
    "Elementwise lhs >> rhs shifting in zeros; 0 when rhs, read unsigned, is "
    "at least the width">;

def Adj_BitcastOp : Adj_Op<"bitcast", [Pure, Adj_BroadcastingElementwise]> {
  let summary = "Reinterprets the bits of each element as another type";
  let description = [{
    The element types have one width (i32 and f32, i64 and f64); the shape
    is unchanged. Random floats are made this way from random mantissa bits.

    ```mlir
    %f = adj.bitcast %bits : tensor<4xi32> to tensor<4xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
}

def Adj_Threefry2x32Op : Adj_InferOp<"threefry2x32", [Adj_BroadcastingElementwise]> {
  let summary = "The Threefry-2x32 block hash (20 rounds), elementwise";
  let description = [{
    Hashes the counter words `(x0, x1)` under the key words `(k0, k1)`, all
    i32 tensors read as unsigned 32-bit words and broadcast together. The
    two output words are packed into one i64: the first in the high half,
    the second in the low half. This is JAX's `threefry2x32` primitive (and
    Random123's threefry2x32_20): every random number of `adjoint.random`
    is derived from it, so keys, splits and samples are pure functions that
    every target computes bit for bit alike.

    One packed result rather than two keeps the op a plain elementwise op
    with one result, which every layer (rules, interpreter, lowering)
    handles without a multi-result special case; a shift and a truncating
    cast take the words apart.

    ```mlir
    %r = adj.threefry2x32 %k0, %k1, %x0, %x1
         : tensor<i32>, tensor<i32>, tensor<i32>, tensor<8xi32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$k0, Adj_TensorLike:$k1,
                       Adj_TensorLike:$x0, Adj_TensorLike:$x1);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $k0 `,` $k1 `,` $x0 `,` $x1 attr-dict `:`
    type($k0) `,` type($k1) `,` type($x0) `,` type($x1)
  }];
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

def Adj_MatmulOp : Adj_InferOp<"matmul"> {
  let summary = "Matrix product, batched over leading dimensions";
  let description = [{
    `[..., m, k] x [..., k, n] -> [..., m, n]`; both operands have rank at
    least 2 and their batch dimensions broadcast (NumPy's `matmul`).
  }];
  let arguments = (ins Adj_TensorLike:$lhs, Adj_TensorLike:$rhs);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

//===----------------------------------------------------------------------===//
// LinearAlgebra: matrix decompositions and triangular solves
//===----------------------------------------------------------------------===//
//
// The primitives np.linalg and scipy.linalg are built from, as JAX builds
// them from lax.linalg: every other function (inv, solve, det, slogdet,
// pinv, lstsq, norm, matrix_power, cho_solve) is a composite of these,
// matmul and elementwise ops. Each acts on the last two dimensions and is
// batched over the leading ones, which must be equal between operands (no
// broadcasting: composites broadcast first). Element types are f32, f64,
// complex<f32> and complex<f64>; for complex matrices "symmetric" reads
// "Hermitian" and `^T` in the definitions below the conjugate transpose
// `^H` (not in triangular_solve's `transpose_a`, a plain transpose). A
// matrix a decomposition does not exist for (not positive definite,
// singular in a way LAPACK reports) gives NaNs, as in JAX, never an error.

def Adj_CholeskyOp : Adj_InferOp<"cholesky", [Adj_MatrixDecomposition]> {
  let summary = "Cholesky factor L of a symmetric positive definite matrix";
  let description = [{
    `[..., n, n] -> [..., n, n]`: the lower-triangular `l` with
    `a = l @ l^T` (`l^H` for complex), zeros above the diagonal. Only
    the lower triangle of `a` is read. A matrix that is not positive
    definite gives NaNs.

    ```mlir
    %l = adj.cholesky %a : tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_TriangularSolveOp : Adj_InferOp<"triangular_solve", [Adj_MatrixDecomposition]> {
  let summary = "Solves a triangular system op(a) x = b or x op(a) = b";
  let description = [{
    `a: [..., m, m]`, `b: [..., m, n]` (`left_side`) or `[..., n, m]`; the
    result has `b`'s type. `lower` says which triangle of `a` is read (the
    other is ignored), `transpose_a` solves with `a^T`, and `unit_diagonal`
    takes the diagonal of `a` as ones without reading it. A zero on the
    diagonal gives infinities or NaNs, as the division does.

    ```mlir
    %x = adj.triangular_solve %a, %b left_side lower
         : tensor<4x4xf64>, tensor<4x2xf64>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$a, Adj_TensorLike:$b,
                       UnitAttr:$left_side, UnitAttr:$lower,
                       UnitAttr:$transpose_a, UnitAttr:$unit_diagonal);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $a `,` $b (`left_side` $left_side^)? (`lower` $lower^)?
    (`transpose_a` $transpose_a^)? (`unit_diagonal` $unit_diagonal^)?
    attr-dict `:` type($a) `,` type($b)
  }];
}

def Adj_LuOp : Adj_InferOp<"lu", [Adj_MatrixDecomposition]> {
  let summary = "LU decomposition with partial pivoting";
  let description = [{
    `[..., m, n] -> (lu [..., m, n], pivots [..., min(m, n)] i32,
    permutation [..., m] i32)`, LAPACK's getrf: `p @ a = l @ u` where `l`
    is the unit lower triangle of `lu` (its diagonal is not stored), `u`
    its upper triangle, row `i` of `p @ a` is row `permutation[i]` of `a`,
    and `pivots[i]` is the row swapped with row `i` at step `i` (from 0).
    A singular matrix gives a zero on `u`'s diagonal, no error (as JAX).

    ```mlir
    %lu, %pivots, %perm = adj.lu %a : tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$lu, Adj_TensorLike:$pivots,
                      Adj_TensorLike:$permutation);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_QrOp : Adj_InferOp<"qr", [Adj_MatrixDecomposition]> {
  let summary = "QR decomposition";
  let description = [{
    `[..., m, n] -> (q [..., m, k], r [..., k, n])` with `a = q @ r`, `q`
    orthonormal columns and `r` upper triangular; `k = min(m, n)`, or `m`
    with `full_matrices` (numpy's "reduced" and "complete" modes). Signs
    are LAPACK's (geqrf + orgqr), as numpy and JAX give them.

    ```mlir
    %q, %r = adj.qr %a : tensor<5x3xf64>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input, UnitAttr:$full_matrices);
  let results = (outs Adj_TensorLike:$q, Adj_TensorLike:$r);
  let assemblyFormat = [{
    $input (`full_matrices` $full_matrices^)? attr-dict `:` type($input)
  }];
}

def Adj_EighOp : Adj_InferOp<"eigh", [Adj_MatrixDecomposition]> {
  let summary = "Eigen-decomposition of a symmetric matrix";
  let description = [{
    `[..., n, n] -> (w [..., n], v [..., n, n])`: eigenvalues in ascending
    order and the orthonormal eigenvectors as the columns of `v`, with
    `a = v @ diag(w) @ v^T` (`v^H`; `w` is real). Only the lower
    triangle of `a` is read (the upper one with `upper`), as numpy's
    `UPLO`. The order of the results
    is numpy's (JAX's primitive returns them the other way round). Each
    eigenvector is signed so that its entry of largest magnitude (the
    first of equal ones) is positive (for complex vectors: real and
    positive, the phase taken out): LAPACK leaves the sign to the
    implementation, and every target must compute the same vectors. When
    only `w` is used, the lowering may skip computing `v`.

    ```mlir
    %w, %v = adj.eigh %a : tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input, UnitAttr:$upper);
  let results = (outs Adj_TensorLike:$eigenvalues, Adj_TensorLike:$eigenvectors);
  let assemblyFormat = [{
    $input (`upper` $upper^)? attr-dict `:` type($input)
  }];
}

def Adj_EigOp : Adj_InferOp<"eig", [Adj_MatrixDecomposition]> {
  let summary = "Eigen-decomposition of a general square matrix";
  let description = [{
    `[..., n, n] -> (w [..., n], v [..., n, n])`, both complex (of the
    operand's type, or complex<f32> / complex<f64> for a real operand):
    `a @ v = v @ diag(w)`, the eigenvectors the columns of `v`, each of
    unit norm with its entry of largest magnitude (the first of equal
    ones) real and positive. The eigenvalues are sorted as
    np.sort_complex sorts (by real part, then imaginary part): LAPACK's
    geev leaves their order to the implementation, and every target must
    compute the same results (numpy and JAX return geev's order). A
    matrix whose eigenvalues do not converge, or with a NaN or an
    infinity, gives NaNs. When only `w` is used, the lowering may skip
    computing `v`. GPU targets have no kernels for it: LAPACK on the host
    computes it.

    ```mlir
    %w, %v = adj.eig %a : tensor<4x4xf64>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$eigenvalues,
                      Adj_TensorLike:$eigenvectors);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_SvdOp : Adj_InferOp<"svd", [Adj_MatrixDecomposition]> {
  let summary = "Singular value decomposition";
  let description = [{
    `[..., m, n] -> (u [..., m, k], s [..., k], vh [..., k, n])` with
    `a = u @ diag(s) @ vh`, singular values real, non-negative and
    descending, `k = min(m, n)`; with `full_matrices`, `u` is `[..., m, m]`
    and `vh` `[..., n, n]`. The order of the results is numpy's. Each pair
    of singular vectors (column i of `u`, row i of `vh`) is signed so that
    the entry of largest magnitude of the column of `u` (the first of
    equal ones) is positive (real and positive for complex vectors, the
    row of `vh` taking the conjugate phase), as eigh's vectors are; the
    columns of a full `u` beyond `k` (and rows of `vh`) are signed alone
    the same way. Those
    are an orthonormal basis of the complement of the others, which is
    unique (up to that sign) only when it has one dimension: targets may
    choose different bases of a larger complement, as LAPACKs do. When
    only `s` is used, the lowering may skip computing `u` and `vh`.

    ```mlir
    %u, %s, %vh = adj.svd %a : tensor<5x3xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input, UnitAttr:$full_matrices);
  let results = (outs Adj_TensorLike:$u, Adj_TensorLike:$s,
                      Adj_TensorLike:$vh);
  let assemblyFormat = [{
    $input (`full_matrices` $full_matrices^)? attr-dict `:` type($input)
  }];
}

//===----------------------------------------------------------------------===//
// Fourier: the discrete Fourier transform
//===----------------------------------------------------------------------===//

def Adj_FftType : I32EnumAttr<"FftType", "which discrete Fourier transform", [
    I32EnumAttrCase<"fft", 0>, I32EnumAttrCase<"ifft", 1>,
    I32EnumAttrCase<"rfft", 2>, I32EnumAttrCase<"irfft", 3>]> {
  let cppNamespace = "::adjoint::adj";
}

def Adj_FftOp : Adj_InferOp<"fft"> {
  let summary = "Discrete Fourier transform over the trailing dimensions";
  let description = [{
    JAX's `lax.fft`: the transform over the last one to three dimensions,
    `lengths` long, batched over the leading ones. `fft` and `ifft` map
    complex to complex of the same shape (`ifft` divides by the product of
    `lengths`); `rfft` maps real `[..., n]` to complex `[..., n/2 + 1]`
    (the non-negative frequencies of the last dimension); `irfft` is its
    inverse, complex `[..., n/2 + 1]` to real `[..., n]` with `n` the last
    length, reading the input as the half of a Hermitian spectrum (the
    imaginary parts of the zero and, for even `n`, the `n/2` frequency are
    ignored) and dividing by the product of `lengths`. Element types are
    f32/complex<f32> and f64/complex<f64>. numpy's `n`, `axes` and `norm`
    are pads, slices, transposes and scales around it.

    ```mlir
    %y = adj.fft rfft %x lengths = [8] : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Adj_FftType:$fft_type, Adj_TensorLike:$input,
                       DenseI64ArrayAttr:$lengths);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $fft_type $input `lengths` `=` $lengths attr-dict `:` type($input)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// `domain` names the element types the op takes (shape_rules::Domain).
class Adj_ReduceOp<string mnemonic, string doc, string domain>
    : Adj_InferOp<mnemonic, [Adj_Reduction],
                  "inferReduce(context, location, getOperationName(), "
                  "adaptor.getInput().getType(), adaptor.getAxes(), "
                  "adaptor.getKeepdims(), shape_rules::Domain::" # domain #
                  ", inferredReturnTypes)"> {
  let summary = doc;
  let description = [{
    Reduces over `axes` (distinct, in range); `keepdims` keeps them as
    size-1 dimensions.

    ```mlir
    %s = adj.}] # mnemonic # [{ %x axes = [1] keepdims : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keepdims);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keepdims` $keepdims^)? attr-dict `:` type($input)
  }];
}

def Adj_ReduceSumOp : Adj_ReduceOp<"reduce_sum", "Sum over axes", "Numeric">;
def Adj_ReduceMaxOp : Adj_ReduceOp<"reduce_max", "Maximum over axes", "Ordered">;
def Adj_ReduceMeanOp : Adj_ReduceOp<"reduce_mean", "Mean over axes", "Inexact">;

//===----------------------------------------------------------------------===//
// Movement: shapes and data movement
//===----------------------------------------------------------------------===//

def Adj_BroadcastToOp : Adj_Op<"broadcast_to", [Pure]> {
  let summary = "Broadcasts to a shape (NumPy rules)";
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Adj_ReshapeOp : Adj_Op<"reshape", [Pure]> {
  let summary = "Changes the shape, keeping the row-major order of elements";
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Adj_TransposeOp : Adj_InferOp<"transpose"> {
  let summary = "Permutes dimensions: result dim i is input dim perm[i]";
  let arguments = (ins Adj_TensorLike:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input `perm` `=` $perm attr-dict `:` type($input)";
}

def Adj_SliceOp : Adj_InferOp<"slice"> {
  let summary = "A strided box: input[start:limit:stride] per dimension";
  let arguments = (ins Adj_TensorLike:$input, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$limit, DenseI64ArrayAttr:$stride);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $input `start` `=` $start `limit` `=` $limit `stride` `=` $stride
    attr-dict `:` type($input)
  }];
}

def Adj_ConcatOp : Adj_InferOp<"concat"> {
  let summary = "Joins tensors along an axis";
  let arguments = (ins Variadic<Adj_TensorLike>:$inputs, I64Attr:$axis);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$inputs `axis` `=` $axis attr-dict `:` type($inputs)";
}

def Adj_PadOp : Adj_InferOp<"pad"> {
  let summary = "Pads with a constant: low[i] before and high[i] after dim i";
  let arguments = (ins Adj_TensorLike:$input, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, F64Attr:$value);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $input `low` `=` $low `high` `=` $high `value` `=` $value
    attr-dict `:` type($input)
  }];
}

def Adj_GatherOp : Adj_InferOp<"gather"> {
  let summary = "Takes slices of a table along an axis (embedding lookup)";
  let description = [{
    `result[i..., j...]` with `table: [A..., N, B...]` and integer
    `indices: [I...]` is `table[A..., indices[I...], B...]`, of shape
    `[A..., I..., B...]`. An index outside `[0, N)` is an error.

    ```mlir
    %e = adj.gather %table[%ids] axis = 0 : tensor<100x16xf32>, tensor<4x8xi64>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$table, Adj_TensorLike:$indices,
                       I64Attr:$axis);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $table `[` $indices `]` `axis` `=` $axis attr-dict `:`
    type($table) `,` type($indices)
  }];
}

def Adj_ScatterAddOp : Adj_InferOp<"scatter_add"> {
  let summary = "Adds slices into a tensor at indices (the adjoint of gather)";
  let description = [{
    Returns `target` with `updates[A..., I..., B...]` added to
    `target[A..., indices[I...], B...]`; repeated indices accumulate.

    ```mlir
    %g = adj.scatter_add %zeros[%ids], %upd axis = 0
         : tensor<100x16xf32>, tensor<4x8xi64>, tensor<4x8x16xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$target, Adj_TensorLike:$indices,
                       Adj_TensorLike:$updates, I64Attr:$axis);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $target `[` $indices `]` `,` $updates `axis` `=` $axis attr-dict `:`
    type($target) `,` type($indices) `,` type($updates)
  }];
}

def Adj_ScatterMode : I32EnumAttr<"ScatterMode", "how adj.scatter combines", [
    I32EnumAttrCase<"set", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"min", 2>, I32EnumAttrCase<"max", 3>]> {
  let cppNamespace = "::adjoint::adj";
}

def Adj_ScatterOp : Adj_InferOp<"scatter"> {
  let summary = "Combines slices into a tensor at indices (x.at[i].set/mul/"
                "min/max)";
  let description = [{
    Like `adj.scatter_add` (`add` has its own op), but each slot of
    `target[A..., indices[I...], B...]` is combined with
    `updates[A..., I..., B...]` by `mode`: `set` replaces it, `mul`
    multiplies it, `min`/`max` keep the smaller/larger value. Repeated
    indices are applied in the row-major order of `indices`, so with `set`
    the last one wins on every target; `mul`, `min` and `max` combine all.

    ```mlir
    %r = adj.scatter set %x[%ids], %upd axis = 0
         : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Adj_ScatterMode:$mode, Adj_TensorLike:$target,
                       Adj_TensorLike:$indices, Adj_TensorLike:$updates,
                       I64Attr:$axis);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $mode $target `[` $indices `]` `,` $updates `axis` `=` $axis attr-dict
    `:` type($target) `,` type($indices) `,` type($updates)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Convolution: convolution and pooling (NCHW)
//===----------------------------------------------------------------------===//

def Adj_Conv2DOp : Adj_InferOp<"conv2d"> {
  let summary = "2-D convolution (cross-correlation), NCHW input, OIHW filter";
  let description = [{
    `input: [N, C, H, W]`, `filter: [O, C / groups, KH, KW]`, result
    `[N, O, OH, OW]` with `OH = (H + top + bottom - dh * (KH - 1) - 1) / sh + 1`.
    `padding` is `[top, bottom, left, right]` (zeros). `C` and `O` are
    multiples of `groups`.

    ```mlir
    %y = adj.conv2d %x, %w stride = [1, 1] padding = [1, 1, 1, 1]
         dilation = [1, 1] groups = 1 : tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input, Adj_TensorLike:$filter,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, I64Attr:$groups);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $input `,` $filter `stride` `=` $stride `padding` `=` $padding
    `dilation` `=` $dilation `groups` `=` $groups attr-dict `:`
    type($input) `,` type($filter)
  }];
}

class Adj_PoolOp<string mnemonic, string doc>
    : Adj_InferOp<mnemonic, [],
                  "inferPool(context, location, getOperationName(), "
                  "adaptor.getInput().getType(), adaptor.getKernel(), "
                  "adaptor.getStride(), adaptor.getPadding(), "
                  "inferredReturnTypes)"> {
  let summary = doc;
  let description = [{
    Windows of `kernel` size moved by `stride` over an NCHW input padded by
    `padding = [top, bottom, left, right]`. Max pooling pads with -inf;
    average pooling pads with zeros and divides by the window size
    (PyTorch's `count_include_pad=True`).
  }];
  let arguments = (ins Adj_TensorLike:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = [{
    $input `kernel` `=` $kernel `stride` `=` $stride `padding` `=` $padding
    attr-dict `:` type($input)
  }];
}

def Adj_MaxPool2DOp : Adj_PoolOp<"max_pool2d", "2-D max pooling, NCHW">;
def Adj_AvgPool2DOp : Adj_PoolOp<"avg_pool2d", "2-D average pooling, NCHW">;

//===----------------------------------------------------------------------===//
// Creation: tensor creation
//===----------------------------------------------------------------------===//

def Adj_ConstantOp : Adj_Op<"constant", [Pure, ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let description = [{
    ```mlir
    %c = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Adj_Tensor:$result);
  // A custom parser rejects element types outside the dialect's before the
  // op exists: printing a dense attribute of some of them (i0) crashes
  // MLIR 22's printer, and a diagnostic on the op would print it.
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Adj_FillOp : Adj_Op<"fill", [Pure]> {
  let summary = "A tensor with every element equal to a value";
  let arguments = (ins F64Attr:$value);
  let results = (outs Adj_Tensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Adj_IotaOp : Adj_Op<"iota", [Pure]> {
  let summary = "Each element is its index along `axis`";
  let arguments = (ins I64Attr:$axis);
  let results = (outs Adj_Tensor:$result);
  let assemblyFormat = "`axis` `=` $axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Automatic differentiation: requests (expanded by -adj-grad)
//===----------------------------------------------------------------------===//

/// `kind` is the request's shape_rules::ADRequest; `customSens` the C++
/// expression that says whether it has the `custom_sens` flag.
class Adj_ADRequestOp<string mnemonic, string doc, string kind,
                      string customSens = "false">
    : Adj_InferOp<mnemonic, [],
                  "inferADRequest(context, location, getOperationName(), "
                  "shape_rules::ADRequest::" # kind # ", adaptor.getFn().getType(), "
                  "adaptor.getWrt(), " # customSens # ", inferredReturnTypes)"> {
  let summary = doc;
  let arguments = (ins Adj_FnLike:$fn, OptionalAttr<DenseI64ArrayAttr>:$wrt);
  let results = (outs Adj_FnLike:$result);
  let assemblyFormat = "$fn (`wrt` `=` $wrt^)? attr-dict `:` type($fn)";
}

def Adj_GradOp : Adj_ADRequestOp<"grad", "The gradient of a function", "Grad",
                                 "adaptor.getCustomSens()"> {
  let description = [{
    For `f: (A...) -> R` with one result, `grad(f): (A...) -> (sens(A_i)...)`
    for each `i` in `wrt` (all arguments when absent). The output
    sensitivity is ones of R's shape; with the `custom_sens` unit attribute
    it is a trailing extra argument of type `sens(R)`.

    ```mlir
    %g = adj.grad %f wrt = [0] : !adj.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins Adj_FnLike:$fn, OptionalAttr<DenseI64ArrayAttr>:$wrt,
                       UnitAttr:$custom_sens);
  let assemblyFormat = [{
    $fn (`wrt` `=` $wrt^)? (`custom_sens` $custom_sens^)? attr-dict `:` type($fn)
  }];
}

def Adj_ValueAndGradOp : Adj_ADRequestOp<"value_and_grad",
    "A function's value and its gradient", "ValueAndGrad",
    "adaptor.getCustomSens()"> {
  let description = [{
    Like `adj.grad`, but the resulting function returns `(R, sens(A_i)...)`.
  }];
  let arguments = (ins Adj_FnLike:$fn, OptionalAttr<DenseI64ArrayAttr>:$wrt,
                       UnitAttr:$custom_sens);
  let assemblyFormat = [{
    $fn (`wrt` `=` $wrt^)? (`custom_sens` $custom_sens^)? attr-dict `:` type($fn)
  }];
}

def Adj_VjpOp : Adj_ADRequestOp<"vjp",
    "A function's value and its pullback (reverse mode)", "Vjp"> {
  let description = [{
    For `f: (A...) -> (R...)`, `vjp(f): (A...) -> (R..., pullback)` where
    `pullback: (sens(R)...) -> (sens(A_i)...)` for each `i` in `wrt`.
  }];
}

def Adj_JvpOp : Adj_ADRequestOp<"jvp",
    "A function's value and its directional derivative (forward mode)", "Jvp"> {
  let description = [{
    For `f: (A...) -> (R...)`, `jvp(f): (A..., sens(A_i)...) -> (R...,
    sens(R)...)`: tangents for each `i` in `wrt` (all when absent) follow the
    primal arguments; arguments not in `wrt` have zero tangents.
  }];
}

//===----------------------------------------------------------------------===//
// Batching: the vmap request (expanded by -adj-grad)
//===----------------------------------------------------------------------===//

def Adj_VmapOp : Adj_InferOp<"vmap"> {
  let summary = "A function mapped over a batch dimension of its arguments";
  let description = [{
    For `f: (A...) -> (R...)`, `vmap(f)` takes each argument `i` with
    `in_axes[i] >= 0` with an extra dimension of size `batch_size` inserted
    at that axis (`in_axes[i] = -1`: the argument is not batched and is
    shared by every example), and returns each result `j` with the batch
    dimension at `out_axes[j]` (`out_axes[j] = -1`: returned without the
    batch, as JAX's `out_axes=None`; the expansion refuses it when the
    result depends on the batch). Example `b` of the results is
    `f` applied to example `b` of the batched arguments. Batched arguments
    and results are tensors; `-adj-grad` expands the request by batching
    `f`'s code (source transformation, no loop over the batch).

    ```mlir
    %v = adj.vmap %f in_axes = [-1, 0] out_axes = [0] batch_size = 8
         : !adj.fn<(tensor<3x4xf32>, tensor<3xf32>) -> tensor<4xf32>>
    ```
  }];
  let arguments = (ins Adj_FnLike:$fn, DenseI64ArrayAttr:$in_axes,
                       DenseI64ArrayAttr:$out_axes, I64Attr:$batch_size);
  let results = (outs Adj_FnLike:$result);
  let assemblyFormat = [{
    $fn `in_axes` `=` $in_axes `out_axes` `=` $out_axes
    `batch_size` `=` $batch_size attr-dict `:` type($fn)
  }];
}

//===----------------------------------------------------------------------===//
// Automatic differentiation: sensitivities and environments
//===----------------------------------------------------------------------===//

def Adj_ZerosLikeOp : Adj_InferOp<"zeros_like"> {
  let summary = "The zero sensitivity of a value";
  let description = [{
    Zeros for a tensor, a tuple of zeros for a tuple, the empty environment
    for a function or an environment: a value of type `sens(T)`.
  }];
  let arguments = (ins Adj_Value:$input);
  let results = (outs Adj_Value:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_GradAddOp : Adj_InferOp<"grad_add"> {
  let summary = "Adds two sensitivities of the same type";
  let description = [{
    Elementwise for tensors, per element for tuples, `adj.env_add` for
    environments: the accumulation of the sensitivities of a value that has
    several uses.
  }];
  let arguments = (ins Adj_Value:$lhs, Adj_Value:$rhs);
  let results = (outs Adj_Value:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def Adj_EnvNewOp : Adj_Op<"env_new", [Pure, ConstantLike]> {
  let summary = "The empty environment";
  let results = (outs Adj_EnvType:$result);
  let assemblyFormat = "attr-dict";
  let hasFolder = 1;
}

def Adj_EnvGetOp : Adj_Op<"env_get", [Pure]> {
  let summary = "Reads the sensitivity stored under a key";
  let description = [{
    Returns the value under `key`, or the zero of the result type when the
    key is absent.

    ```mlir
    %dx = adj.env_get %env[3] : tensor<4xf32>
    ```
  }];
  let arguments = (ins Adj_EnvLike:$env, I64Attr:$key);
  let results = (outs Adj_Value:$result);
  let assemblyFormat = [{
    $env `[` $key `]` attr-dict `:` type($env) `->` type($result)
  }];
}

def Adj_EnvSetOp : Adj_Op<"env_set", [Pure]> {
  let summary = "An environment with one key set (the input is unchanged)";
  let arguments = (ins Adj_EnvLike:$env, I64Attr:$key, Adj_Value:$value);
  let results = (outs Adj_EnvType:$result);
  let assemblyFormat = [{
    $env `[` $key `]` `,` $value attr-dict `:` type($env) `,` type($value)
  }];
}

def Adj_EnvAddOp : Adj_Op<"env_add", [Pure]> {
  let summary = "The key-wise sum of two environments";
  let arguments = (ins Adj_EnvLike:$lhs, Adj_EnvLike:$rhs);
  let results = (outs Adj_EnvType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

//===----------------------------------------------------------------------===//
// Automatic differentiation: stop_gradient, custom rules, rematerialization
//===----------------------------------------------------------------------===//

def Adj_StopGradientOp : Adj_InferOp<"stop_gradient"> {
  let summary = "Identity whose derivative is zero";
  let description = [{
    Returns its input (a tensor or a tuple of them). Reverse mode gives its
    input a zero sensitivity and forward mode its result a zero tangent. The
    op stays in the code that -adj-grad writes, so that an outer request
    (grad of grad) sees it too; -adj-strip-derivative-rules removes it once
    every request is expanded.

    ```mlir
    %y = adj.stop_gradient %x : tensor<4xf32>
    ```
  }];
  let arguments = (ins Adj_Value:$input);
  let results = (outs Adj_Value:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Adj_CustomVjpOp : Adj_InferOp<"custom_vjp"> {
  let summary = "A function with a user-given reverse-mode rule";
  let description = [{
    For `f: (A...) -> (R...)`, `fwd: (A...) -> (R..., Res...)` and
    `bwd: (Res..., sens(R)...) -> (sens(A)...)`, the result is a function of
    f's type that computes f. Reverse mode differentiates it as
    `x -> let (y, res) = fwd(x) in (y, dy -> bwd(res, dy))`; the values that
    f, fwd and bwd close over get no sensitivity from it. fwd and bwd are
    ordinary adj functions, so an outer request differentiates them (grad of
    grad). Forward mode refuses it (use adj.custom_jvp). No type in A, R or
    Res may hold a function.

    ```mlir
    %g = adj.custom_vjp %f, %fwd, %bwd : !adj.fn<(tensor<f32>) -> tensor<f32>>,
        !adj.fn<(tensor<f32>) -> (tensor<f32>, tensor<f32>)>,
        !adj.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins Adj_FnLike:$fn, Adj_FnLike:$fwd, Adj_FnLike:$bwd);
  let results = (outs Adj_FnLike:$result);
  let assemblyFormat = [{
    $fn `,` $fwd `,` $bwd attr-dict `:` type($fn) `,` type($fwd) `,` type($bwd)
  }];
}

def Adj_CustomJvpOp : Adj_InferOp<"custom_jvp"> {
  let summary = "A function with a user-given forward-mode rule";
  let description = [{
    For `f: (A...) -> (R...)` and a rule of the type of f's jvp,
    `(A..., sens(A)...) -> (R..., sens(R)...)` (primals, then tangents; the
    tangents of the results must be linear in the tangents of the
    arguments), the result is a function of f's type that computes f.
    Forward mode calls the rule; reverse mode reverse-differentiates the rule
    with respect to its tangent arguments (at zero tangents). Values the
    rule closes over get no derivative from it. No type in A or R may hold a
    function.

    ```mlir
    %g = adj.custom_jvp %f, %rule : !adj.fn<(tensor<f32>) -> tensor<f32>>,
        !adj.fn<(tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)>
    ```
  }];
  let arguments = (ins Adj_FnLike:$fn, Adj_FnLike:$rule);
  let results = (outs Adj_FnLike:$result);
  let assemblyFormat = [{
    $fn `,` $rule attr-dict `:` type($fn) `,` type($rule)
  }];
}

def Adj_CheckpointOp : Adj_InferOp<"checkpoint"> {
  let summary = "A function whose forward pass reverse mode recomputes";
  let description = [{
    Computes `fn`. Reverse mode keeps only its arguments (and the values it
    closes over) and recomputes its forward pass inside the backpropagator,
    on arguments passed through adj.optimization_barrier so that the
    optimizer does not merge the recomputation with the forward pass.
    Forward mode differentiates `fn` itself.

    ```mlir
    %g = adj.checkpoint %f : !adj.fn<(tensor<4xf32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins Adj_FnLike:$fn);
  let results = (outs Adj_FnLike:$result);
  let assemblyFormat = "$fn attr-dict `:` type($fn)";
}

def Adj_OptimizationBarrierOp : Adj_InferOp<"optimization_barrier"> {
  let summary = "Identity that the optimizer does not see through";
  let description = [{
    Returns its tensor input. No pass folds it, so the code computed from
    its result is never merged (CSE) with the code computed from its input.
    -adj-to-linalg lowers it to a copy into a new buffer
    (bufferization.alloc_tensor). Its derivative is the identity.

    ```mlir
    %y = adj.optimization_barrier %x : tensor<4xf32>
    ```
  }];
  let arguments = (ins Adj_TensorLike:$input);
  let results = (outs Adj_TensorLike:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

#endif // ADJOINT_DIALECT_ADJ_IR_ADJOPS_TD
