//===- CublasLtGemm.cpp - GEMMs through cuBLASLt --------------------------===//

#include "CUDA/CublasLtGemm.h"
#include "adjoint/Runtime/DType.h"

#include <climits>
#include <string>

using namespace adjoint;
using namespace adjoint::rt;
using namespace adjoint::rt::cuda;
using adjoint::rt::gpu::GemmKey;

namespace {
bool fitsInt32(uint64_t v) { return v <= uint64_t(INT32_MAX); }
} // namespace

/// The cuBLASLt descriptors of one problem.
struct CublasLtGemm::Plan {
  const CublasLtApi *api = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  /// The library's first and second operand and C (which is also D).
  cublasLtMatrixLayout_t layouts[3] = {};
  /// C is row-major: cuBLASLt computes C^T = B^T A^T, so its first
  /// operand is B and its second A.
  bool swapped = false;
  cublasLtMatmulAlgo_t algo{};
  size_t workspaceBytes = 0;
  /// Whether alpha and beta are f64 (else f32).
  bool doubleScale = false;

  ~Plan() {
    for (cublasLtMatrixLayout_t layout : layouts)
      if (layout)
        api->cublasLtMatrixLayoutDestroy(layout);
    if (desc)
      api->cublasLtMatmulDescDestroy(desc);
  }
};

CublasLtGemm::CublasLtGemm(const CublasLtApi &api, cudaStream_t stream,
                           gpu::LibraryWorkspace workspace)
    : api_(api), stream_(stream), workspace_(std::move(workspace)) {}

CublasLtGemm::~CublasLtGemm() {
  plans_.clear();
  if (handle_)
    api_.cublasLtDestroy(handle_);
}

Status CublasLtGemm::prepare(const adj_rt_gpu_gemm_desc &gemm,
                             const GemmKey &key, bool *available) {
  Plan *p = nullptr;
  Status s = plan(gemm, key, &p);
  *available = p != nullptr;
  return s;
}

