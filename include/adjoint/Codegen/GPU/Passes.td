//===- Passes.td - GPU codegen shared by every vendor ------*- tablegen -*-===//
//
// Linalg ops on memrefs (the bufferized host function) -> gpu.launch (the
// tiled reductions, contractions and convolutions first, then every other
// op one work item per output), host memory -> runtime calls, launches ->
// the runtime. Pass `FooBar` lives in lib/Codegen/GPU/FooBar.cpp, has the
// flag `-adj-gpu-foo-bar` and is tested in test/Codegen/GPU/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_GPU_PASSES_TD
#define ADJOINT_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def LinearAlgebra : Pass<"adj-gpu-linear-algebra", "::mlir::ModuleOp"> {
  let summary = "Calls of adj.linear_algebra declarations -> kernels in "
                "which a workgroup factors a matrix";
  let description = [{
    `call @k(buffers..., scalars...)` with `@k` marked
    `adj.linear_algebra = "<op>"` (what -adj-to-linalg makes of cholesky,
    triangular_solve, lu, qr, eigh and svd for a GPU target) becomes
    `launch(one workgroup per matrix of the batch) { op's algorithm }`
    behind the runtime's choice of route, and the marked declarations are
    erased:

    ```mlir
    %t = call @adj_rt_gpu_linalg_begin(op, dtype, buffer addresses,
                                       scalars) : (...) -> i64
    scf.if %t != 0 { the kernels }
    call @adj_rt_gpu_linalg_end(%t) : (i64) -> ()
    ```

    The runtime (GpuABI.h) computes the decomposition with a library (a
    vendor solver, LAPACK on the host) and returns 0, or returns a ticket
    for the kernels, whichever it measured faster for the problem.

    A call on complex matrices has no kernels: it becomes the begin and
    end calls alone (dtype c64 or c128), and the runtime computes it with
    a library whatever the route (LAPACK on the host where the device's
    solver does not take complex matrices).

    A declaration marked "fft" (an adj.fft's, which returns i64) becomes
    the begin call alone (op ADJ_RT_GPU_FFT) and the call's result the
    ticket: its kernels are the generated FFT, which the caller runs
    itself where the ticket asks for them, and it ends the route
    (-adj-expand-fft{outline}, -adj-to-linalg).

    Workgroup b computes matrix b: the steps of the algorithm run one after
    the other with a barrier between, the work of a step spread over the
    workgroup's items (the trailing update of a column, the rotations of a
    Jacobi round), its serial part (a pivot search, a reflector) in the
    first item. cholesky, lu and qr are right-looking, one column a step;
    triangular_solve substitutes one right-hand side per work item; eigh is
    two-sided and svd one-sided Jacobi with round-robin pair ordering.
    Results follow the op definitions exactly as the interpreter and the
    LAPACK kernels do (getrf's pivots, Householder signs, NaNs for a failed
    cholesky, sorted values, the sign of vectors). Global scratch (qr's
    reflector scales, the Jacobi working matrices) is allocated around the
    launch.

    Example:
    ```mlir
    func.func private @__adj_cholesky_4x4xf32_kernel(memref<4x4xf32>,
        memref<4x4xf32>, i64, i64) attributes {adj.linear_algebra = "cholesky"}
    call @__adj_cholesky_4x4xf32_kernel(%a, %l, %c1, %c4)
        : (memref<4x4xf32>, memref<4x4xf32>, i64, i64) -> ()
    // becomes
    %t = call @adj_rt_gpu_linalg_begin(%c1_i32, %c1_i32, %a_ptr, %l_ptr,
        %null, %null, %c1, %c4, %c0, %c0, %c0, %c0, %c0)
    scf.if %t_ne_0 {
      gpu.launch blocks(%bx, ...) in (%gx = %c1, ...)
                 threads(%tx, ...) in (%sx = %c32, ...) {
        // copy the lower triangle, then for each column j: the pivot's
        // square root, the column scaled, the trailing update, barriers
      }
    }
    call @adj_rt_gpu_linalg_end(%t)
    ```

    Why: small matrices, the common case of batched model code, fit one
    workgroup, where a library call per matrix (or a copy to the host)
    costs more than the work; large ones need a library's blocked
    algorithms. The kernels are what the libraries are measured against,
    and the route where there is none.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FoldFills : Pass<"adj-gpu-fold-fills", "::mlir::ModuleOp"> {
  let summary = "A fill into the next op that starts from its buffer";
  let description = [{
    Bufferized code fills every reduction's and contraction's output with
    its starting value and then accumulates into it: on a GPU a kernel for
    the fill and one for the work. When the next op to touch the filled
    buffer is a linalg op that starts from it (reads its output in its
    payload, or reduces into it), the fill goes and the op carries the
    constant in `adj.gpu.init_constants` (one entry per output: the
    constant, or unit), which the kernel builders read instead of memory:
    -adj-gpu-map-to-kernels and -adj-gpu-reductions start from the
    constant, -adj-gpu-matmul and -adj-gpu-conv from zero (a GEMM record
    then says `overwrite`: a library computes C = A B, beta 0).

    Only when nothing between the two touches the buffer or a view of it,
    nothing between has regions or unknown effects (calls), the op's output
    is the filled buffer itself and it does not also read it as an input,
    and, for contractions and convolutions, the constant is zero.

    Before:
    ```mlir
    linalg.fill ins(%zero : f32) outs(%c : memref<4x8xf32>)
    linalg.matmul ins(%a, %b : ...) outs(%c : memref<4x8xf32>)
    ```
    After:
    ```mlir
    linalg.matmul {adj.gpu.init_constants = [0.000000e+00 : f32]}
        ins(%a, %b : ...) outs(%c : memref<4x8xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def Scatters : Pass<"adj-gpu-scatters", "::mlir::ModuleOp"> {
  let summary = "Sequential scatter loops on buffers -> one kernel each";
  let description = [{
    adj.scatter_add and adj.scatter lower, on every target, to an scf.for
    over the index positions that combines one row of updates per step, in
    the interpreter's order. On a GPU that loop would stay on the host,
    reading each index from device memory and launching a kernel per
    position. This pass replaces each such loop (with the loop over the
    leading dimensions around it) by one kernel:

    - `atomics` (CUDA, HIP), for combines that only sum (addf, addi): one
      work item per (leading, position, column) element adds its update
      into the target with `memref.atomic_rmw` (a float sum's order is the
      hardware's, as in XLA's and torch's GPU scatters);
    - otherwise one work item per (leading, column) element walks the
      positions in order: bit for bit the sequential loop's results.

    Before (a scatter_add of 5 rows of 4 into a 3x4 target):
    ```mlir
    scf.for %j = %c0 to %c5 step %c1 {
      %i = memref.load %idx[%j] : memref<5xi64>
      %n = ... clamp of %i into [0, 3) ...
      %row = memref.subview %t[%n, 0] [1, 4] [1, 1] : ...
      %upd = memref.subview %u[%j, 0] [1, 4] [1, 1] : ...
      linalg.generic {...} ins(%upd : ...) outs(%row : ...) {
      ^bb0(%in: f32, %out: f32):
        %s = arith.addf %out, %in : f32
        linalg.yield %s : f32
      }
    }
    ```
    After (atomics):
    ```mlir
    gpu.launch blocks(...) in (%gx = %c1, ...) threads(...) in (%bx = %c20, ...) {
      // item -> (%j, %c); the index arithmetic and views cloned at %j
      %v = memref.load %upd[%c] : ...
      %old = memref.atomic_rmw addf %v, %row[%c] : (f32, ...) -> f32
    }
    ```
  }];
  let options = [
    Option<"atomics", "atomics", "bool", /*default=*/"false",
           "Sums combine with atomic adds, one work item per update">,
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"256",
           "Work items per workgroup of the kernels">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def MapToKernels : Pass<"adj-gpu-map-to-kernels", "::mlir::ModuleOp"> {
  let summary = "Linalg ops on buffers in host functions -> gpu.launch, one "
                "work item per element of the parallel iteration space";
  let description = [{
    `map(linalg(ins, outs)) = launch(ceil(N / W) blocks x W threads) {
    item i < N computes the outputs of parallel point delinearize(i) }`,
    with N the product of the parallel loop sizes and W the workgroup size.

    Every linalg op (generic, fill, copy, matmul, batch_matmul, conv, ...)
    outside a gpu.launch becomes one 1-D launch: work item `i` of the grid
    owns one point of the parallel iteration space (row-major, the last
    parallel dimension fastest, so neighbouring items touch neighbouring
    elements), guards the tail with `i < N`, and loops serially over the
    reduction dimensions (`scf.for` carrying the accumulators, which start
    from the output's values). The payload is cloned; `linalg.index`
    becomes the loop position. A `memref.copy` between non-contiguous views
    becomes a copy kernel too (contiguous copies stay for
    -adj-gpu-host-memory, which turns them into runtime copies).
    Existing `gpu.launch` ops (from the faster reduction, matmul and
    convolution passes that run earlier) are left alone. An input padded
    on the way in (a fill, then the source copied into a window: a
    pooling's padded input, read through strided windows) that only this
    op reads is read from the source with the padding value outside the
    window, as -adj-gpu-conv does (PaddedOperand.h): the fill and the copy
    make no kernels.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<1000xf32>) outs(%y : memref<1000xf32>) {
    ^bb0(%a: f32, %b: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
    ```
    After (workgroup-size=256):
    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, ...)
               threads(%tx, %ty, %tz) in (%sx = %c256, ...) {
      %i = ... %bx * 256 + %tx
      %in = arith.cmpi ult, %i, %c1000 : index
      scf.if %in {
        %a = memref.load %x[%i] : memref<1000xf32>
        %e = math.exp %a : f32
        memref.store %e, %y[%i] : memref<1000xf32>
      }
      gpu.terminator
    }
    ```

    Why: one kernel per (fused) linalg op is the simplest correct mapping
    every vendor can compile; faster schedules for reductions and
    contractions replace it op by op before this pass runs.
  }];
  let options = [
    Option<"workgroupSize", "workgroup-size", "int64_t", /*default=*/"256",
           "Work items per workgroup (block) of the generated launches">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def HostMemory : Pass<"adj-gpu-host-memory", "::mlir::ModuleOp"> {
  let summary = "Device buffers on the host -> runtime calls "
                "(adj_rt_gpu_alloc/free/memcpy/constant/read/write)";
  let description = [{
    `host(alloc/dealloc/copy/get_global/load/store of a device buffer) =
    adj_rt_gpu_alloc/free/memcpy/constant/read/write` (GpuABI.h); every
    other host op keeps its meaning on device addresses.

    A buffer is a *device buffer* when it can reach a kernel or the
    caller: it is captured by a gpu.launch, is an argument or result of a
    public function, its address goes to the closure runtime
    (`adj_rt_tuple_put_tensor`/`get_tensor`, which box tensors on the
    call's device), or it aliases one (views, scf region arguments and
    results, calls, copies, clones). Other buffers (the deallocation
    bookkeeping of -buffer-deallocation-pipeline, say) stay host memory.
    On device buffers: `memref.alloc` -> `adj_rt_gpu_alloc` (a descriptor
    whose pointers are the device address), `memref.dealloc` ->
    `adj_rt_gpu_free`, `memref.get_global` of a constant ->
    `adj_rt_gpu_constant` of the host global, contiguous `memref.copy` and
    `bufferization.clone` -> `adj_rt_gpu_memcpy` (a copy kernel for
    strided ones), a host `memref.load`/`memref.store` (branch conditions,
    loop counters) -> `adj_rt_gpu_read`/`adj_rt_gpu_write` through a host
    slot. Views stay views: descriptor arithmetic on device addresses is
    fine on the host, and a kernel takes a view as its memref type (static
    offset and strides) applied to the aligned pointer of the base buffer
    (-adj-gpu-launch-to-runtime); -adj-gpu-kernel-layouts then keeps
    dynamic layouts out of kernels.

    Before:
    ```mlir
    %b = memref.alloc() : memref<4xf32>
    gpu.launch ... { memref.store %v, %b[%i] : memref<4xf32> ... }
    %c = memref.load %b[%c0] : memref<4xf32>
    memref.dealloc %b : memref<4xf32>
    ```
    After:
    ```mlir
    %p = call @adj_rt_gpu_alloc(%c16_i64) : (i64) -> !llvm.ptr
    %b = builtin.unrealized_conversion_cast %desc
        : !llvm.struct<...> to memref<4xf32>
    gpu.launch ... { memref.store %v, %b[%i] : memref<4xf32> ... }
    %slot = llvm.alloca %c1_i64 x f32 : (i64) -> !llvm.ptr
    call @adj_rt_gpu_read(%slot, %src, %c4_i64)
        : (!llvm.ptr, !llvm.ptr, i64) -> ()
    %c = llvm.load %slot : !llvm.ptr -> f32
    call @adj_rt_gpu_free(%pb) : (!llvm.ptr) -> ()
    ```

    Why: the host function runs on the CPU and must never dereference a
    device address; the runtime owns device memory (a caching pool) and
    the queue, so every access goes through it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def KernelLayouts : Pass<"adj-gpu-kernel-layouts", "::mlir::ModuleOp"> {
  let summary = "Only static layouts reach kernels: dynamic views are made "
                "again inside, other dynamic buffers flattened";
  let description = [{
    `launch(view(%src, %dyn)) = launch(%src, %dyn) { view(%src, %dyn) }`,
    `launch(%b : strided<[?], offset: ?>) = launch(flat(%b), offset,
    strides)`.

    A kernel takes a memref as one pointer and its layout from its type, so
    no buffer whose offset or strides are only known at run time may be
    captured by a gpu.launch. A captured view with a dynamic layout (a row
    picked by an index read from a tensor, the scatter_add of a gather's
    gradient) is made again inside the kernel from its source, where it
    folds into the loads and stores; any other buffer of dynamic layout (an
    argument, an scf.if result whose branches differ in layout) becomes a
    flat `memref<?xT>` of its base plus its offset and strides as index
    values, which its loads and stores in the kernel index. A kernel that
    does more than load and store such a buffer is an error.

    Before:
    ```mlir
    %v = memref.subview %t[%row, 0] [1, 4] [1, 1]
        : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    gpu.launch ... { memref.store %f, %v[%tx] ... }
    ```
    After:
    ```mlir
    gpu.launch ... {
      %v = memref.subview %t[%row, 0] [1, 4] [1, 1]
          : memref<3x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.store %f, %v[%tx] ...
    }
    ```

    Why: SPIR-V (and the one-pointer kernel ABI) has no dynamic layouts.
    It runs right before gpu-kernel-outlining, after the last CSE: the
    launch region is not isolated from above, so CSE would merge a view
    made again inside it with the same view outside it that other host
    code still uses (a scatter whose row is also copied on the host).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def KernelNames : Pass<"adj-gpu-kernel-names", "::mlir::ModuleOp"> {
  let summary = "Kernel modules and kernels renamed to C identifiers";
  let description = [{
    `gpu.module @"f<lambda>_kernel"` = `gpu.module @f_lambda__kernel`, and
    the same for its `gpu.func` kernels and every `gpu.launch_func` naming
    them; names that are already identifiers are kept, a name taken by
    another symbol gets a `_<n>` suffix.

    Before:
    ```mlir
    gpu.module @"f.<lambda>_kernel" {
      gpu.func @"f.<lambda>_kernel"() kernel { gpu.return }
    }
    gpu.launch_func @"f.<lambda>_kernel"::@"f.<lambda>_kernel" ...
    ```
    After:
    ```mlir
    gpu.module @f__lambda__kernel {
      gpu.func @f__lambda__kernel() kernel { gpu.return }
    }
    gpu.launch_func @f__lambda__kernel::@f__lambda__kernel ...
    ```

    Why: gpu-kernel-outlining names kernels after the host function, and
    a host function may have any symbol name (a Python lambda is
    `<lambda>`, the C++ API takes any string). SPIR-V takes any entry
    point name, but PTX and the AMDGPU assembler do not: LLVM aborts the
    process ("Symbol name with unsupported characters") when it prints
    such a kernel. Run right after outlining, on every target.
  }];
}

def MergeModules : Pass<"adj-gpu-merge-modules", "::mlir::ModuleOp"> {
  let summary = "The kernel modules of a program as one, each distinct "
                "kernel once";
  let description = [{
    Moves the symbols of every outlined `gpu.module` into one, named after
    the first (`@f_kernel_0` gives `@f_kernels`; modules whose objects are
    built differently, by their targets or other attributes, form a module
    each), and points every `gpu.launch_func`
    at the kernel's new place. A module whose only op is a kernel equal to
    one already moved (the same signature, attributes and body up to value
    names and locations) is dropped, and its launches launch that kernel:
    a step launches a layer's kernels once per layer, with the same shapes.
    Symbols whose names are taken are renamed (`_<n>`), but a declaration
    or global equal to the one of that name is shared. A single module is
    left as it is.

    Before:
    ```mlir
    gpu.launch_func @f_kernel::@f_kernel ...
    gpu.launch_func @f_kernel_0::@f_kernel ...
    gpu.module @f_kernel { gpu.func @f_kernel(%x: memref<4xf32>) kernel {...} }
    gpu.module @f_kernel_0 { gpu.func @f_kernel(%x: memref<4xf32>) kernel {...} }
    ```
    After (the two bodies equal):
    ```mlir
    gpu.launch_func @f_kernels::@f_kernel ...
    gpu.launch_func @f_kernels::@f_kernel ...
    gpu.module @f_kernels { gpu.func @f_kernel(%x: memref<4xf32>) kernel {...} }
    ```

    A module of more than `kernels-per-module` kernels (and nothing else)
    is then spread over as many modules as that takes, of about equal size
    (`@f_kernels`, `@f_kernels_0`, ...), which
    -adj-gpu-modules-to-binary compiles in parallel. The split depends on
    the program only, not on the machine.

    Why: each gpu.module becomes its own device object, so one per launch
    costs a compile per launch: an LLVM module, a libdevice link and a
    ptxas run on NVIDIA, an ld.lld run on AMD, a SPIR-V module and a driver
    build on Intel, and a module load at run time. Run after
    -adj-gpu-kernel-names, on every target.
  }];
  let options = [
    Option<"kernelsPerModule", "kernels-per-module", "unsigned", "32",
           "The most kernels a module keeps before it is split">,
  ];
}

def ModulesToBinary : Pass<"adj-gpu-modules-to-binary", "::mlir::ModuleOp"> {
  let summary = "gpu-module-to-binary with the objects made in parallel";
  let description = [{
    Every `gpu.module` becomes a `gpu.binary` with an object per target,
    as upstream's `gpu-module-to-binary{format toolkit}` makes it, but the
    objects of all modules and targets are serialized at once on the
    context's thread pool (each in its own LLVM context, with its own
    ptxas or ld.lld process); the `gpu.binary` ops then follow in module
    order. With one thread (or multithreading off) it is upstream's order.

    Why: serialization is almost all of a GPU program's compile time (the
    NVPTX or AMDGPU backend, libdevice, ptxas), and independent per module
    and target: a default CUDA build has two (sm_80 and sm_90), and
    -adj-gpu-merge-modules splits large programs into several modules.
  }];
  let options = [
    Option<"format", "format", "std::string", "\"fatbin\"",
           "What each object holds: isa, bin, fatbin or llvm (as "
           "gpu-module-to-binary's format)">,
    Option<"toolkit", "toolkit", "std::string", "\"\"",
           "The toolkit folder (CUDA's, or ROCm's) the targets use">,
  ];
}

def LoopAnnotations : Pass<"adj-gpu-loop-annotations",
                           "::mlir::gpu::GPUModuleOp"> {
  let summary = "Loop annotations of kernels' loops reach LLVM";
  let description = [{
    A kernel's `scf.for` may carry `llvm.loop_annotation` (the tiled GEMM's
    k steps: `unroll = <disable = true>`). convert-scf-to-cf moves it to
    the loop's latch branch and the LLVM conversion keeps it there, but as
    a discardable attribute, which LLVM IR translation ignores; this pass
    makes it the branch's `loop_annotation`, which becomes `!llvm.loop`.
    Run after the kernels are in the LLVM dialect (NVIDIA and AMD).

    Before:
    ```mlir
    llvm.br ^bb1(%i : i64) {llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
    ```
    After:
    ```mlir
    llvm.br ^bb1(%i : i64) {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
    ```
  }];
}

def LaunchToRuntime : Pass<"adj-gpu-launch-to-runtime", "::mlir::ModuleOp"> {
  let summary = "gpu.binary + gpu.launch_func -> adj_rt_gpu_module/kernel "
                "descriptor globals and adj_rt_gpu_launch/gemm calls";
  let description = [{
    `launch_func @m::@k(args) = adj_rt_gpu_launch(&k_desc, grid, block,
    shared, {&arg...})` with `k_desc = {&m_desc, "k", n, argSizes}` and
    `m_desc = {format, bytes, size, "m"}` constant globals (GpuABI.h);
    `record(A, B, C); launch_func @m::@k(args) = adj_rt_gpu_gemm(&g_desc,
    &A[0,0], &B[0,0], &C[0,0], {&arg...})` with `g_desc = {dtype, flags,
    batch, m, n, k, layouts of A/B/C, &k_desc, grid, block, shared}`, where
    `record` is a GEMM record of -adj-gpu-matmul (the next launch_func of
    its block is its fallback kernel; a launch whose sizes are not
    constants stays a launch).

    Kernel ABI: a memref argument is one device pointer, the aligned
    pointer of its descriptor (argSize 0: the bare-pointer convention of
    the SPIR-V, NVVM and ROCDL kernels made by this pipeline; a view's
    offset is in the kernel's memref type); a scalar argument is its value
    (argSize = its byte size; index is 64-bit). The module bytes are the
    gpu.binary's object; its format comes from the `format` option or, when
    that is `auto`, from the object's target (#spirv.target_env -> spirv,
    #nvvm.target -> cuda, #rocdl.target -> hsaco).

    Before:
    ```mlir
    gpu.binary @k_module [#gpu.object<#spirv.target_env<...>, "\03\02#\07...">]
    gpu.launch_func @k_module::@k blocks in (%c4, %c1, %c1)
        threads in (%c256, %c1, %c1) args(%x : memref<1000xf32>, %n : index)
    ```
    After:
    ```mlir
    llvm.mlir.global internal constant @__adj_gpu_module_k_module(...)
    llvm.mlir.global internal constant @__adj_gpu_kernel_k_module_k(...)
    %args = llvm.alloca %c2 x !llvm.ptr : (i64) -> !llvm.ptr
    ...
    call @adj_rt_gpu_launch(%kernel, %c4, %c1, %c1, %c256, %c1, %c1,
                            %c0_i32, %args)
    ```

    Why: the runtime loads modules lazily and caches them and their
    kernels per device, keyed by the descriptors' addresses; generated code
    never loads modules, looks up functions or creates streams. A GEMM goes
    to the runtime as a problem, not a kernel, so that a device with a
    vendor library (cuBLASLt) can choose it over the kernel.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"auto\"",
           "Format of the kernel binaries: spirv, cuda, hsaco, or auto "
           "(from each gpu.binary object's target)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def Reductions : Pass<"adj-gpu-reductions", "::mlir::func::FuncOp"> {
  let summary = "Reductions (linalg.generic with reduction loops) -> "
                "workgroup/subgroup-cooperative gpu.launch kernels";
  let description = [{
    `out[p] = combine(out[p], reduce_r f(in[p, r]))` becomes a gpu.launch
    that computes the same values, with `f` (the fused producer: everything
    in the payload before the combiner) applied where the inputs are read.

    Rows (the first input's innermost dim is reduced and there are at least
    `subgroup-size` elements to reduce): one workgroup per output element;
    each work item combines a strided part of the row serially, then a
    butterfly of `gpu.shuffle xor` (width = `subgroup-size`) combines each
    subgroup, subgroup leaders meet in workgroup memory after a
    `gpu.barrier`, the first subgroup combines those, and work item 0
    writes `combine(partial, out[p])`, after applying to it the in-place
    elementwise ops on the result that follow (the division of a mean).
    When the next op is an elementwise
    linalg.generic over the same loops that reads the row's result
    broadcast along the reduced loops (softmax's `exp(x - max)` and
    `e / sum`, layer norm's `(x - mean) * rstd`) and writes fresh buffers,
    it runs in the same kernel: every work item keeps the row's result and
    applies that op to its strided part of the row. The shuffle width is a constant, so
    the kernel needs the subgroup size pinned (SPIR-V: the entry point ABI's
    `subgroup_size`, i.e. execution mode SubgroupSize); the launch carries
    `adj.subgroup_size` for that. Otherwise (column sums, short rows):
    workgroups of 32 outputs x `workgroup-size / 32` slices of the
    reduction; work item (x, y) combines elements y, y + slices, ... of
    output x (adjacent work items read adjacent columns, so reads are
    coalesced), and the slice partials meet in workgroup memory.

    Handled: linalg.reduce (generalized first) and linalg.generic with
    static shapes on memrefs whose outputs are
    indexed by exactly the parallel loops and whose payload yields, for
    each output, `c(x, out)` with `c` a commutative combiner with an
    identity (addf, mulf, maximumf, minimumf, maxnumf, minnumf, addi, muli,
    max/min si/ui, andi, ori, xori) and `out` used only there. Anything else
    is left alone.

    Example:
    ```mlir
    linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d0)],
                    iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<37x53xf32>) outs(%m : memref<37xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      %s = arith.addf %e, %out : f32
      linalg.yield %s : f32
    }
    // becomes
    gpu.launch blocks(...) in (%gx = %c37, ...) threads(...) in (%bx = %c64, ...)
        workgroup(%part : memref<2xf32, #gpu.address_space<workgroup>>) {
      %acc = scf.for %r = %tx to %c53 step %c64 iter_args(%a = %zero) ...
      %v, %ok = gpu.shuffle xor %acc, %c16_i32, %c32_i32 : f32   // ...
      gpu.barrier
      ...
    } {adj.subgroup_size = 32 : i64}
    ```

    Why: upstream's gpu.subgroup_reduce lowering is incomplete in MLIR 22.1
    and the naive mapping (one work item per output, serial) leaves most of
    the GPU idle on the row reductions of softmax, layer norm and losses.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"subgroupSize", "subgroup-size", "int64_t", "32",
           "Subgroup size of the target (NVIDIA 32, AMD 64 or 32, Intel "
           "8-32); a power of two">,
    Option<"workgroupSize", "workgroup-size", "int64_t", "256",
           "Work items per workgroup for row reductions (a multiple of the "
           "subgroup size, at most its square)">,
    Option<"fuseConsumers", "fuse-consumers", "bool", "true",
           "Run the elementwise op that follows a row reduction and reads "
           "its result per row (softmax's exp(x - max), e / sum) in the "
           "row kernel">,
  ];
}

def Matmul : Pass<"adj-gpu-matmul", "::mlir::ModuleOp"> {
  let summary = "Contractions (linalg.matmul, batch_matmul, transposed "
                "variants) -> tiled gpu.launch kernels with workgroup memory";
  let description = [{
    `C[b, m, n] += sum_k A[b, m, k] * B[b, k, n]`, with any layout of A, B
    and C that the indexing maps express (transposes made by the AD), becomes
    a gpu.launch: workgroup (x, y, z) = (n tile, m tile, batch) computes a
    `tile-m` x `tile-n` tile of C; K advances in steps of `tile-k`, each step
    staged in workgroup memory by all work items (reads ordered so that
    adjacent work items read adjacent addresses); each work item keeps a
    `thread-m` x `thread-n` register block of accumulators; loads past the
    edges read zero and stores past them are skipped.

    Handled: linalg ops with a multiply-add payload (isaContractionOpInterface)
    on static memrefs of one element type (f32, f64, f16) with exactly one
    m, n and k loop and any number of batch loops. Others are left alone.

    Example:
    ```mlir
    linalg.matmul ins(%a, %b : memref<37x29xf32>, memref<29x53xf32>)
                  outs(%c : memref<37x53xf32>)
    // becomes
    gpu.launch blocks(...) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(...) in (%bx = %c16, %by = %c16, %bz = %c1)
        workgroup(%As : memref<16x65xf32, #gpu.address_space<workgroup>>,
                  %Bs : memref<16x65xf32, #gpu.address_space<workgroup>>) {
      %acc:16 = scf.for %kt = ... iter_args(...) { stage; gpu.barrier; ... }
      ...
    }
    ```

    Where A, B and C are each a matrix with one contiguous dimension per
    batch entry and the batch loops flatten into one stride per operand
    (BLAS layouts: matmul, batch_matmul with broadcast operands, the AD's
    transposed forms, views with static strides), a GEMM record comes right
    before the launch: `func.call @adj_gpu_gemm(%A, %B, %C) {adj.gpu.gemm =
    {batch, m, n, k, a/b/c = {order, ld, batch_stride}[, tf32]}}`, from
    which -adj-gpu-launch-to-runtime makes one adj_rt_gpu_gemm with this
    launch as its fallback. It is an op because gpu-kernel-outlining drops
    the launch's attributes. Other contractions get the launch alone. A
    module pass: records call declarations it adds to the module.

    Why: a work item per output element re-reads A and B from global memory
    K times each; tiles in workgroup memory and register blocks divide that
    traffic by the tile sizes. This is the fallback where no vendor GEMM
    library is used, or where the runtime measured it faster.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", "64", "Rows of C per workgroup">,
    Option<"tileN", "tile-n", "int64_t", "64", "Columns of C per workgroup">,
    Option<"tileK", "tile-k", "int64_t", "16", "K step staged in workgroup "
           "memory">,
    Option<"threadM", "thread-m", "int64_t", "4", "Rows of C per work item">,
    Option<"threadN", "thread-n", "int64_t", "4", "Columns of C per work "
           "item">,
    Option<"allowTf32", "allow-tf32", "bool", "false", "Let a GEMM library "
           "round f32 inputs to TF32 (the record's tf32 flag; the kernel is "
           "exact f32 either way)">,
  ];
}

def Conv : Pass<"adj-gpu-conv", "::mlir::func::FuncOp"> {
  let summary = "linalg.conv_2d_nchw_fchw (and grouped) -> implicit-GEMM "
                "gpu.launch kernels with workgroup memory";
  let description = [{
    `out[n, f, y, x] += sum_{c, i, j} in[n, c, y*sh + i*dh, x*sw + j*dw] *
    w[f, c, i, j]` is the GEMM `C[f, p] += sum_k W[f, k] * I[k, p]` with
    `p = (n, y, x)` (every output pixel of every image) and
    `k = (c, i, j)`; the input matrix `I` is never built: the tiled GEMM
    kernel of -adj-gpu-matmul reads its tiles straight from the input
    (implicit GEMM). Strides and dilations are any. Padding is explicit in
    the input, but an input or filter that was padded on the way in (a
    fresh buffer filled with a constant, then the source copied into a
    window of it, nothing writing the source before the convolution) is
    read from the source, the constant outside the window: the fill, the
    copy and the padded buffer go (two kernels and a copy in memory per
    padded convolution). The gradients of conv2d are conv2d again (a
    transposed convolution for the input, a convolution of the input with
    the output sensitivity for the filter), so they take the same kernel.

    Grouped convolutions (linalg.conv_2d_ngchw_gfchw) are one such GEMM
    per group, the group being the grid's z.

    Handled: linalg.conv_2d_nchw_fchw and conv_2d_ngchw_gfchw on static
    memrefs of one element type (f32, f64, f16). Others are left alone.

    Example:
    ```mlir
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>,
                              strides = dense<1> : tensor<2xi64>}
        ins(%in, %w : memref<2x3x9x9xf32>, memref<8x3x3x3xf32>)
        outs(%out : memref<2x8x7x7xf32>)
    // becomes
    gpu.launch blocks(...) in (%gx = %c2, %gy = %c1, %gz = %c1) ...
        workgroup(%Ws : memref<16x65xf32, #gpu.address_space<workgroup>>,
                  %Is : memref<16x65xf32, #gpu.address_space<workgroup>>) {
      ...
    }
    ```

    Why: direct convolution with a work item per output reads every input
    value KH*KW*F times from global memory; the tiled implicit GEMM reuses
    each staged value tile-m (or tile-n) times from workgroup memory.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"tileM", "tile-m", "int64_t", "64", "Filters per workgroup">,
    Option<"tileN", "tile-n", "int64_t", "64", "Output pixels per "
           "workgroup">,
    Option<"tileK", "tile-k", "int64_t", "16", "Reduction step (channel x "
           "window) staged in workgroup memory">,
    Option<"threadM", "thread-m", "int64_t", "4", "Filters per work item">,
    Option<"threadN", "thread-n", "int64_t", "4", "Pixels per work item">,
  ];
}

def WorkgroupAllocs : Pass<"adj-gpu-workgroup-allocs",
                               "::mlir::gpu::GPUModuleOp"> {
  let summary = "Workgroup attributions of gpu.func kernels -> memref.alloc "
                "in SPIR-V Workgroup storage";
  let description = [{
    `gpu.func @k() workgroup(%w : memref<S, #gpu.address_space<workgroup>>)`
    becomes `gpu.func @k()` whose body starts with
    `%w = memref.alloc() : memref<S, #spirv.storage_class<Workgroup>>`.

    Run after gpu-kernel-outlining and before convert-gpu-to-spirv on the
    SPIR-V (OpenCL) path only: NVVM and ROCDL lower attributions directly.

    Example:
    ```mlir
    gpu.func @k(%a: memref<4xf32>)
        workgroup(%w : memref<2xf32, #gpu.address_space<workgroup>>) kernel {
      memref.store %x, %w[%i] : memref<2xf32, #gpu.address_space<workgroup>>
    // becomes
    gpu.func @k(%a: memref<4xf32>) kernel {
      %w = memref.alloc() : memref<2xf32, #spirv.storage_class<Workgroup>>
      memref.store %x, %w[%i] : memref<2xf32, #spirv.storage_class<Workgroup>>
    ```

    Why: in MLIR 22.1, convert-gpu-to-spirv leaves workgroup attributions of
    OpenCL kernels as unrealized casts and does not map
    `#gpu.address_space<workgroup>` for OpenCL, while it lowers an alloc in
    Workgroup storage to a Workgroup global variable. The kernel passes
    keep emitting the portable attributions that every vendor path reads.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::spirv::SPIRVDialect"];
}

def FlatKernelArgs
    : Pass<"adj-gpu-flat-kernel-args", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Kernel arguments of type memref<?xT> become a pointer to T "
                "reinterpreted as a buffer of unbounded extent";
  let description = [{
    `kernel(%b : memref<?xT>) = kernel(%p : memref<T>) { %b =
    reinterpret_cast(%p, offset 0, size N, stride 1) }`, N the largest
    extent a buffer of T can have; only for kernels that just load and
    store %b (anything else is an error naming the use).

    Before:
    ```mlir
    gpu.func @k(%i: index, %b: memref<?xf32>) kernel {
      %v = memref.load %b[%i] : memref<?xf32>
      ...
    }
    ```
    After:
    ```mlir
    gpu.func @k(%i: index, %p: memref<f32>) kernel {
      %n = arith.constant 2305843009213693951 : index
      %b = memref.reinterpret_cast %p to offset: [0], sizes: [%n],
          strides: [1] : memref<f32> to memref<?xf32>
      %v = memref.load %b[%i] : memref<?xf32>
      ...
    }
    ```

    Why: the runtime's kernel ABI on CUDA and HIP passes one device address
    per memref (GpuABI.h), which the bare-pointer convention of
    convert-gpu-to-nvvm and convert-gpu-to-rocdl gives only to memrefs of
    static shape; they refuse the whole kernel otherwise.
    -adj-gpu-kernel-layouts flattens every buffer of dynamic layout into a
    memref<?xT> that the kernel only loads and stores, so its extent is
    never read: the largest one is a bound every real buffer meets, and the
    loads and stores lower to the same address arithmetic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // ADJOINT_CODEGEN_GPU_PASSES_TD
