//===- Compile.cpp - compile(), Executable and the cache lookups ----------===//

#include "CompileImpl.h"

#include "adjoint/API/Builder.h"
#include "adjoint/Pipelines/Pipelines.h"
#include "adjoint/Runtime/DeviceRegistry.h"

#include "mlir/Pass/PassRegistry.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <chrono>

using namespace adjoint;
using namespace adjoint::compiler;

const char *adjoint::cacheOutcomeName(CacheOutcome outcome) {
  switch (outcome) {
  case CacheOutcome::Compiled:
    return "compiled";
  case CacheOutcome::MemoryHit:
    return "memory-hit";
  case CacheOutcome::DiskHit:
    return "disk-hit";
  }
  return "?";
}

Executable::Executable() = default;
Executable::~Executable() = default;
Executable::Executable(const Executable &) = default;
Executable &Executable::operator=(const Executable &) = default;

namespace adjoint {
Executable makeExecutable(std::shared_ptr<const Executable::Program> program,
                          CacheOutcome outcome, double seconds) {
  Executable exe;
  exe.program_ = std::move(program);
  exe.outcome_ = outcome;
  exe.compileSeconds_ = seconds;
  return exe;
}
} // namespace adjoint

namespace {
const Executable::Program &programOf(
    const std::shared_ptr<const Executable::Program> &program) {
  if (!program)
    throw Error("Executable: empty (not made by compile())");
  return *program;
}

} // namespace

std::string compiler::objectFor(mlir::ModuleOp module,
                                const std::string &function,
                                const Target &target,
                                const CompileOptions &options,
                                const std::string &key, bool &fromDisk) {
  fromDisk = false;
  if (options.cache) {
    if (std::optional<std::string> object =
            diskCacheLookup(cacheDirFor(options), key)) {
      fromDisk = true;
      return std::move(*object);
    }
  }
  LLVMModule lowered = lowerToLLVMIR(module, function, target, options);
  std::string object =
      emitObject(*lowered.module, target.hostTarget(), options.optLevel);
  noteCompilation();
  if (options.cache)
    diskCacheStore(cacheDirFor(options), key, object);
  return object;
}

std::string adjoint::compileToLLVMIR(mlir::ModuleOp module,
                                     const std::string &function,
                                     const Target &target,
                                     const CompileOptions &options) {
  checkOptions(options);
  checkTarget(target);
  LLVMModule lowered = lowerToLLVMIR(module, function, target, options);
  return optimizedLLVMIR(*lowered.module, target.hostTarget(),
                         options.optLevel);
}

void compiler::checkOptions(const CompileOptions &options) {
  if (options.optLevel > 3)
    throw Error("compile: optLevel must be 0 to 3, got " +
                std::to_string(options.optLevel));
}

void compiler::checkTarget(const Target &target) {
  registerPipelines();
  if (!mlir::PassPipelineInfo::lookup(target.pipelineName()))
    throw Error(std::string("compile: target ") + target.kindName() +
                " is not supported yet (no pipeline -" +
                target.pipelineName() + ")");
}

Executable adjoint::compile(mlir::ModuleOp module, const std::string &function,
                            const Target &target,
                            const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  checkOptions(options);
  checkTarget(target);
  if (target.hostTarget().triple != hostTriple())
    throw Error("compile: the JIT runs code for the host (" + hostTriple() +
                "), not for " + target.triple +
                "; use compileToObject for other targets");
  std::string key = cacheKey(module, function, target, options);
  if (options.cache)
    if (auto program = memoryCacheLookup(key))
      return makeExecutable(program, CacheOutcome::MemoryHit, elapsed());

  bool fromDisk = false;
  std::string object =
      objectFor(module, function, target, options, key, fromDisk);
  std::string error;
  std::shared_ptr<Executable::Program> program =
      loadObject(object, function, error);
  if (!program && fromDisk) {
    // A stale or damaged entry that passed its checksum: rebuild it.
    diskCacheReject(cacheDirFor(options), key);
    object = objectFor(module, function, target, options, key, fromDisk);
    program = loadObject(object, function, error);
  }
  if (!program)
    throw Error("compile @" + function +
                ": internal error: the JIT cannot load the object: " + error);
  if (fromDisk)
    noteDiskHit();
  program->key = key;
  program->target = target;
  if (options.cache)
    memoryCacheInsert(key, program);
  return makeExecutable(std::move(program),
                        fromDisk ? CacheOutcome::DiskHit
                                 : CacheOutcome::Compiled,
                        elapsed());
}

