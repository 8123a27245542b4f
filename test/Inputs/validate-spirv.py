"""Serializes every spirv.module in the MLIR read from stdin (mlir-translate
--serialize-spirv) and validates it with spirv-val; prints one line per
module and exits non-zero when any is invalid. Usage:
  ... | python3 validate-spirv.py <scratch dir>"""
import os
import re
import subprocess
import sys


def modules(text):
    """The text of each spirv.module op, braces matched."""
    for match in re.finditer(r"spirv\.module @(\w+)", text):
        depth, i = 0, text.index("{", match.start())
        while True:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        yield match.group(1), text[match.start():i + 1]


def main():
    scratch = sys.argv[1]
    os.makedirs(scratch, exist_ok=True)
    failed = 0
    for name, body in modules(sys.stdin.read()):
        src, spv = (os.path.join(scratch, name + ext) for ext in (".mlir", ".spv"))
        with open(src, "w") as f:
            f.write(body + "\n")
        steps = [["mlir-translate", "--no-implicit-module", "--serialize-spirv", src, "-o", spv],
                 ["spirv-val", spv]]
        for step in steps:
            run = subprocess.run(step, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{name}: {step[0]} failed:\n{run.stdout}{run.stderr}")
                failed += 1
                break
        else:
            print(f"{name}: valid")
    sys.exit(1 if failed else 0)


main()
