#!/usr/bin/env python3
"""How much of the between-process variance do the BASE and HEAD runs of one block share?

Reads the A/A comparisons `calibrate/spread.sh` wrote (`fixed-CONDITION-REP.json`, cargo-speedup's JSON
report with the runs behind every benchmark) and measures, per condition, the correlation of the log levels
of the two runs of one block: block b runs BASE's and HEAD's executable of a bench target back to back, in
an order drawn from the seed (`src/measure/run/`), so run b of each side's `samples.*.runs` is block b's
(a fixed comparison whose run counts differ between the sides had a failed run and is skipped).

Printed per condition (`docs/replication.md` §7 has the figures and the design decision they back):

- `pairs`: blocks (pairs of runs) over all comparisons and benchmarks;
- `rho`: the correlation of the log levels of one block's two runs, pooled per comparison and benchmark by
  Fisher's z (the mean of atanh r weighted by n - 3), with its 95 % interval. The benchmarks of one bench
  target run in the same processes, so their correlations are not independent: the interval `ci(target)`
  counts each comparison once (n - 3 of its first benchmark), which is conservative; `ci(all)` treats
  every benchmark as independent;
- `rho(detrended)`: the same after removing each side's straight-line trend over the blocks, i.e. the share
  that is not slow drift common to the whole comparison;
- `var-ratio`: the variance of the within-block difference of log levels over the sum of the two sides'
  variances (1 - rho when both sides are equally noisy): the factor by which pairing by block would shrink
  the variance of a mean difference, so 1 / var-ratio is how many times fewer runs a paired test needs;
- `sd-%`: the median over benchmarks of the between-process standard deviation of the log levels, in %;
- `unchanged(paired)`, `unchanged(indep)`: benchmark comparisons shown unchanged within +-2 % by the paired
  design (the 90 % Walsh interval of the block log ratios, exact signed-rank law) and by the independent
  one (the 90 % Hodges-Lehmann interval of the two sides, exact rank-sum law); `called(...)`: those the
  two-sided test at 0.05 calls different (A/A: false verdicts). Exact laws without ties, as for run values
  that are medians of samples; the tool's own tests (`src/stats/`) handle ties.

    calibrate/pairing.py OUT_DIR [OUT_DIR ...]

Needs python3 only. Exit 0 when done, 2 when a directory holds no usable report.
"""

import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

Z975 = 1.959964


def log_levels(side):
    """The log of each run's median (the run's value, as cargo-speedup takes it)."""
    return [math.log(statistics.median(run)) for run in side["runs"]]


def detrend(xs):
    n = len(xs)
    t = list(range(n))
    mt, mx = (n - 1) / 2, sum(xs) / n
    stt = sum((i - mt) ** 2 for i in t)
    slope = sum((i - mt) * (x - mx) for i, x in zip(t, xs)) / stt if stt else 0.0
    return [x - mx - slope * (i - mt) for i, x in zip(t, xs)]


