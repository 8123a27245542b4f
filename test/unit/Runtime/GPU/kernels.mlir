// Kernels of the GPU runtime tests (GpuTest.cpp), lowered at build time by
// the SPIR-V path of the OpenCL target (test/unit/Runtime/CMakeLists.txt):
// convert-gpu-to-spirv with 64-bit indices, then one SPIR-V module per
// gpu.module, serialized and checked by spirv-val.
module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<
    #spirv.vce<v1.2, [Kernel, Addresses, Int64, Float64], []>, api=OpenCL,
    #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    // c[i] = a[i] * b[i] + 1 for i < n.
    gpu.func @fma_f32(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                      %n: i64) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %count = arith.index_cast %n : i64 to index
      %inside = arith.cmpi ult, %i, %count : index
      scf.if %inside {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = memref.load %b[%i] : memref<?xf32>
        %p = arith.mulf %x, %y : f32
        %one = arith.constant 1.0 : f32
        %r = arith.addf %p, %one : f32
        memref.store %r, %c[%i] : memref<?xf32>
      }
      gpu.return
    }

    // y[i] = alpha * x[i] + y[i] in f64 (a scalar f64 argument), 2-D grid:
    // row = block_id y, column = block_id x * block_dim x + thread_id x.
    gpu.func @axpy_f64(%alpha: f64, %x: memref<?xf64>, %y: memref<?xf64>,
                       %cols: i64) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bx, %bdim : index
      %col = arith.addi %base, %tid : index
      %ncols = arith.index_cast %cols : i64 to index
      %inside = arith.cmpi ult, %col, %ncols : index
      scf.if %inside {
        %rowStart = arith.muli %by, %ncols : index
        %i = arith.addi %rowStart, %col : index
        %xv = memref.load %x[%i] : memref<?xf64>
        %yv = memref.load %y[%i] : memref<?xf64>
        %ax = arith.mulf %alpha, %xv : f64
        %r = arith.addf %ax, %yv : f64
        memref.store %r, %y[%i] : memref<?xf64>
      }
      gpu.return
    }
  }
}
