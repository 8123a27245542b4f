//===- StreamHandles.h - CUDA's and HIP's streams and events ----*- C++ -*-===//
//
// The stream, event and graph handles of CUDA's driver API (CUstream, CUevent) and
// HIP's runtime (hipStream_t, hipEvent_t) are opaque pointers. Declared as
// one type each here and in both vendors' API headers, the entry points
// the two share have one C signature, and the stream-device layer
// (StreamDevice.h) calls either vendor's table as it is.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_LIB_RUNTIME_GPU_STREAMHANDLES_H
#define ADJOINT_LIB_RUNTIME_GPU_STREAMHANDLES_H

namespace adjoint::rt::gpu {

using Stream = struct StreamHandle *;
using Event = struct EventHandle *;
/// Graphs of captured work (CUgraph, hipGraph_t) and their executable
/// instances (CUgraphExec, hipGraphExec_t).
using Graph = struct GraphHandle *;
using GraphExec = struct GraphExecHandle *;

} // namespace adjoint::rt::gpu

#endif // ADJOINT_LIB_RUNTIME_GPU_STREAMHANDLES_H
