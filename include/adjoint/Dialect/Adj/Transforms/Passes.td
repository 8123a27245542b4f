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

def Infer : Pass<"adj-infer", "::mlir::ModuleOp"> {
  let summary = "Infers types and shapes by abstract interpretation; "
                "monomorphizes functions per signature";
  let description = [{
    `infer(p)`: every `!adj.any` replaced by the type abstract interpretation
    proves, starting from the public functions' signatures.

    A function called with different argument types is cloned per signature
    (`@f` and `@f_1`, ...); recursion is solved by fixed-point iteration.
    Type errors are diagnostics at the op's location.

    Every function whose parameters are typed is a root. A function value
    is tracked as the set of ops that made it, so calls through parameters,
    tuples and branches reach concrete bodies; a closure called directly at
    a second signature is cloned in place. Declared types that are already
    concrete are kept, so a typed program is unchanged. Untyped functions
    that no root reaches are removed.

    Mixed dtypes promote (Promotion.h): an op whose operands must share an
    element type gets an `adj.cast` of the lower one, and `adj.if` results
    and loop-carried values take the join of their types (promoted dtype,
    broadcast shape), converted with `adj.cast`/`adj.broadcast_to`.

    Before:
    ```mlir
    adj.func @sq(%x: !adj.any) -> !adj.any {
      %y = adj.mul %x, %x : !adj.any, !adj.any
      adj.return %y : !adj.any
    }
    adj.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
      %f = adj.func_ref @sq : !adj.fn<(!adj.any) -> !adj.any>
      %r = adj.call %f(%a) : !adj.fn<(!adj.any) -> !adj.any> (tensor<3xf32>) -> !adj.any
      ...
    ```
    After: `@sq(%x: tensor<3xf32>) -> tensor<3xf32>` and a typed call.
  }];
}

def SimplifyTuples : Pass<"adj-simplify-tuples", "::mlir::ModuleOp"> {
  let summary = "get(tuple(a0..an), i) => ai; tuple(get(t,0)..get(t,n)) => t";
  let description = [{
    Before: `%t = adj.tuple %a, %b ... %x = adj.get %t[1]` After: `%b`.
  }];
}

def SimplifyEnvs : Pass<"adj-simplify-envs", "::mlir::ModuleOp"> {
  let summary = "Cancels environment reads against writes";
  let description = [{
    `env_get(env_set(e, k, v), k) => v`;
    `env_get(env_set(e, k1, v), k2) => env_get(e, k2)`;
    `env_get(env_new, k) => zeros`;
    `env_get(env_add(a, b), k) => grad_add(env_get(a, k), env_get(b, k))`;
    sets that are never read are dropped with their environment.
  }];
}

def SimplifyAlgebra : Pass<"adj-simplify-algebra", "::mlir::ModuleOp"> {
  let summary = "Removes additions of zeros, products by zeros and ones, "
                "and redundant shape ops";
  let description = [{
    `x + 0 => x`, `x * 1 => x`, `x ** 1 => x`, `x * 0 => 0`,
    `grad_add(a, b) => add(a, b)`,
    `a + scatter_add(0, i, u) => scatter_add(a, i, u)`
    on tensors (per element on tuples), `zeros_like(x) => fill 0`,
    `transpose(transpose(x, p), q) => transpose(x, p.q)`,
    `reshape(reshape(x)) => reshape(x)`, broadcasts of scalar constants
    become fills. Shapes are kept: a removed broadcast becomes an explicit
    `adj.broadcast_to`.
  }];
}

def FoldConstants : Pass<"adj-fold-constants", "::mlir::ModuleOp"> {
  let summary = "Evaluates ops whose operands are all constants";
  let description = [{
    `add(constant 1, constant 2) => constant 3`, for the elementwise and
    shape primitives, with the reference interpreter's semantics; results
    above a size limit are left alone.
  }];
}

def RemoveDeadValues : Pass<"adj-remove-dead-values", "::mlir::ModuleOp"> {
  let summary = "Removes unused ops, unused parameters and unused results";
  let description = [{
    Pure ops without uses are erased; a private function's parameter that
    is never read, or result that no caller uses, is removed from the
    function and from every call (only when all uses of the function are
    direct calls through `adj.func_ref`).
  }];
}

def Inline : Pass<"adj-inline", "::mlir::ModuleOp"> {
  let summary = "Inlines known calls and beta-reduces closures";
  let description = [{
    `call(func_ref @f, x) => body(@f)[params := x]`,
    `call(lambda(a) { b }, x) => b[a := x]`, and
    `call(if c {..lambda1..} else {..lambda2..}, x)
       => if c { body(lambda1)[x] } else { body(lambda2)[x] }`
    (the closures' free values defined in the branches become extra results
    of the conditional). Only within a size budget, and never into a
    function of the callee's own call-graph cycle: recursion stops it.

    Before:
    ```mlir
    %g = adj.lambda (%z: tensor<f32>) -> tensor<f32> {
      %p = adj.mul %z, %x : tensor<f32>, tensor<f32>
      adj.return %p : tensor<f32>
    }
    %r = adj.call %g(%y) : !adj.fn<(tensor<f32>) -> tensor<f32>>
    ```
    After: `%r = adj.mul %y, %x : tensor<f32>, tensor<f32>`.
  }];
  let options = [
    Option<"maxSize", "max-size", "unsigned", /*default=*/"65536",
           "Largest callee body (in ops) that is inlined">,
  ];
}

