"""benchmarks/compile-time (docs/benchmarks.md): it finds a step's programs
without running them, also for a step that compiles two (ppo), and
compiles each for the CPU and every GPU target it is given, a target this
build cannot compile reported as such, not as a crash. Its numbers are a
benchmark's, not checked here."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "benchmarks",
                    "compile-time")


def test_rows_per_workload_and_target(tmp_path):
    out = tmp_path / "rows.json"
    run = subprocess.run(
        [sys.executable, TOOL, "--size", "tiny", "--select", "mlp,ppo",
         "--targets", "opencl,cuda:sm_90,nosuch", "--json", str(out)],
        capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = {r["workload"]: r for r in json.loads(out.read_text())}
    assert set(rows) == {"mlp", "ppo"}
    # ppo's step is a rollout and an update: two programs.
    assert rows["mlp"]["programs"] == 1
    assert rows["ppo"]["programs"] == 2
    for row in rows.values():
        assert row["cpu"] > 0
        opencl = row["opencl"]
        assert opencl["seconds"] > 0
        assert abs(opencl["ratio"] - opencl["seconds"] / row["cpu"]) < 1e-9
        # cuda compiles without a GPU where the build has a toolkit; either
        # way the row says what happened.
        assert "seconds" in row["cuda:sm_90"] or "error" in row["cuda:sm_90"]
        assert "error" in row["nosuch"]
    assert run.stdout.splitlines()[0].split()[:2] == ["workload", "cpu"]
