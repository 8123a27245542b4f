//===- Passes.td - GPU codegen shared by every vendor ------*- tablegen -*-===//
//
// Pass `FooBar` lives in lib/Codegen/GPU/FooBar.cpp, has the flag
// `-adj-gpu-foo-bar` and is tested in test/Codegen/GPU/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_GPU_PASSES_TD
#define ADJOINT_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    convolution passes that run earlier) are left alone.

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
    public function, or aliases one (views, scf region arguments and
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
    (-adj-gpu-launch-to-runtime). Dynamic layouts never reach a kernel: a
    view with a dynamic offset is made again inside the kernel from its
    source; another buffer of dynamic layout (an scf.if result) becomes a
    flat memref<?xT> of its base plus offset and strides as index
    arguments, which its loads and stores in the kernel index.

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

def LaunchToRuntime : Pass<"adj-gpu-launch-to-runtime", "::mlir::ModuleOp"> {
  let summary = "gpu.binary + gpu.launch_func -> adj_rt_gpu_module/kernel "
                "descriptor globals and adj_rt_gpu_launch calls";
  let description = [{
    `launch_func @m::@k(args) = adj_rt_gpu_launch(&k_desc, grid, block,
    shared, {&arg...})` with `k_desc = {&m_desc, "k", n, argSizes}` and
    `m_desc = {format, bytes, size, "m"}` constant globals (GpuABI.h).

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
    never loads modules, looks up functions or creates streams.
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

#endif // ADJOINT_CODEGEN_GPU_PASSES_TD
