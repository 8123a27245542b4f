// RUN: ir-opt %s | ir-opt | FileCheck %s
// RUN: ir-opt %s --mlir-print-op-generic | ir-opt | FileCheck %s

// Round trip of the adj types.

// CHECK-LABEL: adj.func @types
// CHECK-SAME:    %arg0: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>
// CHECK-SAME:    %arg1: !adj.fn<() -> ()>
// CHECK-SAME:    %arg2: !adj.fn<(!adj.fn<() -> tensor<i1>>) -> (!adj.env, !adj.any)>
// CHECK-SAME:    %arg3: !adj.tuple<>
// CHECK-SAME:    %arg4: !adj.tuple<tensor<f32>, !adj.tuple<!adj.tuple<>, !adj.fn<() -> ()>>, !adj.env>
// CHECK-SAME:    %arg5: !adj.env
// CHECK-SAME:    %arg6: !adj.any
// CHECK-SAME:    -> (!adj.tuple<!adj.any>, !adj.fn<(!adj.tuple<>) -> !adj.tuple<>>)
adj.func @types(%a: !adj.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>, %b: !adj.fn<() -> ()>, %c: !adj.fn<(!adj.fn<() -> tensor<i1>>) -> (!adj.env, !adj.any)>, %d: !adj.tuple<>, %e: !adj.tuple<tensor<f32>, !adj.tuple<!adj.tuple<>, !adj.fn<() -> ()>>, !adj.env>, %f: !adj.env, %g: !adj.any, %h: !adj.fn<(!adj.tuple<>) -> !adj.tuple<>>) -> (!adj.tuple<!adj.any>, !adj.fn<(!adj.tuple<>) -> !adj.tuple<>>) {
  %t = adj.tuple %g : !adj.any
  adj.return %t, %h : !adj.tuple<!adj.any>, !adj.fn<(!adj.tuple<>) -> !adj.tuple<>>
}
