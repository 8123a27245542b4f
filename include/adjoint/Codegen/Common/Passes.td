//===- Passes.td - Passes every target uses ----------------*- tablegen -*-===//
//
// The target-neutral part of code generation: adj -> linalg on tensors,
// fusion, and what bufferization needs to know about entry points. Every
// pass has one name: `AdjToLinalg` lives in
// lib/Codegen/Common/AdjToLinalg/AdjToLinalg.cpp, has the flag
// `-adj-to-linalg` and is tested in test/Codegen/Common/AdjToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CODEGEN_COMMON_PASSES_TD
#define ADJOINT_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def ExpandFft : Pass<"adj-expand-fft", "::mlir::ModuleOp"> {
  let summary = "Expands adj.fft into matrix products and elementwise adj "
                "ops (the generated FFT)";
  let description = [{
    `adj.fft` of any type and lengths becomes adj ops that compute the same
    values: for targets with no FFT library behind the op (the GPUs), whose
    matmul and elementwise kernels then run it.

    A 1-D transform of length n over the last dimension is a product with
    the n x n DFT matrix when n <= 64 or n is a prime up to 256; a longer
    prime takes Bluestein's algorithm (X_k = w_k sum_j (x_j w_j)
    conj(w_(k-j)) with the chirp w_m = exp(+-i pi m^2 / n): a cyclic
    convolution at the power of two m >= 2n - 1, two transforms of m and a
    product with the chirp filter's transform, a constant up to 2^14
    points); otherwise n = n1 n2
    (n1 the largest divisor <= sqrt(n)) and it is Cooley and Tukey's four
    steps: transforms of length n1 over the strided subsequences, a
    multiplication by the twiddle factors, transforms of length n2, and a
    transpose that orders the outputs; each shorter transform expands the
    same way. Several dimensions are transformed one at a time, each moved
    last. rfft transforms the input as complex and keeps the first n/2 + 1
    outputs; irfft weights its half spectrum (1 for the zero and Nyquist
    terms, 2 for the others), pads it to n with zeros, and keeps the real
    part of the inverse, which is c2r's reading of a Hermitian spectrum.
    Tables of roots of unity (DFT matrices, twiddles) of up to 2^14
    entries are constants; larger ones (the DFT matrix of a long prime
    length) are computed in a kernel from iota (the exponent j k mod n is
    exact in i64).

    Before:
    ```mlir
    %y = adj.fft fft %x lengths = [4] : tensor<2x4xcomplex<f32>>
    ```
    After (n = 4 <= 64: one product with the DFT matrix):
    ```mlir
    %w = adj.constant dense<[[(1.0,0.0), (1.0,0.0), ...]]>
         : tensor<4x4xcomplex<f32>>
    %y = adj.matmul %x, %w : tensor<2x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>
    ```

    Costs: 2 (n1 + n2) n flops per point of a two-factor length against
    5 n log2 n for a radix-2 FFT (1.3x for n = 1024, in matmul kernels),
    n^2 per point for a prime n up to 256, and about three transforms of m
    per point (m < 4n) for a longer one.

    With `outline` (the GPU targets' tensor pipeline) the op stays, for a
    library, and its expansion goes into a private function that the op
    names in `adj.generated_fft`, one per transform and type; -adj-to-linalg
    then calls the library or that function, as the device chose
    (docs/gpu-kernels.md, "FFT"):
    ```mlir
    %y = adj.fft fft %x lengths = [4] {adj.generated_fft =
        @__adj_fft_generated_fft_n4_2x4xcomplexf32} : tensor<2x4xcomplex<f32>>
    adj.func private @__adj_fft_generated_fft_n4_2x4xcomplexf32(
        %x: tensor<2x4xcomplex<f32>>) -> tensor<2x4xcomplex<f32>> {
      ... the expansion ...
    }
    ```
  }];
  let options = [
    Option<"outline", "outline", "bool", /*default=*/"false",
           "Keep adj.fft and outline its expansion">,
  ];
  let dependentDialects = ["::adjoint::adj::AdjDialect"];
}

