// adj-aot writes the object, its header and, with --emit-llvm, the optimized
// LLVM IR of the same code: the packed entry point, its signature string,
// and allocation through the runtime's pool rather than malloc.
// RUN: rm -rf %t && mkdir -p %t
// RUN: adj-aot %s --function scale -o %t --emit-llvm | FileCheck %s --check-prefix=TOOL
// RUN: FileCheck %s --input-file=%t/scale.ll --check-prefix=IR
// RUN: FileCheck %s --input-file=%t/scale.h --check-prefix=HEADER
// RUN: not adj-aot %s --function missing -o %t 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: adj-aot %s --function scale -o %t/named --target=cpu:x86-64-v3
// RUN: FileCheck %s --input-file=%t/named/scale.h --check-prefix=NAMED
// RUN: not adj-aot %s --function scale -o %t --target=tpu 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not adj-aot %s --function scale -o %t --target=opencl 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not adj-aot %s --function scale -o %t --target=cuda 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not adj-aot %s --function scale -o %t --target=hip 2>&1 | FileCheck %s --check-prefix=HIP

// TOOL: adj-aot: wrote {{.*}}scale.o and {{.*}}scale.h
// TOOL: adj-aot: wrote {{.*}}scale.ll
// IR: define {{.*}}void @_adj_entry_scale(ptr
// IR: _mlir_memref_to_llvm
// IR-NOT: @malloc
// HEADER: struct scale {
// MISSING: adj-aot: error: {{.*}}missing
// NAMED: // Target: cpu:x86-64-v3, {{.*}}-linux-gnu.
// KIND: adj-aot: error: target 'tpu': unknown kind 'tpu' (expected one of cpu, opencl, level_zero, cuda, hip
// GPU: adj-aot: error: compileToObject: ahead-of-time code for opencl is not supported yet (use compile())
// CUDA: adj-aot: error: compileToObject: ahead-of-time code for cuda is not supported yet (use compile())
// HIP: adj-aot: error: compileToObject: ahead-of-time code for hip is not supported yet (use compile())
adj.func @scale(%x: tensor<1024xf32>, %s: tensor<f32>) -> tensor<1024xf32> {
  %y = adj.mul %x, %s : tensor<1024xf32>, tensor<f32>
  %z = adj.exp %y : tensor<1024xf32>
  adj.return %z : tensor<1024xf32>
}
