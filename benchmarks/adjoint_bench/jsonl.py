"""The `--json` file: JSON lines, one workload record per line as each
workload finishes (so that an interrupted run keeps what it measured),
then the suite's record (stats.py makes both); `--report` reads it back.
"""

import json
import math


def _clean(x):
    """Non-finite floats as null (JSON has no NaN)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x


def write_json_line(f, obj):
    """One record as one line, flushed at once, so that the file holds every
    workload finished so far even when the run is interrupted."""
    f.write(json.dumps(_clean(obj), sort_keys=False) + "\n")
    f.flush()


def read_records(path):
    """The workload records of a saved run and the metadata of the last
    one; the suite's record is left out, as `--report` scores it again."""
    records, meta = [], {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            if obj.get("record") == "workload":
                records.append(obj)
                meta = obj.get("metadata", meta)
    return records, meta
