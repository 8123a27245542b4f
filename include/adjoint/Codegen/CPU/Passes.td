//===- Passes.td - CPU-only code generation passes ---------*- tablegen -*-===//
//
// Passes that only the CPU target runs (library kernels, the runtime's
// thread pool, LLVM-friendly function structure). Every pass has one name:
// `LinalgToKernels` lives in lib/Codegen/CPU/LinalgToKernels/
// LinalgToKernels.cpp, is `adjoint::cpu::createLinalgToKernels()`, has the
// flag `-adj-cpu-linalg-to-kernels` (the folder is the scope) and is tested
// in test/Codegen/CPU/LinalgToKernels/cpu-linalg-to-kernels.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_CPU_PASSES_TD
#define ADJOINT_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def LinalgToKernels : Pass<"adj-cpu-linalg-to-kernels", "::mlir::ModuleOp"> {
  let summary = "Replaces f32/f64 matmul, batch_matmul and conv_2d_nchw_fchw "
                "on memrefs by calls of the runtime's kernels";
  let description = [{
    `linalg.matmul(A, B, C) = call @adj_kernel_matmul_f32(A', B', C, acc)`:
    the runtime's kernels (lib/Runtime/Kernels*.cpp, Eigen GEMM on the
    runtime's threads) compute `C = acc * C + A' B'` exactly like the linalg
    op, where `A'` is a memref.transpose view of A when A's indexing map is
    transposed (no copy), and `acc` is 0 when a zero linalg.fill of C right
    before the op was dropped, 1 otherwise.
    Batched products and NCHW/FCHW convolutions (any stride and dilation)
    get their own entry points. A convolution input that is the zero-filled
    buffer bufferization makes of a zero tensor.pad (the input copied into
    its interior, read by the convolution alone) is replaced by the
    unpadded input and its top/left padding: the kernel reads the padding
    as zeros, and the fill and the copy go. The
    callees are private declarations with `llvm.emit_c_interface`, so their
    C symbols are `_mlir_ciface_adj_kernel_*` taking memref descriptors.
    Other element types and other linalg ops are left alone (they become
    loops).

    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>)
                  outs(%c : memref<4x2xf32>)
    ```
    After:
    ```mlir
    %ca = memref.cast %a : memref<4x8xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    ...
    call @adj_kernel_matmul_f32(%ca, %cb, %cc, %c1_i64) : (...) -> ()
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def ParallelToRuntime : Pass<"adj-cpu-parallel-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Runs large scf.parallel loops on the runtime's thread pool";
  let description = [{
    `parallel(i in [0, n)) body(i) = adjrt_parallel_for(0, n, 0, chunk, ctx)`
    with `chunk(ctx, b, e)` an outlined function that runs `body` for the
    first dimension's iterations [b, e) (the other dimensions stay loops
    inside it) and `ctx` a stack struct holding the values the body uses
    from outside, in their LLVM form (memref descriptors, i64 for index).
    `builtin.unrealized_conversion_cast` ops bridge between the two forms;
    they cancel out in -convert-to-llvm + -reconcile-unrealized-casts.

    Only loops whose nest executes at least `min-work` operations (trip
    counts times body sizes, nested loops multiplied out) move: waking the
    pool costs tens of microseconds, and the default (about 80 us of
    vectorized work) is where splitting started to pay on a 2-core VM
    (docs/cpu-backend.md). Loops with reductions (results) stay as they are, and so
    does every scf.parallel nested in another one (it runs sequentially).

    Before:
    ```mlir
    scf.parallel (%i) = (%c0) to (%c1048576) step (%c1) {
      %v = memref.load %x[%i] : memref<1048576xf32>
      memref.store %v, %y[%i] : memref<1048576xf32>
    }
    ```
    After:
    ```mlir
    func.func private @f_parallel_0(%ctx: !llvm.ptr, %b: i64, %e: i64) {
      ... loads %x, %y from %ctx, then the loop over [b, e) ...
    }
    ... llvm.store of the descriptors of %x and %y into %ctx ...
    %fn = func.constant @f_parallel_0 : (!llvm.ptr, i64, i64) -> ()
    call @adjrt_parallel_for(%c0_i64, %c1048576_i64, %c0_i64, %fn, %ctx)
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"2097152",
           "Smallest number of operations one run of a loop nest executes "
           "(trip counts times body sizes) for it to go to the thread pool">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def HoistInvariantLoads : Pass<"adj-cpu-hoist-invariant-loads",
                                "::mlir::func::FuncOp"> {
  let summary = "Moves loads that every trip of a loop repeats out of it";
  let description = [{
    `loop(j) { v = load(a, i); S(v, j) } = v = load(a, i); loop(j) { S(v, j) }`
    when the indices `i` are defined outside the loop, the loop runs at
    least once (constant bounds), and nothing the loop writes can alias `a`:
    `a` is (a view of) a memref.alloc and every memref the loop writes is (a
    view of) another memref.alloc, or `a` is an argument of a public
    function, which compiled code never writes (its caller's memory).
    Innermost loops first, so a load climbs as far as its indices allow.

    Before:
    ```mlir
    scf.for %k = %c0 to %c10 step %c1 {
      scf.parallel (%e) = (%c0) to (%c64) step (%c1) {
        %r = memref.load %idx[%s, %k] : memref<2048x10xi64>
        ... memref.load %table[row(%r), %e], memref.store ... %acc[%s, %e]
      }
    }
    ```
    After:
    ```mlir
    scf.for %k = %c0 to %c10 step %c1 {
      %r = memref.load %idx[%s, %k] : memref<2048x10xi64>
      scf.parallel (%e) = (%c0) to (%c64) step (%c1) { ... }
    }
    ```

    Why: a gather lowers to a loop nest whose innermost body loads the
    index, and LLVM cannot hoist that load itself: it cannot tell the
    index buffer from the buffer the loop stores into, so it reloads the
    index per element and leaves the loop scalar. dlrm's embedding bags (a
    gather of 64-float rows and a sum) spent 29% of its step there.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def OutlineLoops : Pass<"adj-cpu-outline-loops", "::mlir::ModuleOp"> {
  let summary = "Moves each loop nest of a function with several into a "
                "never-inlined function of its own";
  let description = [{
    `f() { nest_0; ...; nest_n }  =  f() { f_loop_0(u_0); ...; f_loop_n(u_n) }`
    with `f_loop_i(u_i) { nest_i }` private, internal and `noinline`, and
    `u_i` the values `nest_i` uses from above (constants are cloned into
    the new function instead, so that bounds and shapes stay constant).
    A nest is a `scf.for` or `scf.parallel` without results that is not
    inside another one; loops with results (lowered `adj.for`/`adj.while`)
    stay, and their nests are outlined. Functions with fewer than two nests
    are left alone.

    Why: LLVM's IndVarSimplify and LoopRotate take time quadratic in the
    number of loops in one function (ScalarEvolution walks the dominator
    chain above each loop); a training step has hundreds to thousands.

    Before:
    ```mlir
    func.func @f(%x: memref<64xf32>, %y: memref<64xf32>) {
      scf.for %i = %c0 to %c64 step %c1 { ... %x ... }
      scf.for %i = %c0 to %c64 step %c1 { ... %y ... }
      return
    }
    ```
    After:
    ```mlir
    func.func @f(%x: memref<64xf32>, %y: memref<64xf32>) {
      call @f_loop_0(%x) : (memref<64xf32>) -> ()
      call @f_loop_1(%y) : (memref<64xf32>) -> ()
      return
    }
    func.func private @f_loop_0(%x: memref<64xf32>) attributes
        {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]} {
      %c0 = arith.constant 0 : index  ...
      scf.for %i = %c0 to %c64 step %c1 { ... %x ... }
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def MergeFunctions : Pass<"adj-cpu-merge-functions", "::mlir::ModuleOp"> {
  let summary = "Keeps one of each set of equal private functions";
  let description = [{
    `f_a = f_b  =>  f_b removed, every call of f_b (and func.constant
    @f_b) refers to f_a`, for private `func.func`s that have the same type,
    attributes and body (as printed, up to SSA names and locations),
    repeated until no two are equal (merging callees can make callers
    equal). A function referred to otherwise (by another attribute) is kept.

    Why: the layers of a model and the steps of an unrolled loop lower to
    the same loop nests, which -adj-cpu-parallel-to-runtime and
    -adj-cpu-outline-loops make functions; LLVM then compiles each once.

    Before:
    ```mlir
    func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
      call @f_loop_0(%a) : (memref<8xf32>) -> ()
      call @f_loop_1(%b) : (memref<8xf32>) -> ()
      return
    }
    func.func private @f_loop_0(%x: memref<8xf32>) { ...same body... }
    func.func private @f_loop_1(%x: memref<8xf32>) { ...same body... }
    ```
    After:
    ```mlir
    func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
      call @f_loop_0(%a) : (memref<8xf32>) -> ()
      call @f_loop_0(%b) : (memref<8xf32>) -> ()
      return
    }
    func.func private @f_loop_0(%x: memref<8xf32>) { ... }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // ADJOINT_CODEGEN_CPU_PASSES_TD
