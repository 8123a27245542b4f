// RUN: ir-opt %s -split-input-file -verify-diagnostics

// Every tensor type an adj op holds must have an element count and a byte
// size that fit in int64_t (RepresentableTensors): otherwise every layer
// below computes them wrapped around (2^32 x 2^32 elements count as 0).

adj.func @f() {
  // expected-error @+1 {{'adj.fill' op result type 'tensor<4294967296x4294967296xf32>' is too large}}
  %a = adj.fill 1.0 : tensor<4294967296x4294967296xf32>
  adj.return
}

// -----

// The element count fits, the byte size (2^64) does not.
adj.func @f() {
  // expected-error @+1 {{result type 'tensor<2305843009213693952xf64>' is too large}}
  %a = adj.fill 1.0 : tensor<2305843009213693952xf64>
  adj.return
}

// -----

// The largest f64 tensor that fits: 2^60 - 1 elements, 2^63 - 8 bytes.
adj.func @f() -> tensor<1152921504606846975xf64> {
  %a = adj.fill 1.0 : tensor<1152921504606846975xf64>
  adj.return %a : tensor<1152921504606846975xf64>
}

// -----

// expected-error @+1 {{'adj.func' op signature type 'tensor<9223372036854775807xf32>' is too large}}
adj.func @f(%x: tensor<9223372036854775807xf32>) {
  adj.return
}

// -----

// Dynamic dimensions are unknown; the static ones alone already overflow.
// expected-error @+1 {{signature type 'tensor<?x4294967296x4294967296xi1>' is too large}}
adj.func @f(%x: tensor<?x4294967296x4294967296xi1>) {
  adj.return
}

// -----

// Inside a tuple and a function type.
// expected-error @+1 {{signature type 'tensor<4294967296x4294967296xf32>' is too large}}
adj.func @f(%x: !adj.tuple<tensor<f32>, !adj.fn<(tensor<4294967296x4294967296xf32>) -> tensor<f32>>>) {
  adj.return
}

// -----

// Each operand fits; their broadcast does not.
adj.func @f(%x: tensor<4294967296x1xf32>, %y: tensor<1x4294967296xf32>) {
  // expected-error @+1 {{'adj.add' op result type 'tensor<4294967296x4294967296xf32>' is too large}}
  %r = adj.add %x, %y : tensor<4294967296x1xf32>, tensor<1x4294967296xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<4294967296x1xf32>) {
  // expected-error @+1 {{'adj.pad' op result type 'tensor<4294967296x4294967296xf32>' is too large}}
  %r = adj.pad %x low = [0, 0] high = [0, 4294967295] value = 0.0 : tensor<4294967296x1xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<4294967296x1073741824xi1>) {
  // expected-error @+1 {{'adj.concat' op result type 'tensor<4294967296x2147483648xi1>' is too large}}
  %r = adj.concat %x, %x axis = 1 : tensor<4294967296x1073741824xi1>, tensor<4294967296x1073741824xi1>
  adj.return
}

// -----

adj.func @f(%x: tensor<1x4294967296xf32>) {
  // expected-error @+1 {{'adj.broadcast_to' op result type 'tensor<4294967296x4294967296xf32>' is too large}}
  %r = adj.broadcast_to %x : tensor<1x4294967296xf32> to tensor<4294967296x4294967296xf32>
  adj.return
}

// -----

adj.func @f() {
  // expected-error @+1 {{'adj.constant' op result type 'tensor<4294967296x4294967296xf32>' is too large}}
  %c = adj.constant dense<1.0> : tensor<4294967296x4294967296xf32>
  adj.return
}

// -----

adj.func @f() {
  // expected-error @+1 {{'adj.lambda' op result type 'tensor<4294967296x4294967296xf32>' is too large}}
  %l = adj.lambda (%x: tensor<4294967296x4294967296xf32>) -> tensor<f32> {
    %z = adj.fill 0.0 : tensor<f32>
    adj.return %z : tensor<f32>
  }
  adj.return
}

// -----

// A reshape between two types whose counts fit still compares them.
adj.func @f(%x: tensor<4294967296xf32>) {
  // expected-error @+1 {{cannot reshape [4294967296] (4294967296 elements) to [2, 4294967295] (8589934590 elements)}}
  %r = adj.reshape %x : tensor<4294967296xf32> to tensor<2x4294967295xf32>
  adj.return
}
