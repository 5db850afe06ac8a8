#!/usr/bin/env python3
"""Exact instructions per iteration of a criterion or divan benchmark, from its unchanged bench executable.

The measurement behind docs/instruction-counts.md: each benchmark runs alone under Valgrind's callgrind,
which writes one cost dump at each boundary the harness already has, and the cost of one iteration is the
difference between dumps of different iteration counts, so that the harness's own work between the
boundaries cancels:

- criterion (0.4 to 0.8): `BENCH --bench --profile-time 1 '^NAME$'`, a dump after every return from
  `Bencher::iter*` (`--dump-after`). Profile mode calls the routine 1, 2, 4, ... times per call and runs no
  analysis; the cost of call j is a + b * 2^(j-1), so b is the difference of consecutive calls over
  2^(j-1). It is exact when every difference gives the same b.
- divan (0.1): `BENCH --bench --exact NAME --sample-count 4 --sample-size N` at two sizes, a dump before
  every entry to divan's `sync_impl` (the barrier before and after each sample's loop, `--dump-before`);
  the sample loop's segment costs a + b * N; b = the difference of the two sizes' segments over the
  difference of N. It is exact when every sample of one process costs the same.

Prints per benchmark: instructions per iteration, the harness's constant part, and whether the count is
exact (every estimate of b equal) or not (the estimates: timing- or seed-dependent code, or the harness
doing work inside the loop that varies).

    calibrate/instructions.py --harness criterion BENCH_EXE NAME [NAME ...]
    calibrate/instructions.py --harness divan BENCH_EXE NAME [NAME ...]

Needs python3 and valgrind (Debian: apt-get install valgrind). Writes only in a temporary directory.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path


def parts(directory):
    """The dumps' totals in the order they were written (the last, at exit, has no part number)."""
    found = []
    for path in Path(directory).iterdir():
        m = re.match(r"out\.(\d+)(?:\.(\d+))?$", path.name)
        if not m:
            continue
        text = path.read_text(errors="replace")
        cmd = re.search(r"^cmd:\s*(.*)$", text, re.M)
        total = re.search(r"^totals:\s*(\d+)", text, re.M)
        if total:
            part = int(m.group(2)) if m.group(2) else 10**9
            found.append((int(m.group(1)), part, int(total.group(1)), cmd.group(1) if cmd else ""))
    # The benchmark's own process is the one with most dumps (criterion also forks `gnuplot --version`).
    pids = Counter(p for p, *_ in found)
    if not pids:
        return []
    pid = pids.most_common(1)[0][0]
    return [t for p, part, t, _ in sorted(found) if p == pid]


def callgrind(exe, args, dump, env, work):
    out = Path(tempfile.mkdtemp(dir=work))
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/out.%p", dump, exe, *args]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit(f"instructions: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr[-2000:]}")
    return parts(out)


def criterion(exe, name, env, work):
    totals = callgrind(exe, ["--bench", "--profile-time", "1", f"^{re.escape(name)}$"],
                       "--dump-after=criterion::bencher::Bencher<M>::iter*", env, work)
    # The profile loop's calls: the longest run of dumps whose differences double.
    diffs = [b - a for a, b in zip(totals, totals[1:])]
    best = []
    for start in range(len(diffs)):
        run = [diffs[start]]
        for d in diffs[start + 1:]:
            if run[-1] > 0 and abs(d - 2 * run[-1]) <= max(64, run[-1] // 100):
                run.append(d)
            else:
                break
        if len(run) > len(best):
            best, first = run, start
    if len(best) < 3:
        return None
    # totals[k] is call k + 1's dump, and call j costs a + b * 2^(j-1), so diffs[i] = b * 2^i: the
    # power is the difference's own index, `first + j`, whichever difference the doubling run starts at.
    # (The first dump also holds the program's start, so the run usually starts at diffs[1].)
    per = [d / 2 ** (first + j) for j, d in enumerate(best)]
    # The first call can differ by a few instructions (lazy initialisation on the first clock read).
    steady = per[1:]
    b = steady[-1]
    constant = totals[first + 1] - 2 ** (first + 1) * b
    return b, constant, all(p == b for p in steady), per


def divan(exe, name, env, work, sizes=(100, 200)):
    segment = {}
    exact = True
    for n in sizes:
        totals = callgrind(exe, ["--bench", "--exact", name, "--sample-count", "4", "--sample-size", str(n)],
                           "--dump-before=*sync_impl", env, work)
        # The sample loop's segment: the largest value that repeats once per sample.
        counts = Counter(totals)
        repeated = [t for t, c in counts.items() if c >= 3]
        if not repeated:
            return None
        segment[n] = max(repeated)
        exact &= counts[segment[n]] >= 4
    (n1, n2) = sizes
    b = (segment[n2] - segment[n1]) / (n2 - n1)
    return b, segment[n1] - b * n1, exact, [segment[n1], segment[n2]]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--harness", choices=["criterion", "divan"], required=True)
    p.add_argument("exe")
    p.add_argument("names", nargs="+")
    a = p.parse_args()
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as work:
        env["CRITERION_HOME"] = str(Path(work) / "criterion")
        print("benchmark\tinstructions/iteration\tconstant\texact\tevidence")
        for name in a.names:
            r = (criterion if a.harness == "criterion" else divan)(a.exe, name, env, work)
            if r is None:
                print(f"{name}\t-\t-\tno\tno iteration boundaries found")
                continue
            b, c, exact, evidence = r
            shown = " ".join(f"{e:g}" for e in evidence)
            print(f"{name}\t{b:g}\t{c:g}\t{'yes' if exact else 'no'}\t{shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
