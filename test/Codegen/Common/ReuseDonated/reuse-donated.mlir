// RUN: ir-opt %s -adj-reuse-donated -split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// The update of a donated parameter writes into it: the empty init of the
// op that reads %w (its update) becomes %w, not the init of the other
// output of the same type.
// CHECK-LABEL: func.func @update(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {adj.donated}, %[[G:[^:]*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[DOUBLE:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[G]] : tensor<4xf32>, tensor<4xf32>) outs(%[[W]] : tensor<4xf32>)
// CHECK: return %[[DOUBLE]], %[[NEW]]
func.func @update(%w: tensor<4xf32> {adj.donated}, %g: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%g : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %d, %u : tensor<4xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>

// %w is read (summed) after its update: the update moves after that read,
// right before the return, so that writing %w in place conflicts with
// nothing. The sum's chain (fill, then reduce) has another type.
// CHECK-LABEL: func.func @read_after(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {adj.donated}
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<4xf32>) outs(%[[FILL]] : tensor<f32>)
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<4xf32>) outs(%[[W]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %[[NEW]], %[[SUM]]
func.func @read_after(%w: tensor<4xf32> {adj.donated})
    -> (tensor<4xf32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%w : tensor<4xf32>) outs(%f : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %u, %sum : tensor<4xf32>, tensor<f32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// The new value is also used by another op: it stays where it is (moving
// it after that op would break dominance); it still writes into %w.
// CHECK-LABEL: func.func @used_again(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {adj.donated}
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<4xf32>) outs(%[[W]] : tensor<4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[NEW]], %[[W]] : tensor<4xf32>, tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
func.func @used_again(%w: tensor<4xf32> {adj.donated})
    -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %v = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%u, %w : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %u, %v : tensor<4xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Fusion wrote the update over the gradient's buffer (an init the payload
// does not read): that init becomes %w; the gradient's own empty init
// stays. A value returned twice is computed into one argument only.
// CHECK-LABEL: func.func @over_gradient(
// CHECK-SAME: %[[W:[^:]*]]: tensor<4xf32> {adj.donated}, %[[V:[^:]*]]: tensor<4xf32> {adj.donated}, %[[X:[^:]*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: %[[NEW:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[G]] : tensor<4xf32>, tensor<4xf32>) outs(%[[W]] : tensor<4xf32>)
// CHECK: return %[[NEW]], %[[NEW]]
func.func @over_gradient(%w: tensor<4xf32> {adj.donated},
                         %v: tensor<4xf32> {adj.donated}, %x: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w, %g : tensor<4xf32>, tensor<4xf32>) outs(%g : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %u, %u : tensor<4xf32>, tensor<4xf32>
}

// -----

// A chain of destinations: the product reads its init (it accumulates),
// so the fill that starts the accumulator writes into the donated
// argument.
// CHECK-LABEL: func.func @product(
// CHECK-SAME: %[[A:[^:]*]]: tensor<2x3xf32>, %[[B:[^:]*]]: tensor<3x2xf32>, %[[C:[^:]*]]: tensor<2x2xf32> {adj.donated})
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : tensor<2x2xf32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x2xf32>) outs(%[[F]] : tensor<2x2xf32>)
func.func @product(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>,
                   %c: tensor<2x2xf32> {adj.donated}) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>)
                     outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %m : tensor<2x2xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Nothing to pair: an argument returned as it is is its own output (the
// other donated argument of that type then takes the computed one); no
// output of another type, none not computed from an empty tensor, and
// arguments that are not donated are left alone.
// CHECK-LABEL: func.func @pairs(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32> {adj.donated}, %[[Y:[^:]*]]: tensor<4xf32> {adj.donated}, %[[Z:[^:]*]]: tensor<4xf64> {adj.donated}, %[[K:[^:]*]]: tensor<4xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[K]] : tensor<4xf32>) outs(%[[Y]] : tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[K]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: return %[[X]]
func.func @pairs(%x: tensor<4xf32> {adj.donated}, %y: tensor<4xf32> {adj.donated},
                 %z: tensor<4xf64> {adj.donated}, %k: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%k : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%k : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %x, %u, %v : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Private functions are bufferized with their callers: left alone.
// CHECK-LABEL: func.func private @helper(
// CHECK: outs(%{{.*}} : tensor<4xf32>)
// CHECK-NOT: outs(%arg0
func.func private @helper(%w: tensor<4xf32> {adj.donated}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %u : tensor<4xf32>
}

// -----

// In the pipeline: the compiler's adj.donate reaches the func.func
// argument, which stays writable; the update is computed into it after
// the other read, and returned as it is (no clone). The gradient input is
// not donated and stays read-only.
// RUN: ir-opt %s -split-input-file -adj-tensor -adj-bufferize | FileCheck %s --check-prefix=BUFFER
// BUFFER-LABEL: func.func @step(
// BUFFER-SAME: %[[W:[^:]*]]: memref<8xf32> {adj.donated}, %[[G:[^:]*]]: memref<8xf32>, %{{[^:]*}}: memref<f32>)
// BUFFER: %[[SUM:.*]] = memref.alloc() {{.*}}: memref<f32>
// BUFFER: ins(%[[W]] : memref<8xf32>) outs(%[[SUM]] : memref<f32>)
// BUFFER: ins(%[[W]], %[[G]], %{{.*}} : memref<8xf32>, memref<8xf32>, memref<f32>) outs(%[[W]] : memref<8xf32>)
// BUFFER-NOT: bufferization.clone
// BUFFER-NOT: memref.copy
// BUFFER: return %[[W]], %[[SUM]]
adj.func @step(%w: tensor<8xf32>, %g: tensor<8xf32>, %lr: tensor<f32>)
    -> (tensor<8xf32>, tensor<f32>) attributes {adj.donate = array<i64: 0>} {
  %s = adj.mul %g, %lr : tensor<8xf32>, tensor<f32>
  %u = adj.sub %w, %s : tensor<8xf32>, tensor<8xf32>
  %l = adj.reduce_sum %w axes = [0] : tensor<8xf32>
  adj.return %u, %l : tensor<8xf32>, tensor<f32>
}
