//===- Passes.td - Intel (SPIR-V) codegen ------------------*- tablegen -*-===//
//
// Pass `FooBar` lives in lib/Codegen/Intel/FooBar.cpp, has the flag
// `-adj-intel-foo-bar` and is tested in test/Codegen/Intel/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_INTEL_PASSES_TD
#define ADJOINT_CODEGEN_INTEL_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachTarget : Pass<"adj-intel-attach-target", "::mlir::ModuleOp"> {
  let summary = "Gives each gpu.module a SPIR-V OpenCL target environment "
                "and each kernel its entry point ABI (workgroup size)";
  let description = [{
    `attach(gpu.module) = gpu.module with targets = [#spirv.target_env<
    v1.3, caps(features), api=OpenCL, Intel:device(chip)>]`, each kernel
    `spirv.entry_point_abi = <workgroup_size = known_block_size>`.

    The capabilities are those of the OpenCL kernel flavour (Kernel,
    Addresses, Int64, Int8 and Int16 for bytes and bools, GroupNonUniform
    arithmetic/shuffle/ballot for subgroup code) plus Float16 and Float64
    as `features` allow (`+fp16,+fp64` by default; `-fp64` for a device
    without doubles). -spirv-update-vce later keeps only what the module
    uses. `chip` is `cpu`, `integrated` or `discrete` (the device type; the
    empty default leaves it unknown). `subgroup-size` > 0 asks for that
    subgroup size on every kernel (the SubgroupSize execution mode, which
    needs the SubgroupDispatch capability, added then). Kernels on types the device or this
    lowering cannot handle are errors: bf16 ("bf16 is not supported on
    opencl yet"), f64 without fp64, f16 without fp16.

    Before:
    ```mlir
    gpu.module @m {
      gpu.func @k(%a: memref<4xf32>) kernel
          attributes {known_block_size = array<i32: 256, 1, 1>} { ... }
    }
    ```
    After:
    ```mlir
    gpu.module @m [#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses,
        ...], []>, api=OpenCL, #spirv.resource_limits<>>] {
      gpu.func @k(%a: memref<4xf32>) kernel attributes {known_block_size =
          array<i32: 256, 1, 1>, spirv.entry_point_abi =
          #spirv.entry_point_abi<workgroup_size = [256, 1, 1]>} { ... }
    }
    ```

    Why: convert-gpu-to-spirv takes the capabilities and the entry point
    ABI from these attributes, and gpu-module-to-binary serializes a module
    through its target attribute; upstream's spirv-attach-target sets no
    entry point ABI and knows nothing of the element types Adjoint uses.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Device type: cpu, integrated, discrete, or empty (unknown)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "Comma-separated +/- features: fp16, fp64 (both on by default)">,
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"0",
           "Required subgroup size of every kernel (0: the driver's choice)">,
  ];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def ScalarViewArgs : Pass<"adj-intel-scalar-view-args", "::mlir::ModuleOp"> {
  let summary = "Gives rank-0 kernel arguments at an offset a rank-1 type "
                "the SPIR-V conversion indexes correctly";
  let description = [{
    `kernel(%a: memref<T, strided<[], offset: k>>) = kernel(%a:
    memref<(k+1)xT>)` with its loads and stores at `[k]`, and at each
    launch the operand becomes `memref.reinterpret_cast` of the view to
    that type (same aligned pointer, offset 0).

    Before:
    ```mlir
    gpu.launch_func @m::@k ... args(%p : memref<f32, strided<[], offset: 1>>)
    gpu.func @k(%p: memref<f32, strided<[], offset: 1>>) kernel {
      %x = memref.load %p[] : memref<f32, strided<[], offset: 1>>
    ```
    After:
    ```mlir
    %v = memref.reinterpret_cast %p to offset: [0], sizes: [2], strides: [1]
    gpu.launch_func @m::@k ... args(%v : memref<2xf32>)
    gpu.func @k(%p: memref<2xf32>) kernel {
      %x = memref.load %p[%c1] : memref<2xf32>
    ```

    Why: a kernel argument is the view's aligned pointer and the kernel
    applies the offset its type names (-adj-gpu-launch-to-runtime), but
    MLIR 22's memref-to-SPIR-V conversion drops the offset of a rank-0
    memref: `x * p[1]` read `p[0]` on OpenCL and Level Zero. Rank-1 views
    keep theirs, so the scalar is read as element k of a rank-1 buffer.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def LegalizeArith
    : Pass<"adj-intel-legalize-arith", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrites kernel arithmetic that the SPIR-V conversion "
                "would turn into invalid SPIR-V";
  let description = [{
    `legalize(arith.op overflow<nsw, nuw>) = arith.op`,
    `legalize(maxui/minsi on i1) = ori`, `legalize(minui/maxsi on i1) =
    andi`, in every gpu.module; values stay the same (the flags only permit
    optimizations; on booleans, with true = 1 unsigned and -1 signed, max
    and min are or and and).

    Before:
    ```mlir
    %i = arith.muli %o, %c2 overflow<nsw> : index
    %m = arith.maxui %a, %b : i1
    ```
    After:
    ```mlir
    %i = arith.muli %o, %c2 : index
    %m = arith.ori %a, %b : i1
    ```

    Why: -lower-affine marks index arithmetic (strided convolution
    windows, views folded into loads) nsw, and the SPIR-V conversion turns
    that into NoSignedWrap decorations. Those need SPIR-V 1.4 or the
    SPV_KHR_no_integer_wrap_decoration extension, which -spirv-update-vce
    does not record (it looks at ops, not decorations), so the module would
    claim SPIR-V 1.0 and fail validation; a driver may reject it or crash.
    Integer max/min become OpenCL's u_max/s_min and friends, which do not
    take booleans (np.maximum of two bool arrays).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GlobalBarriers
    : Pass<"adj-intel-global-barriers", "::mlir::gpu::GPUModuleOp"> {
  let summary = "gpu.barrier marked adj.global_fence -> a SPIR-V control "
                "barrier that also orders global memory";
  let description = [{
    `gpu.barrier {adj.global_fence}` becomes `spirv.ControlBarrier
    <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory|
    CrossWorkgroupMemory>`; unmarked barriers are left to
    convert-gpu-to-spirv.

    Before:
    ```mlir
    gpu.barrier {adj.global_fence}
    ```
    After:
    ```mlir
    spirv.ControlBarrier <Workgroup>, <Workgroup>,
        <AcquireRelease|WorkgroupMemory|CrossWorkgroupMemory>
    ```

    Why: convert-gpu-to-spirv gives every gpu.barrier WorkgroupMemory
    semantics only (OpenCL's barrier(CLK_LOCAL_MEM_FENCE)): writes to
    global memory before it need not be visible to the workgroup's other
    items after it. The kernels of -adj-gpu-linear-algebra factor matrices
    in global memory step by step and rely on that visibility; the tiled
    kernels share only workgroup memory and keep the cheaper barrier.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def PreciseMath
    : Pass<"adj-intel-precise-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrites log1p and expm1 through log and exp without "
                "losing small arguments";
  let description = [{
    `log1p(x) = u == 1 ? x : log(u) * (x / (u - 1))` with `u = 1 + x`, and
    `expm1(x) = u == 1 ? x : (u - 1 == -1 ? -1 : (u - 1) * (x / log(u)))`
    with `u = exp(x)`; infinite u is passed through. The quotient cancels
    the rounding of u, so the result keeps a few ulp of relative accuracy
    where u rounds to 1 + x (Goldberg's and Kahan's forms).

    Before:
    ```mlir
    %y = math.log1p %x : f32
    ```
    After:
    ```mlir
    %u = arith.addf %one, %x : f32
    %l = math.log %u : f32
    ... arith.divf, arith.mulf, arith.cmpf, arith.select ...
    ```

    Why: OpenCL has log1p and expm1, but MLIR's SPIR-V conversion has no
    op for them and writes log(1 + x) and exp(x) - 1, which give 0 for
    x = 1e-10 in f32 and lose half the digits in f64 (np.log1p,
    np.arcsinh, np.arctanh and np.sinh are built on them).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def KernelsToSPIRV : Pass<"adj-intel-kernels-to-spirv", "::mlir::ModuleOp"> {
  let summary = "Converts the GPU kernels to SPIR-V modules (OpenCL "
                "flavour), complex numbers included";
  let description = [{
    `kernels(gpu.module @m { gpu.func @k ... }) = gpu.module @m {
    spirv.module { spirv.func @k ... }  func.func @k() kernel }`: each
    gpu.module gets its SPIR-V module inside (the form gpu-module-to-binary
    serializes), its gpu.funcs become empty kernel stubs the launches keep
    naming. What upstream's convert-gpu-to-spirv does, with 64-bit indices
    and memory spaces mapped to OpenCL storage classes, plus the complex
    dialect's patterns in the same conversion.

    Before:
    ```mlir
    gpu.module @m {
      gpu.func @k(%a: memref<4xcomplex<f32>>) kernel {
        %z = memref.load %a[%i] : memref<4xcomplex<f32>>
        %re = complex.re %z : complex<f32>
    ```
    After:
    ```mlir
    gpu.module @m {
      spirv.module @__spv__m Physical64 OpenCL {
        spirv.func @k(%a: !spirv.ptr<!spirv.array<4 x vector<2xf32>>,
                                     CrossWorkgroup>) ... {
          %z = spirv.Load "CrossWorkgroup" %p : vector<2xf32>
          %re = spirv.CompositeExtract %z[0 : i32] : vector<2xf32>
    ```

    Why: the SPIR-V type converter stores complex<fN> as vector<2xfN>, so
    a complex value's loads (memref patterns) and parts (complex patterns)
    must convert together: convert-complex-to-spirv as a pass of its own
    leaves casts between complex<fN> and vector<2xfN> that
    convert-gpu-to-spirv cannot legalize.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // ADJOINT_CODEGEN_INTEL_PASSES_TD
