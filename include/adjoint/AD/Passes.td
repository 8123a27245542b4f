//===- Passes.td - Automatic differentiation passes --------*- tablegen -*-===//

#ifndef ADJOINT_AD_PASSES_TD
#define ADJOINT_AD_PASSES_TD

include "mlir/Pass/PassBase.td"

def Grad : Pass<"adj-grad", "::mlir::ModuleOp"> {
  let summary = "Expands AD requests by source transformation (the J transform)";
  let description = [{
    `grad(f)(x) = bprop(1)[1:]` where `J(f)(x) = (f(x), bprop)`.

    Every `adj.grad`, `adj.value_and_grad`, `adj.vjp` and `adj.jvp` becomes
    ordinary adj IR: no tape and no run-time AD machinery. Reverse mode
    gives every function `@f` a forward version `@f_fprop` that returns its
    results and a backpropagator closure; calling that closure with the
    sensitivities of the results returns the sensitivity of the function's
    free variables (an `!adj.env`) and of its arguments. Forward mode gives
    `@f_jvp`, which takes and returns tangents alongside the values.

    Before:
    ```mlir
    adj.func @sq(%x: tensor<f64>) -> tensor<f64> {
      %y = adj.mul %x, %x : tensor<f64>, tensor<f64>
      adj.return %y : tensor<f64>
    }
    adj.func @main(%x: tensor<f64>) -> tensor<f64> {
      %f = adj.func_ref @sq : !adj.fn<(tensor<f64>) -> tensor<f64>>
      %g = adj.grad %f : !adj.fn<(tensor<f64>) -> tensor<f64>>
      %d = adj.call %g(%x) : !adj.fn<(tensor<f64>) -> tensor<f64>>
      adj.return %d : tensor<f64>
    }
    ```
    After (abridged): `@main` calls `@sq_fprop`, which returns `x * x` and
    a closure computing `(env_new, dy * x + dy * x)`; `%g` is a closure that
    calls it and then the backpropagator with a sensitivity of 1.

    `adj.vmap` is expanded in the same innermost-first walk (batching by
    source transformation, `vmap(f)(xs) = B(f)(xs)` with the batch moved to
    axis 0): its closure runs a batched copy of `f`'s code, where values
    shared by every example stay unbatched and called functions are
    specialised per batched-argument mask (`@f_vmap<size>_<mask>`).
  }];
}

#endif // ADJOINT_AD_PASSES_TD
