// A literal nested 200000 lists deep (through a response file: more than one
// command-line word can hold) overflowed the parser's stack (SIGSEGV).
// RUN: python3 -c "print('--arg=' + '[' * 200000)" > %t.deep.rsp
// RUN: not ir-run %s @%t.deep.rsp 2>&1 | FileCheck %s
// RUN: python3 -c "print('--arg=' + '[' * 1025 + '7' + ']' * 1025)" > %t.max.rsp
// RUN: not ir-run %s @%t.max.rsp 2>&1 | FileCheck %s
// RUN: python3 -c "print('--arg=' + '[' * 1024 + '7' + ']' * 1024)" > %t.ok.rsp
// RUN: ir-run %s @%t.ok.rsp | FileCheck %s --check-prefix=OK

// CHECK: ir-run: error: argument #0 ({{.*}}): malformed literal: lists nested deeper than 1024 levels
// OK: tensor<1x1x1x
adj.func @main(%x: !adj.any) -> !adj.any {
  adj.return %x : !adj.any
}