Executable adjoint::compile(const api::Module &module,
                            const std::string &function, const Target &target,
                            const CompileOptions &options) {
  return compile(module.op(), function, target, options);
}

namespace {
/// The device a GPU executable runs on when the caller does not name one:
/// the one its device inputs are on, else device 0 of its kind.
rt::Status defaultDevice(const Executable::Program &program,
                         const std::vector<rt::Tensor> &inputs,
                         rt::Device **device) {
  *device = nullptr;
  for (const rt::Tensor &input : inputs) {
    if (input.isOnHost())
      continue;
    if (*device && &input.device() != *device)
      return rt::Status::error(
          rt::StatusCode::InvalidArgument,
          "inputs on two devices (" + (*device)->id() + " and " +
              input.device().id() + "); put them on one with device_put");
    *device = &input.device();
  }
  if (*device)
    return rt::Status::success();
  return rt::findDevice(std::string(targetKindName(program.target.kind)) +
                            ":0",
                        device);
}
} // namespace

rt::Status Executable::tryRun(const std::vector<rt::Tensor> &inputs,
                              std::vector<rt::Tensor> &outputs,
                              rt::InvokeStats *stats,
                              rt::Device *device) const {
  if (!program_)
    return rt::Status::error(rt::StatusCode::InvalidArgument,
                             "empty Executable (not made by compile())");
  const Program &program = *program_;
  if (program.target.kind == TargetKind::CPU) {
    if (device && device->kind() != rt::DeviceKind::CPU)
      return rt::Status::error(rt::StatusCode::InvalidArgument,
                               "compiled for the cpu, asked to run on " +
                                   device->id());
    return rt::invoke(program.entry, program.signature, inputs, outputs,
                      stats);
  }
  if (!device) {
    rt::Status status = defaultDevice(program, inputs, &device);
    if (!status.ok())
      return status;
  }
  if (rt::deviceKindName(device->kind()) !=
      std::string(targetKindName(program.target.kind)))
    return rt::Status::error(rt::StatusCode::InvalidArgument,
                             std::string("compiled for ") +
                                 targetKindName(program.target.kind) +
                                 ", asked to run on " + device->id());
  // Host inputs travel to the device (an explicit device_put keeps them
  // there across calls instead).
  std::vector<rt::Tensor> placed;
  placed.reserve(inputs.size());
  for (const rt::Tensor &input : inputs) {
    if (!input.valid() || &input.device() == device) {
      placed.push_back(input);
      continue;
    }
    try {
      placed.push_back(input.to(*device));
    } catch (const Error &e) {
      return rt::Status::error(rt::StatusCode::Internal, e.what());
    }
  }
  return rt::invoke(program.entry, program.signature, placed, outputs, stats,
                    device);
}

std::vector<rt::Tensor> Executable::run(const std::vector<rt::Tensor> &inputs,
                                        rt::Device *device) const {
  const Program &program = programOf(program_);
  std::vector<rt::Tensor> outputs;
  rt::Status status = tryRun(inputs, outputs, nullptr, device);
  if (!status.ok())
    throw Error("@" + program.function + ": " + status.toString());
  return outputs;
}

const Target &Executable::target() const { return programOf(program_).target; }

const std::string &Executable::function() const {
  return programOf(program_).function;
}

const rt::Signature &Executable::signature() const {
  return programOf(program_).signature;
}

const std::string &Executable::cacheKey() const {
  return programOf(program_).key;
}
