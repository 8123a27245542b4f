"""From the children's raw results to the records (docs/benchmarks.md):
Milabench's summary of the rates, the checks of a run, the agreement of
adjoint's losses with a reference's, and the scores.

A workload fails (score 0 in the suite) when adjoint's run fails (an
exception, a crash, a timeout), when its loss is not finite or does not
decrease (the loss of batches[0] after training must be lower than at step
0), or when the first 5 losses of adjoint and of a reference disagree
(relative 1e-4). The suite score is Milabench's weighted geometric mean
`exp(sum w log(score + 1) / sum w)` over the workloads (`suite_score`).

All pure functions of the results, so that `--report` can score a saved
run again (`suite_record` with other weights) and test_bench_protocol.py
can test them without running anything.
"""

import math

from .protocol import REFERENCES

#: Milabench drops the min and the max of the rates from this many samples.
DROP_MIN_SAMPLES = 5
#: The losses compared between adjoint and each reference, and the tolerance.
AGREE_COUNT = 5
AGREE_RTOL = 1e-4
AGREE_ATOL = 1e-7


def summarize(rates):
    """Milabench's summary of per-step rates: the min and the max are
    dropped when there are at least 5 samples; mean, population std, sem,
    and the number kept. None when there are no rates."""
    xs = sorted(float(r) for r in rates)
    if not xs:
        return None
    kept = xs[1:-1] if len(xs) >= DROP_MIN_SAMPLES else xs
    n = len(kept)
    mean = sum(kept) / n
    std = math.sqrt(sum((x - mean) ** 2 for x in kept) / n)
    return {"mean": mean, "std": std, "sem": std / math.sqrt(n), "n": n,
            "dropped": len(xs) - n, "min": xs[0], "max": xs[-1],
            "median": _median(xs)}


def _median(xs):
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def is_finite(values):
    return all(v is not None and math.isfinite(v) for v in values)


def check_run(run, train=True, decreases=True):
    """The problems with one implementation's run (a list of strings,
    empty when it passes): it must have finished, its recorded values must
    be finite and, for a training workload whose loss should fall, the loss
    of batches[0] after training must be below its loss at step 0."""
    if run.get("status") != "ok":
        return [run.get("error") or "did not run"]
    values = run.get("values") or []
    if not values:
        return ["no step ran"]
    if not is_finite(values):
        return ["non-finite values: %s" % _fmt_list(values)]
    if train and decreases:
        final = run.get("final_first_batch")
        if final is None or not math.isfinite(final):
            return ["non-finite final loss %r" % final]
        if not final < values[0]:
            return ["the loss did not decrease: %.7g at step 0, %.7g on the "
                    "same batch after %d steps" % (values[0], final,
                                                   len(values))]
    return []


def agreement(ours, ref, count=AGREE_COUNT, rtol=AGREE_RTOL, atol=AGREE_ATOL):
    """Whether the first `count` values of two runs agree:
    |a - r| <= rtol * max(|a|, |r|) + atol, elementwise. Returns a dict with
    ok, the values compared and the largest relative difference."""
    k = min(count, len(ours), len(ref))
    a, r = list(ours[:k]), list(ref[:k])
    if k == 0:
        return {"ok": False, "compared": 0, "max_rel_diff": None,
                "adjoint": a, "reference": r, "reason": "no values"}
    ok, worst = True, 0.0
    for x, y in zip(a, r):
        if x is None or y is None or not (math.isfinite(x) and
                                          math.isfinite(y)):
            ok, worst = False, math.inf
            continue
        scale = max(abs(x), abs(y))
        diff = abs(x - y)
        worst = max(worst, diff / scale if scale else 0.0)
        ok = ok and diff <= rtol * scale + atol
    return {"ok": ok, "compared": k, "max_rel_diff": worst,
            "adjoint": a, "reference": r}


def suite_score(scores, weights):
    """Milabench's suite score: exp(sum w log(s + 1) / sum w) over the
    workloads, s their score (the mean rate, 0 when failed). `scores` and
    `weights` are dicts by workload name; None when the weights sum to 0."""
    total = sum(weights[name] for name in scores)
    if total <= 0:
        return None
    acc = sum(weights[name] * math.log(max(s, 0.0) + 1.0)
              for name, s in scores.items())
    return math.exp(acc / total)


