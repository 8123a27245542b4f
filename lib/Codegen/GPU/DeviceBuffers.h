//===- DeviceBuffers.h - Which host buffers hold device memory --*- C++ -*-===//
//
// The analysis of -adj-gpu-host-memory.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_CODEGEN_GPU_DEVICEBUFFERS_H
#define ADJOINT_LIB_CODEGEN_GPU_DEVICEBUFFERS_H

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseSet.h"

namespace adjoint::gpu {

/// Which host buffers hold device memory: classes of buffers that alias
/// (union-find), a class being on the device when one of its members can
/// reach a kernel or the caller.
class DeviceBuffers {
public:
  explicit DeviceBuffers(mlir::ModuleOp module);
  bool contains(mlir::Value v) { return device.contains(find(v)); }

private:
  mlir::Value find(mlir::Value v);
  void join(mlir::Value a, mlir::Value b);
  void joinAll(mlir::ValueRange as, mlir::ValueRange bs);
  void seed(mlir::Value v);
  void visit(mlir::Operation *op, mlir::ModuleOp module);

  llvm::DenseMap<mlir::Value, mlir::Value> parent;
  llvm::SmallVector<mlir::Value> seeds;
  llvm::DenseSet<mlir::Value> device;
};

} // namespace adjoint::gpu

#endif // ADJOINT_LIB_CODEGEN_GPU_DEVICEBUFFERS_H
