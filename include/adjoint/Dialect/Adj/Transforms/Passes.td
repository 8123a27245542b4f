//===- Passes.td - Passes over the adj dialect -------------*- tablegen -*-===//
//
// Every pass has one name: `FooBar` lives in FooBar.cpp, has the flag
// `-adj-foo-bar` and is tested in test/Dialect/Adj/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_TD
#define ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckTyped : Pass<"adj-check-typed", "::mlir::ModuleOp"> {
  let summary = "Fails unless every value of the program has a concrete type";
  let description = [{
    `typed(p) <=> no value of p has a type containing !adj.any`.

    The gate that later stages (grad, lowering) rely on: the Python front end
    emits `!adj.any`, type inference must remove every one of them. Each
    untyped value is reported at its location; the pass changes nothing.

    Before (an error at the `adj.add`):
    ```mlir
    adj.func @f(%x: tensor<f32>) -> !adj.any {
      %y = adj.add %x, %u : tensor<f32>, !adj.any
      adj.return %y : !adj.any
    }
    ```
  }];
}

#endif // ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_TD
