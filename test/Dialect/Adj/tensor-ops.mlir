// RUN: ir-opt %s | ir-opt | FileCheck %s
// RUN: ir-opt %s --mlir-print-op-generic | ir-opt | FileCheck %s

// Round trip of the tensor primitives. Every result is consumed with its type
// spelled out (by adj.tuple or adj.return), so a wrong inferred type fails to
// parse and the CHECK lines see the inferred types.

// CHECK-LABEL: adj.func @binary
// CHECK-NEXT:    %[[A:.*]] = adj.add %arg0, %arg1 : tensor<2x1x3xf32>, tensor<4x3xf32>
// CHECK-NEXT:    %[[S:.*]] = adj.sub %arg1, %arg2 : tensor<4x3xf32>, tensor<f32>
// CHECK-NEXT:    %[[M:.*]] = adj.mul %arg2, %arg2 : tensor<f32>, tensor<f32>
// CHECK-NEXT:    %[[D:.*]] = adj.div %arg3, %arg6 : tensor<?x3xi64>, tensor<5x1xi64>
// CHECK-NEXT:    %[[P:.*]] = adj.pow %arg1, %arg2 : tensor<4x3xf32>, tensor<f32>
// CHECK-NEXT:    %[[X:.*]] = adj.maximum %arg4, %arg4 : tensor<2xi1>, tensor<2xi1>
// CHECK-NEXT:    %[[N:.*]] = adj.minimum %arg0, %arg2 : tensor<2x1x3xf32>, tensor<f32>
// CHECK-NEXT:    %[[U:.*]] = adj.add %arg1, %arg5 : tensor<4x3xf32>, !adj.any
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[A]], %[[S]], %[[M]], %[[D]], %[[P]], %[[X]], %[[N]], %[[U]] : tensor<2x4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<5x3xi64>, tensor<4x3xf32>, tensor<2xi1>, tensor<2x1x3xf32>, !adj.any
adj.func @binary(%a: tensor<2x1x3xf32>, %b: tensor<4x3xf32>, %s: tensor<f32>, %i: tensor<?x3xi64>, %c: tensor<2xi1>, %u: !adj.any, %j: tensor<5x1xi64>) -> !adj.tuple<tensor<2x4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<5x3xi64>, tensor<4x3xf32>, tensor<2xi1>, tensor<2x1x3xf32>, !adj.any> {
  %0 = adj.add %a, %b : tensor<2x1x3xf32>, tensor<4x3xf32>
  %1 = adj.sub %b, %s : tensor<4x3xf32>, tensor<f32>
  %2 = adj.mul %s, %s : tensor<f32>, tensor<f32>
  %3 = adj.div %i, %j : tensor<?x3xi64>, tensor<5x1xi64>
  %4 = adj.pow %b, %s : tensor<4x3xf32>, tensor<f32>
  %5 = adj.maximum %c, %c : tensor<2xi1>, tensor<2xi1>
  %6 = adj.minimum %a, %s : tensor<2x1x3xf32>, tensor<f32>
  %7 = adj.add %b, %u : tensor<4x3xf32>, !adj.any
  %t = adj.tuple %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<5x3xi64>, tensor<4x3xf32>, tensor<2xi1>, tensor<2x1x3xf32>, !adj.any
  adj.return %t : !adj.tuple<tensor<2x4x3xf32>, tensor<4x3xf32>, tensor<f32>, tensor<5x3xi64>, tensor<4x3xf32>, tensor<2xi1>, tensor<2x1x3xf32>, !adj.any>
}