def Specialize : Pass<"adj-specialize", "::mlir::ModuleOp"> {
  let summary = "Specializes higher-order functions on the functions "
                "they receive";
  let description = [{
    `f(g, x)` where `g` is a known function value (a `func_ref` or a closure
    whose free variables are passed along) becomes `f_g(x)`, a copy of `f`
    with `g` substituted, so that the call of `g` inside becomes known.
  }];
}

def ClosureConvert : Pass<"adj-closure-convert", "::mlir::ModuleOp"> {
  let summary = "Lambda lifting: closures become top-level functions with "
                "explicit environments";
  let description = [{
    `lambda(a){b} with free variables v... => closure @f(v...)` where
    `@f(v..., a) = b`.

    Every `adj.lambda`, innermost first, becomes a private `adj.func` named
    after its enclosing function (`@outer_lambda_0`, ...) whose leading
    parameters are the lambda's free variables (in first-use order) and
    whose remaining parameters are the lambda's own; the lambda becomes
    `adj.closure @f(%captures...)`. The captures are separate parameters
    rather than one tuple so that later passes can drop or specialize each
    one like any other parameter. Free variables made by constants (a
    `func_ref`, a constant tensor) are rebuilt inside the new function
    rather than captured. Afterwards no op inside an `adj.func` uses a value
    defined outside that function (`adj.if`/`adj.for`/`adj.while` regions
    still read their enclosing values: they are control flow, not closures).

    Before:
    ```mlir
    adj.func @outer(%x: tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>> {
      %f = adj.lambda (%y: tensor<f32>) -> tensor<f32> {
        %s = adj.add %x, %y : tensor<f32>, tensor<f32>
        adj.return %s : tensor<f32>
      }
      adj.return %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
    }
    ```
    After:
    ```mlir
    adj.func @outer(%x: tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>> {
      %f = adj.closure @outer_lambda_0(%x)
           : (tensor<f32>) -> !adj.fn<(tensor<f32>) -> tensor<f32>>
      adj.return %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
    }
    adj.func private @outer_lambda_0(%x: tensor<f32>, %y: tensor<f32>)
        -> tensor<f32> {
      %s = adj.add %x, %y : tensor<f32>, tensor<f32>
      adj.return %s : tensor<f32>
    }
    ```
  }];
}

def Unroll : Pass<"adj-unroll", "::mlir::ModuleOp"> {
  let summary = "Fully unrolls counted loops that carry function values";
  let description = [{
    `for i in [lb, ub) step s: x = body(i, x)` with constant bounds
    `=> x = body(lb, x); x = body(lb + s, x); ...`

    A loop differentiated by `-adj-grad` carries the backpropagator closure
    of its iterations; only unrolled can the optimizer turn that chain of
    closures into straight-line code. Loops that carry only tensors are left
    alone (they lower to `scf` loops), as are loops with more than
    `max-trips` iterations, and loops with more than `max-chain-trips` that
    -adj-reverse-loops turns into a reverse loop (unrolled, their compile
    time grows with the trip count).
  }];
  let options = [
    Option<"maxTrips", "max-trips", "unsigned", /*default=*/"256",
           "Largest trip count that is unrolled">,
    Option<"maxChainTrips", "max-chain-trips", "unsigned", /*default=*/"8",
           "Largest trip count unrolled for a loop whose only function "
           "value is its backpropagator chain and whose other carried values "
           "are tensors (longer ones are left to -adj-reverse-loops)">,
  ];
}

