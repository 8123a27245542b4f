// RUN: ir-opt %s -adj-grad -adj-optimize -adj-count-flops -o /dev/null | FileCheck %s
// RUN: ir-opt %s -adj-grad | ir-run - -f vmapped --arg "[[1,0,2,0,1],[0,1,0,-1,0],[1,1,1,1,1]]" --arg "[0,0.5,0,0,0]" --arg "[[1,0],[0,1],[1,1],[0,0],[2,0]]" --arg "[0.1,0]" --arg "[[1,2,3],[0,0,1],[1,0,0],[-1,1,0]]" --arg "[[0,1],[1,0],[0,0],[1,1]]" > %t.vmapped
// RUN: ir-opt %s -adj-grad | ir-run - -f hand --arg "[[1,0,2,0,1],[0,1,0,-1,0],[1,1,1,1,1]]" --arg "[0,0.5,0,0,0]" --arg "[[1,0],[0,1],[1,1],[0,0],[2,0]]" --arg "[0.1,0]" --arg "[[1,2,3],[0,0,1],[1,0,0],[-1,1,0]]" --arg "[[0,1],[1,0],[0,0],[1,1]]" > %t.hand
// RUN: diff %t.vmapped %t.hand

// A vmapped program costs what the hand-batched one does: per-example
// gradients of a one-hidden-layer MLP, (1) as vmap(grad(loss)) with the
// parameters shared (in_axes -1), and (2) written by hand as the gradient of
// the summed loss with respect to per-example copies of the parameters
// (batch matmuls). Both are the Python front end's output for
// benchmarks/ad/vmap_per_example.py at B, F, H, C = 4, 3, 5, 2. After
// -adj-grad and -adj-optimize they have the same FLOP count, and the same
// values (the diff of the interpreter's outputs).

// CHECK: @vmapped: [[N:[0-9]+]] flops
// CHECK-NEXT: @hand: [[N]] flops
  adj.func @vmapped(%arg0: tensor<3x5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5x2xf32>, %arg3: tensor<2xf32>, %arg4: tensor<4x3xf32>, %arg5: tensor<4x2xf32>) -> (tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>) {
    %0 = adj.lambda (%arg6: tensor<3x5xf32>, %arg7: tensor<5xf32>, %arg8: tensor<5x2xf32>, %arg9: tensor<2xf32>, %arg10: tensor<3xf32>, %arg11: tensor<2xf32>) -> (tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>) {
      %3 = adj.lambda (%arg12: tensor<3x5xf32>, %arg13: tensor<5xf32>, %arg14: tensor<5x2xf32>, %arg15: tensor<2xf32>, %arg16: tensor<3xf32>, %arg17: tensor<2xf32>) -> tensor<f32> {
        %6 = adj.reshape %arg16 : tensor<3xf32> to tensor<1x3xf32>
        %7 = adj.matmul %6, %arg12 : tensor<1x3xf32>, tensor<3x5xf32>
        %8 = adj.reshape %7 : tensor<1x5xf32> to tensor<5xf32>
        %9 = adj.add %8, %arg13 : tensor<5xf32>, tensor<5xf32>
        %10 = adj.tanh %9 : tensor<5xf32>
        %11 = adj.reshape %10 : tensor<5xf32> to tensor<1x5xf32>
        %12 = adj.matmul %11, %arg14 : tensor<1x5xf32>, tensor<5x2xf32>
        %13 = adj.reshape %12 : tensor<1x2xf32> to tensor<2xf32>
        %14 = adj.add %13, %arg15 : tensor<2xf32>, tensor<2xf32>
        %15 = adj.sub %14, %arg17 : tensor<2xf32>, tensor<2xf32>
        %16 = adj.constant dense<2.000000e+00> : tensor<f32>
        %17 = adj.pow %15, %16 : tensor<2xf32>, tensor<f32>
        %18 = adj.reduce_sum %17 axes = [0] : tensor<2xf32>
        adj.return %18 : tensor<f32>
      }
      %4 = adj.grad %3 wrt = [0, 1, 2, 3] : !adj.fn<(tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<f32>>
      %5:4 = adj.call %4(%arg6, %arg7, %arg8, %arg9, %arg10, %arg11) : !adj.fn<(tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> (tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>)>
      adj.return %5#0, %5#1, %5#2, %5#3 : tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>
    }
    %1 = adj.vmap %0 in_axes = [-1, -1, -1, -1, 0, 0] out_axes = [0, 0, 0, 0] batch_size = 4 : !adj.fn<(tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> (tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>)>
    %2:4 = adj.call %1(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : !adj.fn<(tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>, tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>)>
    adj.return %2#0, %2#1, %2#2, %2#3 : tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>
  }
  adj.func @hand(%arg0: tensor<3x5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<5x2xf32>, %arg3: tensor<2xf32>, %arg4: tensor<4x3xf32>, %arg5: tensor<4x2xf32>) -> (tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>) {
    %0 = adj.broadcast_to %arg0 : tensor<3x5xf32> to tensor<4x3x5xf32>
    %1 = adj.broadcast_to %arg1 : tensor<5xf32> to tensor<4x5xf32>
    %2 = adj.broadcast_to %arg2 : tensor<5x2xf32> to tensor<4x5x2xf32>
    %3 = adj.broadcast_to %arg3 : tensor<2xf32> to tensor<4x2xf32>
    %4 = adj.lambda (%arg6: tensor<4x3x5xf32>, %arg7: tensor<4x5xf32>, %arg8: tensor<4x5x2xf32>, %arg9: tensor<4x2xf32>) -> tensor<f32> {
      %7 = adj.reshape %arg4 : tensor<4x3xf32> to tensor<4x1x3xf32>
      %8 = adj.matmul %7, %arg6 : tensor<4x1x3xf32>, tensor<4x3x5xf32>
      %9 = adj.reshape %arg7 : tensor<4x5xf32> to tensor<4x1x5xf32>
      %10 = adj.add %8, %9 : tensor<4x1x5xf32>, tensor<4x1x5xf32>
      %11 = adj.tanh %10 : tensor<4x1x5xf32>
      %12 = adj.matmul %11, %arg8 : tensor<4x1x5xf32>, tensor<4x5x2xf32>
      %13 = adj.reshape %arg9 : tensor<4x2xf32> to tensor<4x1x2xf32>
      %14 = adj.add %12, %13 : tensor<4x1x2xf32>, tensor<4x1x2xf32>
      %15 = adj.reshape %arg5 : tensor<4x2xf32> to tensor<4x1x2xf32>
      %16 = adj.sub %14, %15 : tensor<4x1x2xf32>, tensor<4x1x2xf32>
      %17 = adj.constant dense<2.000000e+00> : tensor<f32>
      %18 = adj.pow %16, %17 : tensor<4x1x2xf32>, tensor<f32>
      %19 = adj.reduce_sum %18 axes = [0, 1, 2] : tensor<4x1x2xf32>
      adj.return %19 : tensor<f32>
    }
    %5 = adj.grad %4 wrt = [0, 1, 2, 3] : !adj.fn<(tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>) -> tensor<f32>>
    %6:4 = adj.call %5(%0, %1, %2, %3) : !adj.fn<(tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>) -> (tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>)>
    adj.return %6#0, %6#1, %6#2, %6#3 : tensor<4x3x5xf32>, tensor<4x5xf32>, tensor<4x5x2xf32>, tensor<4x2xf32>
  }
