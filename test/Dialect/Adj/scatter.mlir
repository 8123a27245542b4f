// RUN: ir-opt %s -split-input-file -canonicalize -verify-diagnostics | FileCheck %s

// adj.scatter: round trip of every mode, its fold (no updates: the target),
// and its diagnostics after the splits.

// CHECK-LABEL: adj.func @modes
// CHECK-NEXT:    %[[S:.*]] = adj.scatter set %arg0[%arg1], %arg2 axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
// CHECK-NEXT:    %[[M:.*]] = adj.scatter mul %[[S]][%arg1], %arg2 axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
// CHECK-NEXT:    %[[N:.*]] = adj.scatter min %[[M]][%arg1], %arg2 axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
// CHECK-NEXT:    %[[X:.*]] = adj.scatter max %[[N]][%arg3], %arg4 axis = 1 : tensor<10x4xf32>, tensor<2xi32>, tensor<10x2xf32>
// CHECK-NEXT:    adj.return %[[X]] : tensor<10x4xf32>
adj.func @modes(%x: tensor<10x4xf32>, %i: tensor<3xi64>, %u: tensor<3x4xf32>, %j: tensor<2xi32>, %v: tensor<10x2xf32>) -> tensor<10x4xf32> {
  %s = adj.scatter set %x[%i], %u axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
  %m = adj.scatter mul %s[%i], %u axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
  %n = adj.scatter min %m[%i], %u axis = 0 : tensor<10x4xf32>, tensor<3xi64>, tensor<3x4xf32>
  %r = adj.scatter max %n[%j], %v axis = 1 : tensor<10x4xf32>, tensor<2xi32>, tensor<10x2xf32>
  adj.return %r : tensor<10x4xf32>
}

// A set of booleans is allowed (a mask updated at indices).
// CHECK-LABEL: adj.func @bool_set
// CHECK-NEXT:    adj.scatter set %arg0[%arg1], %arg2 axis = 0 : tensor<5xi1>, tensor<2xi64>, tensor<2xi1>
adj.func @bool_set(%x: tensor<5xi1>, %i: tensor<2xi64>, %u: tensor<2xi1>) -> tensor<5xi1> {
  %s = adj.scatter set %x[%i], %u axis = 0 : tensor<5xi1>, tensor<2xi64>, tensor<2xi1>
  adj.return %s : tensor<5xi1>
}

// No index, nothing to combine: the target itself.
// CHECK-LABEL: adj.func @empty
// CHECK-NEXT:    adj.return %arg0 : tensor<10x4xf32>
adj.func @empty(%x: tensor<10x4xf32>, %i: tensor<0xi64>, %u: tensor<0x4xf32>) -> tensor<10x4xf32> {
  %s = adj.scatter max %x[%i], %u axis = 0 : tensor<10x4xf32>, tensor<0xi64>, tensor<0x4xf32>
  adj.return %s : tensor<10x4xf32>
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>) {
  %up = adj.fill 0.0 : tensor<4x2xf32>
  // expected-error @+1 {{adj.scatter: updates must be [4, 3] of 'f32', got 'tensor<4x2xf32>'}}
  %r = adj.scatter set %x[%i], %up axis = 0 : tensor<2x3xf32>, tensor<4xi64>, tensor<4x2xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xf32>) {
  %up = adj.fill 0.0 : tensor<4x3xf32>
  // expected-error @+1 {{adj.scatter: indices must be i32 or i64}}
  %r = adj.scatter mul %x[%i], %up axis = 0 : tensor<2x3xf32>, tensor<4xf32>, tensor<4x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<5xi1>, %i: tensor<2xi64>, %u: tensor<2xi1>) {
  // expected-error @+1 {{adj.scatter}}
  %r = adj.scatter max %x[%i], %u axis = 0 : tensor<5xi1>, tensor<2xi64>, tensor<2xi1>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>) {
  %up = adj.fill 0.0 : tensor<4x3xf32>
  // expected-error @+1 {{adj.scatter: axis 2 is out of range}}
  %r = adj.scatter set %x[%i], %up axis = 2 : tensor<2x3xf32>, tensor<4xi64>, tensor<4x3xf32>
  adj.return
}

// -----

adj.func @f(%x: tensor<2x3xf32>, %i: tensor<4xi64>, %up: tensor<4x3xf32>) {
  // expected-error @+1 {{enum values for attribute 'mode' [set, mul, min, max]}}
  %r = adj.scatter add %x[%i], %up axis = 0 : tensor<2x3xf32>, tensor<4xi64>, tensor<4x3xf32>
  adj.return
}
