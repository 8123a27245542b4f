//===- FakeCublasLt.cpp - cuBLASLt on host memory for offline tests -------===//
//
// Built as libcublasLt.so.13 and put first on LD_LIBRARY_PATH by ctest. It
// computes D = alpha op(A) op(B) + beta C with cuBLASLt's semantics (column-
// major unless a layout says row-major, leading dimensions, strided
// batches) on host memory, which is the fake CUDA driver's device memory,
// so that a wrong translation of layouts gives a wrong answer, and records
// every matmul (FakeCublasLt.h). Nothing of NVIDIA's is copied: the types
// are the runtime's declarations (lib/Runtime/CUDA/CublasLt.h).
//
//===----------------------------------------------------------------------===//

#include "CUDA/CublasLt.h"
#include "FakeCublasLt.h"
#include "FakeStreamJournal.h"

#include <cstring>

using namespace adjoint::rt::cuda;

// The handles' types, which the runtime only declares.
namespace adjoint::rt::cuda {
struct CublasLtContext {
  int magic = 0x4c74;
};
struct CublasLtMatmulDescOpaque {
  int32_t compute, scale;
  int32_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N;
};
struct CublasLtMatrixLayoutOpaque {
  int32_t type;
  uint64_t rows, cols;
  int64_t ld;
  int32_t order = 0; // column-major
  int32_t batch = 1;
  int64_t stride = 0;
};
struct CublasLtMatmulPreferenceOpaque {
  uint64_t maxWorkspace = 0;
  /// The least of the four minimum alignments (256 by default).
  uint32_t alignment = 256;
};
} // namespace adjoint::rt::cuda

