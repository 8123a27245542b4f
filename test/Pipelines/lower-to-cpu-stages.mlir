// What each CPU stage does to a dense layer with a big elementwise tail, and
// that -adj-lower-to-cpu's output is plain LLVM dialect: mlir-translate
// makes LLVM IR of it and llc an object file whose only external references
// are the runtime's (docs/cpu-backend.md).
// RUN: ir-opt %s -adj-tensor -adj-bufferize | FileCheck %s --check-prefix=BUFFER
// RUN: ir-opt %s -adj-tensor -adj-bufferize -adj-cpu-loops | FileCheck %s --check-prefix=LOOPS
// RUN: ir-opt %s -adj-lower-to-cpu | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: ir-opt %s -adj-lower-to-cpu | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O3 -filetype=obj -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ

// Bufferized: nothing is copied (each matmul writes its own zero-filled
// buffer in place), the bias + tanh loop writes over the product it reads,
// and the hidden layer's buffer is freed right after its last use.
// BUFFER-LABEL: func.func @layer
// BUFFER-NOT: memref.copy
// BUFFER: %[[H:.*]] = memref.alloc() {{.*}} : memref<512x512xf32>
// BUFFER: linalg.matmul {{.*}} outs(%[[H]] :
// BUFFER: linalg.generic {{.*}} outs(%[[H]] :
// BUFFER: math.tanh
// BUFFER: %[[Y:.*]] = memref.alloc() {{.*}} : memref<512x16xf32>
// BUFFER: linalg.matmul ins(%[[H]], {{.*}} outs(%[[Y]] :
// BUFFER-NEXT: memref.dealloc %[[H]]
// BUFFER-NOT: memref.copy
// BUFFER: return %[[Y]]

// Loops: the products are kernel calls that overwrite (accumulate = 0, the
// zero fills are gone); the 512x512 bias + tanh loop runs on the thread
// pool, with tanh as a polynomial (no libm call, so it vectorizes).
// LOOPS-LABEL: func.func @layer
// LOOPS-NOT: linalg.
// LOOPS: %[[ZERO:.*]] = arith.constant 0 : i64
// LOOPS: call @adj_kernel_matmul_f32({{.*}}, %[[ZERO]])
// LOOPS: call @adjrt_parallel_for
// LOOPS: call @adj_kernel_matmul_f32({{.*}}, %[[ZERO]])
// LOOPS-NOT: linalg.
// LOOPS: return
// LOOPS: func.func private @layer_parallel_0
// LOOPS-NOT: math.tanh
// LOOPS: math.fma
// LOOPS-NOT: math.tanh

// The kernel's declaration becomes a private wrapper that passes the
// descriptors by pointer to the runtime's C symbol.
// LLVMIR: define private void @adj_kernel_matmul_f32(
// LLVMIR: call void @_mlir_ciface_adj_kernel_matmul_f32(
// LLVMIR: define {{.*}} @layer(
// LLVMIR: call void @adj_kernel_matmul_f32(
// LLVMIR: call void @adjrt_parallel_for(i64 0, i64 512, i64 0, ptr @layer_parallel_0, ptr
// LLVMIR: define void @_mlir_ciface_layer(
// LLVMIR: define internal void @layer_parallel_0(ptr %0, i64 %1, i64 %2)

// OBJ-DAG: T _mlir_ciface_layer
// OBJ-DAG: T layer
// OBJ-DAG: U _mlir_ciface_adj_kernel_matmul_f32
// OBJ-DAG: U _mlir_memref_to_llvm_aligned_alloc
// OBJ-DAG: U _mlir_memref_to_llvm_free
// OBJ-DAG: U adjrt_parallel_for
// OBJ-DAG: t layer_parallel_0
// OBJ-NOT: tanhf
adj.func @layer(%x: tensor<512x256xf32>, %w: tensor<256x512xf32>, %b: tensor<512xf32>, %v: tensor<512x16xf32>) -> tensor<512x16xf32> {
  %m = adj.matmul %x, %w : tensor<512x256xf32>, tensor<256x512xf32>
  %z = adj.add %m, %b : tensor<512x512xf32>, tensor<512xf32>
  %h = adj.tanh %z : tensor<512x512xf32>
  %y = adj.matmul %h, %v : tensor<512x512xf32>, tensor<512x16xf32>
  adj.return %y : tensor<512x16xf32>
}