// CHECK-LABEL: adj.func @unary
// CHECK-NEXT:    %[[A:.*]] = adj.neg %arg1 : tensor<3xi32>
// CHECK-NEXT:    %[[B:.*]] = adj.exp %arg0 : tensor<2x?xf32>
// CHECK-NEXT:    %[[C:.*]] = adj.log %[[B]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[D:.*]] = adj.tanh %[[C]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[E:.*]] = adj.sigmoid %[[D]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[F:.*]] = adj.relu %[[A]] : tensor<3xi32>
// CHECK-NEXT:    %[[G:.*]] = adj.sqrt %[[E]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[H:.*]] = adj.rsqrt %[[G]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[I:.*]] = adj.abs %[[F]] : tensor<3xi32>
// CHECK-NEXT:    %[[J:.*]] = adj.sign %[[I]] : tensor<3xi32>
// CHECK-NEXT:    %[[K:.*]] = adj.sin %[[H]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[L:.*]] = adj.cos %[[K]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[M:.*]] = adj.erf %[[L]] : tensor<2x?xf32>
// CHECK-NEXT:    %[[N:.*]] = adj.exp %arg2 : !adj.any
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[M]], %[[J]], %[[N]] : tensor<2x?xf32>, tensor<3xi32>, !adj.any
adj.func @unary(%x: tensor<2x?xf32>, %i: tensor<3xi32>, %u: !adj.any) -> !adj.tuple<tensor<2x?xf32>, tensor<3xi32>, !adj.any> {
  %a = adj.neg %i : tensor<3xi32>
  %b = adj.exp %x : tensor<2x?xf32>
  %c = adj.log %b : tensor<2x?xf32>
  %d = adj.tanh %c : tensor<2x?xf32>
  %e = adj.sigmoid %d : tensor<2x?xf32>
  %f = adj.relu %a : tensor<3xi32>
  %g = adj.sqrt %e : tensor<2x?xf32>
  %h = adj.rsqrt %g : tensor<2x?xf32>
  %j = adj.abs %f : tensor<3xi32>
  %k = adj.sign %j : tensor<3xi32>
  %l = adj.sin %h : tensor<2x?xf32>
  %m = adj.cos %l : tensor<2x?xf32>
  %n = adj.erf %m : tensor<2x?xf32>
  %o = adj.exp %u : !adj.any
  %t = adj.tuple %n, %k, %o : tensor<2x?xf32>, tensor<3xi32>, !adj.any
  adj.return %t : !adj.tuple<tensor<2x?xf32>, tensor<3xi32>, !adj.any>
}

// log1p and expm1 keep the operand's type; atan2 broadcasts like add.
// CHECK-LABEL: adj.func @inverse_trig_primitives
// CHECK-NEXT:    %[[L:.*]] = adj.log1p %arg0 : tensor<2x3xf64>
// CHECK-NEXT:    %[[E:.*]] = adj.expm1 %[[L]] : tensor<2x3xf64>
// CHECK-NEXT:    %[[A:.*]] = adj.atan2 %[[E]], %arg1 : tensor<2x3xf64>, tensor<3xf64>
// CHECK-NEXT:    %[[U:.*]] = adj.atan2 %arg2, %arg2 : !adj.any, !adj.any
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[A]], %[[U]] : tensor<2x3xf64>, !adj.any
adj.func @inverse_trig_primitives(%x: tensor<2x3xf64>, %y: tensor<3xf64>, %u: !adj.any) -> !adj.tuple<tensor<2x3xf64>, !adj.any> {
  %a = adj.log1p %x : tensor<2x3xf64>
  %b = adj.expm1 %a : tensor<2x3xf64>
  %c = adj.atan2 %b, %y : tensor<2x3xf64>, tensor<3xf64>
  %d = adj.atan2 %u, %u : !adj.any, !adj.any
  %t = adj.tuple %c, %d : tensor<2x3xf64>, !adj.any
  adj.return %t : !adj.tuple<tensor<2x3xf64>, !adj.any>
}

