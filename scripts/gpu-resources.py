#!/usr/bin/env python3
"""The resources of the GPU kernels of the benchmark workloads' training
steps, per chip (docs/gpu-backend.md, "Kernel resources").

For each workload of benchmarks/adjoint_bench, the step the harness compiles
(protocol.make_step) is lowered to its adj module(s) at a size ("tiny" by
default), then, per chip, through adj-grad, adj-optimize and
adj-lower-to-hip{chip=...} or adj-lower-to-cuda{chip=...}; the embedded
kernel binaries are read the way the conformance tests read them:
`llvm-readelf --notes` for AMD code objects, `ptxas -v` on the fatbin's PTX
(from cuobjdump) for NVIDIA. Prints a markdown table, or JSON with --json.

    PYTHONPATH=build/python scripts/gpu-resources.py [--size tiny]
        [--workloads mlp,gemm] [--chips gfx90a,sm_90] [--json]
"""

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AMD_CHIPS = ("gfx90a", "gfx942", "gfx1100")
NVIDIA_CHIPS = ("sm_80", "sm_90")
LLVM_TOOLS = "/usr/lib/llvm-22/bin"
CUDA_TOOLKIT = "/opt/adjoint/cuda-toolkit/root"


def _load_extractor():
    # The test helper that decodes the binaries embedded in lowered IR
    # (its file name has dashes, so it is loaded by path).
    path = os.path.join(ROOT, "test", "Inputs", "extract-gpu-binaries.py")
    spec = importlib.util.spec_from_file_location("extract_gpu_binaries", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_extract = _load_extractor()


def is_amd(chip):
    return chip.startswith("gfx")


def pipeline(chip):
    lower = "adj-lower-to-hip" if is_amd(chip) else "adj-lower-to-cuda"
    return "adj-grad,adj-optimize,%s{chip=%s}" % (lower, chip)


# Workloads -----------------------------------------------------------------


def compiled_functions(workload, size):
    """[(JitFunction, args)]: the functions the workload's adjoint step
    compiles. A step that is one JitFunction is lowered for the first
    batch; a step that calls several (gemm's product, ppo's rollout and
    update) is run once on the CPU with its calls recorded, so that each
    gets the arguments the step really passes."""
    import adjoint
    from adjoint_bench import protocol

    problem = workload.problem(size)
    batch = problem.batches[0]
    step = protocol.make_step(workload, "adjoint", size)
    if isinstance(step, adjoint.JitFunction):
        return [(step, (problem.params, batch, problem.lr))]
    calls = []
    original = adjoint.JitFunction.__call__

    def recording(self, *args):
        calls.append((self, args))
        return original(self, *args)

    adjoint.JitFunction.__call__ = recording
    try:
        step(problem.params, batch, problem.lr)
    finally:
        adjoint.JitFunction.__call__ = original
    return calls


def lowered_ir(function, args, chip):
    import adjoint
    module = function.lower(*args)
    adjoint.run_passes(module, pipeline(chip))
    return str(module)


# Reading the binaries --------------------------------------------------------


def _integer(text):
    try:
        return int(text.strip())
    except ValueError:
        return None


AMD_FIELDS = {".name": "name", ".vgpr_count": "vgprs", ".agpr_count": "agprs",
              ".sgpr_count": "sgprs", ".vgpr_spill_count": "vgpr_spills",
              ".sgpr_spill_count": "sgpr_spills",
              ".group_segment_fixed_size": "lds",
              ".private_segment_fixed_size": "scratch"}


def parse_amd_notes(notes):
    """The kernels of `llvm-readelf --notes` on a code object: the YAML
    amdhsa.kernels list, each kernel an item at indent 2 whose fields are
    at indent 4 (deeper lines are its arguments)."""
    kernels = []
    in_kernels = False
    for line in notes.splitlines():
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        if not text:
            continue
        if indent == 0:
            in_kernels = text.rstrip() == "amdhsa.kernels:"
            continue
        if not in_kernels:
            continue
        if indent == 2 and text.startswith("- "):
            kernels.append({})
            text, indent = text[2:], 4
        if indent != 4 or not kernels:
            continue
        key, _, value = text.partition(":")
        field = AMD_FIELDS.get(key)
        if field == "name":
            kernels[-1]["name"] = value.strip()
        elif field:
            kernels[-1][field] = _integer(value)
    return kernels


def amd_kernels(data, folder):
    path = os.path.join(folder, "module.hsaco")
    with open(path, "wb") as f:
        f.write(data)
    notes = subprocess.run([os.path.join(LLVM_TOOLS, "llvm-readelf"),
                            "--notes", path], capture_output=True, text=True,
                           check=True).stdout
    kernels = parse_amd_notes(notes)
    if not kernels:
        raise RuntimeError("no amdhsa.kernels in a code object:\n" + notes)
    # .vgpr_count already counts the AGPRs on chips that have them (gfx90a
    # and gfx942 share one file of 512 between the two).
    return [{"name": k["name"], "registers": k["vgprs"],
             "sgprs": k["sgprs"], "shared": k["lds"],
             "spills": k["vgpr_spills"] + k["sgpr_spills"]} for k in kernels]


def parse_ptxas_report(report):
    """The kernels of `ptxas -v`: per "Compiling entry function 'k'", the
    stack frame / spill line, then "Used N registers, ..., N bytes smem"."""
    kernels = []
    current = None
    for line in report.splitlines():
        if "Compiling entry function '" in line:
            current = {"name": line.split("'")[1], "spills": 0, "shared": 0}
            continue
        if current is None:
            continue
        words = line.replace(",", " ").split()
        if "spill" in words:
            # "N bytes stack frame, N bytes spill stores, N bytes spill loads"
            current["spills"] = sum(int(words[i - 2]) for i, w in
                                    enumerate(words) if w == "spill")
        elif "Used" in words and "registers" in words:
            current["registers"] = int(words[words.index("Used") + 1])
            if "smem" in words:
                current["shared"] = int(words[words.index("smem") - 2])
            current["sgprs"] = None
            kernels.append(current)
            current = None
    return kernels


def nvidia_kernels(data, chip, folder):
    fatbin = os.path.join(folder, "module.fatbin")
    ptx = os.path.join(folder, "module.ptx")
    with open(fatbin, "wb") as f:
        f.write(data)
    bin_dir = os.path.join(CUDA_TOOLKIT, "bin")
    text = subprocess.run([os.path.join(bin_dir, "cuobjdump"), "-ptx", fatbin],
                          capture_output=True, text=True, check=True).stdout
    start = text.find(".version")
    if start < 0:
        raise RuntimeError("a fatbin without PTX:\n" + text)
    with open(ptx, "w") as f:
        f.write(text[start:])
    result = subprocess.run(
        [os.path.join(bin_dir, "ptxas"), "-v", "-O3", "-arch=" + chip, "-o",
         os.path.join(folder, "module.cubin"), ptx],
        capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("ptxas failed:\n" + result.stderr)
    return parse_ptxas_report(result.stdout + result.stderr)


def kernels_of(ir, chip):
    kernels = []
    with tempfile.TemporaryDirectory() as folder:
        for module, data in _extract.binaries(ir):
            found = amd_kernels(data, folder) if is_amd(chip) else \
                nvidia_kernels(data, chip, folder)
            # Kernels are named after their function, so the module (one
            # per kernel) tells them apart.
            for kernel in found:
                if len(found) == 1:
                    kernel["name"] = module
                else:
                    kernel["name"] = module + "." + kernel["name"]
            kernels += found
    return kernels


# The table -------------------------------------------------------------------


def summary(workload, chip, kernels, seconds):
    registers = [k["registers"] for k in kernels]
    sgprs = [k["sgprs"] for k in kernels if k["sgprs"] is not None]
    top = max(kernels, key=lambda k: k["registers"]) if kernels else None
    return {"workload": workload, "chip": chip, "kernels": len(kernels),
            "max_registers": max(registers, default=0),
            "median_registers": statistics.median(registers) if registers
            else 0,
            "max_sgprs": max(sgprs) if sgprs else None,
            "max_shared_bytes": max((k["shared"] for k in kernels), default=0),
            "spills": sum(k["spills"] for k in kernels),
            "top_kernel": top["name"] if top else "",
            "seconds": round(seconds, 1)}


def markdown(rows):
    head = ["workload", "chip", "kernels", "max VGPRs/regs", "median",
            "max SGPRs", "max LDS/smem B", "spills", "most registers"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if "error" in r:
            cells = [r["workload"], r["chip"], "error: " + r["error"]] + \
                [""] * (len(head) - 3)
        else:
            median = r["median_registers"]
            cells = [r["workload"], r["chip"], str(r["kernels"]),
                     str(r["max_registers"]), "%g" % median,
                     "-" if r["max_sgprs"] is None else str(r["max_sgprs"]),
                     str(r["max_shared_bytes"]), str(r["spills"]),
                     r["top_kernel"]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def available(chip):
    if is_amd(chip):
        return os.path.isdir("/opt/adjoint/rocm")
    return os.path.isfile(os.path.join(CUDA_TOOLKIT, "bin", "ptxas"))


def main():
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    from adjoint_bench.workloads import WORKLOADS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="tiny",
                        help="the workloads' size (tiny, cpu, gpu)")
    parser.add_argument("--workloads", default=",".join(WORKLOADS),
                        help="comma-separated workload names")
    parser.add_argument("--chips", default=",".join(AMD_CHIPS + NVIDIA_CHIPS),
                        help="comma-separated gfx* (HIP) and sm_* (CUDA)")
    parser.add_argument("--json", action="store_true",
                        help="print the rows as JSON instead of a table")
    args = parser.parse_args()

    from adjoint_bench import protocol
    names = [n for n in args.workloads.split(",") if n]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error("unknown workload(s) %s; known: %s"
                     % (", ".join(unknown), ", ".join(WORKLOADS)))
    chips = [c for c in args.chips.split(",") if c]
    for chip in chips:
        if not (is_amd(chip) or chip.startswith("sm_")):
            parser.error("chip %r is neither gfx* nor sm_*" % chip)
        if not available(chip):
            parser.error("chip %s: its toolkit is not installed" % chip)

    rows = []
    for name in names:
        workload = WORKLOADS[name]
        size = protocol.resolve_size(workload, args.size)
        functions = compiled_functions(workload, size)
        for chip in chips:
            start = time.time()
            try:
                kernels = []
                for function, call_args in functions:
                    kernels += kernels_of(
                        lowered_ir(function, call_args, chip), chip)
                rows.append(summary(name, chip, kernels, time.time() - start))
            except Exception as e:  # noqa: BLE001 - reported in the table
                first = str(e).strip().splitlines() or [type(e).__name__]
                rows.append({"workload": name, "chip": chip,
                             "error": first[0][:200]})
            print("%s %s: %.1f s" % (name, chip, time.time() - start),
                  file=sys.stderr, flush=True)
    print(json.dumps(rows, indent=1) if args.json else markdown(rows))
    sys.exit(1 if any("error" in r for r in rows) else 0)


if __name__ == "__main__":
    main()
