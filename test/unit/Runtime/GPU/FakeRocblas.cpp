//===- FakeRocblas.cpp - rocBLAS GEMMs on host memory ---------------------===//
//
// librocblas.so.4 for the tests of the HIP device's GEMM route: the fake
// HIP runtime's device memory is host memory, so this computes
// rocblas_gemm_strided_batched_ex's column-major D = alpha op(A) op(B) +
// beta C at once, exactly as its arguments say (so that the tests check the
// runtime's translation of row- and column-major operands), records each
// call and advances the fake runtime's clock by a settable time.
//
//===----------------------------------------------------------------------===//

#include "FakeStreamJournal.h"
#include "FakeRocblas.h"
#include "HIP/Rocblas.h"

#include <cstdint>
#include <functional>
#include <string>

using namespace adjoint::rt::hip;

namespace {
constexpr rocblas_status kInvalidHandle = 1, kNotImplemented = 2,
                         kInvalidSize = 4;
struct Handle {
  hipStream_t stream = nullptr;
};
FakeRocblasJournal &journal() {
  static FakeRocblasJournal instance;
  return instance;
}

/// Element (i, j) of a column-major matrix, or of its transpose under op.
template <typename T>
T element(const void *base, int64_t ld, rocblas_operation op, int64_t i,
          int64_t j) {
  const T *p = static_cast<const T *>(base);
  return op == rocblas_operation_none ? p[i + j * ld] : p[j + i * ld];
}

template <typename T, typename Scale>
void compute(rocblas_operation opA, rocblas_operation opB, int32_t m,
             int32_t n, int32_t k, const void *alpha, const void *a,
             int32_t lda, int64_t strideA, const void *b, int32_t ldb,
             int64_t strideB, const void *beta, const void *c, int32_t ldc,
             int64_t strideC, void *d, int32_t ldd, int64_t strideD,
             int32_t batch) {
  Scale al = *static_cast<const Scale *>(alpha);
  Scale be = *static_cast<const Scale *>(beta);
  for (int32_t e = 0; e < batch; ++e) {
    const T *ab = static_cast<const T *>(a) + e * strideA;
    const T *bb = static_cast<const T *>(b) + e * strideB;
    const T *cb = static_cast<const T *>(c) + e * strideC;
    T *db = static_cast<T *>(d) + e * strideD;
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) {
        double sum = 0;
        for (int64_t p = 0; p < k; ++p)
          sum += double(element<T>(ab, lda, opA, i, p)) *
                 double(element<T>(bb, ldb, opB, p, j));
        db[i + j * ldd] = T(al * sum + be * double(cb[i + j * ldc]));
      }
  }
}
} // namespace

template <typename T>
rocblas_status scal(rocblas_handle handle, int n, const T *alpha, T *x,
                    int incx) {
  auto *h = reinterpret_cast<Handle *>(handle);
  if (!h || !h->stream)
    return kInvalidHandle;
  if (n < 0 || incx < 1)
    return kInvalidSize;
  journal().scals.push_back(std::string(sizeof(T) == 4 ? "s " : "d ") +
                            std::to_string(n));
  for (int i = 0; i < n; ++i)
    x[i * incx] *= *alpha;
  return rocblas_status_success;
}

