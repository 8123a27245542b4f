// A kernel loop's llvm.loop_annotation, which the SCF and LLVM conversions
// leave on the latch branch as a discardable attribute, becomes the
// branch's loop_annotation (which LLVM IR translation writes as !llvm.loop
// metadata; the discardable one it drops).
// RUN: ir-opt %s -pass-pipeline="builtin.module(gpu.module(convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts,adj-gpu-loop-annotations))" | FileCheck %s

// CHECK:     #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK:     #[[LOOP:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK:     llvm.func @k(
// CHECK:       llvm.br ^bb1(%{{.*}}, %{{.*}} : i64, f32) {loop_annotation = #[[LOOP]]}
// CHECK-NOT:   llvm.loop_annotation
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @k(%a: !llvm.ptr) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %zero = arith.constant 0.0 : f32
      %s = scf.for %i = %c0 to %c7 step %c1 iter_args(%acc = %zero) -> f32 {
        %v = llvm.load %a : !llvm.ptr -> f32
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      } {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      llvm.store %s, %a : f32, !llvm.ptr
      llvm.return
    }
  }
}