def corr(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    if saa == 0 or sbb == 0:
        return None
    return sab / math.sqrt(saa * sbb)


def var(xs):
    return statistics.variance(xs)


def _counts(weights):
    """Null distribution counts of a sum of distinct ranks (signed-rank: weights 1..n)."""
    top = sum(weights)
    c = [0] * (top + 1)
    c[0] = 1
    for w in weights:
        for v in range(top, w - 1, -1):
            c[v] += c[v - w]
    return c


def _rank_sum_counts(n, m):
    """Counts of the Mann-Whitney U over all C(n+m, n) arrangements (no ties)."""
    # f[i][j][u]: arrangements of i x's and j y's with U = u.
    f = [[None] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0 or j == 0:
                f[i][j] = [1]
                continue
            a, b = f[i - 1][j], f[i][j - 1]
            size = i * j + 1
            row = [0] * size
            for u, c in enumerate(a):  # the largest value is an x: it beats the j y's
                row[u + j] += c
            for u, c in enumerate(b):
                row[u] += c
            f[i][j] = row
    return f[n][m]


def _lower_rank(counts, tail):
    """The smallest v with P(S <= v) >= tail (1 if that is 0): the rank of the interval's lower end."""
    total = sum(counts)
    acc = 0
    for v, c in enumerate(counts):
        acc += c
        if acc / total >= tail:
            return max(v, 1)
    return len(counts) - 1


def paired_decisions(d, alpha=0.05, margin=math.log(1.02)):
    """Exact signed-rank test (two-sided) and the (1 - 2 alpha) Walsh interval of d (no ties assumed):
    (called different, shown within +-margin)."""
    n = len(d)
    counts = _counts(list(range(1, n + 1)))
    total = 2**n
    ranks = {v: i + 1 for i, v in enumerate(sorted(d, key=abs))}
    v = sum(ranks[x] for x in d if x > 0)
    lower = sum(counts[: int(v) + 1]) / total
    upper = sum(counts[int(v):]) / total
    p = min(1.0, 2 * min(lower, upper))
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    q = _lower_rank(counts, alpha)
    lo, hi = walsh[q - 1], walsh[len(walsh) - q]
    return p < alpha, (lo > -margin and hi < margin)


def independent_decisions(x, y, alpha=0.05, margin=math.log(1.02)):
    """Exact rank-sum test (two-sided) and the (1 - 2 alpha) Hodges-Lehmann interval of y - x."""
    n, m = len(y), len(x)
    counts = _rank_sum_counts(n, m)
    total = sum(counts)
    u = sum(1 for a in y for b in x if a > b)
    lower = sum(counts[: u + 1]) / total
    upper = sum(counts[u:]) / total
    p = min(1.0, 2 * min(lower, upper))
    diffs = sorted(a - b for a in y for b in x)
    q = _lower_rank(counts, alpha)
    lo, hi = diffs[q - 1], diffs[len(diffs) - q]
    return p < alpha, (lo > -margin and hi < margin)


def pooled(rows, key):
    """Fisher-z pooled correlation with its 95 % intervals (all benchmarks independent; one per target
    and comparison)."""
    num = den = 0.0
    per_cmp = {}
    for r in rows:
        if r[key] is None:
            continue
        w = r["n"] - 3
        z = math.atanh(max(min(r[key], 0.999999), -0.999999))
        num += w * z
        den += w
        per_cmp.setdefault((r["file"], r["target"]), w)
    if den == 0:
        return None
    z = num / den
    w_cmp = sum(per_cmp.values())

    def ci(w):
        h = Z975 / math.sqrt(w)
        return (math.tanh(z - h), math.tanh(z + h))

    return math.tanh(z), ci(den), ci(w_cmp)


def rows_of(path):
    report = json.loads(path.read_text())
    stem = path.stem  # fixed-CONDITION-REP
    condition = stem[len("fixed-"):].rsplit("-", 1)[0]
    out = []
    for b in report.get("benchmarks", []):
        s = b.get("samples")
        if not s or s.get("unit") != "ns":
            continue
        base, head = log_levels(s["base"]), log_levels(s["head"])
        if len(base) != len(head) or len(base) < 6:
            continue
        d = [h - x for x, h in zip(base, head)]
        out.append({
            "file": str(path), "condition": condition, "benchmark": b["name"],
            # The bench target: criterion and divan names' first path segment is the group, not the
            # target; the target is not in the report, so one comparison counts as one target here.
            "target": "",
            "n": len(base),
            "r": corr(base, head),
            "r_detrended": corr(detrend(base), detrend(head)),
            "var_ratio": var(d) / (var(base) + var(head)) if var(base) + var(head) > 0 else None,
            "paired": paired_decisions(d),
            "independent": independent_decisions(base, head),
            "sd_pct": 100 * statistics.median([math.sqrt(var(base)), math.sqrt(var(head))]),
        })
    return out


def main(dirs):
    rows = []
    for d in dirs:
        for path in sorted(Path(d).glob("fixed-*.json")):
            rows += rows_of(path)
    if not rows:
        print(f"pairing: error: no fixed-*.json report with runs in {' '.join(dirs)}", file=sys.stderr)
        return 2
    by = defaultdict(list)
    for r in rows:
        by[r["condition"]].append(r)
    head = ["condition", "comparisons", "pairs", "rho", "ci(target)", "ci(all)", "rho(detrended)",
            "ci(target)", "var-ratio(median)", "sd-%(median)", "unchanged(paired)", "unchanged(indep)",
            "called(paired)", "called(indep)"]
    print("\t".join(head))
    for cond, rs in sorted(by.items()):
        p = pooled(rs, "r")
        q = pooled(rs, "r_detrended")
        fmt = lambda c: f"[{c[0]:+.2f}, {c[1]:+.2f}]"
        vr = statistics.median([r["var_ratio"] for r in rs if r["var_ratio"] is not None])
        print("\t".join([
            cond, str(len({r["file"] for r in rs})), str(sum(r["n"] for r in rs)),
            f"{p[0]:+.2f}", fmt(p[2]), fmt(p[1]), f"{q[0]:+.2f}", fmt(q[2]),
            f"{vr:.2f}", f"{statistics.median([r['sd_pct'] for r in rs]):.1f}",
            f"{sum(r['paired'][1] for r in rs)}/{len(rs)}", f"{sum(r['independent'][1] for r in rs)}/{len(rs)}",
            f"{sum(r['paired'][0] for r in rs)}/{len(rs)}", f"{sum(r['independent'][0] for r in rs)}/{len(rs)}",
        ]))
    print()
    print("per benchmark (r over its comparisons, Fisher-pooled):")
    print("condition\tbenchmark\tpairs\trho\tci\tvar-ratio(median)")
    for cond, rs in sorted(by.items()):
        per = defaultdict(list)
        for r in rs:
            per[r["benchmark"]].append(r)
        for name, bs in sorted(per.items()):
            p = pooled(bs, "r")
            if p is None:
                continue
            vr = statistics.median([r["var_ratio"] for r in bs if r["var_ratio"] is not None])
            print(f"{cond}\t{name}\t{sum(r['n'] for r in bs)}\t{p[0]:+.2f}\t"
                  f"[{p[1][0]:+.2f}, {p[1][1]:+.2f}]\t{vr:.2f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 else 2)
    sys.exit(main(sys.argv[1:]))