Status CublasLtGemm::plan(const adj_rt_gpu_gemm_desc &gemm,
                          const GemmKey &key, Plan **out) {
  auto cached = plans_.find(key);
  if (cached != plans_.end()) {
    *out = cached->second.get();
    return Status::success();
  }
  *out = nullptr;
  // cuBLASLt takes 32-bit sizes and batch counts; larger problems stay
  // with the kernel.
  for (uint64_t v : {gemm.batch, gemm.m, gemm.n, gemm.k, gemm.a.ld, gemm.b.ld,
                     gemm.c.ld})
    if (!fitsInt32(v)) {
      plans_[key] = nullptr;
      return Status::success();
    }
  if (!handle_)
    if (Status s = checkCublas(api_.cublasLtCreate(&handle_),
                               "cublasLtCreate");
        !s.ok())
      return s;

  auto plan = std::make_unique<Plan>();
  plan->api = &api_;
  cudaDataType_t type = CUDA_R_32F, scale = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  switch (static_cast<DType>(gemm.dtype)) {
  case DType::F64:
    type = scale = CUDA_R_64F;
    compute = CUBLAS_COMPUTE_64F;
    plan->doubleScale = true;
    break;
  case DType::F16:
    // Accumulated in f32, as the interpreter and the kernel do.
    type = CUDA_R_16F;
    break;
  default:
    if (gemm.flags & ADJ_RT_GPU_GEMM_TF32)
      compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    break;
  }
  if (Status s = checkCublas(
          api_.cublasLtMatmulDescCreate(&plan->desc, compute, scale),
          "cublasLtMatmulDescCreate");
      !s.ok())
    return s;

  plan->swapped = gemm.c.order == ADJ_RT_GPU_ROW_MAJOR;
  struct Operand {
    const adj_rt_gpu_matrix *matrix;
    uint64_t rows, cols;
  };
  Operand a{&gemm.a, gemm.m, gemm.k}, b{&gemm.b, gemm.k, gemm.n},
      c{&gemm.c, gemm.m, gemm.n};
  Operand operands[3] = {plan->swapped ? b : a, plan->swapped ? a : b, c};
  cublasOperation_t ops[2];
  for (int i = 0; i < 3; ++i) {
    const Operand &o = operands[i];
    bool rowMajor = o.matrix->order == ADJ_RT_GPU_ROW_MAJOR;
    // Column-major storage of a row-major matrix is its transpose. The
    // swapped problem wants each operand transposed: the stored view is
    // what it wants when both or neither hold.
    if (i < 2)
      ops[i] = rowMajor == plan->swapped ? CUBLAS_OP_N : CUBLAS_OP_T;
    uint64_t rows = rowMajor ? o.cols : o.rows;
    uint64_t cols = rowMajor ? o.rows : o.cols;
    cublasLtMatrixLayout_t &layout = plan->layouts[i];
    if (Status s = checkCublas(
            api_.cublasLtMatrixLayoutCreate(&layout, type, rows, cols,
                                             int64_t(o.matrix->ld)),
            "cublasLtMatrixLayoutCreate");
        !s.ok())
      return s;
    if (gemm.batch > 1) {
      int32_t count = int32_t(gemm.batch);
      int64_t stride = int64_t(o.matrix->batchStride);
      if (Status s = checkCublas(
              api_.cublasLtMatrixLayoutSetAttribute(
                  layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                  sizeof(count)),
              "cublasLtMatrixLayoutSetAttribute");
          !s.ok())
        return s;
      if (Status s = checkCublas(
              api_.cublasLtMatrixLayoutSetAttribute(
                  layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                  &stride, sizeof(stride)),
              "cublasLtMatrixLayoutSetAttribute");
          !s.ok())
        return s;
    }
  }
  for (auto [attribute, op] : {std::pair{CUBLASLT_MATMUL_DESC_TRANSA, ops[0]},
                               std::pair{CUBLASLT_MATMUL_DESC_TRANSB, ops[1]}}) {
    int32_t value = op;
    if (Status s = checkCublas(api_.cublasLtMatmulDescSetAttribute(
                                   plan->desc, attribute, &value,
                                   sizeof(value)),
                               "cublasLtMatmulDescSetAttribute");
        !s.ok())
      return s;
  }

  cublasLtMatmulPreference_t preference = nullptr;
  if (Status s = checkCublas(api_.cublasLtMatmulPreferenceCreate(&preference),
                             "cublasLtMatmulPreferenceCreate");
      !s.ok())
    return s;
  uint64_t maxWorkspace = gpu::kLibraryWorkspaceBytes;
  cublasLtMatmulHeuristicResult_t result{};
  int returned = 0;
  Status s = checkCublas(api_.cublasLtMatmulPreferenceSetAttribute(
                             preference,
                             CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                             &maxWorkspace, sizeof(maxWorkspace)),
                         "cublasLtMatmulPreferenceSetAttribute");
  for (cublasLtMatmulPreferenceAttributes_t attribute :
       {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    if (s.ok())
      s = checkCublas(api_.cublasLtMatmulPreferenceSetAttribute(
                          preference, attribute, &key.alignment,
                          sizeof(key.alignment)),
                      "cublasLtMatmulPreferenceSetAttribute");
  if (s.ok()) {
    cublasStatus_t found = api_.cublasLtMatmulAlgoGetHeuristic(
        handle_, plan->desc, plan->layouts[0], plan->layouts[1],
        plan->layouts[2], plan->layouts[2], preference, 1, &result,
        &returned);
    // No algorithm for this problem (NOT_SUPPORTED, or none returned):
    // the kernel computes it.
    if (found != CUBLAS_STATUS_SUCCESS)
      returned = 0;
  }
  api_.cublasLtMatmulPreferenceDestroy(preference);
  if (!s.ok())
    return s;
  if (returned < 1 || result.state != CUBLAS_STATUS_SUCCESS) {
    plans_[key] = nullptr;
    return Status::success();
  }
  plan->algo = result.algo;
  plan->workspaceBytes = result.workspaceSize;
  *out = plan.get();
  plans_[key] = std::move(plan);
  return Status::success();
}

Status CublasLtGemm::enqueue(const adj_rt_gpu_gemm_desc &gemm,
                             const GemmKey &key, void *a, void *b, void *c) {
  // The router enqueues only problems prepare() found a plan for.
  auto planned = plans_.find(key);
  if (planned == plans_.end() || !planned->second)
    return Status::error(StatusCode::Internal,
                         "cuBLASLt: a GEMM enqueued without a plan");
  const Plan &plan = *planned->second;
  void *workspace = nullptr;
  if (plan.workspaceBytes)
    if (Status s = workspace_(&workspace); !s.ok())
      return s;
  const double one64 = 1.0, zero64 = 0.0;
  const float one32 = 1.0f, zero32 = 0.0f;
  const void *one = plan.doubleScale ? static_cast<const void *>(&one64)
                                     : static_cast<const void *>(&one32);
  // C = A B where C's prior values are not to be read, else C += A B.
  const void *beta =
      !(gemm.flags & ADJ_RT_GPU_GEMM_OVERWRITE) ? one
      : plan.doubleScale ? static_cast<const void *>(&zero64)
                         : static_cast<const void *>(&zero32);
  void *first = plan.swapped ? b : a, *second = plan.swapped ? a : b;
  Status s = checkCublas(
      api_.cublasLtMatmul(handle_, plan.desc, one, first, plan.layouts[0],
                           second, plan.layouts[1], beta, c, plan.layouts[2],
                           c, plan.layouts[2], &plan.algo, workspace,
                           plan.workspaceBytes, stream_),
      "cublasLtMatmul");
  return s;
}
