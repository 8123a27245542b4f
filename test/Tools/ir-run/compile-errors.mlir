// ir-run --compile reports what cannot be compiled and bad arguments as
// errors, like the interpreter does.
// RUN: not ir-run %s -f apply --arg "[1.0]" --compile --no-cache 2>&1 | FileCheck %s --check-prefix=FNARG
// RUN: not ir-run %s -f nope --compile --no-cache 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not ir-run %s -f foreign --arg "[1.0, -2.0]" --compile --no-cache 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: not ir-run %s -f apply --arg "[1.0]" --compile --opt-level 7 --no-cache 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not ir-run %s -f apply --arg "[1.0]" --compile --target=gpu --no-cache 2>&1 | FileCheck %s --check-prefix=KIND

// FNARG: ir-run: error: compile @apply: output #0 (tuples flattened) has type !adj.fn<(tensor<1xf32>) -> tensor<1xf32>>; function values cannot be passed to or returned from compiled code
// LEVEL: ir-run: error: compile: optLevel must be 0 to 3, got 7
// KIND: ir-run: error: target 'gpu': unknown kind 'gpu'
adj.func @apply(%x: tensor<1xf32>) -> !adj.fn<(tensor<1xf32>) -> tensor<1xf32>> {
  %f = adj.lambda (%y: tensor<1xf32>) -> tensor<1xf32> {
    %z = adj.mul %x, %y : tensor<1xf32>, tensor<1xf32>
    adj.return %z : tensor<1xf32>
  }
  adj.return %f : !adj.fn<(tensor<1xf32>) -> tensor<1xf32>>
}

// NOFUNC: ir-run: error: no adj.func named 'nope'

// An op of another dialect that the CPU lowering does not handle: the
// diagnostic names it and its location.
// FOREIGN: ir-run: error: compile @foreign: lowering failed:
// FOREIGN-NEXT: {{.*}}compile-errors.mlir:[[@LINE+2]]:8: error: failed to legalize operation 'tosa.abs'
adj.func @foreign(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = tosa.abs %x : (tensor<2xf32>) -> tensor<2xf32>
  adj.return %y : tensor<2xf32>
}
