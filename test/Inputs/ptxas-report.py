"""Runs `ptxas -v` on the PTX of every gpu.binary in MLIR on stdin
(gpu-module-to-binary{format=isa}): `ptxas-report.py PTXAS ARCH`. Prints,
per module, `module <name>` and ptxas' report (registers, stack frame,
spill stores and loads, shared memory per kernel); exits 1 when ptxas
refuses one."""
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

_spec = importlib.util.spec_from_file_location(
    "extract_gpu_binaries",
    os.path.join(os.path.dirname(__file__), "extract-gpu-binaries.py"))
_extract = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_extract)


def main():
    ptxas, arch = sys.argv[1], sys.argv[2]
    pattern = re.compile(
        r'gpu\.binary @(\w+)\s*\[.*?assembly = "((?:[^"\\]|\\.)*)"')
    failed = False
    for name, body in pattern.findall(sys.stdin.read()):
        with tempfile.TemporaryDirectory() as folder:
            ptx = os.path.join(folder, name + ".ptx")
            with open(ptx, "wb") as f:
                f.write(_extract.unescape(body))
            result = subprocess.run(
                [ptxas, "-v", "-O3", "-arch=" + arch, "-o",
                 os.path.join(folder, name + ".cubin"), ptx],
                capture_output=True, text=True)
        print(f"module {name}")
        print(result.stdout + result.stderr, end="")
        failed |= result.returncode != 0
    sys.exit(1 if failed else 0)


main()