// CHECK-LABEL: adj.func @compare_select_cast
// CHECK-NEXT:    %[[EQ:.*]] = adj.cmp eq, %arg0, %arg1 : tensor<3xf32>, tensor<f32>
// CHECK-NEXT:    %[[NE:.*]] = adj.cmp ne, %arg0, %arg1 : tensor<3xf32>, tensor<f32>
// CHECK-NEXT:    %[[LT:.*]] = adj.cmp lt, %arg0, %arg1 : tensor<3xf32>, tensor<f32>
// CHECK-NEXT:    %[[LE:.*]] = adj.cmp le, %arg0, %arg1 : tensor<3xf32>, tensor<f32>
// CHECK-NEXT:    %[[GT:.*]] = adj.cmp gt, %arg2, %arg2 : tensor<2x1xi64>, tensor<2x1xi64>
// CHECK-NEXT:    %[[GE:.*]] = adj.cmp ge, %arg0, %arg3 : tensor<3xf32>, !adj.any
// CHECK-NEXT:    %[[S:.*]] = adj.select %[[GT]], %arg0, %arg1 : tensor<2x1xi1>, tensor<3xf32>, tensor<f32>
// CHECK-NEXT:    %[[C:.*]] = adj.cast %[[S]] : tensor<2x3xf32> to tensor<2x3xbf16>
// CHECK-NEXT:    %[[C2:.*]] = adj.cast %arg3 : !adj.any to tensor<2xi1>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GE]], %[[C]], %[[C2]] : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, !adj.any, tensor<2x3xbf16>, tensor<2xi1>
adj.func @compare_select_cast(%a: tensor<3xf32>, %s: tensor<f32>, %i: tensor<2x1xi64>, %u: !adj.any) -> !adj.tuple<tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, !adj.any, tensor<2x3xbf16>, tensor<2xi1>> {
  %eq = adj.cmp eq, %a, %s : tensor<3xf32>, tensor<f32>
  %ne = adj.cmp ne, %a, %s : tensor<3xf32>, tensor<f32>
  %lt = adj.cmp lt, %a, %s : tensor<3xf32>, tensor<f32>
  %le = adj.cmp le, %a, %s : tensor<3xf32>, tensor<f32>
  %gt = adj.cmp gt, %i, %i : tensor<2x1xi64>, tensor<2x1xi64>
  %ge = adj.cmp ge, %a, %u : tensor<3xf32>, !adj.any
  %sel = adj.select %gt, %a, %s : tensor<2x1xi1>, tensor<3xf32>, tensor<f32>
  %c = adj.cast %sel : tensor<2x3xf32> to tensor<2x3xbf16>
  %c2 = adj.cast %u : !adj.any to tensor<2xi1>
  %t = adj.tuple %eq, %ne, %lt, %le, %ge, %c, %c2 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, !adj.any, tensor<2x3xbf16>, tensor<2xi1>
  adj.return %t : !adj.tuple<tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, !adj.any, tensor<2x3xbf16>, tensor<2xi1>>
}

// CHECK-LABEL: adj.func @contractions
// CHECK-NEXT:    %[[M:.*]] = adj.matmul %arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>
// CHECK-NEXT:    %[[B:.*]] = adj.matmul %arg2, %arg3 : tensor<5x1x2x3xf64>, tensor<7x3x?xf64>
// CHECK-NEXT:    %[[S:.*]] = adj.reduce_sum %arg0 axes = [1] : tensor<2x3xf32>
// CHECK-NEXT:    %[[X:.*]] = adj.reduce_max %arg2 axes = [3, 0] keepdims : tensor<5x1x2x3xf64>
// CHECK-NEXT:    %[[N:.*]] = adj.reduce_mean %arg0 axes = [] : tensor<2x3xf32>
// CHECK-NEXT:    %[[A:.*]] = adj.reduce_sum %arg0 axes = [0, 1] : tensor<2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[M]], %[[B]], %[[S]], %[[X]], %[[N]], %[[A]] : tensor<2x4xf32>, tensor<5x7x2x?xf64>, tensor<2xf32>, tensor<1x1x2x1xf64>, tensor<2x3xf32>, tensor<f32>
adj.func @contractions(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x1x2x3xf64>, %d: tensor<7x3x?xf64>) -> !adj.tuple<tensor<2x4xf32>, tensor<5x7x2x?xf64>, tensor<2xf32>, tensor<1x1x2x1xf64>, tensor<2x3xf32>, tensor<f32>> {
  %m = adj.matmul %a, %b : tensor<2x3xf32>, tensor<3x4xf32>
  %bm = adj.matmul %c, %d : tensor<5x1x2x3xf64>, tensor<7x3x?xf64>
  %s = adj.reduce_sum %a axes = [1] : tensor<2x3xf32>
  %x = adj.reduce_max %c axes = [3, 0] keepdims : tensor<5x1x2x3xf64>
  %n = adj.reduce_mean %a axes = [] : tensor<2x3xf32>
  %all = adj.reduce_sum %a axes = [0, 1] : tensor<2x3xf32>
  %t = adj.tuple %m, %bm, %s, %x, %n, %all : tensor<2x4xf32>, tensor<5x7x2x?xf64>, tensor<2xf32>, tensor<1x1x2x1xf64>, tensor<2x3xf32>, tensor<f32>
  adj.return %t : !adj.tuple<tensor<2x4xf32>, tensor<5x7x2x?xf64>, tensor<2xf32>, tensor<1x1x2x1xf64>, tensor<2x3xf32>, tensor<f32>>
}

