#include "Common.h"
#include "adjoint/API/Builder.h"
#include "adjoint/AD/Passes.h"
#include "adjoint/Pipelines/Pipelines.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
using namespace adjoint;
using namespace adjoint::bench;
namespace api = adjoint::api;
static api::Type f32(std::vector<int64_t> s) { return api::Type::tensor(api::DType::F32, s); }
int main(int argc, char **argv) {
  api::Module m;
  int64_t B = 256, F = 784, H = 512, C = 10;
  std::vector<api::Type> params = {f32({F, H}), f32({H}), f32({H, C}), f32({C})};
  std::vector<api::Type> in = {f32({B, F}), f32({B, C})};
  in.insert(in.end(), params.begin(), params.end());
  api::Function loss = m.function("loss", in, [&](const std::vector<api::Value> &a) {
    api::Value h = api::relu(api::linear(a[0], a[2], a[3]));
    return api::cross_entropy(api::linear(h, a[4], a[5]), a[1]);
  });
  m.function("step", in, [&](const std::vector<api::Value> &a) {
    api::ADOptions o; o.wrt = std::vector<int64_t>{2, 3, 4, 5};
    api::Values lg = api::call(api::value_and_grad(loss.ref(), o), a);
    std::vector<api::Value> out = {lg[0]};
    for (int i = 0; i < 4; ++i) out.push_back(a[2 + i] - lg[1 + i] * 0.1);
    return out;
  });
  m.verify();
  mlir::ModuleOp mod = m.op();
  mlir::PassManager pm(mod.getContext());
  pm.addPass(ad::createGrad());
  buildOptimizePipeline(pm);
  if (mlir::failed(pm.run(mod))) return 1;
  std::error_code ec;
  llvm::raw_fd_ostream os(argc > 1 ? argv[1] : "/tmp/perf/mlp_step.mlir", ec);
  mod.print(os);
  CompileOptions opts; opts.cache = false; opts.optimize = false;
  Executable exe = compile(mod, "step", Target::cpu(), opts);
  std::printf("compile %.2f s\n", exe.compileSeconds());
  std::vector<rt::Tensor> args;
  unsigned seed = 1;
  for (auto &t : in) args.push_back(randomTensor(t.shape(), seed++));
  std::vector<rt::Tensor> out;
  auto t = timeInterleaved({[&] { out = exe.run(args); }});
  std::printf("step %.3f ms\n", t[0] * 1e3);
  if (getenv("LOOP")) for (int i = 0; i < 400; ++i) out = exe.run(args);
}