def ratio_score(ratios, weights):
    """The weighted geometric mean of ratios (ours / a reference's) over the
    workloads that have one (None for none)."""
    pairs = [(weights[n], r) for n, r in ratios.items()
             if r is not None and r > 0 and weights[n] > 0]
    total = sum(w for w, _ in pairs)
    if not total:
        return None
    return math.exp(sum(w * math.log(r) for w, r in pairs) / total)


def _fmt_list(values):
    return "[" + ", ".join("%.7g" % v if v is not None else "None"
                           for v in values) + "]"


def evaluate(workload, size_name, size, runs, weight=None):
    """The record of one workload from its runs (impl -> the child's
    result with `peak_rss_mb`): summaries, checks, loss agreement with each
    reference, ratios, status and score. Pure: used by the harness and to
    re-evaluate saved runs."""
    weight = workload.weight if weight is None else weight
    failures, ref_errors = [], []
    impls = {}
    for impl, run in runs.items():
        run = dict(run)
        if run.get("status") == "ok":
            run["summary"] = summarize(run.get("rates") or [])
        problems = [] if run.get("status") == "n/a" and impl != "adjoint" \
            else check_run(run, workload.train, workload.loss_decreases)
        run["problems"] = problems
        impls[impl] = run
        if problems:
            (failures if impl == "adjoint" else ref_errors).append(
                "%s: %s" % (impl, "; ".join(problems)))
    ours = impls.get("adjoint", {})
    agree, ratios = {}, {}
    for impl, run in impls.items():
        if impl == "adjoint":
            continue
        if run.get("status") == "n/a":
            agree[impl] = {"ok": None, "reason": run.get("error", "n/a")}
            continue
        if ours.get("status") != "ok" or run.get("status") != "ok":
            agree[impl] = {"ok": None, "reason": "not run"}
        else:
            agree[impl] = agreement(ours["values"], run["values"])
            if not agree[impl]["ok"]:
                failures.append(
                    "%s: the first %d %s disagree (rel %.2g > %g): adjoint "
                    "%s, %s %s" % (impl, agree[impl]["compared"],
                                   "losses" if workload.train else "values",
                                   agree[impl]["max_rel_diff"], AGREE_RTOL,
                                   _fmt_list(agree[impl]["adjoint"]), impl,
                                   _fmt_list(agree[impl]["reference"])))
        s, r = ours.get("summary"), run.get("summary")
        ratios[impl] = (s["mean"] / r["mean"] if s and r and r["mean"] > 0
                        else None)
    status = "failed" if failures else "ok"
    summary = ours.get("summary")
    return {
        "record": "workload",
        "workload": workload.name,
        "unit": workload.unit,
        "derived_from": workload.derived_from,
        "weight": weight,
        "train": workload.train,
        "size_name": size_name,
        "size": size,
        "status": status,
        "failures": failures,
        "reference_errors": ref_errors,
        "score": summary["mean"] if status == "ok" and summary else 0.0,
        "ratios": ratios,
        "agreement": agree,
        "implementations": impls,
    }


def suite_record(records, weights, meta):
    """The suite's record (the last JSON line) from the workloads' records:
    the score with `weights` over the records' own, the failed workloads,
    and the geometric mean of adjoint's ratio over each reference."""
    w = {rec["workload"]: weights.get(rec["workload"], rec["weight"])
         for rec in records}
    scores = {rec["workload"]: rec["score"] for rec in records}
    refs = sorted({r for rec in records for r in rec["ratios"]},
                  key=REFERENCES.index)
    return {
        "record": "suite",
        "score": suite_score(scores, w),
        "weights": w,
        "failed": [rec["workload"] for rec in records
                   if rec["status"] != "ok"],
        "ratio_scores": {r: ratio_score(
            {rec["workload"]: rec["ratios"].get(r) for rec in records
             if rec["status"] == "ok"}, w) for r in refs},
        "metadata": meta,
    }
