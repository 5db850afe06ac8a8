#!/usr/bin/env python3
"""Would a test of unimodality before the mixture search keep the shape step's warnings?

The measurement behind the decision in docs/mixtures.md §7 ("Rejected: a dip-test screen"). Seeded
samples of 50, 100 and 200 process runs per side, of 13 shapes (uniform noise over 5 %, normal, log-normal,
two states with 10, 30 or 50 % of the runs 3 to 8 standard deviations slower, three equal states 5 apart),
100 benchmarks x 2 sides each, go through `cargo-speedup compare --format json`; each side's "N modes"
warning is read from the report, and the p-value of Hartigan's dip test of that side's runs is computed by
R's diptest package (Debian: r-cran-diptest). Printed per (n, shape): the sides, the sides the report warns
of modes for, and how many of those a screen would keep (dip p < 0.05 and p < 0.2).

    calibrate/dip-screen.py target/release/cargo-speedup

Needs python3, Rscript with diptest. Takes about 10 s. Writes only in a temporary directory.
"""

import json
import math
import random
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

SHAPES = ["uniform", "normal", "lognormal"] + [
    f"two_{p}_{d}" for p, d in [(0.1, 6), (0.1, 8), (0.3, 3), (0.3, 4), (0.3, 6), (0.3, 8),
                                (0.5, 3), (0.5, 4), (0.5, 6)]
] + ["three_5"]

R_SCRIPT = """
library(diptest)
d <- read.delim(commandArgs(TRUE)[1], header = FALSE, stringsAsFactors = FALSE)
p <- sapply(d$V5, function(s) dip.test(as.numeric(strsplit(s, " ")[[1]]))$p.value)
write(sprintf("%.17g", p), commandArgs(TRUE)[2], ncolumns = 1)
"""


def draw(rng, shape, n):
    """n run times (ns) of one side."""
    values = []
    for _ in range(n):
        if shape == "uniform":
            v = 1 + 0.05 * rng.random()
        elif shape == "normal":
            v = 1 + 0.01 * rng.gauss(0, 1)
        elif shape == "lognormal":
            v = math.exp(0.03 * rng.gauss(0, 1))
        elif shape.startswith("two_"):
            _, p, d = shape.split("_")
            slow = rng.random() < float(p)
            v = 1 + 0.01 * (rng.gauss(0, 1) + (float(d) if slow else 0))
        else:
            v = 1 + 0.01 * (rng.gauss(0, 1) + 5 * rng.randrange(3))
        values.append(1000 * v)
    return values


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: calibrate/dip-screen.py PATH-TO-cargo-speedup")
    binary = sys.argv[1]
    rng = random.Random(11)
    work = Path(tempfile.mkdtemp(prefix="dip-screen-"))
    rows = []
    for n in (50, 100, 200):
        for shape in SHAPES:
            sides = {}
            for side in ("base", "head"):
                sides[side] = [{"name": f"b/{i}", "samples": draw(rng, shape, n)} for i in range(100)]
                (work / f"{side}.json").write_text(json.dumps({"unit": "ns", "benchmarks": sides[side]}))
            subprocess.run([binary, "compare", work / "base.json", work / "head.json", "--format", "json",
                            "-o", work / "report.json"], capture_output=True, check=False)
            report = json.loads((work / "report.json").read_text())
            warned = set()
            for b in report["benchmarks"]:
                for w in b["warnings"]:
                    if w["kind"] == "shape" and "misleading" in w["message"]:
                        warned.add((b["name"], "base" if w["message"].startswith("BASE") else "head"))
            for side, benchmarks in sides.items():
                for b in benchmarks:
                    rows.append((n, shape, (b["name"], side) in warned,
                                 " ".join(repr(x) for x in b["samples"])))
    table = work / "sides.tsv"
    table.write_text("".join(f"{n}\t{shape}\t{int(w)}\t-\t{values}\n" for n, shape, w, values in rows))
    (work / "dip.R").write_text(R_SCRIPT)
    subprocess.run(["Rscript", work / "dip.R", table, work / "p.txt"], check=True)
    p_values = [float(line) for line in (work / "p.txt").read_text().split()]
    counts = defaultdict(lambda: [0, 0, 0, 0])
    for (n, shape, warned, _), p in zip(rows, p_values):
        c = counts[(n, shape)]
        c[0] += 1
        c[1] += warned
        c[2] += warned and p < 0.05
        c[3] += warned and p < 0.2
    print("n\tshape\tsides\twarned\tkept at dip p < 0.05\tkept at p < 0.2")
    for (n, shape), c in sorted(counts.items()):
        print(f"{n}\t{shape}\t" + "\t".join(map(str, c)))


if __name__ == "__main__":
    main()
