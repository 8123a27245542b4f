"""The text the harness prints at the end of a run and for `--report`:
the table per workload (adjoint's rate, compile time, peak memory, and its
ratio over each reference with the agreement), the table of every
implementation's numbers, the failures, and the score. It reads only the
records (stats.py), so a saved run prints as it did when it ran.
"""

from .stats import AGREE_COUNT, AGREE_RTOL


def _num(x):
    if x is None:
        return "-"
    ax = abs(x)
    if ax >= 1e5:
        return "%.3g" % x
    if ax >= 100:
        return "%.0f" % x
    if ax >= 10:
        return "%.1f" % x
    return "%.3g" % x


def _rate(run):
    s = run.get("summary") if run else None
    if not s:
        return "-"
    return "%s ± %s" % (_num(s["mean"]), _num(s["std"]))


def _mb(x):
    return "-" if x is None else "%.0f MB" % x


def _cell(rec, ref):
    run = rec["implementations"].get(ref)
    if run is None:
        return "-"
    if run.get("status") == "n/a":
        return "n/a"
    if run.get("status") != "ok" or run.get("problems"):
        return "error"
    ratio = rec["ratios"].get(ref)
    agree = rec["agreement"].get(ref, {}).get("ok")
    return "%s %s" % ("-" if ratio is None else "%.3gx" % ratio,
                      {True: "OK", False: "FAIL", None: "?"}[agree])


def _table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    lines = [fmt % tuple(header), fmt % tuple("-" * w for w in widths)]
    lines += [fmt % tuple(r) for r in rows]
    return "\n".join(l.rstrip() for l in lines)


def render(records, suite, refs):
    """The tables and the score as text."""
    out = []
    meta = records[0].get("metadata", {}) if records else {}
    if meta.get("device"):
        out.append("Adjoint on %s (%s), references on %s, f32 matmul "
                   "precision: %s" % (meta["device"],
                                      meta.get("device_name") or "?",
                                      meta.get("reference_device", "cpu"),
                                      meta.get("precision", "highest")))
        out.append("")
    head = ["workload", "status", "adjoint rate (mean ± std)", "unit",
            "compile", "peak RSS"] + ["vs %s" % r for r in refs]
    rows = []
    for rec in records:
        ours = rec["implementations"].get("adjoint", {})
        rows.append([rec["workload"], rec["status"].upper()
                     if rec["status"] != "ok" else "ok", _rate(ours),
                     rec["unit"],
                     "-" if ours.get("compile_s") is None
                     else "%.2f s" % ours["compile_s"],
                     _mb(ours.get("peak_rss_mb"))]
                    + [_cell(rec, r) for r in refs])
    out.append(_table(head, rows))
    out.append("")
    out.append("vs X: adjoint's mean rate / X's mean rate in this run; "
               "OK/FAIL: the first %d %s agree to rel %g."
               % (AGREE_COUNT, "losses", AGREE_RTOL))
    # Every implementation's numbers.
    impls = ["adjoint"] + list(refs)
    head = ["workload", "implementation", "rate (mean ± std)", "n",
            "first step", "peak RSS"]
    rows = []
    for rec in records:
        for impl in impls:
            run = rec["implementations"].get(impl)
            if run is None:
                continue
            s = run.get("summary")
            rows.append([rec["workload"], impl,
                         _rate(run) + " " + rec["unit"]
                         if s else run.get("status", "-"),
                         s["n"] if s else "-",
                         "-" if run.get("compile_s") is None
                         else "%.2f s" % run["compile_s"],
                         _mb(run.get("peak_rss_mb"))])
    out.append("")
    out.append(_table(head, rows))
    problems = [(rec["workload"], f) for rec in records
                for f in rec["failures"]] + \
               [(rec["workload"], "(reference) " + f) for rec in records
                for f in rec["reference_errors"]]
    if problems:
        out.append("")
        out.append("Failures:")
        for name, f in problems:
            out.append("  %s: %s" % (name, f))
    out.append("")
    failed = sum(rec["status"] != "ok" for rec in records)
    out.append("Score (Milabench: exp(sum w log(rate + 1) / sum w) over "
               "adjoint's rates): %s; %d workload(s), %d failed"
               % ("-" if suite["score"] is None else "%.4g" % suite["score"],
                  len(records), failed))
    for ref, value in suite["ratio_scores"].items():
        if value is not None:
            out.append("Geometric mean of adjoint / %s: %.3gx" % (ref, value))
    return "\n".join(out)
