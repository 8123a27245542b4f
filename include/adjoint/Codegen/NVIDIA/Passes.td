//===- Passes.td - NVIDIA (NVVM) codegen -------------------*- tablegen -*-===//
//
// Pass `FooBar` lives in lib/Codegen/NVIDIA/FooBar.cpp, has the flag
// `-adj-nvidia-foo-bar` and is tested in test/Codegen/NVIDIA/foo-bar.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_NVIDIA_PASSES_TD
#define ADJOINT_CODEGEN_NVIDIA_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachTarget : Pass<"adj-nvidia-attach-target", "::mlir::ModuleOp"> {
  let summary = "Gives each gpu.module an NVVM target (chip, PTX version, "
                "O3) and checks that libdevice is there for its math calls";
  let description = [{
    `attach(gpu.module) = gpu.module with targets = [#nvvm.target<O = 3,
    chip = chip, features = features>]`; an error when a kernel calls a
    libdevice function (`__nv_expf`, ...) and `toolkit` has no
    `nvvm/libdevice/libdevice.10.bc`.

    Runs after convert-gpu-to-nvvm, which is what turns math ops into
    `__nv_*` calls. `chip` defaults to `sm_90` and `features` to `+ptx80`:
    LLVM's default `+ptx60` aborts the process for sm_70 and newer, so a
    chip of sm_80 or newer without a `+ptx7x`/`+ptx8x` feature is an
    error here. `toolkit` (empty: resolveCudaToolkit's default) is the
    folder gpu-module-to-binary must get as its own `toolkit` option: that
    is where libdevice gets linked from and ptxas found.

    Before:
    ```mlir
    gpu.module @m {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @k(%a: !llvm.ptr) attributes {nvvm.kernel} { ... }
    }
    ```
    After:
    ```mlir
    gpu.module @m [#nvvm.target<O = 3, chip = "sm_90",
                                features = "+ptx80">] { ... }
    ```

    Why: upstream's nvvm-attach-target defaults to sm_50/+ptx60, which
    CUDA 13's ptxas refuses, and when no toolkit is found it leaves
    `.extern .func __nv_expf` in the PTX without a word; the kernel then
    fails to load on the device, far from the cause.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The SM architecture (sm_80, sm_90, ...)">,
    Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
           "LLVM NVPTX features, the PTX version first (+ptx80)">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit folder holding nvvm/libdevice (empty: the "
           "default of resolveCudaToolkit)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def FlatKernelArgs
    : Pass<"adj-nvidia-flat-kernel-args", "::mlir::gpu::GPUModuleOp"> {
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

    Why: the runtime's kernel ABI passes one device address per memref
    (GpuABI.h), which convert-gpu-to-nvvm's bare-pointer convention gives
    only to memrefs of static shape; it refuses the whole kernel otherwise.
    -adj-gpu-kernel-layouts flattens every buffer of dynamic layout into a
    memref<?xT> that the kernel only loads and stores, so its extent is
    never read: the largest one is a bound every real buffer meets, and the
    loads and stores lower to the same address arithmetic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // ADJOINT_CODEGEN_NVIDIA_PASSES_TD
