//===- AdjDialect.td - The adj graph IR dialect ------------*- tablegen -*-===//
//
// The adj dialect is Adjoint's functional graph IR: Myia's graphs written as
// MLIR. Functions are values, closures capture the values of enclosing
// regions, and every op is pure, so the order of ops in a block is only a
// topological order.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_IR_ADJDIALECT_TD
#define ADJOINT_DIALECT_ADJ_IR_ADJDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Adj_Dialect : Dialect {
  let name = "adj";
  let cppNamespace = "::adjoint::adj";
  let summary = "A functional, differentiable graph IR";
  let description = [{
    Programs are top-level `adj.func` symbols and `adj.lambda` closures.
    Function values have type `!adj.fn<...>` and are applied with `adj.call`,
    so higher-order functions need nothing special. Tensors are builtin ranked
    tensors (f64, f32, f16, bf16, i64, i32, i1); scalars are rank-0 tensors.
    Values whose type is not known yet (the Python front end emits them) have
    type `!adj.any`; `-adj-infer` replaces it.

    The sensitivity of a value of type T has type `sens(T)`: the same tensor
    type for a tensor, a tuple of sensitivities for a tuple, and `!adj.env`
    (a map from free variables to their sensitivities) for a function.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

/// Every tensor type an adj op holds (results, block arguments, signature)
/// has an element count and a byte size that fit in int64_t
/// (adjoint/Dialect/Adj/IR/TensorSizes.h).
def Adj_RepresentableTensors : NativeOpTrait<"RepresentableTensors"> {
  let cppNamespace = "::adjoint::adj";
}

class Adj_Op<string mnemonic, list<Trait> traits = []>
    : Op<Adj_Dialect, mnemonic, !listconcat([Adj_RepresentableTensors], traits)>;

class Adj_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Adj_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

#endif // ADJOINT_DIALECT_ADJ_IR_ADJDIALECT_TD
