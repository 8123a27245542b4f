# lit configuration of Adjoint's FileCheck tests.
import os

import lit.formats

config.name = "Adjoint"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "unit", "python", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.adjoint_obj_root, "test")

# Our tools first, then FileCheck, not and count from LLVM.
config.environment["PATH"] = os.pathsep.join(
    [config.adjoint_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# Execution tests JIT lowered code with MLIR's runner and its support libraries.
config.substitutions.append(("%mlir_runner", os.path.join(config.llvm_tools_dir, "mlir-runner")))
config.substitutions.append(("%mlir_lib_dir", os.path.normpath(os.path.join(config.llvm_tools_dir, "..", "lib"))))
# The runtime (pool allocator, kernels) for lowered code run by mlir-runner.
config.substitutions.append(("%adj_runtime_lib", os.path.join(config.adjoint_obj_root, "lib", "libadjoint_runtime.so")))
# ir-run --compile caches compiled objects: keep them in the build tree.
config.environment["ADJOINT_CACHE_DIR"] = os.path.join(config.test_exec_root, "adjoint-cache")
# GPU tests extract embedded kernel binaries with a script and validate the
# SPIR-V ones with spirv-val (Debian's spirv-tools).
import shutil
import sys
config.substitutions.append(("%python", sys.executable))
if shutil.which("spirv-val"):
    config.available_features.add("spirv-tools")
# NVIDIA tests that serialize cubins (ptxas) or link math functions
# (libdevice) need the CUDA toolkit folder of the build (ADJOINT_CUDA_TOOLKIT,
# arranged from PyPI wheels by scripts/setup.sh).
config.substitutions.append(("%cuda_toolkit", config.cuda_toolkit))
if config.cuda_toolkit and os.path.exists(
        os.path.join(config.cuda_toolkit, "bin", "ptxas")) and os.path.exists(
        os.path.join(config.cuda_toolkit, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("cuda-toolkit")
    # scripts/setup.sh installs it next to ptxas: a test that lists fatbins
    # with NVIDIA's own reader fails without it rather than being skipped.
    config.substitutions.append(
        ("%cuobjdump", os.path.join(config.cuda_toolkit, "bin", "cuobjdump")))
# AMD tests that link code objects (ld.lld) or math functions (ocml) need
# the ROCm folder of the build (ADJOINT_ROCM_PATH, arranged from Debian's
# lld-22 and rocm-device-libs by scripts/setup.sh).
config.substitutions.append(("%rocm_path", config.rocm_path))
if config.rocm_path and os.path.exists(
        os.path.join(config.rocm_path, "llvm", "bin", "ld.lld")) and os.path.exists(
        os.path.join(config.rocm_path, "amdgcn", "bitcode", "ocml.bc")):
    config.available_features.add("rocm-device-libs")
