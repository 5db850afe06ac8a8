#!/usr/bin/env python3
"""A bursty neighbour, as on a shared CI host: streams through 64 MiB of memory for 0.7 s of every 1.2 s
(one core busy and the caches and memory bandwidth contended during the bursts, then idle), until killed.

    calibrate/neighbour.py [--mib 64] [--burst 0.7] [--period 1.2]

`calibrate/spread.sh` starts it for the comparisons of a condition whose options contain `@neighbour`.
"""

import argparse
import time


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mib", type=int, default=64)
    p.add_argument("--burst", type=float, default=0.7)
    p.add_argument("--period", type=float, default=1.2)
    a = p.parse_args()
    src = bytearray(b"\x5a" * (a.mib << 20))
    dst = bytearray(len(src))
    start = time.monotonic()
    while True:
        t0 = time.monotonic()
        while time.monotonic() - t0 < a.burst:
            dst[:] = src
            src, dst = dst, src
        rest = a.period - ((time.monotonic() - start) % a.period)
        time.sleep(rest)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