// CHECK-LABEL: adj.func @movement
// CHECK-NEXT:    %[[BC:.*]] = adj.broadcast_to %arg0 : tensor<3xf32> to tensor<2x3xf32>
// CHECK-NEXT:    %[[RS:.*]] = adj.reshape %[[BC]] : tensor<2x3xf32> to tensor<3x1x2xf32>
// CHECK-NEXT:    %[[TR:.*]] = adj.transpose %[[RS]] perm = [2, 0, 1] : tensor<3x1x2xf32>
// CHECK-NEXT:    %[[SL:.*]] = adj.slice %[[BC]] start = [0, 0] limit = [2, 3] stride = [1, 2] : tensor<2x3xf32>
// CHECK-NEXT:    %[[SE:.*]] = adj.slice %[[BC]] start = [1, 3] limit = [1, 3] stride = [1, 1] : tensor<2x3xf32>
// CHECK-NEXT:    %[[CC:.*]] = adj.concat %[[BC]], %[[SL]], %arg1 axis = 1 : tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x?xf32>
// CHECK-NEXT:    %[[C1:.*]] = adj.concat %arg0 axis = 0 : tensor<3xf32>
// CHECK-NEXT:    %[[PD:.*]] = adj.pad %[[BC]] low = [1, 0] high = [0, 2] value = -1.500000e+00 : tensor<2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[TR]], %[[SL]], %[[SE]], %[[CC]], %[[C1]], %[[PD]] : tensor<2x3x1xf32>, tensor<2x2xf32>, tensor<0x0xf32>, tensor<2x?xf32>, tensor<3xf32>, tensor<3x5xf32>
adj.func @movement(%a: tensor<3xf32>, %d: tensor<2x?xf32>) -> !adj.tuple<tensor<2x3x1xf32>, tensor<2x2xf32>, tensor<0x0xf32>, tensor<2x?xf32>, tensor<3xf32>, tensor<3x5xf32>> {
  %bc = adj.broadcast_to %a : tensor<3xf32> to tensor<2x3xf32>
  %rs = adj.reshape %bc : tensor<2x3xf32> to tensor<3x1x2xf32>
  %tr = adj.transpose %rs perm = [2, 0, 1] : tensor<3x1x2xf32>
  %sl = adj.slice %bc start = [0, 0] limit = [2, 3] stride = [1, 2] : tensor<2x3xf32>
  %se = adj.slice %bc start = [1, 3] limit = [1, 3] stride = [1, 1] : tensor<2x3xf32>
  %cc = adj.concat %bc, %sl, %d axis = 1 : tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x?xf32>
  %c1 = adj.concat %a axis = 0 : tensor<3xf32>
  %pd = adj.pad %bc low = [1, 0] high = [0, 2] value = -1.5 : tensor<2x3xf32>
  %t = adj.tuple %tr, %sl, %se, %cc, %c1, %pd : tensor<2x3x1xf32>, tensor<2x2xf32>, tensor<0x0xf32>, tensor<2x?xf32>, tensor<3xf32>, tensor<3x5xf32>
  adj.return %t : !adj.tuple<tensor<2x3x1xf32>, tensor<2x2xf32>, tensor<0x0xf32>, tensor<2x?xf32>, tensor<3xf32>, tensor<3x5xf32>>
}

