// RUN: ir-opt %s -adj-fixpoint='pipeline=adj-inline,adj-simplify-tuples max-rounds=1' | FileCheck %s --check-prefix=ONE
// RUN: ir-opt %s -adj-fixpoint='pipeline=adj-inline,adj-simplify-tuples max-rounds=4' | FileCheck %s --check-prefix=FIX
// RUN: ir-opt %s -adj-fixpoint='pipeline=adj-inline,adj-simplify-tuples max-rounds=4' | ir-opt -adj-inline -adj-simplify-tuples | FileCheck %s --check-prefix=FIX
// RUN: not ir-opt %s -adj-fixpoint='pipeline=no-such-pass' 2>&1 | FileCheck %s --check-prefix=BAD

// The callee is known only once -adj-simplify-tuples has removed the
// tuple: one round leaves the call, the second inlines it, the third
// changes nothing and ends the iteration (another round of the same passes
// changes nothing either: the second RUN line of FIX).

// ONE-LABEL: adj.func @main
// ONE:         %[[F:.*]] = adj.func_ref @sq
// ONE:         adj.call %[[F]]

// FIX-LABEL: adj.func @main
// FIX-SAME:      (%[[X:.*]]: tensor<f32>)
// FIX-NEXT:      %[[Y:.*]] = adj.mul %[[X]], %[[X]]
// FIX-NEXT:      adj.return %[[Y]]

// BAD: -adj-fixpoint: bad pipeline 'no-such-pass'

adj.func private @sq(%x: tensor<f32>) -> tensor<f32> {
  %y = adj.mul %x, %x : tensor<f32>, tensor<f32>
  adj.return %y : tensor<f32>
}
adj.func @main(%x: tensor<f32>) -> tensor<f32> {
  %f = adj.func_ref @sq : !adj.fn<(tensor<f32>) -> tensor<f32>>
  %t = adj.tuple %f, %x : !adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>
  %g = adj.get %t[0] : !adj.tuple<!adj.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>>
  %r = adj.call %g(%x) : !adj.fn<(tensor<f32>) -> tensor<f32>>
  adj.return %r : tensor<f32>
}
