//===- Gemm.cpp - GEMM descriptors of compiled code -----------------------===//

#include "GPU/Gemm.h"
#include "adjoint/Runtime/DType.h"

#include <cstring>
#include <functional>
#include <string>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::gpu;

namespace {

Status invalid(const std::string &what) {
  return Status::error(StatusCode::InvalidArgument,
                       "adj_rt_gpu_gemm: " + what);
}

Status checkMatrix(const adj_rt_gpu_matrix &matrix, char name, uint64_t rows,
                   uint64_t cols) {
  if (matrix.order != ADJ_RT_GPU_ROW_MAJOR &&
      matrix.order != ADJ_RT_GPU_COL_MAJOR)
    return invalid(std::string(1, name) + " has unknown order " +
                   std::to_string(matrix.order));
  // A leading dimension shorter than a row (column) would overlap them.
  uint64_t minimum = matrix.order == ADJ_RT_GPU_ROW_MAJOR ? cols : rows;
  if (matrix.ld < std::max<uint64_t>(minimum, 1))
    return invalid(std::string(1, name) + " is " + std::to_string(rows) +
                   "x" + std::to_string(cols) +
                   (matrix.order == ADJ_RT_GPU_ROW_MAJOR ? " row" : " column") +
                   "-major with leading dimension " +
                   std::to_string(matrix.ld));
  return Status::success();
}

} // namespace

Status adjoint::rt::gpu::checkGemm(const adj_rt_gpu_gemm_desc &gemm) {
  if (gemm.dtype != uint32_t(DType::F64) &&
      gemm.dtype != uint32_t(DType::F32) && gemm.dtype != uint32_t(DType::F16))
    return invalid("element type " + std::to_string(gemm.dtype) +
                   " is not f64, f32 or f16");
  if (gemm.flags &
      ~uint32_t(ADJ_RT_GPU_GEMM_TF32 | ADJ_RT_GPU_GEMM_OVERWRITE))
    return invalid("unknown flags " + std::to_string(gemm.flags));
  if (!gemm.fallback)
    return invalid("no fallback kernel");
  if (Status s = checkMatrix(gemm.a, 'A', gemm.m, gemm.k); !s.ok())
    return s;
  if (Status s = checkMatrix(gemm.b, 'B', gemm.k, gemm.n); !s.ok())
    return s;
  if (Status s = checkMatrix(gemm.c, 'C', gemm.m, gemm.n); !s.ok())
    return s;
  // Every batch entry writes its own C.
  if (gemm.batch > 1 && gemm.c.batchStride == 0)
    return invalid("C is broadcast over a batch of " +
                   std::to_string(gemm.batch));
  return Status::success();
}

size_t adjoint::rt::gpu::gemmElementBytes(const adj_rt_gpu_gemm_desc &gemm) {
  return dtypeSize(static_cast<DType>(gemm.dtype));
}

uint64_t adjoint::rt::gpu::matrixExtent(const adj_rt_gpu_matrix &matrix,
                                        uint64_t rows, uint64_t cols,
                                        uint64_t batch) {
  if (!rows || !cols || !batch)
    return 0;
  uint64_t last = matrix.order == ADJ_RT_GPU_ROW_MAJOR
                      ? (rows - 1) * matrix.ld + (cols - 1)
                      : (cols - 1) * matrix.ld + (rows - 1);
  return (batch - 1) * matrix.batchStride + last + 1;
}

GemmKey::GemmKey(const adj_rt_gpu_gemm_desc &gemm, uint32_t alignment)
    : dtype(gemm.dtype), flags(gemm.flags), batch(gemm.batch), m(gemm.m),
      n(gemm.n), k(gemm.k), alignment(alignment) {
  const adj_rt_gpu_matrix *matrices[3] = {&gemm.a, &gemm.b, &gemm.c};
  for (int i = 0; i < 3; ++i) {
    layout[i][0] = matrices[i]->order;
    layout[i][1] = matrices[i]->ld;
    layout[i][2] = matrices[i]->batchStride;
  }
}

bool GemmKey::operator==(const GemmKey &other) const {
  return dtype == other.dtype && flags == other.flags &&
         batch == other.batch && m == other.m && n == other.n &&
         k == other.k && alignment == other.alignment &&
         std::memcmp(layout, other.layout, sizeof(layout)) == 0;
}

size_t GemmKeyHash::operator()(const GemmKey &key) const {
  size_t h = std::hash<uint64_t>()(uint64_t(key.dtype) << 32 | key.flags);
  auto mix = [&](uint64_t v) {
    h ^= std::hash<uint64_t>()(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  };
  for (uint64_t v : {key.batch, key.m, key.n, key.k, uint64_t(key.alignment)})
    mix(v);
  for (const auto &matrix : key.layout)
    for (uint64_t v : matrix)
      mix(v);
  return h;
}
