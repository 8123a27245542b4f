//===- Passes.td - Conversions out of the adj dialect ------*- tablegen -*-===//
//
// Every conversion has one name: `AdjToLinalg` lives in
// lib/Conversion/AdjToLinalg/AdjToLinalg.cpp, has the flag `-adj-to-linalg`
// and is tested in test/Conversion/AdjToLinalg/.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_CONVERSION_PASSES_TD
#define ADJOINT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def AdjToLinalg : Pass<"adj-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers typed first-order adj programs to "
                "func/linalg/tensor/arith/math on tensors";
  let description = [{
    `lower(p) = p` with every adj op replaced by upstream ops on tensors that
    compute the same values.

    The input is the output of `-adj-optimize`: fully typed, static shapes,
    no closures, environments, tuples or calls of function values other than
    `adj.func_ref`. Elementwise ops become `linalg.generic` with broadcasting
    indexing maps, `adj.matmul` becomes `linalg.matmul`/`batch_matmul` on a
    zero-filled init, reductions become `linalg.reduce`, shape ops become
    `linalg.transpose`, `linalg.broadcast` and `tensor` reshapes. Public
    functions get `llvm.emit_c_interface` so that the ExecutionEngine can
    call them. An op this pass does not handle yet is an error naming it.

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
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // ADJOINT_CONVERSION_PASSES_TD
