// RUN: ir-opt %s -split-input-file -verify-diagnostics

// Inputs that crashed the parser or verifier, or did not survive printing
// and parsing back. The files themselves are in fuzz/regressions/.

// Inference ran on an operand of the wrong kind (the custom parser infers
// before the ODS constraints are checked).
adj.func @f(%x: !adj.fn<() -> ()>) {
  // expected-error @+1 {{adj.exp: expected a ranked tensor or !adj.any, got '!adj.fn<() -> ()>'}}
  %y = adj.exp %x : !adj.fn<() -> ()>
  adj.return
}

// -----

adj.func @f(%x: tensor<*xf32>) {
  // expected-error @+1 {{adj.get: expected a tuple or !adj.any, got 'tensor<*xf32>'}}
  %y = adj.get %x[0] : tensor<*xf32>
  adj.return
}

// -----

// The verifier of adj.if runs before the blocks are checked for terminators.
adj.func @f(%c: tensor<i1>, %x: tensor<f32>) {
  // expected-error @+1 {{'adj.if' op regions must end with adj.yield}}
  %r = adj.if %c : tensor<i1> -> (tensor<f32>) {
  ^bb0:
  } else {
  ^bb0:
  }
  adj.return
}

// -----

// Sizes from attributes overflowed int64.
adj.func @f(%x: tensor<9223372036854775807xi1>) {
  // expected-error @+1 {{adj.pad: dimension 0 overflows int64}}
  %r = adj.pad %x low = [1] high = [0] value = 0.0 : tensor<9223372036854775807xi1>
  adj.return
}

// -----

adj.func @f(%x: tensor<1x1x4x4xf32>) {
  // expected-error @+1 {{adj.max_pool2d: a 1x1 window does not fit}}
  %r = adj.max_pool2d %x kernel = [1, 1] stride = [1, 1] padding = [9223372036854775807, 9223372036854775807, 0, 0] : tensor<1x1x4x4xf32>
  adj.return
}

// -----

// A result type merely compatible with the inferred one printed as the
// inferred one.
adj.func @f(%x: tensor<2xf32>) {
  // expected-error @+2 {{'adj.add' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation '!adj.any'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = "adj.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> !adj.any
  adj.return
}

// -----

// Lambda block arguments merely compatible with the closure type printed as
// a different closure type.
adj.func @f() {
  // expected-error @+1 {{'adj.lambda' op block argument #0 has type '!adj.any' but the closure type has 'tensor<f32>'}}
  %l = "adj.lambda"() ({
  ^bb0(%a: !adj.any):
    adj.return
  }) : () -> !adj.fn<(tensor<f32>) -> ()>
  adj.return
}

// -----

// Found by the fuzzer: a dense attribute of i0 crashes MLIR 22's printer,
// which a diagnostic on the op would call; the parser rejects it first.
adj.func @constant_of_i0() {
  // expected-error @+1 {{needs a ranked tensor of f64, f32, f16, bf16, i64, i32, i1, complex<f32> or complex<f64>}}
  %c = adj.constant dense<0> : tensor<i0>
  adj.return
}
