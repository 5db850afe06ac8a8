#!/usr/bin/env python3
"""How often does the report warn of modes, on one-state noise and on sides with a real second state?

The measurement behind the unimodal reference of the shape warnings (docs/mixtures.md §4), in the design of
calibrate/dip-screen.py: seeded samples of 50, 100 and 200 process runs per side, 100 benchmarks x 2 sides
per (size, shape), go through `cargo-speedup compare --format json`, and each side's "N modes" warning is
read from the report. Shapes (one unit = 1 % of the level):
  - flat tops, one state: uniform over 5 % (dip-screen.py's), uniform over +-4 %, uniform over 6 % plus a
    normal of 0.5 % (soft edges);
  - skewed, one state: log-normal (sigma 3 %), gamma(2) (scale 1 %), exponential (scale 2 %);
  - normal (1 %);
  - a minority state: 10, 15, 20 or 30 % of the runs 4 to 6 standard deviations slower;
  - two equal states 3, 4 or 6 standard deviations apart; three equal states 5 apart.
Printed per (n, shape): the sides, the sides warned of modes, and their percentage.

    calibrate/mode-warnings.py target/release/cargo-speedup

Needs python3. Takes a minute or two. Writes only in a temporary directory.
"""

import json
import math
import random
import subprocess
import sys
import tempfile
from pathlib import Path

FLAT = ["uniform_5", "uniform_8", "flat_soft"]
SKEWED = ["lognormal", "gamma2", "exponential"]
SHAPES = FLAT + SKEWED + ["normal"] + [
    f"two_{p}_{d}" for p, d in [(0.1, 4), (0.1, 6), (0.15, 4), (0.15, 5), (0.15, 6), (0.2, 5), (0.3, 4),
                                (0.3, 6), (0.5, 3), (0.5, 4), (0.5, 6)]
] + ["three_5"]


def draw(rng, shape, n):
    """n run times (ns) of one side, around 1 ms."""
    values = []
    for _ in range(n):
        if shape == "uniform_5":
            v = 1 + 0.05 * rng.random()
        elif shape == "uniform_8":
            v = 1 + 0.08 * rng.random() - 0.04
        elif shape == "flat_soft":
            v = 1 + 0.06 * rng.random() + 0.005 * rng.gauss(0, 1)
        elif shape == "normal":
            v = 1 + 0.01 * rng.gauss(0, 1)
        elif shape == "lognormal":
            v = math.exp(0.03 * rng.gauss(0, 1))
        elif shape == "gamma2":
            v = 1 + 0.01 * rng.gammavariate(2, 1)
        elif shape == "exponential":
            v = 1 + 0.02 * rng.expovariate(1)
        elif shape.startswith("two_"):
            _, p, d = shape.split("_")
            slow = rng.random() < float(p)
            v = 1 + 0.01 * (rng.gauss(0, 1) + (float(d) if slow else 0))
        else:
            v = 1 + 0.01 * (rng.gauss(0, 1) + 5 * rng.randrange(3))
        values.append(1e6 * v)
    return values


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: calibrate/mode-warnings.py PATH-TO-cargo-speedup")
    binary = sys.argv[1]
    rng = random.Random(38)
    work = Path(tempfile.mkdtemp(prefix="mode-warnings-"))
    print("n\tshape\tsides\twarned\t%")
    for n in (50, 100, 200):
        for shape in SHAPES:
            for side in ("base", "head"):
                benchmarks = [{"name": f"b/{i}", "samples": draw(rng, shape, n)} for i in range(100)]
                (work / f"{side}.json").write_text(json.dumps({"unit": "ns", "benchmarks": benchmarks}))
            subprocess.run([binary, "compare", work / "base.json", work / "head.json", "--format", "json",
                            "-o", work / "report.json"], capture_output=True, check=False)
            report = json.loads((work / "report.json").read_text())
            warned = set()
            for b in report["benchmarks"]:
                for w in b["warnings"]:
                    if w["kind"] == "shape" and "misleading" in w["message"]:
                        warned.add((b["name"], "base" if w["message"].startswith("BASE") else "head"))
            print(f"{n}\t{shape}\t200\t{len(warned)}\t{len(warned) / 2:.1f}", flush=True)


if __name__ == "__main__":
    main()
