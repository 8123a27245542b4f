// Integer math on 0-d tensors the host knows becomes scalar arith: a loop
// counter's index arithmetic and a generic's broadcast scalar input. Float
// math stays a tensor.
// RUN: ir-opt %s -adj-host-scalars -canonicalize | FileCheck %s

#s = affine_map<() -> ()>
#b = affine_map<(d0) -> ()>
#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @counter(
// CHECK-SAME:      %[[I:.*]]: i64
// CHECK:         %[[D:.*]] = arith.subi %c9_i64, %[[I]] : i64
// CHECK:         %[[T:.*]] = tensor.from_elements %[[D]] : tensor<i64>
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[T]]
func.func @counter(%i: i64) -> tensor<i64> {
  %c9 = arith.constant 9 : i64
  %t = tensor.from_elements %i : tensor<i64>
  %e = tensor.empty() : tensor<i64>
  %r = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
      ins(%t : tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%in: i64, %out: i64):
    %d = arith.subi %c9, %in : i64
    linalg.yield %d : i64
  } -> tensor<i64>
  return %r : tensor<i64>
}

// The scalar is read inside the consumer's payload.
// CHECK-LABEL: func.func @broadcast(
// CHECK-SAME:      %[[I:.*]]: i64, %[[X:.*]]: tensor<8xi64>
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<8xi64>)
// CHECK:           arith.addi %{{.*}}, %[[I]] : i64
func.func @broadcast(%i: i64, %x: tensor<8xi64>) -> tensor<8xi64> {
  %t = tensor.from_elements %i : tensor<i64>
  %e = tensor.empty() : tensor<8xi64>
  %r = linalg.generic {indexing_maps = [#b, #id, #id], iterator_types = ["parallel"]}
      ins(%t, %x : tensor<i64>, tensor<8xi64>) outs(%e : tensor<8xi64>) {
  ^bb0(%a: i64, %v: i64, %out: i64):
    %s = arith.addi %v, %a : i64
    linalg.yield %s : i64
  } -> tensor<8xi64>
  return %r : tensor<8xi64>
}

// Floats stay on the device.
// CHECK-LABEL: func.func @floats(
// CHECK:         linalg.generic
func.func @floats(%f: f32) -> tensor<f32> {
  %t = tensor.from_elements %f : tensor<f32>
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
      ins(%t : tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
