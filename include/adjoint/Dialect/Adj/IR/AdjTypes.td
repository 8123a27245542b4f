//===- AdjTypes.td - Types of the adj dialect --------------*- tablegen -*-===//
//
// Function values, tuples, sensitivity environments and the placeholder type
// of values that have not been inferred yet.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ADJTYPES_TD
#define ADJOINT_DIALECT_ADJ_IR_ADJTYPES_TD

include "adjoint/Dialect/Adj/IR/AdjDialect.td"

def Adj_FnType : Adj_Type<"Fn", "fn"> {
  let summary = "A function value: a top-level function or a closure";
  let description = [{
    `!adj.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>` is the type of a
    function value that takes two scalars and returns one. Function values are
    made by `adj.func_ref` and `adj.lambda`, applied with `adj.call`, and can
    be passed, returned and stored in tuples like any other value.
  }];
  let parameters = (ins "::mlir::FunctionType":$signature);
  let assemblyFormat = "`<` $signature `>`";
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getInputs() const {
      return getSignature().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResults() const {
      return getSignature().getResults();
    }
    static FnType get(::mlir::MLIRContext *ctx, ::mlir::TypeRange inputs,
                      ::mlir::TypeRange results) {
      return get(ctx, ::mlir::FunctionType::get(ctx, inputs, results));
    }
  }];
}

def Adj_TupleType : Adj_Type<"Tuple", "tuple"> {
  let summary = "An immutable, heterogeneous tuple";
  let description = [{
    `!adj.tuple<tensor<f32>, !adj.fn<() -> tensor<f32>>>`. Tuples nest and may
    hold functions and environments.
  }];
  let parameters = (ins OptionalArrayRefParameter<"::mlir::Type">:$types);
  let assemblyFormat = "`<` (`>`) : ($types^ `>`)?";
  let extraClassDeclaration = [{
    size_t size() const { return getTypes().size(); }
  }];
}

def Adj_EnvType : Adj_Type<"Env", "env"> {
  let summary = "A sensitivity environment";
  let description = [{
    The sensitivity of a function value: a persistent map from a free
    variable (an integer key assigned by the grad transform) to the
    sensitivity of that variable. Built with `adj.env_new`, `adj.env_set` and
    `adj.env_add`, read with `adj.env_get`.
  }];
}

def Adj_AnyType : Adj_Type<"Any", "any"> {
  let summary = "A value whose type has not been inferred yet";
  let description = [{
    The Python front end emits untyped programs; type inference replaces
    every `!adj.any` with a concrete type. Ops accept `!adj.any` operands and
    then infer `!adj.any` results.
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Adj_ElementType : AnyTypeOf<[F64, F32, F16, BF16, I64, I32, I1,
                                  Complex<F32>, Complex<F64>]>;
def Adj_Tensor : RankedTensorOf<[F64, F32, F16, BF16, I64, I32, I1,
                                 Complex<F32>, Complex<F64>]>;
def Adj_TensorLike : AnyTypeOf<[Adj_Tensor, Adj_AnyType],
                               "ranked tensor or !adj.any">;
def Adj_FnLike : AnyTypeOf<[Adj_FnType, Adj_AnyType],
                           "function value or !adj.any">;
def Adj_TupleLike : AnyTypeOf<[Adj_TupleType, Adj_AnyType],
                              "tuple or !adj.any">;
def Adj_EnvLike : AnyTypeOf<[Adj_EnvType, Adj_AnyType], "env or !adj.any">;
def Adj_Value : AnyTypeOf<[Adj_Tensor, Adj_FnType, Adj_TupleType, Adj_EnvType,
                           Adj_AnyType], "adj value">;

#endif // ADJOINT_DIALECT_ADJ_IR_ADJTYPES_TD