// CHECK-LABEL: adj.func @indexing
// CHECK-NEXT:    %[[G:.*]] = adj.gather %arg0[%arg1] axis = 0 : tensor<100x16xf32>, tensor<4x8xi64>
// CHECK-NEXT:    %[[G1:.*]] = adj.gather %arg0[%arg2] axis = 1 : tensor<100x16xf32>, tensor<5xi32>
// CHECK-NEXT:    %[[S:.*]] = adj.scatter_add %arg0[%arg1], %[[G]] axis = 0 : tensor<100x16xf32>, tensor<4x8xi64>, tensor<4x8x16xf32>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[G]], %[[G1]], %[[S]] : tensor<4x8x16xf32>, tensor<100x5xf32>, tensor<100x16xf32>
adj.func @indexing(%table: tensor<100x16xf32>, %ids: tensor<4x8xi64>, %cols: tensor<5xi32>) -> !adj.tuple<tensor<4x8x16xf32>, tensor<100x5xf32>, tensor<100x16xf32>> {
  %g = adj.gather %table[%ids] axis = 0 : tensor<100x16xf32>, tensor<4x8xi64>
  %g1 = adj.gather %table[%cols] axis = 1 : tensor<100x16xf32>, tensor<5xi32>
  %s = adj.scatter_add %table[%ids], %g axis = 0 : tensor<100x16xf32>, tensor<4x8xi64>, tensor<4x8x16xf32>
  %t = adj.tuple %g, %g1, %s : tensor<4x8x16xf32>, tensor<100x5xf32>, tensor<100x16xf32>
  adj.return %t : !adj.tuple<tensor<4x8x16xf32>, tensor<100x5xf32>, tensor<100x16xf32>>
}

// CHECK-LABEL: adj.func @windows
// CHECK-NEXT:    %[[C:.*]] = adj.conv2d %arg0, %arg1 stride = [2, 1] padding = [1, 1, 0, 0] dilation = [1, 2] groups = 2 : tensor<8x4x32x32xf32>, tensor<6x2x3x3xf32>
// CHECK-NEXT:    %[[M:.*]] = adj.max_pool2d %arg0 kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<8x4x32x32xf32>
// CHECK-NEXT:    %[[A:.*]] = adj.avg_pool2d %arg0 kernel = [3, 3] stride = [1, 1] padding = [1, 1, 1, 1] : tensor<8x4x32x32xf32>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[C]], %[[M]], %[[A]] : tensor<8x6x16x28xf32>, tensor<8x4x16x16xf32>, tensor<8x4x32x32xf32>
adj.func @windows(%x: tensor<8x4x32x32xf32>, %w: tensor<6x2x3x3xf32>) -> !adj.tuple<tensor<8x6x16x28xf32>, tensor<8x4x16x16xf32>, tensor<8x4x32x32xf32>> {
  %c = adj.conv2d %x, %w stride = [2, 1] padding = [1, 1, 0, 0] dilation = [1, 2] groups = 2 : tensor<8x4x32x32xf32>, tensor<6x2x3x3xf32>
  %m = adj.max_pool2d %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0] : tensor<8x4x32x32xf32>
  %a = adj.avg_pool2d %x kernel = [3, 3] stride = [1, 1] padding = [1, 1, 1, 1] : tensor<8x4x32x32xf32>
  %t = adj.tuple %c, %m, %a : tensor<8x6x16x28xf32>, tensor<8x4x16x16xf32>, tensor<8x4x32x32xf32>
  adj.return %t : !adj.tuple<tensor<8x6x16x28xf32>, tensor<8x4x16x16xf32>, tensor<8x4x32x32xf32>>
}

// CHECK-LABEL: adj.func @creation
// CHECK-NEXT:    %[[C:.*]] = adj.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[F:.*]] = adj.fill 2.500000e+00 : tensor<2x2xf16>
// CHECK-NEXT:    %[[I:.*]] = adj.iota axis = 1 : tensor<2x3xi64>
// CHECK-NEXT:    %[[T:.*]] = adj.tuple %[[C]], %[[F]], %[[I]] : tensor<2xf32>, tensor<2x2xf16>, tensor<2x3xi64>
adj.func @creation() -> !adj.tuple<tensor<2xf32>, tensor<2x2xf16>, tensor<2x3xi64>> {
  %c = adj.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %f = adj.fill 2.5 : tensor<2x2xf16>
  %i = adj.iota axis = 1 : tensor<2x3xi64>
  %t = adj.tuple %c, %f, %i : tensor<2xf32>, tensor<2x2xf16>, tensor<2x3xi64>
  adj.return %t : !adj.tuple<tensor<2xf32>, tensor<2x2xf16>, tensor<2x3xi64>>
}