namespace {

constexpr cublasStatus_t kInvalidValue = 7, kNotSupported = 15;
/// What the heuristic asks for (within the preference's maximum).
constexpr size_t kWorkspace = 4096;

std::vector<FakeLtMatmul> &calls() {
  static std::vector<FakeLtMatmul> recorded;
  return recorded;
}
int gAlgorithms = 1;
/// How far each matmul advances the fake CUDA driver's clock, which its
/// events read (FakeStreamJournal.h), when that driver is loaded.
double gMatmulMs = 0;

void advanceCudaClock(double ms) {
  if (FakeStreamJournal *cuda = findFakeCudaJournal())
    cuda->clockMs += ms;
}

double load(int32_t type, const void *base, int64_t index) {
  switch (type) {
  case CUDA_R_64F:
    return static_cast<const double *>(base)[index];
  case CUDA_R_16F:
    return double(static_cast<const _Float16 *>(base)[index]);
  default:
    return static_cast<const float *>(base)[index];
  }
}

void store(int32_t type, void *base, int64_t index, double value) {
  switch (type) {
  case CUDA_R_64F:
    static_cast<double *>(base)[index] = value;
    break;
  case CUDA_R_16F:
    static_cast<_Float16 *>(base)[index] = _Float16(value);
    break;
  default:
    static_cast<float *>(base)[index] = float(value);
  }
}

/// Element (i, j) of batch entry `b` of a stored matrix.
int64_t at(const CublasLtMatrixLayoutOpaque &l, int64_t b, uint64_t i,
           uint64_t j) {
  int64_t inside = l.order == 1 ? int64_t(i) * l.ld + int64_t(j)
                                : int64_t(i) + int64_t(j) * l.ld;
  return b * l.stride + inside;
}

bool validLayout(const CublasLtMatrixLayoutOpaque &l) {
  uint64_t minimum = l.order == 1 ? l.cols : l.rows;
  return l.ld >= int64_t(minimum ? minimum : 1) && l.batch >= 1;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void *fakeCublasLtCalls() {
  return &calls();
}

__attribute__((visibility("default"))) void fakeCublasLtSetAlgorithms(int n) {
  gAlgorithms = n;
}

__attribute__((visibility("default"))) void fakeCublasLtSetMatmulMs(double ms) {
  gMatmulMs = ms;
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle) {
  *handle = new CublasLtContext;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc,
                                        cublasComputeType_t compute,
                                        cudaDataType_t scale) {
  *desc = new CublasLtMatmulDescOpaque{compute, scale};
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  delete desc;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc,
                               cublasLtMatmulDescAttributes_t attribute,
                               const void *value, size_t bytes) {
  if (bytes != sizeof(int32_t))
    return kInvalidValue;
  int32_t v;
  std::memcpy(&v, value, sizeof(v));
  if (v != CUBLAS_OP_N && v != CUBLAS_OP_T)
    return kInvalidValue;
  if (attribute == CUBLASLT_MATMUL_DESC_TRANSA)
    desc->transa = v;
  else if (attribute == CUBLASLT_MATMUL_DESC_TRANSB)
    desc->transb = v;
  else
    return kInvalidValue;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout,
                                          cudaDataType_t type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  *layout = new CublasLtMatrixLayoutOpaque{type, rows, cols, ld};
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  delete layout;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout,
                                 cublasLtMatrixLayoutAttribute_t attribute,
                                 const void *value, size_t bytes) {
  switch (attribute) {
  case CUBLASLT_MATRIX_LAYOUT_ORDER:
  case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT:
    if (bytes != sizeof(int32_t))
      return kInvalidValue;
    std::memcpy(attribute == CUBLASLT_MATRIX_LAYOUT_ORDER ? &layout->order
                                                          : &layout->batch,
                value, bytes);
    return CUBLAS_STATUS_SUCCESS;
  case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET:
    if (bytes != sizeof(int64_t))
      return kInvalidValue;
    std::memcpy(&layout->stride, value, bytes);
    return CUBLAS_STATUS_SUCCESS;
  }
  return kInvalidValue;
}

cublasStatus_t
cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *preference) {
  *preference = new CublasLtMatmulPreferenceOpaque;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t preference) {
  delete preference;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(
    cublasLtMatmulPreference_t preference,
    cublasLtMatmulPreferenceAttributes_t attribute, const void *value,
    size_t bytes) {
  if (attribute == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES &&
      bytes == sizeof(uint64_t)) {
    std::memcpy(&preference->maxWorkspace, value, bytes);
    return CUBLAS_STATUS_SUCCESS;
  }
  if (attribute >= CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES &&
      attribute <= CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES &&
      bytes == sizeof(uint32_t)) {
    uint32_t alignment;
    std::memcpy(&alignment, value, bytes);
    if (alignment < preference->alignment)
      preference->alignment = alignment;
    return CUBLAS_STATUS_SUCCESS;
  }
  return kInvalidValue;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
    cublasLtMatrixLayout_t a, cublasLtMatrixLayout_t b,
    cublasLtMatrixLayout_t c, cublasLtMatrixLayout_t d,
    cublasLtMatmulPreference_t preference, int requested,
    cublasLtMatmulHeuristicResult_t *results, int *returned) {
  if (!handle || !desc || !a || !b || !c || !d || !preference ||
      requested < 1)
    return kInvalidValue;
  *returned = 0;
  if (gAlgorithms < 1)
    return kNotSupported;
  std::memset(results, 0, sizeof(*results));
  results->workspaceSize =
      preference->maxWorkspace < kWorkspace ? 0 : kWorkspace;
  results->algo.data[0] = 0x41;
  // The algorithm assumes the alignment the caller promised.
  results->algo.data[1] = preference->alignment;
  *returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t
cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
               const void *alpha, const void *a, cublasLtMatrixLayout_t aDesc,
               const void *b, cublasLtMatrixLayout_t bDesc, const void *beta,
               const void *c, cublasLtMatrixLayout_t cDesc, void *d,
               cublasLtMatrixLayout_t dDesc, const cublasLtMatmulAlgo_t *algo,
               void *workspace, size_t workspaceBytes, cudaStream_t stream) {
  if (!handle || !desc || !aDesc || !bDesc || !cDesc || !dDesc || !algo ||
      algo->data[0] != 0x41)
    return kInvalidValue;
  if (workspaceBytes < kWorkspace || !workspace)
    return kInvalidValue;
  // A real algorithm would fault on an address less aligned than promised.
  uint64_t alignment = algo->data[1];
  for (const void *p : {a, b, c, static_cast<const void *>(d)})
    if (reinterpret_cast<uintptr_t>(p) % alignment)
      return kInvalidValue;
  const CublasLtMatrixLayoutOpaque &la = *aDesc, &lb = *bDesc, &lc = *cDesc,
                                   &ld = *dDesc;
  for (const auto *l : {&la, &lb, &lc, &ld})
    if (!validLayout(*l) || l->type != la.type || l->batch != la.batch)
      return kInvalidValue;
  bool ta = desc->transa == CUBLAS_OP_T, tb = desc->transb == CUBLAS_OP_T;
  uint64_t m = ta ? la.cols : la.rows, k = ta ? la.rows : la.cols;
  uint64_t kb = tb ? lb.cols : lb.rows, n = tb ? lb.rows : lb.cols;
  if (k != kb || lc.rows != m || lc.cols != n || ld.rows != m ||
      ld.cols != n)
    return kInvalidValue;
  bool doubleScale = desc->scale == CUDA_R_64F;
  double alphaValue = doubleScale ? *static_cast<const double *>(alpha)
                                  : *static_cast<const float *>(alpha);
  double betaValue = doubleScale ? *static_cast<const double *>(beta)
                                 : *static_cast<const float *>(beta);
  // The product runs on the stream (now, or when a graph that captured it
  // runs), where a real cuBLASLt's kernels would.
  FakeLtMatmul call{desc->compute, desc->scale, desc->transa, desc->transb,
                    m, n, k, la.batch, a, b, d, workspaceBytes, stream,
                    uint32_t(alignment), {}};
  runOnFakeStream("libcuda.so.1", "cuLaunchHostFunc", stream, [=]() mutable {
    for (int64_t e = 0; e < la.batch; ++e)
      for (uint64_t j = 0; j < n; ++j)
        for (uint64_t i = 0; i < m; ++i)
          call.cBefore.push_back(load(lc.type, c, at(lc, e, i, j)));
    for (int64_t e = 0; e < la.batch; ++e)
      for (uint64_t i = 0; i < m; ++i)
        for (uint64_t j = 0; j < n; ++j) {
          double sum = 0;
          for (uint64_t p = 0; p < k; ++p)
            sum += load(la.type, a, ta ? at(la, e, p, i) : at(la, e, i, p)) *
                   load(lb.type, b, tb ? at(lb, e, j, p) : at(lb, e, p, j));
          double old = load(lc.type, c, at(lc, e, i, j));
          store(ld.type, d, at(ld, e, i, j),
                alphaValue * sum + betaValue * old);
        }
    advanceCudaClock(gMatmulMs);
    calls().push_back(call);
    call.cBefore.clear();
  });
  return CUBLAS_STATUS_SUCCESS;
}

} // extern "C"
