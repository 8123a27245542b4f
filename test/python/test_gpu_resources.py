"""scripts/gpu-resources.py: its readers of llvm-readelf's AMDGPU notes and
of ptxas -v, and a run on the mlp workload for one AMD and one NVIDIA chip
(each skipped where its toolkit is not installed)."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "gpu-resources.py")

_spec = importlib.util.spec_from_file_location("gpu_resources", SCRIPT)
gpu_resources = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gpu_resources)

# Two kernels as llvm-readelf prints them; the second's arguments and
# .reqd_workgroup_size are list items deeper than the kernel's fields.
NOTES = """Displaying notes found in: .note
    AMDGPU Metadata:
        ---
amdhsa.kernels:
  - .agpr_count:     4
    .args:
      - .offset:         0
        .size:           8
    .group_segment_fixed_size: 512
    .name:           first
    .sgpr_count:     11
    .sgpr_spill_count: 1
    .vgpr_count:     30
    .vgpr_spill_count: 2
  - .agpr_count:     0
    .group_segment_fixed_size: 0
    .name:           second
    .reqd_workgroup_size:
      - 256
    .sgpr_count:     20
    .sgpr_spill_count: 0
    .vgpr_count:     7
    .vgpr_spill_count: 0
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
...
"""

PTXAS = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k0' for 'sm_80'
ptxas info    : Function properties for k0
    16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 4224 bytes smem, 360 bytes cmem[0]
ptxas info    : Compiling entry function 'k1' for 'sm_80'
ptxas info    : Function properties for k1
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 6 registers, used 0 barriers, 360 bytes cmem[0]
"""


def test_amd_notes():
    kernels = gpu_resources.parse_amd_notes(NOTES)
    assert [k["name"] for k in kernels] == ["first", "second"]
    assert kernels[0] == {"name": "first", "agprs": 4, "lds": 512,
                          "sgprs": 11, "sgpr_spills": 1, "vgprs": 30,
                          "vgpr_spills": 2}
    assert (kernels[1]["vgprs"], kernels[1]["sgprs"]) == (7, 20)


def test_ptxas_report():
    kernels = gpu_resources.parse_ptxas_report(PTXAS)
    assert [(k["name"], k["registers"], k["shared"], k["spills"])
            for k in kernels] == [("k0", 40, 4224, 20), ("k1", 6, 0, 0)]


def test_summary_and_table():
    kernels = [{"name": "a", "registers": 10, "sgprs": 5, "shared": 0,
                "spills": 1},
               {"name": "b", "registers": 30, "sgprs": 9, "shared": 64,
                "spills": 2},
               {"name": "c", "registers": 20, "sgprs": 7, "shared": 8,
                "spills": 0}]
    row = gpu_resources.summary("w", "gfx90a", kernels, 1.0)
    assert (row["kernels"], row["max_registers"], row["median_registers"],
            row["max_sgprs"], row["max_shared_bytes"], row["spills"],
            row["top_kernel"]) == (3, 30, 20, 9, 64, 3, "b")
    table = gpu_resources.markdown([row])
    assert table.splitlines()[2] == "| w | gfx90a | 3 | 30 | 20 | 9 | 64 | 3 | b |"


def run_mlp(chip):
    result = subprocess.run(
        [sys.executable, SCRIPT, "--workloads", "mlp", "--chips", chip,
         "--json"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    (row,) = json.loads(result.stdout)
    return row


@pytest.mark.skipif(not os.path.isdir("/opt/adjoint/rocm"),
                    reason="no ROCm at /opt/adjoint/rocm")
def test_mlp_on_gfx90a():
    row = run_mlp("gfx90a")
    # The mlp step has elementwise kernels and matmuls, whose tiles are in
    # LDS; every kernel uses VGPRs and SGPRs.
    assert row["chip"] == "gfx90a" and row["kernels"] > 1
    assert 0 < row["median_registers"] <= row["max_registers"] <= 512
    assert 0 < row["max_sgprs"] <= 106
    assert 0 < row["max_shared_bytes"] <= 64 * 1024
    assert row["spills"] == 0
    assert row["top_kernel"].startswith("step_kernel")


@pytest.mark.skipif(
    not os.path.isfile(os.path.join(gpu_resources.CUDA_TOOLKIT, "bin",
                                    "ptxas")),
    reason="no CUDA toolkit")
def test_mlp_on_sm_90():
    row = run_mlp("sm_90")
    assert row["chip"] == "sm_90" and row["kernels"] > 1
    assert 0 < row["median_registers"] <= row["max_registers"] <= 255
    assert row["max_sgprs"] is None
    assert 0 < row["max_shared_bytes"] <= 48 * 1024
    assert row["spills"] == 0
