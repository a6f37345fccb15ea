"""A fixed workload timed beside the figures, so runs on different machines can be compared.

    python -m tests.bench.calibrate          # prints one JSON object

Two parts, each the median of REPEATS runs in this fresh process:
  json_s    the walkthrough recording (708 kB, 243 lines) parsed PARSES times with the stdlib json,
            line by line: the kind of work the store and the watch threads do;
  python_s  a fixed pure-Python loop (integer arithmetic, a dict and a list), no library at all.
Dividing a figure by the ratio of two machines' calibration times makes them comparable (roughly:
the app's costs are interpreter costs, so the two parts should move together).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from tutor.demo import walkthrough

PARSES = 50
LOOP = 2_000_000
REPEATS = 5


def parse_recording(lines: list[str]) -> int:
    n = 0
    for _ in range(PARSES):
        for line in lines:
            n += len(json.loads(line))
    return n


def python_loop() -> int:
    seen: dict[int, int] = {}
    out: list[int] = []
    acc = 0
    for i in range(LOOP):
        acc = (acc * 31 + i) % 1_000_003
        if acc % 7 == 0:
            seen[acc] = seen.get(acc, 0) + 1
        if i % 1000 == 0:
            out.append(acc)
    return acc + len(seen) + len(out)


def timed(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def run() -> dict:
    lines = [line for line in walkthrough().read_text(encoding="utf-8").splitlines() if line.strip()]
    json_runs = [timed(parse_recording, lines) for _ in range(REPEATS)]
    loop_runs = [timed(python_loop) for _ in range(REPEATS)]
    return {"json_parses": PARSES, "json_lines": len(lines), "python_loop": LOOP, "repeats": REPEATS,
            "json_s": statistics.median(json_runs), "python_s": statistics.median(loop_runs),
            "json_runs_s": json_runs, "python_runs_s": loop_runs}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run()) + "\n")