extern "C" {

void *fakeRocblasJournal() { return &journal(); }

const char *rocblas_status_to_string(rocblas_status status) {
  switch (status) {
  case kInvalidHandle:
    return "rocblas_status_invalid_handle";
  case kNotImplemented:
    return "rocblas_status_not_implemented";
  case kInvalidSize:
    return "rocblas_status_invalid_size";
  default:
    return "rocblas_status_unknown";
  }
}

rocblas_status rocblas_create_handle(rocblas_handle *handle) {
  *handle = reinterpret_cast<rocblas_handle>(new Handle);
  ++journal().handles;
  return rocblas_status_success;
}

rocblas_status rocblas_destroy_handle(rocblas_handle handle) {
  delete reinterpret_cast<Handle *>(handle);
  return rocblas_status_success;
}

rocblas_status rocblas_set_stream(rocblas_handle handle, hipStream_t stream) {
  if (!handle)
    return kInvalidHandle;
  reinterpret_cast<Handle *>(handle)->stream = stream;
  journal().stream = stream;
  return rocblas_status_success;
}

rocblas_status rocblas_set_workspace(rocblas_handle handle, void *block,
                                     size_t bytes) {
  if (!handle || (bytes && !block))
    return kInvalidHandle;
  journal().workspace = block;
  journal().workspaceBytes = bytes;
  return rocblas_status_success;
}

rocblas_status rocblas_gemm_strided_batched_ex(
    rocblas_handle handle, rocblas_operation opA, rocblas_operation opB,
    int32_t m, int32_t n, int32_t k, const void *alpha, const void *a,
    rocblas_datatype aType, int32_t lda, int64_t strideA, const void *b,
    rocblas_datatype bType, int32_t ldb, int64_t strideB, const void *beta,
    const void *c, rocblas_datatype cType, int32_t ldc, int64_t strideC,
    void *d, rocblas_datatype dType, int32_t ldd, int64_t strideD,
    int32_t batch, rocblas_datatype computeType, rocblas_gemm_algo algo,
    int32_t, uint32_t flags) {
  if (!handle || !reinterpret_cast<Handle *>(handle)->stream)
    return kInvalidHandle;
  // rocBLAS's own checks: stored rows fit the leading dimensions.
  int32_t rowsA = opA == rocblas_operation_none ? m : k;
  int32_t rowsB = opB == rocblas_operation_none ? k : n;
  if (m < 0 || n < 0 || k < 0 || batch < 0 || lda < rowsA || ldb < rowsB ||
      ldc < m || ldd < m)
    return kInvalidSize;
  if (aType != bType || aType != cType || cType != dType ||
      algo != rocblas_gemm_algo_standard || flags != 0)
    return kNotImplemented;
  std::string type;
  // The product runs on the stream (now, or when a graph that captured it
  // runs), where rocBLAS's kernels would.
  std::function<void()> work;
  if (aType == rocblas_datatype_f32_r &&
      computeType == rocblas_datatype_f32_r) {
    type = "f32";
    float alphaValue = *static_cast<const float *>(alpha),
          betaValue = *static_cast<const float *>(beta);
    work = [=] {
      compute<float, float>(opA, opB, m, n, k, &alphaValue, a, lda, strideA,
                            b, ldb, strideB, &betaValue, c, ldc, strideC, d,
                            ldd, strideD, batch);
    };
  } else if (aType == rocblas_datatype_f64_r &&
             computeType == rocblas_datatype_f64_r) {
    type = "f64";
    double alphaValue = *static_cast<const double *>(alpha),
           betaValue = *static_cast<const double *>(beta);
    work = [=] {
      compute<double, double>(opA, opB, m, n, k, &alphaValue, a, lda,
                              strideA, b, ldb, strideB, &betaValue, c, ldc,
                              strideC, d, ldd, strideD, batch);
    };
  } else {
    return kNotImplemented;
  }
  runOnFakeStream("libamdhip64.so.6", "hipLaunchHostFunc",
                  reinterpret_cast<Handle *>(handle)->stream, work);
  auto name = [](rocblas_operation op) {
    return op == rocblas_operation_none ? "N" : "T";
  };
  FakeRocblasJournal &j = journal();
  j.gemms.push_back(std::string(name(opA)) + " " + name(opB) + " " +
                    std::to_string(m) + " " + std::to_string(n) + " " +
                    std::to_string(k) + " " + std::to_string(lda) + " " +
                    std::to_string(ldb) + " " + std::to_string(ldc) + " " +
                    std::to_string(strideA) + " " + std::to_string(strideB) +
                    " " + std::to_string(strideC) + " " +
                    std::to_string(batch) + " " + type);
  if (FakeStreamJournal *hip = findFakeHipJournal())
    hip->clockMs += j.gemmMs;
  return rocblas_status_success;
}

// scal, which scales rocFFT's inverse transforms.
rocblas_status rocblas_sscal(rocblas_handle handle, int n, const float *alpha,
                             float *x, int incx) {
  return scal(handle, n, alpha, x, incx);
}
rocblas_status rocblas_dscal(rocblas_handle handle, int n,
                             const double *alpha, double *x, int incx) {
  return scal(handle, n, alpha, x, incx);
}

} // extern "C"
