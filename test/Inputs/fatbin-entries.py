"""Lists the entries of a CUDA fatbin (`fatbin-entries.py FILE`): one line
per entry, `cubin sm_90 <bytes>` or `ptx sm_90 <bytes>`; exits 1 when the
file is not a fatbin or holds no cubin or no PTX (-adj-lower-to-cuda embeds
both, so that a newer GPU can JIT the PTX)."""
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KINDS = {1: "ptx", 2: "cubin"}


def main():
    data = open(sys.argv[1], "rb").read()
    if len(data) < 16:
        print("not a fatbin: too short")
        sys.exit(1)
    magic, _, header, total = struct.unpack_from("<IHHQ", data, 0)
    if magic != FATBIN_MAGIC or header + total > len(data):
        print("not a fatbin")
        sys.exit(1)
    seen = set()
    offset = header
    while offset < header + total:
        # Entry header: kind, (unused), header size, payload size, then at
        # byte 28 the SM architecture (90 for sm_90).
        kind, _, entry_header, size = struct.unpack_from("<HHIQ", data, offset)
        (arch,) = struct.unpack_from("<I", data, offset + 28)
        name = KINDS.get(kind, f"kind{kind}")
        print(f"{name} sm_{arch} {size}")
        if size:
            seen.add(name)
        offset += entry_header + size
    sys.exit(0 if {"ptx", "cubin"} <= seen else 1)


main()