def AdjToLinalg : Pass<"adj-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers typed, optimized adj programs to "
                "func/linalg/tensor/arith/math/scf on tensors";
  let description = [{
    `lower(p) = p` with every adj op replaced by upstream ops on tensors that
    compute the same values.

    The input is the output of `-adj-optimize`: fully typed, static shapes,
    closures closure-converted (`adj.closure`, no `adj.lambda`), no AD
    requests.

    Elementwise ops become `linalg.generic` with broadcasting
    indexing maps, `adj.matmul` becomes `linalg.matmul`/`batch_matmul` on a
    zero-filled init, reductions become `linalg.reduce`, shape ops become
    `linalg.transpose`, `linalg.broadcast` and `tensor` reshapes, conv2d
    and pooling named linalg convolutions and poolings on a `tensor.pad`ded
    input, slice/concat/pad `tensor` slices and `tensor.pad`, gather a
    `linalg.generic` reading with `tensor.extract`, scatter_add an `scf.for`
    over the indices, iota and the random ops `linalg.generic` ops over
    `linalg.index` (gather/scatter_add clamp out-of-range indices), the
    LinearAlgebra ops and (for the CPU) `adj.fft` calls of the runtime's
    LAPACK and FFTW kernels (GPU targets expand `adj.fft` first,
    `-adj-expand-fft`). Public
    functions get `llvm.emit_c_interface` so that the ExecutionEngine can
    call them. An op this pass does not handle yet is an error naming it.

    Host-side structure: `adj.if`, `adj.for` and `adj.while` become
    `scf.if`, `scf.for` and `scf.while` with the interpreter's semantics
    (`scf.for` runs over the trip count of `i = lb, lb + step, ... < ub`,
    computed without overflow; a step <= 0, an error in the interpreter,
    runs no trip). Calls of an `adj.func_ref` become `func.call`, so direct
    and mutual recursion need nothing more. Tuples vanish by 1:N type
    conversion. Function values are defunctionalized in the closed world of
    the module: a value of type `!adj.fn<T>` is a tag (`index`: which
    function) and a box (`!llvm.ptr`: a runtime tuple of copies of its
    captures, null when it has none), and `adj.call` of a value becomes an
    `scf.index_switch` over the functions made at type T (by `adj.closure`,
    or by `adj.func_ref` used as a value), each case a `func.call` with the
    captures unboxed in front of the arguments. An environment is an
    `!llvm.ptr` (null is the empty one). Boxes and environments live in
    the runtime (include/adjoint/Runtime/Closures.h, `adj_rt_*`): a public
    function whose calls can make them marks the runtime's arena on entry
    and releases it before returning, unless it returns function values or
    environments. Tensors go into the runtime as copies and come out as
    fresh buffers that the caller owns.

    Matrix decompositions (`adj.cholesky`, `adj.triangular_solve`,
    `adj.lu`, `adj.qr`, `adj.eigh`, `adj.svd`) become calls of private
    wrappers on tensors that call the runtime's LAPACK kernels
    (include/adjoint/Runtime/KernelsLinearAlgebra.h). For any `target` but
    `cpu` the wrappers call a declaration on buffers marked
    `adj.linear_algebra` instead, which -adj-gpu-linear-algebra replaces
    with a kernel.

    ABI of a compiled function: every argument and every result is replaced
    by its leaves, depth-first and in order. A `tensor<...>` is itself; a
    tuple `!adj.tuple<T1, ..., Tn>` is the leaves of T1, then those of T2,
    and so on (an empty tuple has none); a function value is two values,
    its `index` tag then its `!llvm.ptr` box; an environment is one
    `!llvm.ptr`. Argument and result attributes are copied to every leaf.
    For example `(!adj.tuple<tensor<2xf32>, !adj.tuple<tensor<f32>,
    tensor<i64>>>, tensor<f32>) -> (!adj.tuple<>, tensor<f32>)` becomes
    `(tensor<2xf32>, tensor<f32>, tensor<i64>, tensor<f32>) -> tensor<f32>`.

    Before:
    ```mlir
    adj.func @f(%x: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32> {
      %y = adj.add %x, %b : tensor<4xf32>, tensor<f32>
      adj.return %y : tensor<4xf32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32>
        attributes {llvm.emit_c_interface} {
      %e = tensor.empty() : tensor<4xf32>
      %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
               affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>],
               iterator_types = ["parallel"]}
           ins(%x, %b : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
      ^bb0(%a: f32, %c: f32, %o: f32):
        %s = arith.addf %a, %c : f32
        linalg.yield %s : f32
      } -> tensor<4xf32>
      return %y : tensor<4xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The kind of target the lowered code is for (cpu, cuda, hip, "
           "opencl, level-zero): decompositions call LAPACK on cpu and "
           "become GPU kernels on the others">,
  ];
}

def FuseElementwise : Pass<"adj-fuse-elementwise", "::mlir::ModuleOp"> {
  let summary = "Fuses elementwise and broadcast producers into their "
                "consumers, reductions included (linalg on tensors)";
  let description = [{
    `fuse(c(p(x))) = (c . p)(x)` in one loop nest wherever that computes
    each producer value at most as often as before, or the producer is cheap
    enough (data movement or one arithmetic op) to recompute.

    linalg.reduce, linalg.broadcast and linalg.transpose are first written as
    linalg.generic so that the upstream elementwise fusion patterns see
    them; contractions and convolutions stay named (-adj-cpu-linalg-to-kernels
    matches them) and a 2-D transpose feeding linalg.matmul becomes the
    matmul's indexing map instead of a copy.

    Last, destinations are chosen for bufferization in place: each consumer
    of a shared linalg.fill gets its own fill, and an elementwise op that
    writes a fresh tensor.empty writes over a same-shaped temporary input
    that nothing else reads (the pass runs after CSE, which would merge the
    fills again).

    Before:
    ```mlir
    %e = linalg.generic {... ["parallel"]} ins(%x) outs(%0) { math.exp }
    %s = linalg.reduce ins(%e) outs(%zero) dimensions = [0] { arith.addf }
    ```
    After:
    ```mlir
    %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
             affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
         ins(%x) outs(%zero) {
    ^bb0(%in: f32, %acc: f32):
      %0 = math.exp %in : f32
      %1 = arith.addf %0, %acc : f32
      linalg.yield %1 : f32
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def AccumulateMatmul : Pass<"adj-accumulate-matmul", "::mlir::ModuleOp"> {
  let summary = "Sums a matrix product into its addend: x + matmul(a, b) "
                "=> matmul(a, b) with init x";
  let description = [{
    `add(x, matmul(a, b, init = 0)) => matmul(a, b, init = x)` for
    linalg.matmul and linalg.batch_matmul whose product has no other use,
    with x, the product and the sum of one type, and x defined before the
    product.

    Before:
    ```mlir
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>)
    %p = linalg.matmul ins(%a, %b : ...) outs(%z : tensor<4x8xf32>)
    %s = linalg.generic {identity maps, parallel} ins(%x, %p) outs(%e2) {
      arith.addf }
    ```
    After:
    ```mlir
    %s = linalg.matmul ins(%a, %b : ...) outs(%x : tensor<4x8xf32>)
    ```

    Why: a gradient accumulated over a loop's trips (the weights of a
    recurrent network) is `acc + a @ b` each trip. Computed into a
    zero-filled temporary and then added, it costs three passes over a
    weight-sized matrix (and a copy of the shared zero fill) per trip; the
    library kernels accumulate into their output, and one-shot
    bufferization writes a loop-carried accumulator in place.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def HostScalars : Pass<"adj-host-scalars", "::mlir::ModuleOp"> {
  let summary = "Integer math on 0-d tensors the host knows -> scalar arith";
  let description = [{
    A loop's counter reaches its body as a 0-d tensor (tensor.from_elements
    of the induction variable) and index arithmetic on it is a 0-d
    linalg.generic: on a GPU a one-item kernel and, where the result picks
    a slice, a read of device memory on the host (which stops the call
    from running as one graph). Integer arithmetic is exact anywhere, so:

    - a 0-d generic of integers (or indices) with an arith-only payload
      whose inputs are scalars (tensor.from_elements or splat constants)
      becomes its payload on those scalars, its results from_elements;
    - a generic that reads a 0-d integer from_elements through a broadcast
      map reads the scalar itself in its payload instead.

    With the tensor canonicalizations, extract of from_elements (through
    reshapes) folds to the scalar.

    Before:
    ```mlir
    %t = tensor.from_elements %i : tensor<i64>
    %r = linalg.generic {indexing_maps = [#s, #s], iterator_types = []}
        ins(%t : tensor<i64>) outs(%e : tensor<i64>) {
    ^bb0(%in: i64, %out: i64):
      %d = arith.subi %c9, %in : i64
      linalg.yield %d : i64
    } -> tensor<i64>
    ```
    After:
    ```mlir
    %d = arith.subi %c9, %i : i64
    %r = tensor.from_elements %d : tensor<i64>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ReadonlyArguments : Pass<"adj-readonly-arguments", "::mlir::ModuleOp"> {
  let summary = "Marks the tensor arguments of public functions "
                "non-writable for bufferization";
  let description = [{
    `public f(%x: tensor<...>)  =>  public f(%x: tensor<...>
    {bufferization.writable = false})` for every tensor argument of every
    public `func.func` with a body; private functions are left alone.

    Why: a public function is an entry point, and its tensor arguments are
    the caller's memory (compiled code receives input arrays without a
    copy). One-shot bufferization across function boundaries would
    otherwise update an argument in place where the program computes a
    same-shaped value from it; with the attribute it writes a copy instead.
    Private functions are only called from the module itself, where
    bufferization sees every caller.

    Before:
    ```mlir
    func.func @f(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> { ... }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<4xf32> {bufferization.writable = false},
                 %n: index) -> tensor<4xf32> { ... }
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def ReuseDonated : Pass<"adj-reuse-donated", "::mlir::ModuleOp"> {
  let summary = "Computes outputs of public functions into their donated "
                "arguments";
  let description = [{
    For each `adj.donated` tensor argument of a public `func.func` (the
    compiler sets it for CompileOptions::donate), one returned value of the
    same type is paired with it: the value itself when the function returns
    the argument, else preferably one whose defining op reads the argument
    (a parameter's update), else the first. The `tensor.empty` that starts
    the paired value's chain of destinations (the tied init of the
    destination-style op that produces it, or of the op that produces that
    init, and so on, through same-typed values in the function's block) is
    replaced by the argument. When the argument is read after the chain
    begins and only the chain and the return use the chain's results, the
    chain moves to just before the return (its ops are pure), so that every
    other read of the argument comes before the write.

    Why: donation (JAX's donate_argnums) exists so that a training step
    writes its new parameters and optimizer state into the old ones'
    memory instead of allocating a second copy of the model. The argument
    is writable (-adj-readonly-arguments leaves donated ones alone), so
    one-shot bufferization computes the output in place unless a later
    read of the argument conflicts, in which case it allocates, as it did
    before, without a copy (an empty tensor's contents are never read).
    The runtime then hands the output the donated input's storage.

    Before:
    ```mlir
    func.func @step(%w: tensor<4xf32> {adj.donated}, %g: tensor<4xf32>)
        -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %u = linalg.generic {...} ins(%w, %g : ...) outs(%e : tensor<4xf32>)
      return %u : tensor<4xf32>
    }
    ```
    After:
    ```mlir
      %u = linalg.generic {...} ins(%w, %g : ...) outs(%w : tensor<4xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def ReturnDonated : Pass<"adj-return-donated", "::mlir::ModuleOp"> {
  let summary = "Returns donated arguments of public functions themselves "
                "instead of their clones";
  let description = [{
    After buffer deallocation: a `bufferization.clone` of an `adj.donated`
    argument of a public `func.func` whose only use is the `func.return`
    is removed, and the argument is returned.

    Why: ownership-based deallocation clones every argument a function
    returns (the function does not own its arguments). After
    -adj-reuse-donated the output was computed into the donated argument,
    whose memory the caller gave away; the clone would copy it into a new
    buffer and undo the reuse. The runtime gives an output that is a
    donated input's memory that input's storage (rt::invoke).

    Before:
    ```mlir
    func.func @step(%w: memref<4xf32> {adj.donated}, ...) -> memref<4xf32> {
      linalg.generic ... outs(%w : memref<4xf32>)
      %0 = bufferization.clone %w : memref<4xf32> to memref<4xf32>
      return %0 : memref<4xf32>
    }
    ```
    After:
    ```mlir
      linalg.generic ... outs(%w : memref<4xf32>)
      return %w : memref<4xf32>
    ```
  }];
}

def ApproximateMath : Pass<"adj-approximate-math"> {
  let summary = "Replaces transcendental math ops by polynomial "
                "approximations (arithmetic only)";
  let description = [{
    `exp(x) = 2^n * p(r)` and likewise for expm1, tanh, log, log1p, log2,
    erf, sin, cos, atan and atan2 on f32 (scalars or vectors; f16 and bf16
    through f32):
    MLIR's approximations, accurate to a few ulp, built from arith ops,
    except sin and cos: ours, reduced in f64 (F32Trig.cpp), within 0.5
    ulp over the whole f32 range.
    On f64, exp, expm1, log, log1p, tanh and erf: our own (Cody-Waite
    reduction and Taylor series for exp/expm1, fdlibm's minimax polynomial
    for log/log1p, Cephes' rational function below 0.625 and expm1 above
    for tanh, fdlibm's rational approximations for
    erf), within 1.5 ulp (measured: exp 0.80, expm1 1.24, log 0.84,
    log1p 0.77, tanh 1.49, erf 0.81) with libm's special values
    (test/unit/Codegen/F64MathTest.cpp measures them). Other f64 functions
    (sin, cos, log2, atan2) and other math ops are left alone. Runs on any op (a
    module, a gpu.module).

    Before:
    ```mlir
    %y = math.tanh %x : f32
    %z = math.exp %w : f64
    ```
    After:
    ```mlir
    %c = arith.constant ... : f32
    ... arith.mulf/arith.addf/math.fma/arith.select on %x ...
    ... math.roundeven, math.fma, arith.fptosi/shli/bitcast on %w ...
    ```

    Why: on the CPU, LLVM would call the C library once per element and
    leave the loop scalar; the polynomials vectorize (f64 tanh over 1M
    elements: docs/cpu-backend.md has the numbers). On NVIDIA without
    libdevice (-adj-lower-to-cuda{libdevice=false}, or a toolkit without
    it) and AMD without device libraries nothing else defines the
    functions; where the vendor's library is linked the pipelines do not
    run this pass, as its functions are tuned for the chip.
  }];
  let options = [
    Option<"f64", "f64", "bool", /*default=*/"true",
           "Also f64 exp, expm1, log, log1p, tanh and erf (off where a "
           "vendor library is linked for f64 math)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // ADJOINT_CODEGEN_COMMON_PASSES_TD
