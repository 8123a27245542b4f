"""The `--plot` chart: adjoint's rate over each reference's, per workload,
as bars from the line at 1 on a log scale. matplotlib is imported only
here and only when a chart is asked for, as it is optional.
"""

import sys


def plot(records, refs, meta, path):
    """Grouped bars: adjoint's rate over each reference's, per workload."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("adjoint-bench: --plot needs matplotlib (pip install "
              "matplotlib; scripts/setup.sh installs it)", file=sys.stderr)
        return False
    names = [rec["workload"] for rec in records]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(names) + 2), 4.5))
    width = 0.8 / max(len(refs), 1)
    for j, ref in enumerate(refs):
        xs, ys = [], []
        for i, rec in enumerate(records):
            r = rec["ratios"].get(ref)
            if r:
                xs.append(i + (j - (len(refs) - 1) / 2) * width)
                ys.append(r)
        # From the line at 1: up when adjoint is faster, down when slower.
        bars = ax.bar(xs, [y - 1.0 for y in ys], width, bottom=1.0,
                      label="adjoint / " + ref)
        ax.bar_label(bars, labels=["%.3g" % y for y in ys], fontsize=7)
    for i, rec in enumerate(records):
        if rec["status"] != "ok":
            ax.text(i, 1.0, "FAIL", ha="center", va="bottom", color="red",
                    fontweight="bold")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    fmt = matplotlib.ticker.FormatStrFormatter("%g")
    ax.yaxis.set_major_formatter(fmt)
    ax.yaxis.set_minor_formatter(fmt)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("rate ratio (higher: adjoint faster)")
    size = records[0]["size_name"] if records else ""
    ax.set_title("adjoint-bench, size %s: %s, %s cores%s" % (
        size, meta.get("cpu", "?"), meta.get("cores_usable", "?"),
        "" if not meta.get("threads") else
        " (--threads %s)" % meta["threads"]), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True