// Untyped operands give untyped results.
// CHECK-LABEL: adj.func @untyped
// CHECK-NEXT:    %[[M:.*]] = adj.matmul %arg0, %arg1 : !adj.any, tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = adj.reduce_sum %[[M]] axes = [0] : !adj.any
// CHECK-NEXT:    %[[T:.*]] = adj.transpose %[[R]] perm = [1, 0] : !adj.any
// CHECK-NEXT:    %[[S:.*]] = adj.slice %[[T]] start = [0] limit = [1] stride = [1] : !adj.any
// CHECK-NEXT:    %[[C:.*]] = adj.concat %arg1, %[[S]] axis = 0 : tensor<2x2xf32>, !adj.any
// CHECK-NEXT:    %[[P:.*]] = adj.pad %[[C]] low = [1] high = [1] value = 0.000000e+00 : !adj.any
// CHECK-NEXT:    %[[G:.*]] = adj.gather %arg1[%[[P]]] axis = 0 : tensor<2x2xf32>, !adj.any
// CHECK-NEXT:    %[[SA:.*]] = adj.scatter_add %arg1[%arg0], %[[G]] axis = 0 : tensor<2x2xf32>, !adj.any, !adj.any
// CHECK-NEXT:    %[[CV:.*]] = adj.conv2d %[[SA]], %arg0 stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : !adj.any, !adj.any
// CHECK-NEXT:    %[[MP:.*]] = adj.max_pool2d %[[CV]] kernel = [1, 1] stride = [1, 1] padding = [0, 0, 0, 0] : !adj.any
// CHECK-NEXT:    %[[AP:.*]] = adj.avg_pool2d %[[MP]] kernel = [1, 1] stride = [1, 1] padding = [0, 0, 0, 0] : !adj.any
// CHECK-NEXT:    %[[SE:.*]] = adj.select %[[AP]], %arg1, %arg1 : !adj.any, tensor<2x2xf32>, tensor<2x2xf32>
// CHECK-NEXT:    %[[BC:.*]] = adj.broadcast_to %[[SE]] : !adj.any to tensor<2x2xf32>
// CHECK-NEXT:    %[[RS:.*]] = adj.reshape %arg1 : tensor<2x2xf32> to !adj.any
// CHECK-NEXT:    %[[TU:.*]] = adj.tuple %[[BC]], %[[RS]] : tensor<2x2xf32>, !adj.any
adj.func @untyped(%u: !adj.any, %x: tensor<2x2xf32>) -> !adj.tuple<tensor<2x2xf32>, !adj.any> {
  %m = adj.matmul %u, %x : !adj.any, tensor<2x2xf32>
  %r = adj.reduce_sum %m axes = [0] : !adj.any
  %t = adj.transpose %r perm = [1, 0] : !adj.any
  %s = adj.slice %t start = [0] limit = [1] stride = [1] : !adj.any
  %c = adj.concat %x, %s axis = 0 : tensor<2x2xf32>, !adj.any
  %p = adj.pad %c low = [1] high = [1] value = 0.0 : !adj.any
  %g = adj.gather %x[%p] axis = 0 : tensor<2x2xf32>, !adj.any
  %sa = adj.scatter_add %x[%u], %g axis = 0 : tensor<2x2xf32>, !adj.any, !adj.any
  %cv = adj.conv2d %sa, %u stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1 : !adj.any, !adj.any
  %mp = adj.max_pool2d %cv kernel = [1, 1] stride = [1, 1] padding = [0, 0, 0, 0] : !adj.any
  %ap = adj.avg_pool2d %mp kernel = [1, 1] stride = [1, 1] padding = [0, 0, 0, 0] : !adj.any
  %se = adj.select %ap, %x, %x : !adj.any, tensor<2x2xf32>, tensor<2x2xf32>
  %bc = adj.broadcast_to %se : !adj.any to tensor<2x2xf32>
  %rs = adj.reshape %x : tensor<2x2xf32> to !adj.any
  %tu = adj.tuple %bc, %rs : tensor<2x2xf32>, !adj.any
  adj.return %tu : !adj.tuple<tensor<2x2xf32>, !adj.any>
}
