"""Writes the kernel modules that -adj-gpu-launch-to-runtime embeds
(llvm.mlir.global @__adj_gpu_data_<module>("...")) to <dir>/<module>.bin, so
that tests can count them, and runs the validator given after the folder
(`extract-gpu-binaries.py DIR spirv-val --target-env spv1.3`) on each;
exits 1 when one fails."""
import re
import subprocess
import sys


def unescape(text):
    # MLIR prints string attributes with printable ASCII as is, '\\' and '"'
    # escaped, everything else as \XX (two hex digits).
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            nxt = text[i + 1]
            if nxt in "\\\"":
                out.append(ord(nxt))
                i += 2
            elif nxt == "n":
                out.append(10)
                i += 2
            elif nxt == "t":
                out.append(9)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.append(ord(c))
            i += 1
    return bytes(out)


def binaries(ir):
    """(module name, bytes) of every kernel module embedded in `ir`."""
    pattern = re.compile(r'@__adj_gpu_data_(\w+)\("((?:[^"\\]|\\.)*)"\)')
    return [(name, unescape(body)) for name, body in pattern.findall(ir)]


def main():
    out_dir, validator = sys.argv[1], sys.argv[2:]
    count = 0
    failed = 0
    for name, data in binaries(sys.stdin.read()):
        path = f"{out_dir}/{name}.bin"
        with open(path, "wb") as f:
            f.write(data)
        count += 1
        if validator and subprocess.run(validator + [path]).returncode != 0:
            print(f"invalid: {name}")
            failed += 1
    print(f"extracted {count} modules")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
