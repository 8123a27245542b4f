// NaN and booleans mean the same compiled as interpreted. Compiled code
// used arith.maxnumf for maximum, minimum, relu and reduce_max (a NaN
// vanished: max(NaN, 1) was 1, the interpreter's NaN), and signed integer
// compares and maxima on i1, where true reads as -1 (false < true was false
// and the maximum of [false, true] was false).
// RUN: ir-run %s -f floats --arg "[nan, 1.0, -2.0, nan]" --arg "[1.0, nan, 3.0, nan]" > %t.f.interp
// RUN: ir-run %s -f floats --arg "[nan, 1.0, -2.0, nan]" --arg "[1.0, nan, 3.0, nan]" --compile --no-cache > %t.f.compiled
// RUN: FileCheck %s --check-prefix=FLOATS --input-file=%t.f.interp
// RUN: diff %t.f.interp %t.f.compiled
// RUN: ir-run %s -f bools --arg "[false, true, false, true]" --arg "[false, false, true, true]" > %t.b.interp
// RUN: ir-run %s -f bools --arg "[false, true, false, true]" --arg "[false, false, true, true]" --compile --no-cache > %t.b.compiled
// RUN: FileCheck %s --check-prefix=BOOLS --input-file=%t.b.interp
// RUN: diff %t.b.interp %t.b.compiled

// FLOATS: tensor<4xf32> [nan, nan, 3, nan]
// FLOATS-NEXT: tensor<4xf32> [nan, nan, -2, nan]
// FLOATS-NEXT: tensor<4xf32> [nan, 1, 0, nan]
// FLOATS-NEXT: tensor<f32> nan
// FLOATS-NEXT: tensor<f32> 3
adj.func @floats(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) {
  %max = adj.maximum %x, %y : tensor<4xf32>, tensor<4xf32>
  %min = adj.minimum %x, %y : tensor<4xf32>, tensor<4xf32>
  %relu = adj.relu %x : tensor<4xf32>
  %rmax = adj.reduce_max %x axes = [0] : tensor<4xf32>
  %clean = adj.slice %y start = [2] limit = [3] stride = [1] : tensor<4xf32>
  %cmax = adj.reduce_max %clean axes = [0] : tensor<1xf32>
  adj.return %max, %min, %relu, %rmax, %cmax : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>
}

// BOOLS: tensor<4xi1> [false, false, true, false]
// BOOLS-NEXT: tensor<4xi1> [true, false, true, true]
// BOOLS-NEXT: tensor<i1> true
adj.func @bools(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<i1>) {
  %lt = adj.cmp lt, %a, %b : tensor<4xi1>, tensor<4xi1>
  %ge = adj.cmp ge, %b, %a : tensor<4xi1>, tensor<4xi1>
  %any = adj.reduce_max %a axes = [0] : tensor<4xi1>
  adj.return %lt, %ge, %any : tensor<4xi1>, tensor<4xi1>, tensor<i1>
}