def ReverseLoops : Pass<"adj-reverse-loops", "::mlir::ModuleOp"> {
  let summary = "Turns a counted loop's backpropagator chain into stacked "
                "residuals and one reverse loop";
  let description = [{
    `loop N times { r_i = ...; chain = closure @Fs(r_i, chain) }; chain(d)`
    `=> loop N times { stack[i] = r_i }; for i = N-1 .. 0 { d, F = Fs'(stack[i], d, F) }`

    Before (after closure conversion):
    ```mlir
    %l:2 = adj.for %c0 to %c16 step %c1 : ...
             iter_args(%x0, %id : tensor<f32>, !adj.fn<...>) -> ... {
    ^bb0(%i: tensor<i64>, %x: tensor<f32>, %k: !adj.fn<...>):
      %y = adj.sin %x : tensor<f32>
      %b = adj.closure @step(%x, %k) : (...) -> !adj.fn<...>
      adj.yield %y, %b : tensor<f32>, !adj.fn<...>
    }
    %d:2 = adj.call %l#1(%dy) : !adj.fn<...>
    ```
    After: the loop carries a row counter and a `tensor<16xf32>` stack that
    each trip writes `%x` into (`adj.scatter set`); the call becomes an
    `adj.for` over rows 15 down to 0 that reads the row (`adj.gather`), runs
    `@step`'s code without its call of the earlier chain, and carries the
    sensitivities that call took plus one accumulator per free-value
    sensitivity (`acc + x` where `@step` returned `earlier + x`).

    Why: -adj-grad differentiates a loop by carrying the closure of the
    iterations so far. At run time every trip boxes its residuals on the
    heap and the backward pass recurses once per trip, each level holding
    full-size weight gradients (gigabytes for an LSTM over 64 steps), while
    unrolling instead makes compile time grow with the trip count. With a
    known trip count the chain is a stack: written in place going forward,
    read in reverse, gradients accumulated in place. Loops whose trip count
    is not known at compile time, whose residuals are not statically shaped
    tensors, or whose chain is used other than by one call after the loop
    keep their closure chain, as do loops whose stacks would take more than
    `max-stack-bytes`.
  }];
  let options = [
    Option<"maxStackBytes", "max-stack-bytes", "uint64_t",
           /*default=*/"uint64_t(1) << 32",
           "Largest total size of a loop's residual stacks, in bytes">,
  ];
}

def Fixpoint : Pass<"adj-fixpoint", "::mlir::ModuleOp"> {
  let summary = "Runs a pass pipeline again until it changes nothing";
  let description = [{
    `fixpoint(P, n)(m) = P^k(m)` for the first `k <= n` with
    `P^k(m) == P^(k-1)(m)`.

    Why: the optimizer's passes feed each other (an inlined body has new
    known calls, an unrolled loop new closures), so they run in rounds. A
    fixed number of rounds pays for the rounds a program does not need on
    every program: a straight-line gradient is done after one round, and
    three more rounds over its (large) IR were most of `-adj-optimize`'s
    time. A round that leaves the module's fingerprint (a hash of every op,
    attribute, operand and type) unchanged ends the iteration.

    ```
    ir-opt -adj-fixpoint='pipeline=adj-inline,adj-simplify-tuples,cse max-rounds=4'
    ```
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "The pass pipeline of one round (textual, module-level passes)">,
    Option<"maxRounds", "max-rounds", "unsigned", /*default=*/"4",
           "The most rounds that run">,
  ];
}

def CountFlops : Pass<"adj-count-flops", "::mlir::ModuleOp"> {
  let summary = "Prints the floating-point operations of each function";
  let description = [{
    An analysis: for each function, the FLOPs of one call (matmul 2mnk,
    conv2d 2 N O OH OW C/g KH KW, elementwise one per element, reductions
    one per input element), counting calls of known functions and loop
    bodies times their constant trip counts. Prints `@f: N flops`.

    One line per `adj.func`, in module order, on standard output; the IR is
    unchanged. Elementwise ops include transcendentals, comparisons, select
    and casts (one per output element); pooling costs one per window element
    per output, gather and scatter_add one per element moved; shape, tuple,
    creation and environment-bookkeeping ops cost nothing. `adj.if` costs its
    dearer branch. A count that cannot be known statically prints
    `@f: unknown (<why>)`: `(recursive)` for a function on a cycle of calls;
    calls of unknown function values, loops without constant bounds,
    `adj.while` with a non-zero body and dynamic shapes give other reasons.
    The same count is available in C++ as `adjoint::adj::countFlops`
    (`Flops.h`).

    ```mlir
    adj.func @mm(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
      %c = adj.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32>
      adj.return %c : tensor<2x4xf32>
    }
    ```
    prints `@mm: 48 flops`.
  }];
}

def StripDerivativeRules : Pass<"adj-strip-derivative-rules",
                                "::mlir::ModuleOp"> {
  let summary = "Replaces stop_gradient, custom_vjp, custom_jvp and "
                "checkpoint by what they compute, once no AD request is left";
  let description = [{
    `stop_gradient(x) = x`, `custom_vjp(f, fwd, bwd) = custom_jvp(f, rule) =
    checkpoint(f) = f`, when the module holds no adj.grad, value_and_grad,
    vjp or jvp (otherwise it changes nothing: a later -adj-grad needs them).
    adj.optimization_barrier stays: it must survive the optimizer.

    Before:
    ```mlir
    %g = adj.checkpoint %f : !adj.fn<(tensor<f32>) -> tensor<f32>>
    %y = adj.call %g(%x) : ...
    %z = adj.stop_gradient %y : tensor<f32>
    ```
    After:
    ```mlir
    %y = adj.call %f(%x) : ...
    ```

    Why: the ops only tell -adj-grad how to differentiate; after it, they
    would hide the function from inlining and specialization (a call of
    `checkpoint(f)` is not a known call of `f`) and the identities from
    algebraic simplification. -adj-optimize runs it first.
  }];
}

#endif // ADJOINT_DIALECT_ADJ_TRANSFORMS_PASSES_TD
